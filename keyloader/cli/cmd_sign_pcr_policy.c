// SPDX-License-Identifier: GPL-2.0-only
/* cmd_sign_pcr_policy.c - elfsig-enroll sign-pcr-policy: approve a PCR state. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"

int cmd_sign_pcr_policy(struct opts *o, int argc, char **argv)
{
	struct kl_authority a = { 0 };
	struct kl_policy pol = { 0 };
	struct kl_signer s;
	struct kl_out out = { 0 };
	char *text = NULL, *path = NULL;
	size_t len;
	int ret;

	if (argc)
		return usage_err("sign-pcr-policy: no arguments expected");
	if (o->measure_set)
		return usage_err("sign-pcr-policy: --measure-pcr is the policy's");
	if (o->srk_name_len && (!o->pcrs_set || !o->generation_set))
		return usage_err("sign-pcr-policy --srk-name: --pcrs and --generation are needed too (the machine's policy is not read)");
	if (!o->srk_name_len && o->pcrs_set)
		return usage_err("sign-pcr-policy: the PCRs are the policy's (change them with add or remove --pcrs; without the policy: --srk-name)");
	if (!o->srk_name_len &&
	    need_policy(o, "sign-pcr-policy", "--srk-name NAME --pcrs SEL --generation N"))
		return EXIT_FAIL;
	ret = signer_load(o, "sign-pcr-policy", &s);
	if (ret)
		return ret;
	if (o->srk_name_len) {
		/* The machine as the operator names it: its policy, which
		 * the loader checks the PCR policy against, is not here. */
		ret = elfsig_tpm_pcrsel_parse(o->pcrs, &pol.sel) ? EXIT_USAGE : 0;
		memcpy(pol.srk_name, o->srk_name, o->srk_name_len);
		pol.srk_name_len = o->srk_name_len;
	} else {
		/* The selection and the machine come from the signed policy,
		 * as the loader's will. */
		ret = load_verified(o, &s, &pol, &a);
	}
	if (ret)
		goto out;
	ret = EXIT_FAIL;
	/* The policy's generation, or another (a file shipped ahead). */
	if (o->generation_set)
		pol.generation = o->generation;
	if (!o->e.out && mkdir(o->e.pcrpol_dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "%s: %s: %s\n", PROG, o->e.pcrpol_dir,
			strerror(errno));
		goto out;
	}
	if (kl_enroll_pcr_policy(&o->e, &pol, &s, &text, &len, &path))
		goto out;
	out = (struct kl_out){ .path = path, .data = text, .len = len,
			       .mode = 0644 };
	if (!kl_write_all(&out, 1)) {
		printf("%s: PCR policy for %s values, signed\n", path,
		       kl_enroll_values_source(&o->e));
		ret = EXIT_OK;
	}
out:
	free(text);
	free(path);
	kl_policy_free(&pol);
	kl_authority_free(&a);
	signer_free(&s);
	return ret;
}
