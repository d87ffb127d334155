// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_resign.c - elfsig-enroll resign: the policy and every PCR policy of
 * the directory signed again under a new generation. Shipped, they revoke
 * every older file on each machine's first boot with them (the loader
 * raises the machine's epoch).
 */
#include <stdio.h>

#include "cmd.h"

int cmd_resign(struct opts *o, int argc, char **argv)
{
	struct kl_authority a;
	struct kl_policy pol;
	struct kl_signer s;
	int ret;

	if (argc)
		return usage_err("resign: no arguments expected");
	ret = signer_load(o, "resign", &s);
	if (ret)
		return ret;
	ret = load_verified(o, &s, &pol, &a);
	if (ret)
		goto out_signer;
	ret = EXIT_FAIL;
	if (!o->generation_set) {
		o->generation = pol.generation + 1;
	} else if (o->generation < pol.generation && !o->force) {
		fprintf(stderr, "%s: --generation %u is below the policy's %u: machines that loaded it refuse it (--force to sign it anyway)\n",
			PROG, o->generation, pol.generation);
		goto out;
	}
	if (o->generation > KL_GENERATION_MAX) {
		fprintf(stderr, "%s: generation %u: the last one is %u\n", PROG,
			o->generation, KL_GENERATION_MAX);
		goto out;
	}
	pol.generation = o->generation;
	ret = kl_enroll_write_generation(&o->e, &pol, &s, false, o->force,
					 NULL) ? EXIT_FAIL : EXIT_OK;
out:
	kl_policy_free(&pol);
	kl_authority_free(&a);
out_signer:
	signer_free(&s);
	return ret;
}
