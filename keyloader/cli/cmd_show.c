// SPDX-License-Identifier: GPL-2.0-only
/* cmd_show.c - elfsig-enroll show: list the enrolled keys. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

/* --json: one object; every text from the file (a subject) through
 * common_json_string(), so any bytes make valid JSON. */
static void show_json(const struct opts *o, const struct kl_policy *pol)
{
	char sel[128] = "?", hex[2 * ELFSIG_TPM_MAX_NAME + 1];
	size_t i;

	elfsig_tpm_pcrsel_format(&pol->sel, sel, sizeof(sel));
	fputs("{\"policy\":", stdout);
	common_json_string(stdout, o->e.policy_path);
	printf(",\"version\":%u,\"pcrs\":\"%s\",\"measure_pcr\":%u",
	       pol->version, sel, pol->measure_pcr);
	if (pol->version >= 2) {
		common_hex(pol->authority, KL_FP_LEN, hex);
		printf(",\"authority\":\"sha256:%s\",\"signature_checked\":false", hex);
	}
	if (pol->version >= 3)
		printf(",\"generation\":%u", pol->generation);
	if (pol->srk_name_len) {
		common_hex(pol->srk_name, pol->srk_name_len, hex);
		printf(",\"srk\":\"%s\"", hex);
	}
	if (pol->pcrsig) {
		common_hex(pol->pcrsig_key, KL_FP_LEN, hex);
		elfsig_tpm_pcrsel_format(&pol->pcrsig_sel, sel, sizeof(sel));
		printf(",\"pcrsig\":{\"key\":\"sha256:%s\",\"pcrs\":\"%s\"}",
		       hex, sel);
	}
	fputs(",\"keys\":[", stdout);
	for (i = 0; i < pol->nkeys; i++) {
		common_hex(pol->keys[i].fp, KL_FP_LEN, hex);
		printf("%s{\"fingerprint\":\"sha256:%s\",\"subject\":",
		       i ? "," : "", hex);
		common_json_string(stdout, pol->keys[i].subject ?
					   pol->keys[i].subject : "");
		fputc('}', stdout);
	}
	fputs("]}\n", stdout);
}

int cmd_show(struct opts *o, int argc, char **argv)
{
	char sel[128] = "?", hex[2 * KL_FP_LEN + 1];
	struct kl_policy pol;
	size_t i;

	if (argc)
		return usage_err("show: no arguments expected");
	if (kl_policy_load(o->e.policy_path, &pol))
		return EXIT_FAIL;
	if (o->json) {
		show_json(o, &pol);
		kl_policy_free(&pol);
		return EXIT_OK;
	}
	elfsig_tpm_pcrsel_format(&pol.sel, sel, sizeof(sel));
	common_hex(pol.authority, KL_FP_LEN, hex);
	printf("policy version %u, PCRs %s, measured into PCR %u, %zu key%s\n",
	       pol.version, sel, pol.measure_pcr, pol.nkeys,
	       pol.nkeys == 1 ? "" : "s");
	if (pol.version >= 2)
		printf("authority sha256:%s (signature not checked: use check)\n",
		       hex);
	if (pol.version >= 3)
		printf("generation %u (the machine's epoch: elfsig-enroll epoch)\n",
		       pol.generation);
	if (pol.pcrsig) {
		common_hex(pol.pcrsig_key, KL_FP_LEN, hex);
		elfsig_tpm_pcrsel_format(&pol.pcrsig_sel, sel, sizeof(sel));
		printf("accepts systemd .pcrsig PCR policies of the key sha256:%s for %s (outside rollback protection)\n",
		       hex, sel);
	}
	for (i = 0; i < pol.nkeys; i++) {
		common_hex(pol.keys[i].fp, KL_FP_LEN, hex);
		printf("sha256:%s %s\n", hex,
		       pol.keys[i].subject ? pol.keys[i].subject : "");
	}
	kl_policy_free(&pol);
	return EXIT_OK;
}
