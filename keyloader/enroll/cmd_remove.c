// SPDX-License-Identifier: GPL-2.0-only
/* cmd_remove.c - elfsig-enroll remove: remove enrolled certificates, sign again. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

int cmd_remove(struct opts *o, int argc, char **argv)
{
	if (argc < 1)
		return usage_err("remove: no key given");
	return edit_policy(o, "remove", argc, argv, remove_keys);
}
