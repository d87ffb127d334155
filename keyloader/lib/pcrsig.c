// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcrsig.c - systemd's signed PCR policies (.pcrsig JSON, what
 * `systemd-measure sign` writes), accepted only where the enrolment
 * authority's signed policy opts in to one systemd key (docs/keyloader.md,
 * "systemd .pcrsig").
 *
 * The format, as systemd 252 writes it:
 *
 *   {"sha256":[{"pcrs":[11],"pkfp":"<hex>","pol":"<hex>","sig":"<base64>"}, ...],
 *    "sha1":[...], "sha384":[...], "sha512":[...]}
 *
 * pkfp is SHA-256 of the key as i2d_PublicKey encodes it (PKCS#1
 * RSAPublicKey, or the EC point), pol the PolicyPCR digest (SHA-256
 * session) and sig the key's signature over SHA-256(pol): a
 * PolicyAuthorize approval with an empty policyRef.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include "kl_pcrsig.h"

/* A JSON cursor over an untrusted image: every read is bounded by len. */
struct js {
	const uint8_t *b;
	size_t len, pos;
	const char *name;
	int err;		/* set once: the first error is the one said */
};

static int js_fail(struct js *j, const char *what)
{
	if (!j->err) {
		kl_err("%s: not a systemd .pcrsig file: byte %zu: %s", j->name,
		       j->pos, what);
		j->err = -EBADMSG;
	}
	return -EBADMSG;
}

static void js_ws(struct js *j)
{
	while (j->pos < j->len && (j->b[j->pos] == ' ' || j->b[j->pos] == '\t' ||
				   j->b[j->pos] == '\n' || j->b[j->pos] == '\r'))
		j->pos++;
}

/* The next non-blank byte is @c: consume it. */
static bool js_eat(struct js *j, char c)
{
	js_ws(j);
	if (j->pos < j->len && j->b[j->pos] == (uint8_t)c) {
		j->pos++;
		return true;
	}
	return false;
}

static int js_expect(struct js *j, char c, const char *what)
{
	return js_eat(j, c) ? 0 : js_fail(j, what);
}

/* A string of printable ASCII, no escapes (systemd writes none here), at
 * most @max bytes; points into the image. */
static int js_string(struct js *j, const char **s, size_t *n, size_t max)
{
	size_t start;

	if (js_expect(j, '"', "expected a string"))
		return -EBADMSG;
	start = j->pos;
	while (j->pos < j->len && j->b[j->pos] != '"') {
		if (j->b[j->pos] < 0x20 || j->b[j->pos] > 0x7e ||
		    j->b[j->pos] == '\\')
			return js_fail(j, "control character, escape or non-ASCII byte in a string");
		if (j->pos - start >= max)
			return js_fail(j, "string too long");
		j->pos++;
	}
	if (j->pos >= j->len)
		return js_fail(j, "unterminated string");
	*s = (const char *)j->b + start;
	*n = j->pos - start;
	j->pos++;
	return 0;
}

/* A PCR index: 0..23, decimal, no sign, no leading zero. */
static int js_pcr(struct js *j, unsigned int *v)
{
	size_t start;

	js_ws(j);
	start = j->pos;
	*v = 0;
	while (j->pos < j->len && j->b[j->pos] >= '0' && j->b[j->pos] <= '9' &&
	       j->pos - start < 3)
		*v = *v * 10 + (unsigned int)(j->b[j->pos++] - '0');
	if (j->pos == start || (j->b[start] == '0' && j->pos - start > 1) ||
	    *v >= ELFSIG_TPM_MAX_PCRS)
		return js_fail(j, "expected a PCR index 0..23");
	return 0;
}

/* One entry: "pcrs", "pkfp", "pol", "sig", each once, in any order. */
static int js_entry(struct js *j, uint16_t bank, struct kl_pcrsig_entry *e)
{
	unsigned int seen = 0, last, v;
	const char *s = NULL;
	size_t n = 0;
	int k;

	memset(e, 0, sizeof(*e));
	e->bank = bank;
	if (js_expect(j, '{', "expected an entry {...}"))
		return -EBADMSG;
	do {
		if (js_string(j, &s, &n, 8) || js_expect(j, ':', "expected ':'"))
			return -EBADMSG;
		k = n == 4 && !memcmp(s, "pcrs", 4) ? 0 :
		    n == 4 && !memcmp(s, "pkfp", 4) ? 1 :
		    n == 3 && !memcmp(s, "pol", 3) ? 2 :
		    n == 3 && !memcmp(s, "sig", 3) ? 3 : -1;
		if (k < 0)
			return js_fail(j, "unknown member in an entry (pcrs, pkfp, pol, sig)");
		if (seen & (1u << k))
			return js_fail(j, "member given twice in an entry");
		seen |= 1u << k;
		if (k == 0) {
			if (js_expect(j, '[', "expected \"pcrs\": [N, ...]"))
				return -EBADMSG;
			last = 0;
			do {
				if (js_pcr(j, &v))
					return -EBADMSG;
				if (e->pcrs && v <= last)
					return js_fail(j, "PCR indexes not in ascending order, or repeated");
				e->pcrs |= 1u << v;
				last = v;
			} while (js_eat(j, ','));
			if (js_expect(j, ']', "expected ']' after the PCR indexes"))
				return -EBADMSG;
		} else if (js_string(j, &s, &n, 1024)) {
			return -EBADMSG;
		} else if (k == 1 ? common_unhex(s, n, e->pkfp, KL_FP_LEN) :
			   k == 2 ? common_unhex(s, n, e->pol, sizeof(e->pol)) :
			   common_unbase64(s, n, e->sig, sizeof(e->sig), &e->sig_len)) {
			return js_fail(j, k == 1 ? "\"pkfp\": expected 64 hex digits" :
					  k == 2 ? "\"pol\": expected 64 hex digits" :
					  "\"sig\": expected base64, at most 512 bytes");
		}
	} while (js_eat(j, ','));
	if (js_expect(j, '}', "expected '}' or ',' in an entry"))
		return -EBADMSG;
	if (seen != 0xf)
		return js_fail(j, "an entry lacks one of pcrs, pkfp, pol, sig");
	return 0;
}

void kl_pcrsig_file_free(struct kl_pcrsig_file *f)
{
	free(f->entries);
	memset(f, 0, sizeof(*f));
}

int kl_pcrsig_parse(const uint8_t *buf, size_t len, const char *name,
		    struct kl_pcrsig_file *f)
{
	struct js j = { .b = buf, .len = len, .name = name };
	unsigned int banks = 0;
	const char *s;
	size_t n = 0;

	memset(f, 0, sizeof(*f));
	if (len > KL_PCRSIG_MAX_SIZE) {
		kl_err("%s: not a systemd .pcrsig file: larger than %d bytes",
		       name, KL_PCRSIG_MAX_SIZE);
		return -EBADMSG;
	}
	f->entries = calloc(KL_PCRSIG_MAX_ENTRIES, sizeof(*f->entries));
	if (!f->entries)
		return -ENOMEM;
	if (js_expect(&j, '{', "expected '{'"))
		goto fail;
	do {
		uint16_t bank;
		unsigned int bit;
		char word[8];

		if (js_string(&j, &s, &n, 6) || js_expect(&j, ':', "expected ':'"))
			goto fail;
		memcpy(word, s, n);
		word[n] = '\0';
		bank = elfsig_tpm_bank_from_name(word);
		if (!bank) {
			js_fail(&j, "unknown member (sha1, sha256, sha384, sha512)");
			goto fail;
		}
		bit = bank == 0x0004 ? 0 : bank == 0x000b ? 1 :
		      bank == 0x000c ? 2 : 3;
		if (banks & (1u << bit)) {
			js_fail(&j, "bank given twice");
			goto fail;
		}
		banks |= 1u << bit;
		if (js_expect(&j, '[', "expected an array of entries"))
			goto fail;
		do {
			if (f->n >= KL_PCRSIG_MAX_ENTRIES) {
				js_fail(&j, "more than 64 entries");
				goto fail;
			}
			if (js_entry(&j, bank, &f->entries[f->n]))
				goto fail;
			f->n++;
		} while (js_eat(&j, ','));
		if (js_expect(&j, ']', "expected ']' or ',' after an entry"))
			goto fail;
	} while (js_eat(&j, ','));
	if (js_expect(&j, '}', "expected '}' or ','"))
		goto fail;
	js_ws(&j);
	/* A .pcrsig section copied out of a PE image is padded with zeros
	 * to the file alignment: only those may follow. */
	while (j.pos < j.len && !j.b[j.pos])
		j.pos++;
	if (j.pos != j.len) {
		js_fail(&j, "data after the JSON object");
		goto fail;
	}
	return 0;
fail:
	kl_pcrsig_file_free(f);
	return -EBADMSG;
}

int kl_pcrsig_key_load(const char *path, const struct kl_policy *pol,
		       struct kl_pcrsig_key *k)
{
	unsigned char *der = NULL;
	int n, err;

	memset(k, 0, sizeof(*k));
	err = kl_authority_load(path, &k->key);
	if (err)
		return err;
	if (memcmp(k->key.fp, pol->pcrsig_key, KL_FP_LEN)) {
		kl_err("%s: not the systemd key the signed policy opts in to (pcrsig-key)",
		       path);
		kl_authority_free(&k->key);
		return -EBADE;
	}
	/* systemd's "pkfp": SHA-256 of i2d_PublicKey, not of the SPKI. */
	n = i2d_PublicKey(k->key.key, &der);
	if (n <= 0) {
		kl_err_ssl("%s: cannot encode the key as systemd does", path);
		kl_authority_free(&k->key);
		return -EBADMSG;
	}
	err = kl_sha256(der, (size_t)n, k->pkfp);
	OPENSSL_free(der);
	if (err)
		kl_authority_free(&k->key);
	return err;
}

void kl_pcrsig_key_free(struct kl_pcrsig_key *k)
{
	kl_authority_free(&k->key);
	memset(k, 0, sizeof(*k));
}

/*
 * The entries of one file this machine may use: sha256 bank, the opted-in
 * key, exactly the opted-in PCRs, a signature that verifies. A file with
 * none gets one line saying why. Return: how many were appended.
 */
static size_t select_entries(const struct kl_pcrsig_file *f, const char *name,
			     const struct kl_policy *pol,
			     const struct kl_pcrsig_key *k,
			     struct kl_pcrsig_entry *out, size_t room)
{
	size_t i, n = 0, mine = 0, pcrs_ok = 0;
	uint8_t tbs[KL_FP_LEN];
	char want[128] = "?";

	for (i = 0; i < f->n; i++) {
		const struct kl_pcrsig_entry *e = &f->entries[i];

		if (e->bank != pol->pcrsig_sel.bank ||
		    memcmp(e->pkfp, k->pkfp, KL_FP_LEN))
			continue;
		mine++;
		if (e->pcrs != pol->pcrsig_sel.mask)
			continue;
		pcrs_ok++;
		/* aHash with an empty policyRef is SHA-256(pol); the TPM
		 * checks it again. */
		if (kl_sha256(e->pol, sizeof(e->pol), tbs))
			return 0;
		if (kl_authority_verify_digest(&k->key, tbs, e->sig,
					       e->sig_len)) {
			kl_err("%s: refused: an entry's signature does not verify with the systemd key",
			       name);
			return 0;
		}
		if (n < room)
			out[n++] = *e;
	}
	elfsig_tpm_pcrsel_format(&pol->pcrsig_sel, want, sizeof(want));
	if (!mine)
		kl_err("%s: refused: no %s entry signed by the enrolled systemd key",
		       name, elfsig_tpm_bank_name(pol->pcrsig_sel.bank));
	else if (!pcrs_ok)
		kl_err("%s: refused: signed for other PCRs than the policy's pcrsig-pcrs %s",
		       name, want);
	return n;
}

int kl_pcrsig_load(const char *dir, const struct kl_policy *pol,
		   const struct kl_pcrsig_key *k, struct kl_pcrsig_entry **out,
		   size_t *nout)
{
	struct kl_pcrsig_entry *all;
	char **names = NULL;
	size_t n = 0, i, total = 0;
	int dfd, err;

	*out = NULL;
	*nout = 0;
	err = kl_dir_list(dir, "systemd .pcrsig directory", KL_PCRSIG_MAX_FILES,
			  &dfd, &names, &n);
	if (err)
		return err;
	all = calloc(KL_PCRSIG_MAX_ENTRIES, sizeof(*all));
	if (!all) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		struct kl_pcrsig_file f;
		char path[PATH_MAX];
		uint8_t *buf;
		size_t len;

		if (kl_read_dir_file(dir, names[i], KL_PCRSIG_MAX_SIZE, path,
				     &buf, &len))
			continue;
		err = kl_pcrsig_parse(buf, len, path, &f);
		free(buf);
		if (err == -ENOMEM)
			goto out;
		if (err)
			continue;
		total += select_entries(&f, path, pol, k, all + total,
					KL_PCRSIG_MAX_ENTRIES - total);
		kl_pcrsig_file_free(&f);
	}
	err = 0;
	*out = all;
	*nout = total;
	all = NULL;
out:
	free(all);
	kl_names_free(names, n);
	close(dfd);
	return err;
}

void kl_pcrsig_own_pcrs(const struct kl_policy *pol,
			struct elfsig_tpm_pcrsel *sel)
{
	*sel = pol->sel;
	if (pol->pcrsig_sel.bank == pol->sel.bank)
		sel->mask &= ~pol->pcrsig_sel.mask;
}

int kl_pcrsig_sealed_check(const struct elfsig_tpm_sealed *sealed,
			   const char *path, const struct kl_policy *pol,
			   const struct kl_pcrsig_key *k,
			   const struct elfsig_tpm_opts *pin)
{
	const struct elfsig_tpm_pcrsel *has = elfsig_tpm_sealed_pcrsel(sealed);
	const uint8_t *name, *ref, *srk;
	size_t ref_len, name_len, srk_len;
	struct elfsig_tpm_pcrsel own;
	char want[128] = "?";

	name_len = elfsig_tpm_sealed_authority(sealed, &name, &ref, &ref_len);
	srk_len = elfsig_tpm_sealed_srk_name(sealed, &srk);
	if (!name_len || ref_len || name_len != 2 + KL_FP_LEN ||
	    memcmp(name, k->key.tpm_name, name_len)) {
		kl_err("%s: not bound with PolicyAuthorize to the opted-in systemd key and an empty policyRef",
		       path);
		return -EBADE;
	}
	if (srk_len != pin->srk_name_len || memcmp(srk, pin->srk_name, srk_len)) {
		kl_err("%s: sealed under another storage root key than the enrolment",
		       path);
		return -EBADE;
	}
	/* systemd's approval stands in for its PCRs only: the firmware and
	 * boot loader PCRs of the enrolment must still be the object's. */
	kl_pcrsig_own_pcrs(pol, &own);
	if (has->mask != own.mask || (own.mask && has->bank != own.bank)) {
		elfsig_tpm_pcrsel_format(&own, want, sizeof(want));
		kl_err("%s: not bound to the enrolment's own PCRs %s besides systemd's approval (sealed by an older elfsig-enroll): systemd .pcrsig files ignored, run elfsig-enroll pcrsig seal",
		       path, own.mask ? want : "(none)");
		return -EPROTO;
	}
	return 0;
}

int kl_pcrsig_open(const char *dir, const char *sealed_path,
		   const char *key_path, const struct kl_policy *pol,
		   const struct elfsig_tpm_opts *pin, struct kl_pcrsig_key *k,
		   struct elfsig_tpm_sealed **sealed,
		   struct kl_pcrsig_entry **es, size_t *n)
{
	uint8_t *buf;
	size_t len;
	int err;

	*sealed = NULL;
	*es = NULL;
	*n = 0;
	err = kl_pcrsig_key_load(key_path, pol, k);
	if (err)
		return err;
	err = kl_read_file(AT_FDCWD, sealed_path, ELFSIG_TPM_MAX_SEALED_FILE,
			   &buf, &len);
	if (err)
		return err;
	err = elfsig_tpm_sealed_parse(buf, len, sealed);
	free(buf);
	if (err) {
		kl_err("%s: not a sealed object", sealed_path);
		return err;
	}
	err = kl_pcrsig_sealed_check(*sealed, sealed_path, pol, k, pin);
	if (err)
		return err;
	return kl_pcrsig_load(dir, pol, k, es, n);
}

int kl_pcrsig_unseal(struct elfsig_tpm *tpm,
		     const struct elfsig_tpm_sealed *sealed,
		     const struct kl_authority *a, const struct kl_policy *pol,
		     const struct kl_pcrsig_key *k,
		     const struct kl_pcrsig_entry *es, size_t n, size_t *used)
{
	struct elfsig_tpm_signed_pcr_policy *cands;
	struct elfsig_tpm_pcr_values now;
	uint8_t digest[ELFSIG_TPM_POLICY_SIZE];
	size_t i, m = 0, *index;
	int err;

	*used = 0;
	/* The JSON carries digests, not values: the current values, read
	 * here, pick the entry; PolicyPCR then has the TPM check them. */
	err = elfsig_tpm_pcr_read(tpm, &pol->pcrsig_sel, &now);
	if (!err)
		err = elfsig_tpm_pcr_policy_digest(&now, digest);
	if (err)
		return err;
	cands = calloc(n ? n : 1, sizeof(*cands));
	index = calloc(n ? n : 1, sizeof(*index));
	if (!cands || !index) {
		free(cands);
		free(index);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		if (memcmp(es[i].pol, digest, sizeof(digest)))
			continue;
		cands[m].values = now;
		cands[m].sig = es[i].sig;
		cands[m].sig_len = es[i].sig_len;
		index[m++] = i;
	}
	if (!m) {
		err = -EACCES;	/* the caller says it, once */
	} else {
		err = kl_unseal_expect(tpm, sealed, k->key.spki, k->key.spki_len,
				       a->fp, cands, m, used);
		if (!err)
			*used = index[*used];
	}
	free(cands);
	free(index);
	return err;
}
