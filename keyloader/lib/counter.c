// SPDX-License-Identifier: GPL-2.0-only
/*
 * counter.c - rollback protection: the machine's binding to its TPM
 * counter (signed by the authority), the epoch it gives, and advancing it
 * (docs/keyloader.md, "Rollback protection").
 *
 * epoch = counter - base. The counter never goes backwards, so neither
 * does the epoch, and every policy or PCR policy whose generation is
 * below it is refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kl_counter.h"

#define HEADER_WORD	"elfsig-counter"
#define BINDING_MAX_LINE 256

#define bad(...) do { kl_err(__VA_ARGS__); return -EBADMSG; } while (0)

int kl_binding_parse(const uint8_t *buf, size_t len, const char *name,
		     struct kl_binding *b)
{
	enum { HEADER, AUTHORITY, SRK, INDEX, NVNAME, BASE, DONE } want = HEADER;
	char line[BINDING_MAX_LINE + 1], *word, *value;
	size_t pos = 0, lineno = 0;
	uint64_t v;
	int err;

	memset(b, 0, sizeof(*b));
	if (len > KL_BINDING_MAX_SIZE)
		bad("%s: larger than %d bytes", name, KL_BINDING_MAX_SIZE);
	while ((err = kl_text_directive(buf, len, &pos, &lineno, name, line,
					BINDING_MAX_LINE, &word, &value)) > 0) {
		if (want == HEADER) {
			if (strcmp(word, HEADER_WORD) || strcmp(value, "1"))
				bad("%s:%zu: expected \"%s %d\"", name, lineno,
				    HEADER_WORD, KL_BINDING_VERSION);
		} else if (want == AUTHORITY) {
			if (strcmp(word, "authority") ||
			    strncmp(value, "sha256:", 7) ||
			    common_unhex(value + 7, strlen(value + 7),
					 b->authority, KL_FP_LEN))
				bad("%s:%zu: expected \"authority sha256:<64 hex digits>\"",
				    name, lineno);
		} else if (want == SRK) {
			if (strcmp(word, "srk") ||
			    kl_parse_srk_name(value, b->srk_name, &b->srk_name_len))
				bad("%s:%zu: expected \"srk <the SRK's TPM name, 68 hex digits>\"",
				    name, lineno);
		} else if (want == INDEX) {
			char *end;
			unsigned long h;

			errno = 0;
			h = strtoul(value, &end, 16);
			if (strcmp(word, "nv-index") || strncmp(value, "0x", 2) ||
			    errno || *end || strlen(value) != 10 ||
			    h < 0x01000000ul || h > 0x01fffffful)
				bad("%s:%zu: expected \"nv-index 0x01xxxxxx\"",
				    name, lineno);
			b->nv_index = (uint32_t)h;
		} else if (want == NVNAME) {
			if (strcmp(word, "nv-name") ||
			    kl_parse_srk_name(value, b->nv_name, &b->nv_name_len))
				bad("%s:%zu: expected \"nv-name <the index's TPM name, 68 hex digits>\"",
				    name, lineno);
		} else if (want == BASE) {
			if (strcmp(word, "base") ||
			    kl_parse_u64(value, UINT64_MAX, &v))
				bad("%s:%zu: expected \"base N\"", name, lineno);
			b->base = v;
		} else {
			bad("%s:%zu: unexpected '%.40s'", name, lineno, word);
		}
		want++;
	}
	if (err < 0)
		return err;
	if (want != DONE)
		bad("%s: incomplete counter binding", name);
	return 0;
}

int kl_binding_format(const struct kl_binding *b, char **text, size_t *len)
{
	char auth[2 * KL_FP_LEN + 1], srk[2 * ELFSIG_TPM_MAX_NAME + 1];
	char nv[2 * ELFSIG_TPM_MAX_NAME + 1];
	int n;

	common_hex(b->authority, KL_FP_LEN, auth);
	common_hex(b->srk_name, b->srk_name_len, srk);
	common_hex(b->nv_name, b->nv_name_len, nv);
	n = asprintf(text,
		     "# elfsig rollback counter binding (docs/keyloader.md): on this\n"
		     "# machine only (its TPM's storage root key), the epoch is the\n"
		     "# TPM counter at nv-index minus base; elfsig-keyloader refuses\n"
		     "# a policy or PCR policy of an older generation. Signed by the\n"
		     "# enrolment authority (counter.sig).\n"
		     "%s %d\n"
		     "authority sha256:%s\n"
		     "srk %s\n"
		     "nv-index 0x%08x\n"
		     "nv-name %s\n"
		     "base %llu\n",
		     HEADER_WORD, KL_BINDING_VERSION, auth, srk, b->nv_index, nv,
		     (unsigned long long)b->base);
	if (n < 0) {
		*text = NULL;
		return -ENOMEM;
	}
	*len = (size_t)n;
	return 0;
}

int kl_binding_load(const char *path, const char *sig_path,
		    const struct kl_authority *a, struct kl_binding *b)
{
	uint8_t *buf = NULL, *sig = NULL, digest[KL_FP_LEN];
	size_t len, sig_len;
	int err;

	memset(b, 0, sizeof(*b));
	if (access(path, F_OK) && errno == ENOENT) {
		kl_err("%s: no rollback counter binding (an enrolment from before rollback protection): refused, bind it with elfsig-enroll counter --authority-key KEY",
		       path);
		return -ENOENT;
	}
	err = kl_read_file(AT_FDCWD, path, KL_BINDING_MAX_SIZE, &buf, &len);
	if (!err)
		err = kl_read_file(AT_FDCWD, sig_path, KL_PCRPOL_MAX_SIG, &sig,
				   &sig_len);
	if (!err)
		err = kl_binding_parse(buf, len, path, b);
	if (!err && memcmp(b->authority, a->fp, KL_FP_LEN)) {
		kl_err("%s: names another enrolment authority than the configured one",
		       path);
		err = -EBADE;
	}
	if (!err)
		err = kl_sha256(buf, len, digest);
	if (!err) {
		if (kl_authority_verify_digest(a, digest, sig, sig_len)) {
			kl_err("%s: the signature does not verify with the enrolment authority's key (edited after signing, or signed by another key)",
			       path);
			err = -EBADE;
		}
	}
	free(buf);
	free(sig);
	return err;
}

int kl_binding_check_machine(const struct kl_binding *b, const char *path,
			     const uint8_t *srk_name, size_t srk_name_len,
			     uint32_t nv_index)
{
	/* A binding is per machine: another machine's would give its base,
	 * meaningless against this TPM's counter. */
	if (b->srk_name_len != srk_name_len ||
	    memcmp(b->srk_name, srk_name, srk_name_len)) {
		kl_err("%s: binds another TPM's counter (its storage root key differs from the sealed object's)",
		       path);
		return -EBADE;
	}
	if (b->nv_index != nv_index) {
		kl_err("%s: binds NV index 0x%08x, not the configured rollback counter 0x%08x",
		       path, b->nv_index, nv_index);
		return -EBADE;
	}
	return 0;
}

int kl_counter_epoch(struct elfsig_tpm *tpm, const struct kl_binding *b,
		     uint64_t *value, uint64_t *epoch)
{
	int err;

	*epoch = 0;
	err = elfsig_tpm_counter_read(tpm, b->nv_index, b->nv_name,
				      b->nv_name_len, value);
	if (err)
		return err;
	/* A counter never goes below a value it once had. */
	if (*value < b->base) {
		kl_err("rollback counter 0x%08x reads %llu, below the binding's base %llu: not the bound counter",
		       b->nv_index, (unsigned long long)*value,
		       (unsigned long long)b->base);
		return -ERANGE;
	}
	*epoch = *value - b->base;
	return 0;
}

int kl_counter_advance(struct elfsig_tpm *tpm, const struct kl_binding *b,
		       uint64_t epoch, uint64_t target, unsigned int max,
		       uint64_t *after)
{
	uint64_t steps = target > epoch ? target - epoch : 0, value;
	int err;

	*after = epoch;
	if (!steps)
		return 0;
	if (steps > max)
		steps = max;
	err = elfsig_tpm_counter_advance(tpm, b->nv_index, b->nv_name,
					 b->nv_name_len, (unsigned int)steps,
					 &value);
	if (!err && value < b->base)
		err = -ERANGE;
	if (!err)
		*after = value - b->base;
	return err;
}

const char *kl_counter_reason(int err)
{
	switch (err) {
	case -ENOENT:	return "the counter is not defined";
	case -ESTALE:	return "the NV index is not the bound counter";
	case -EKEYREJECTED: return "the NV index is not a rollback counter";
	case -ENODATA:	return "the counter was defined again and never incremented";
	case -ERANGE:	return "the counter is below the binding's base";
	default:	return strerror(-err);
	}
}

size_t kl_pcr_policies_drop_revoked(struct kl_pcr_policy *pps, size_t n,
				    uint64_t epoch)
{
	struct kl_pcr_policy tmp;
	size_t i, j, k = 0;

	for (i = 0; i < n; i++) {
		if (pps[i].generation < epoch) {
			kl_err("%s: refused: generation %u is revoked on this machine (epoch %llu)",
			       pps[i].name, pps[i].generation,
			       (unsigned long long)epoch);
			continue;
		}
		/* Stable: the usable ones keep their (name) order. */
		tmp = pps[i];
		for (j = i; j > k; j--)
			pps[j] = pps[j - 1];
		pps[k++] = tmp;
	}
	return k;
}

long kl_pcr_policies_match(struct elfsig_tpm *tpm,
			   const struct kl_pcr_policy *pps, size_t n)
{
	struct elfsig_tpm_pcr_values now;
	uint8_t digest[ELFSIG_TPM_POLICY_SIZE];
	size_t i;

	for (i = 0; i < n; i++) {
		if (elfsig_tpm_pcr_read(tpm, &pps[i].values.sel, &now) ||
		    elfsig_tpm_pcr_policy_digest(&now, digest))
			return -1;
		if (!memcmp(digest, pps[i].approved, sizeof(digest)))
			return (long)i;
	}
	return -1;
}
