// SPDX-License-Identifier: GPL-2.0-only
/* cmd_predict.c - elfsig-enroll predict: PCR values from the TCG event log. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

int cmd_predict(struct opts *o, int argc, char **argv)
{
	struct elfsig_tpm_pcr_values vals;
	struct elfsig_tpm_pcrsel sel;
	char hex[2 * ELFSIG_TPM_MAX_DIGEST + 1];
	struct kl_authority a;
	struct kl_policy pol;
	unsigned int i;

	if (argc)
		return usage_err("predict: no arguments expected");
	if (!o->e.event_log)
		return usage_err("predict: --event-log FILE is required");
	/* The PCRs: --pcrs, else those of the (verified) policy. */
	if (o->pcrs_set) {
		if (elfsig_tpm_pcrsel_parse(o->pcrs, &sel))
			return EXIT_USAGE;
	} else {
		if (need_policy(o, "predict", "--pcrs SEL"))
			return EXIT_FAIL;
		if (load_verified(o, NULL, &pol, &a))
			return EXIT_FAIL;
		sel = pol.sel;
		kl_policy_free(&pol);
		kl_authority_free(&a);
	}
	if (kl_enroll_pcr_values(&o->e, &sel, &vals))
		return EXIT_FAIL;
	for (i = 0; i < ELFSIG_TPM_MAX_PCRS; i++) {
		if (!(sel.mask & (1u << i)))
			continue;
		common_hex(vals.value[i], vals.digest_size, hex);
		printf("%s:%u=%s\n", elfsig_tpm_bank_name(sel.bank), i, hex);
	}
	return EXIT_OK;
}
