// SPDX-License-Identifier: GPL-2.0-only
/* cmd_check.c - elfsig-enroll check: would the loader accept the enrolment now? */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

int cmd_check(struct opts *o, int argc, char **argv)
{
	struct elfsig_tpm_opts topts = {
		.tcti = o->e.tcti, .srk_handle = o->e.srk_handle,
	};
	struct elfsig_tpm_sealed *sealed = NULL;
	struct kl_pcr_policy *pps = NULL;
	struct elfsig_tpm *tpm = NULL;
	struct kl_authority a = { 0 };
	struct kl_policy pol = { 0 };
	size_t n = 0, bad, used;
	int ret = EXIT_FAIL, err;

	if (argc)
		return usage_err("check: no arguments expected");
	/* The same checks as the loader, in the same order. */
	if (load_verified(o, NULL, &pol, &a))
		return EXIT_FAIL;
	if (elfsig_tpm_sealed_read_file(o->e.sealed_path, &sealed) ||
	    kl_sealed_check(sealed, o->e.sealed_path, &topts))
		goto out;
	if (kl_pcr_policies_load(o->e.pcrpol_dir, &pol, &a, &pps, &n, &bad))
		goto out;
	if (!n) {
		fprintf(stderr, "%s: %s: no usable signed PCR policy\n", PROG,
			o->e.pcrpol_dir);
		goto out;
	}
	if (elfsig_tpm_open(&topts, &tpm))
		goto out;
	err = kl_unseal_check(tpm, sealed, &a, pps, n, &used);
	if (!err) {
		printf("%s: signed by the authority, %zu key%s; %s unseals under %s\n",
		       o->e.policy_path, pol.nkeys, pol.nkeys == 1 ? "" : "s",
		       o->e.sealed_path, pps[used].name);
		ret = bad ? EXIT_FAIL : EXIT_OK;
	}
out:
	elfsig_tpm_close(tpm);
	kl_pcr_policies_free(pps, n);
	elfsig_tpm_sealed_free(sealed);
	kl_policy_free(&pol);
	kl_authority_free(&a);
	return ret;
}
