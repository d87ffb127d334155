// SPDX-License-Identifier: GPL-2.0-only
/* cmd_remove.c - elfsig-enroll remove: remove enrolled certificates and reseal. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

int cmd_remove(struct opts *o, int argc, char **argv)
{
	struct kl_policy pol;
	int ret = EXIT_FAIL;

	if (argc < 1)
		return usage_err("remove: no key given");
	if (kl_policy_load(o->e.policy_path, &pol))
		return EXIT_FAIL;
	if (!remove_keys(&pol, argc, argv))
		ret = commit(&pol, o);
	kl_policy_free(&pol);
	return ret;
}
