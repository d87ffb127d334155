// SPDX-License-Identifier: GPL-2.0-only
/* cmd_create.c - elfsig-enroll create: a new enrolment, signed and sealed. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"

int cmd_create(struct opts *o, int argc, char **argv)
{
	struct kl_policy pol = { .version = KL_POLICY_VERSION };
	struct kl_signer s;
	struct stat st;
	int ret;

	if (argc < 1)
		return usage_err("create: no certificate given");
	if (!o->force && !stat(o->e.policy_path, &st)) {
		fprintf(stderr, "%s: %s exists (use add/remove, or --force)\n",
			PROG, o->e.policy_path);
		return EXIT_FAIL;
	}
	if (elfsig_tpm_pcrsel_parse(o->pcrs, &pol.sel))
		return EXIT_USAGE;
	pol.measure_pcr = o->measure_pcr;
	pol.generation = o->generation;
	if (kl_policy_check_pcrs(&pol.sel, pol.measure_pcr))
		return EXIT_USAGE;
	/* Before anything is signed or sealed: the kernel would refuse it. */
	if (check_platform_ca(o, argc, argv))
		return EXIT_FAIL;
	ret = signer_load(o, "create", &s);
	if (ret)
		return ret;
	ret = EXIT_FAIL;
	if (!add_certs(&pol, argc, argv))
		ret = write_enrolment(&pol, o, &s);
	signer_free(&s);
	kl_policy_free(&pol);
	return ret;
}
