// SPDX-License-Identifier: GPL-2.0-only
/* cmd_add.c - elfsig-enroll add: enrol more certificates, sign again. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

int cmd_add(struct opts *o, int argc, char **argv)
{
	if (argc < 1)
		return usage_err("add: no certificate given");
	if (check_platform_ca(o, argc, argv))
		return EXIT_FAIL;
	return edit_policy(o, "add", argc, argv, add_certs);
}
