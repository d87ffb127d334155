// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcrpolicy.c - signed PCR policies: a PCR state the enrolment authority
 * approved, as a text file a person can review (docs/keyloader.md,
 * "Signed PCR policy format").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "kl_enroll.h"

#define HEADER_WORD	"elfsig-pcr-policy"
/* The (generation-)signature line of an RSA-4096 key is the longest. */
#define PCRPOL_MAX_LINE	(32 + 2 * KL_PCRPOL_MAX_SIG)

void kl_pcr_policy_clear(struct kl_pcr_policy *pp)
{
	free(pp->name);
	memset(pp, 0, sizeof(*pp));
}

void kl_pcr_policies_free(struct kl_pcr_policy *pps, size_t n)
{
	size_t i;

	for (i = 0; pps && i < n; i++)
		kl_pcr_policy_clear(&pps[i]);
	free(pps);
}

static int parse_fp(const char *s, uint8_t fp[KL_FP_LEN])
{
	if (strncmp(s, "sha256:", 7))
		return -EBADMSG;
	return common_unhex(s + 7, strlen(s + 7), fp, KL_FP_LEN);
}

/* "sha256:N=HEX" for a PCR of the selection, not seen before. */
static int parse_pcr(const char *v, struct elfsig_tpm_pcr_values *vals,
		     uint32_t *seen)
{
	const char *bank = elfsig_tpm_bank_name(vals->sel.bank);
	size_t blen = bank ? strlen(bank) : 0;
	unsigned int idx = 0;
	const char *p;

	if (!bank || strncmp(v, bank, blen) || v[blen] != ':')
		return -EBADMSG;
	p = v + blen + 1;
	if (*p < '0' || *p > '9')
		return -EBADMSG;
	while (*p >= '0' && *p <= '9' && idx < 100)
		idx = idx * 10 + (unsigned int)(*p++ - '0');
	if (*p != '=' || idx >= ELFSIG_TPM_MAX_PCRS ||
	    !(vals->sel.mask & (1u << idx)) || (*seen & (1u << idx)))
		return -EBADMSG;
	if (common_unhex(p + 1, strlen(p + 1), vals->value[idx],
			 vals->digest_size))
		return -EBADMSG;
	*seen |= 1u << idx;
	return 0;
}

#define bad(...) do { kl_err(__VA_ARGS__); err = -EBADMSG; goto fail; } while (0)

int kl_pcr_policy_parse(const uint8_t *buf, size_t len, const char *name,
			struct kl_pcr_policy *pp)
{
	enum { HEADER, AUTHORITY, GENERATION, SRK, PCRS, VALUES, SIGNATURE,
	       GENSIG, DONE } want = HEADER;
	char line[PCRPOL_MAX_LINE + 1], *word, *value;
	uint8_t digest[ELFSIG_TPM_POLICY_SIZE];
	size_t pos = 0, lineno = 0;
	uint32_t seen = 0;
	int err;

	memset(pp, 0, sizeof(*pp));
	if (!(pp->name = strdup(name)))
		return -ENOMEM;
	if (len > KL_PCRPOL_MAX_SIZE)
		bad("%s: larger than %d bytes", name, KL_PCRPOL_MAX_SIZE);
	while ((err = kl_text_directive(buf, len, &pos, &lineno, name, line,
					PCRPOL_MAX_LINE, &word, &value)) > 0) {
		/* One fixed order: the file reads the same for everyone. */
		if (want == HEADER) {
			/* Versions 1 and 2 are read, to be signed again
			 * (kl_pcr_policy_check refuses them). */
			if (strcmp(word, HEADER_WORD) ||
			    (strcmp(value, "1") && strcmp(value, "2") &&
			     strcmp(value, "3")))
				bad("%s:%zu: expected \"%s %d\"", name, lineno,
				    HEADER_WORD, KL_PCRPOL_VERSION);
			pp->version = (unsigned int)(value[0] - '0');
			want = AUTHORITY;
		} else if (want == AUTHORITY) {
			if (strcmp(word, "authority") ||
			    parse_fp(value, pp->authority))
				bad("%s:%zu: expected \"authority sha256:<64 hex digits>\"",
				    name, lineno);
			want = pp->version >= 2 ? GENERATION : PCRS;
		} else if (want == GENERATION) {
			if (strcmp(word, "generation") ||
			    kl_parse_generation(value, &pp->generation))
				bad("%s:%zu: expected \"generation N\" (0..%u)",
				    name, lineno, KL_GENERATION_MAX);
			want = pp->version >= 3 ? SRK : PCRS;
		} else if (want == SRK) {
			if (strcmp(word, "srk") ||
			    kl_parse_srk_name(value, pp->srk_name,
					      &pp->srk_name_len))
				bad("%s:%zu: expected \"srk <the machine's TPM storage root key name, 68 hex digits>\"",
				    name, lineno);
			want = PCRS;
		} else if (want == PCRS) {
			if (strcmp(word, "pcrs") ||
			    elfsig_tpm_pcrsel_parse(value, &pp->values.sel))
				bad("%s:%zu: expected \"pcrs BANK:LIST\"", name,
				    lineno);
			pp->values.digest_size =
				elfsig_tpm_bank_size(pp->values.sel.bank);
			want = VALUES;
		} else if (want == VALUES && !strcmp(word, "pcr")) {
			if (parse_pcr(value, &pp->values, &seen))
				bad("%s:%zu: expected \"pcr BANK:N=HEX\" for a selected PCR, once",
				    name, lineno);
		} else if (want == VALUES && !strcmp(word, "policy")) {
			if (seen != pp->values.sel.mask)
				bad("%s:%zu: a selected PCR has no value", name,
				    lineno);
			if (common_unhex(value, strlen(value), pp->approved,
					 sizeof(pp->approved)))
				bad("%s:%zu: expected \"policy <64 hex digits>\"",
				    name, lineno);
			want = SIGNATURE;
		} else if (want == SIGNATURE) {
			size_t n = strlen(value) / 2;

			if (strcmp(word, "signature") || !n ||
			    n > KL_PCRPOL_MAX_SIG ||
			    common_unhex(value, strlen(value), pp->sig, n))
				bad("%s:%zu: expected \"signature <hex>\" (at most %d bytes)",
				    name, lineno, KL_PCRPOL_MAX_SIG);
			pp->sig_len = n;
			want = pp->version >= 2 ? GENSIG : DONE;
		} else if (want == GENSIG) {
			size_t n = strlen(value) / 2;

			if (strcmp(word, "generation-signature") || !n ||
			    n > KL_PCRPOL_MAX_SIG ||
			    common_unhex(value, strlen(value), pp->gen_sig, n))
				bad("%s:%zu: expected \"generation-signature <hex>\" (at most %d bytes)",
				    name, lineno, KL_PCRPOL_MAX_SIG);
			pp->gen_sig_len = n;
			want = DONE;
		} else {
			bad("%s:%zu: unexpected '%.40s'", name, lineno, word);
		}
	}
	if (err < 0)
		goto fail;
	if (want != DONE)
		bad("%s: incomplete signed PCR policy (no signature)", name);
	/* The digest is what is signed; it must be these values' digest. */
	err = elfsig_tpm_pcr_policy_digest(&pp->values, digest);
	if (err)
		goto fail;
	if (memcmp(digest, pp->approved, sizeof(digest)))
		bad("%s: the policy digest is not that of the PCR values listed",
		    name);
	return 0;
fail:
	kl_pcr_policy_clear(pp);
	return err;
}

int kl_pcr_policy_gen_tbs(const uint8_t approved[ELFSIG_TPM_POLICY_SIZE],
			  uint32_t generation, const uint8_t *srk_name,
			  size_t srk_name_len, uint8_t out[KL_FP_LEN])
{
	uint8_t msg[sizeof(KL_GENERATION_TAG) + ELFSIG_TPM_POLICY_SIZE + 4 +
		    ELFSIG_TPM_MAX_NAME];
	size_t o = sizeof(KL_GENERATION_TAG);	/* the tag and its NUL */

	/* The name is signed whole or not at all: never a prefix of it. */
	if (srk_name_len > ELFSIG_TPM_MAX_NAME) {
		kl_err("TPM storage root key name of %zu bytes: at most %d",
		       srk_name_len, ELFSIG_TPM_MAX_NAME);
		return -EINVAL;
	}

	memcpy(msg, KL_GENERATION_TAG, o);
	memcpy(msg + o, approved, ELFSIG_TPM_POLICY_SIZE);
	o += ELFSIG_TPM_POLICY_SIZE;
	msg[o++] = (uint8_t)(generation >> 24);
	msg[o++] = (uint8_t)(generation >> 16);
	msg[o++] = (uint8_t)(generation >> 8);
	msg[o++] = (uint8_t)generation;
	memcpy(msg + o, srk_name, srk_name_len);
	o += srk_name_len;
	return kl_sha256(msg, o, out);
}

int kl_pcr_policy_sign(const struct elfsig_tpm_pcr_values *vals,
		       uint32_t generation, const struct kl_policy *pol,
		       const struct kl_authority *a,
		       int (*sign)(void *ctx, const uint8_t digest[KL_FP_LEN],
				   uint8_t **sig, size_t *sig_len),
		       void *ctx, char **text, size_t *len)
{
	uint8_t approved[ELFSIG_TPM_POLICY_SIZE], tbs[ELFSIG_TPM_POLICY_SIZE];
	uint8_t gtbs[KL_FP_LEN];
	char hex[2 * KL_PCRPOL_MAX_SIG + 1], sel[128];
	char srk[2 * ELFSIG_TPM_MAX_NAME + 1];
	uint8_t *sig = NULL, *gsig = NULL;
	size_t sig_len = 0, gsig_len = 0, sz = 0;
	char *p = NULL;
	unsigned int i;
	FILE *f;
	int err;

	*text = NULL;
	*len = 0;
	if (pol->srk_name_len != 2 + KL_FP_LEN) {
		kl_err("PCR policy: no machine (TPM storage root key name) to sign it for");
		return -EINVAL;
	}
	err = elfsig_tpm_pcr_policy_digest(vals, approved);
	if (!err)
		err = elfsig_tpm_authorize_tbs(approved,
					       (const uint8_t *)KL_POLICY_REF,
					       strlen(KL_POLICY_REF), tbs);
	if (!err)
		err = sign(ctx, tbs, &sig, &sig_len);
	if (!err)
		err = kl_pcr_policy_gen_tbs(approved, generation, pol->srk_name,
					    pol->srk_name_len, gtbs);
	if (!err)
		err = sign(ctx, gtbs, &gsig, &gsig_len);
	if (!err && (sig_len > KL_PCRPOL_MAX_SIG || gsig_len > KL_PCRPOL_MAX_SIG)) {
		kl_err("signature of %zu bytes: larger than a signed PCR policy holds",
		       sig_len > gsig_len ? sig_len : gsig_len);
		err = -E2BIG;
	}
	if (!err && (elfsig_tpm_pcrsel_format(&vals->sel, sel, sizeof(sel)) ||
		     !(f = open_memstream(&p, &sz))))
		err = -ENOMEM;
	if (err) {
		free(sig);
		free(gsig);
		return err;
	}
	common_hex(a->fp, KL_FP_LEN, hex);
	common_hex(pol->srk_name, pol->srk_name_len, srk);
	fprintf(f,
		"# elfsig signed PCR policy (docs/keyloader.md): the enrolment\n"
		"# authority approves this PCR state; elfsig-keyloader unseals the\n"
		"# enrolment under it (TPM2_PolicyAuthorize). The signature is over\n"
		"# SHA-256(policy || \"%s\"), policy = the PolicyPCR digest; the\n"
		"# generation-signature over SHA-256(\"%s\" NUL || policy ||\n"
		"# generation as 32 bits big-endian || srk). A machine whose rollback\n"
		"# counter is past this generation refuses the file (revoked), and\n"
		"# a machine whose TPM storage root key is not srk refuses it.\n"
		"%s %d\n"
		"authority sha256:%s\n"
		"generation %u\n"
		"srk %s\n"
		"pcrs %s\n",
		KL_POLICY_REF, KL_GENERATION_TAG, HEADER_WORD, KL_PCRPOL_VERSION,
		hex, generation, srk, sel);
	for (i = 0; i < ELFSIG_TPM_MAX_PCRS; i++) {
		if (!(vals->sel.mask & (1u << i)))
			continue;
		common_hex(vals->value[i], vals->digest_size, hex);
		fprintf(f, "pcr %s:%u=%s\n", elfsig_tpm_bank_name(vals->sel.bank),
			i, hex);
	}
	common_hex(approved, sizeof(approved), hex);
	fprintf(f, "policy %s\n", hex);
	common_hex(sig, sig_len, hex);
	fprintf(f, "signature %s\n", hex);
	common_hex(gsig, gsig_len, hex);
	fprintf(f, "generation-signature %s\n", hex);
	free(sig);
	free(gsig);
	if (fclose(f)) {
		free(p);
		return -ENOMEM;
	}
	*text = p;
	*len = sz;
	return 0;
}

/* Who signed it, for which PCRs, and the approval the TPM checks again. */
static int check_approval(const struct kl_pcr_policy *pp,
			  const struct kl_policy *pol,
			  const struct kl_authority *a)
{
	uint8_t tbs[ELFSIG_TPM_POLICY_SIZE];
	char want[128] = "?";

	if (memcmp(pp->authority, a->fp, KL_FP_LEN)) {
		kl_err("%s: refused: signed by another enrolment authority",
		       pp->name);
		return -EBADE;
	}
	if (pp->values.sel.bank != pol->sel.bank ||
	    pp->values.sel.mask != pol->sel.mask) {
		elfsig_tpm_pcrsel_format(&pol->sel, want, sizeof(want));
		kl_err("%s: refused: covers other PCRs than the policy's %s",
		       pp->name, want);
		return -EBADE;
	}
	if (elfsig_tpm_authorize_tbs(pp->approved, (const uint8_t *)KL_POLICY_REF,
				     strlen(KL_POLICY_REF), tbs) ||
	    kl_authority_verify_digest(a, tbs, pp->sig, pp->sig_len)) {
		kl_err("%s: refused: the signature does not verify with the enrolment authority's key",
		       pp->name);
		return -EBADE;
	}
	return 0;
}

int kl_pcr_policy_check(const struct kl_pcr_policy *pp,
			const struct kl_policy *pol,
			const struct kl_authority *a)
{
	uint8_t tbs[KL_FP_LEN];
	int err;

	if (pp->version < 2) {
		kl_err("%s: refused: signed PCR policy version %u has no generation (no rollback protection), migrate it with elfsig-enroll migrate --authority-key KEY",
		       pp->name, pp->version);
		return -EPROTO;
	}
	if (pp->version < KL_PCRPOL_VERSION) {
		kl_err("%s: refused: signed PCR policy version %u is not bound to a machine, migrate it with elfsig-enroll migrate --authority-key KEY",
		       pp->name, pp->version);
		return -EPROTO;
	}
	err = check_approval(pp, pol, a);
	if (err)
		return err;
	err = kl_pcr_policy_gen_tbs(pp->approved, pp->generation, pp->srk_name,
				    pp->srk_name_len, tbs);
	if (err)
		return err;
	if (kl_authority_verify_digest(a, tbs, pp->gen_sig, pp->gen_sig_len)) {
		kl_err("%s: refused: the signature of its generation and machine does not verify with the enrolment authority's key",
		       pp->name);
		return -EBADE;
	}
	/* Signed, so the srk line is the authority's word: for which
	 * machine. The policy's srk is checked against the TPM's. */
	if (kl_check_machine(pp->name, pp->srk_name, pp->srk_name_len,
			     pol->srk_name, pol->srk_name_len))
		return -EBADE;
	return 0;
}

int kl_pcr_policy_resign(const struct kl_pcr_policy *pp,
			 const struct kl_policy *pol, const struct kl_signer *s,
			 uint32_t generation, char **text, size_t *len)
{
	int err = check_approval(pp, pol, &s->auth);

	if (err)
		return err;
	return kl_pcr_policy_sign(&pp->values, generation, pol, &s->auth,
				  s->sign, s->ctx, text, len);
}

int kl_pcr_policies_load(const char *dir, const struct kl_policy *pol,
			 const struct kl_authority *a,
			 struct kl_pcr_policy **out, size_t *nout, size_t *bad)
{
	struct kl_pcr_policy *pps;
	char **names = NULL;
	size_t n = 0, i, k = 0;
	int dfd, err;

	*out = NULL;
	*nout = 0;
	*bad = 0;
	err = kl_dir_list(dir, "signed PCR policy directory",
			  KL_PCRPOL_MAX_FILES, &dfd, &names, &n);
	if (err)
		return err;
	pps = calloc(n ? n : 1, sizeof(*pps));
	if (!pps) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		char path[PATH_MAX];
		uint8_t *buf;
		size_t len;

		if (kl_read_dir_file(dir, names[i], KL_PCRPOL_MAX_SIZE, path,
				     &buf, &len)) {
			++*bad;
			continue;
		}
		err = kl_pcr_policy_parse(buf, len, path, &pps[k]);
		free(buf);
		if (err == -ENOMEM)
			goto out;
		if (!err && (err = kl_pcr_policy_check(&pps[k], pol, a)))
			kl_pcr_policy_clear(&pps[k]);
		if (err)
			++*bad;
		else
			k++;
	}
	err = 0;
	*out = pps;
	*nout = k;
	pps = NULL;
out:
	kl_pcr_policies_free(pps, k);
	kl_names_free(names, n);
	close(dfd);
	return err;
}

int kl_unseal_expect(struct elfsig_tpm *tpm,
		     const struct elfsig_tpm_sealed *sealed,
		     const uint8_t *spki, size_t spki_len,
		     const uint8_t fp[KL_FP_LEN],
		     const struct elfsig_tpm_signed_pcr_policy *cands,
		     size_t n, size_t *used)
{
	uint8_t secret[ELFSIG_TPM_MAX_SECRET];
	size_t slen = 0;
	int err;

	err = elfsig_tpm_unseal_authorized(tpm, sealed, spki, spki_len,
					   cands, n, used, secret,
					   sizeof(secret), &slen);
	/* The object holds the authority's fingerprint: one sealed for
	 * another purpose under the same key is not an enrolment. */
	if (!err && (slen != KL_FP_LEN ||
		     CRYPTO_memcmp(secret, fp, KL_FP_LEN))) {
		kl_err("the sealed object does not hold the enrolment authority's fingerprint");
		err = -EBADE;
	}
	OPENSSL_cleanse(secret, sizeof(secret));
	return err;
}

int kl_unseal_check(struct elfsig_tpm *tpm,
		    const struct elfsig_tpm_sealed *sealed,
		    const struct kl_authority *a,
		    const struct kl_pcr_policy *pps, size_t n, size_t *used)
{
	struct elfsig_tpm_signed_pcr_policy *cands;
	size_t i;
	int err;

	*used = 0;
	cands = calloc(n ? n : 1, sizeof(*cands));
	if (!cands)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		cands[i].values = pps[i].values;
		cands[i].sig = pps[i].sig;
		cands[i].sig_len = pps[i].sig_len;
	}
	err = kl_unseal_expect(tpm, sealed, a->spki, a->spki_len, a->fp,
			       cands, n, used);
	free(cands);
	return err;
}
