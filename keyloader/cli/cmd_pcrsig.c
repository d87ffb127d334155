// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_pcrsig.c - elfsig-enroll pcrsig: opt in to (or out of) systemd's
 * signed PCR policies (.pcrsig, systemd-measure sign) for one systemd key.
 *
 *   pcrsig enable -K KEY --public-key PEM [--pcrs sha256:11]
 *       the authority signs the policy with pcrsig-key/pcrsig-pcrs; this
 *       TPM gets pcrsig.sealed, bound to that key with an empty policyRef
 *   pcrsig seal [--public-key PEM]
 *       pcrsig.sealed again on this TPM (a machine sharing the policy)
 *   pcrsig disable -K KEY
 *       the policy signed again without the opt-in
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "kl_pcrsig.h"

#define PCRSIG_DEFAULT_PCRS	"sha256:11"	/* systemd-stub's UKI PCR */

/* The systemd key from --public-key, or the one enrolled before. */
static int load_key(const struct opts *o, struct kl_authority *k)
{
	return kl_authority_load(o->public_key ? o->public_key :
				 o->pcrsig_key_path, k) ? EXIT_FAIL : 0;
}

/*
 * pcrsig.sealed and pcrsig-key.pem into @outs[0..1]. The object opens
 * under systemd's approval of its PCRs AND the enrolment's own other
 * PCRs (firmware, boot loader, Secure Boot) at their current values (or
 * --pcr-values, --event-log): the opt-in replaces only what systemd signs.
 */
static int prepare_object(const struct opts *o, const struct kl_policy *pol,
			  const struct kl_authority *k,
			  const struct kl_authority *a, struct kl_out *outs)
{
	struct elfsig_tpm_pcr_values vals;
	struct elfsig_tpm_pcrsel own;
	uint8_t *buf = NULL;
	char *pem = NULL;
	size_t len, plen;

	kl_pcrsig_own_pcrs(pol, &own);
	if (own.mask && kl_enroll_pcr_values(&o->e, &own, &vals))
		return EXIT_FAIL;
	if (kl_enroll_seal_to(&o->e, k, "", own.mask ? &vals : NULL, a, &buf,
			      &len))
		return EXIT_FAIL;
	if (kl_authority_pem(k, &pem, &plen)) {
		free(buf);
		return EXIT_FAIL;
	}
	outs[0] = (struct kl_out){ .path = o->pcrsig_key_path, .data = pem,
				   .len = plen, .mode = 0644 };
	outs[1] = (struct kl_out){ .path = o->pcrsig_sealed, .data = buf,
				   .len = len, .mode = 0644 };
	return 0;
}

static int enable(struct opts *o, struct kl_policy *pol,
		  const struct kl_authority *a, const struct kl_signer *s)
{
	struct kl_out outs[4] = { 0 };
	struct kl_authority k;
	char *text = NULL;
	uint8_t *sig = NULL;
	size_t len, sig_len, i;
	int ret;

	if (!o->public_key)
		return usage_err("pcrsig enable: --public-key PEM (the key systemd-measure signs with) is required");
	if (elfsig_tpm_pcrsel_parse(o->pcrs_set ? o->pcrs : PCRSIG_DEFAULT_PCRS,
				    &pol->pcrsig_sel))
		return EXIT_USAGE;
	if (pol->pcrsig_sel.bank != 0x000b /* TPM2_ALG_SHA256 */ ||
	    (pol->pcrsig_sel.mask & ~KL_STATIC_PCRS) ||
	    (pol->pcrsig_sel.mask & (1u << pol->measure_pcr)))
		return usage_err("pcrsig enable: --pcrs: sha256 PCRs 0..15, not the measurement PCR");
	ret = load_key(o, &k);
	if (ret)
		return ret;
	if (!memcmp(k.fp, a->fp, KL_FP_LEN)) {
		fprintf(stderr, "%s: %s is the enrolment authority's key: its elfsig approvals already open the enrolment; opt in to a separate systemd key\n",
			PROG, o->public_key);
		kl_authority_free(&k);
		return EXIT_FAIL;
	}
	pol->pcrsig = true;
	memcpy(pol->pcrsig_key, k.fp, KL_FP_LEN);
	ret = prepare_object(o, pol, &k, a, outs);
	if (!ret && kl_enroll_sign_policy(pol, s, &text, &len, &sig, &sig_len))
		ret = EXIT_FAIL;
	if (!ret) {
		/* The signature before the policy (fails closed between). */
		outs[2] = (struct kl_out){ .path = o->e.sig_path, .data = sig,
					   .len = sig_len, .mode = 0644 };
		outs[3] = (struct kl_out){ .path = o->e.policy_path,
					   .data = text, .len = len,
					   .mode = 0644 };
		sig = NULL;
		text = NULL;
		ret = kl_write_all(outs, 4) ? EXIT_FAIL : EXIT_OK;
	}
	if (!ret)
		printf("%s: signed, accepts systemd .pcrsig PCR policies of the key sha256 %s for %s; %s sealed with this TPM\n",
		       o->e.policy_path, o->public_key,
		       o->pcrs_set ? o->pcrs : PCRSIG_DEFAULT_PCRS,
		       o->pcrsig_sealed);
	for (i = 0; i < ARRAY_SIZE(outs); i++)
		free((void *)outs[i].data);
	free(text);
	free(sig);
	kl_authority_free(&k);
	return ret;
}

static int seal(struct opts *o, const struct kl_policy *pol,
		const struct kl_authority *a)
{
	struct kl_out outs[2] = { 0 };
	struct kl_authority k;
	int ret;

	if (!pol->pcrsig) {
		fprintf(stderr, "%s: %s does not accept systemd .pcrsig files (the authority runs pcrsig enable)\n",
			PROG, o->e.policy_path);
		return EXIT_FAIL;
	}
	ret = load_key(o, &k);
	if (ret)
		return ret;
	if (memcmp(k.fp, pol->pcrsig_key, KL_FP_LEN)) {
		fprintf(stderr, "%s: %s: not the systemd key the signed policy accepts (pcrsig-key)\n",
			PROG, o->public_key ? o->public_key : o->pcrsig_key_path);
		ret = EXIT_FAIL;
	}
	if (!ret)
		ret = prepare_object(o, pol, &k, a, outs);
	if (!ret) {
		ret = kl_write_all(outs, 2) ? EXIT_FAIL : EXIT_OK;
		free((void *)outs[0].data);
		free((void *)outs[1].data);
	}
	if (!ret)
		printf("%s: sealed with this TPM, bound to the systemd key's PCR policies\n",
		       o->pcrsig_sealed);
	kl_authority_free(&k);
	return ret;
}

int cmd_pcrsig(struct opts *o, int argc, char **argv)
{
	struct kl_authority a = { 0 };
	struct kl_policy pol = { 0 };
	struct kl_signer s;
	bool sign;
	int ret;

	if (argc != 1 || (strcmp(argv[0], "enable") && strcmp(argv[0], "disable") &&
			  strcmp(argv[0], "seal")))
		return usage_err("pcrsig: expected enable, disable or seal");
	sign = strcmp(argv[0], "seal");
	if (!sign && o->pcrs_set)
		return usage_err("pcrsig seal: --pcrs is the signed policy's");
	ret = sign ? signer_load(o, "pcrsig", &s) : 0;
	if (ret)
		return ret;
	/* Never from a policy the authority did not sign as it is. */
	ret = load_verified(o, sign ? &s : NULL, &pol, &a);
	if (!ret && !strcmp(argv[0], "enable")) {
		ret = enable(o, &pol, &a, &s);
	} else if (!ret && !strcmp(argv[0], "disable")) {
		pol.pcrsig = false;
		ret = kl_enroll_write_policy(&o->e, &pol, &s, false) ?
		      EXIT_FAIL : EXIT_OK;
		if (!ret)
			printf("%s: no longer accepts systemd .pcrsig files; to revoke them on machines that may get this policy's older version back, elfsig-enroll resign\n",
			       o->e.policy_path);
	} else if (!ret) {
		ret = seal(o, &pol, &a);
	}
	if (sign)
		signer_free(&s);
	kl_policy_free(&pol);
	kl_authority_free(&a);
	return ret;
}
