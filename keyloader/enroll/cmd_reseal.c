// SPDX-License-Identifier: GPL-2.0-only
/* cmd_reseal.c - elfsig-enroll reseal: seal the unchanged policy to a new PCR state. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

int cmd_reseal(struct opts *o, int argc, char **argv)
{
	struct kl_policy pol;
	int ret;

	if (argc)
		return usage_err("reseal: no arguments expected");
	if (kl_policy_load(o->e.policy_path, &pol))
		return EXIT_FAIL;
	ret = commit(&pol, o);
	kl_policy_free(&pol);
	return ret;
}
