// SPDX-License-Identifier: GPL-2.0-only
/* cmd_check.c - elfsig-enroll check: would the loader accept the policy now? */
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
	struct elfsig_tpm *tpm = NULL;
	uint8_t digest[KL_FP_LEN], *buf = NULL;
	struct kl_policy pol = { 0 };
	int ret = EXIT_FAIL, err;
	size_t len;

	if (argc)
		return usage_err("check: no arguments expected");
	/* Read once, hash and parse the same bytes, as the loader does. */
	if (kl_read_file(AT_FDCWD, o->e.policy_path, KL_POLICY_MAX_SIZE, &buf,
			 &len))
		return EXIT_FAIL;
	kl_sha256(buf, len, digest);
	if (kl_policy_parse(buf, len, o->e.policy_path, &pol))
		goto out;
	if (elfsig_tpm_sealed_read_file(o->e.sealed_path, &sealed) ||
	    kl_sealed_pin(sealed, o->e.sealed_path, &topts))
		goto out;
	if (elfsig_tpm_open(&topts, &tpm))
		goto out;
	err = kl_policy_verify(tpm, sealed, &pol, digest);
	if (err == -EACCES)
		fprintf(stderr, "%s: the TPM refuses to unseal in the current PCR state\n",
			PROG);
	if (!err) {
		printf("%s: matches %s and unseals in the current PCR state (%zu key%s)\n",
		       o->e.policy_path, o->e.sealed_path, pol.nkeys,
		       pol.nkeys == 1 ? "" : "s");
		ret = EXIT_OK;
	}
out:
	elfsig_tpm_close(tpm);
	elfsig_tpm_sealed_free(sealed);
	kl_policy_free(&pol);
	free(buf);
	return ret;
}
