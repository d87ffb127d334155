// SPDX-License-Identifier: GPL-2.0-only
/* quote.c - verify a TPM2_Quote: signature, magic, type, nonce, PCRs. */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <tss2/tss2_mu.h>

#include "attest.h"
#include "elfsig_tpm.h"
#include "error.h"

enum { MSG, SIG, KEY };

static EVP_PKEY *load_key(const uint8_t *pem, size_t len, const char *name)
{
	EVP_PKEY *pkey = NULL;
	BIO *bio;

	if (len > INT_MAX)
		return NULL;
	bio = BIO_new_mem_buf(pem, (int)len);
	if (bio)
		pkey = PEM_read_bio_PUBKEY(bio, NULL, NULL, NULL);
	BIO_free(bio);
	if (!pkey)
		attest_err_ssl("%s: not a PEM public key", name);
	return pkey;
}

/* The DER ECDSA-Sig-Value of a TPMS_SIGNATURE_ECDSA. */
static int ecdsa_der(const TPMS_SIGNATURE_ECDSA *e, uint8_t **der, int *len)
{
	ECDSA_SIG *s = ECDSA_SIG_new();
	BIGNUM *r = BN_bin2bn(e->signatureR.buffer, e->signatureR.size, NULL);
	BIGNUM *v = BN_bin2bn(e->signatureS.buffer, e->signatureS.size, NULL);
	int ret = -ENOMEM;

	*der = NULL;
	if (s && r && v && ECDSA_SIG_set0(s, r, v)) {
		r = v = NULL;		/* owned by s now */
		*len = i2d_ECDSA_SIG(s, der);
		ret = *len > 0 ? 0 : -ENOMEM;
	}
	BN_free(r);
	BN_free(v);
	ECDSA_SIG_free(s);
	return ret;
}

/* The signature over @msg, with SHA-256, under @pkey. */
static int check_signature(const TPMT_SIGNATURE *ts, EVP_PKEY *pkey,
			   const uint8_t *msg, size_t mlen,
			   const char *const names[3], const char **alg)
{
	EVP_MD_CTX *md = NULL;
	EVP_PKEY_CTX *pctx = NULL;
	uint8_t *der = NULL;
	const uint8_t *sig;
	size_t slen;
	int dlen = 0, ret;
	bool ok;

	if (ts->sigAlg == TPM2_ALG_ECDSA &&
	    ts->signature.ecdsa.hash == TPM2_ALG_SHA256 &&
	    EVP_PKEY_is_a(pkey, "EC")) {
		*alg = "ECDSA";
		ret = ecdsa_der(&ts->signature.ecdsa, &der, &dlen);
		if (ret)
			return ret;
		sig = der;
		slen = (size_t)dlen;
	} else if (ts->sigAlg == TPM2_ALG_RSASSA &&
		   ts->signature.rsassa.hash == TPM2_ALG_SHA256 &&
		   EVP_PKEY_is_a(pkey, "RSA")) {
		*alg = "RSASSA";
		sig = ts->signature.rsassa.sig.buffer;
		slen = ts->signature.rsassa.sig.size;
	} else {
		attest_err("%s: signature algorithm 0x%04x does not go with the key in %s (ECDSA or RSASSA, SHA-256)",
			   names[SIG], ts->sigAlg, names[KEY]);
		return -EKEYREJECTED;
	}
	md = EVP_MD_CTX_new();
	ok = md && EVP_DigestVerifyInit(md, &pctx, EVP_sha256(), NULL,
					pkey) == 1;
	if (ok && !strcmp(*alg, "RSASSA"))
		ok = EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) > 0;
	ok = ok && EVP_DigestVerify(md, sig, slen, msg, mlen) == 1;
	EVP_MD_CTX_free(md);
	OPENSSL_free(der);
	if (!ok) {
		attest_err_ssl("%s: the quote's signature does not verify with the attestation key %s",
			       names[SIG], names[KEY]);
		return -EKEYREJECTED;
	}
	return 0;
}

/* "sha256:0,7,13" or "sha256:14+sha1:13" ("none"): what @sel selects. */
static void selection_text(const TPML_PCR_SELECTION *sel, char *got, size_t size)
{
	size_t n = 0;
	unsigned int i, k;
	char bank[8];

	got[0] = '\0';
	for (k = 0; k < sel->count && k < TPM2_NUM_PCR_BANKS &&
		    n < size - 40; k++) {
		const TPMS_PCR_SELECTION *b = &sel->pcrSelections[k];
		const char *alg = elfsig_tpm_bank_name(b->hash);
		unsigned int bits = b->sizeofSelect <= sizeof(b->pcrSelect) ?
				    b->sizeofSelect * 8u : 0;
		const char *sep = ":";

		snprintf(bank, sizeof(bank), "0x%04x", b->hash);
		n += snprintf(got + n, size - n, "%s%s", k ? "+" : "",
			      alg ? alg : bank);
		for (i = 0; i < bits && n < size - 8; i++) {
			if (!(b->pcrSelect[i / 8] & (1u << (i % 8))))
				continue;
			n += snprintf(got + n, size - n, "%s%u", sep, i);
			sep = ",";
		}
	}
	if (!n)
		snprintf(got, size, "none");
}

/*
 * The selection must be PCRs of the sha256 bank alone, @pcr among them;
 * note them in @q in the order the PCR digest takes them (ascending).
 */
static int check_selection(const TPML_PCR_SELECTION *sel, unsigned int pcr,
			   const char *name, struct attest_quote *q)
{
	const TPMS_PCR_SELECTION *s = &sel->pcrSelections[0];
	bool ok = sel->count == 1 && s->hash == TPM2_ALG_SHA256 &&
		  s->sizeofSelect <= sizeof(s->pcrSelect) &&
		  s->sizeofSelect * 8u > pcr &&
		  (s->pcrSelect[pcr / 8] & (1u << (pcr % 8)));
	unsigned int i;

	q->npcrs = 0;
	for (i = 0; ok && i < s->sizeofSelect * 8u; i++) {
		if (!(s->pcrSelect[i / 8] & (1u << (i % 8))))
			continue;
		if (i >= ATTEST_MAX_PCRS) {
			ok = false;
			break;
		}
		q->pcrs[q->npcrs++] = (uint8_t)i;
	}
	if (!ok) {
		char got[160];

		selection_text(sel, got, sizeof(got));
		attest_err("%s: the quote covers PCRs %s, not PCR %u with only sha256 PCRs beside it",
			   name, got, pcr);
		return -EKEYREJECTED;
	}
	return 0;
}

void attest_quote_pcr_list(const struct attest_quote *q, char *out, size_t n)
{
	size_t len;
	unsigned int i;

	len = (size_t)snprintf(out, n, "sha256:");
	for (i = 0; i < q->npcrs && len < n; i++)
		len += (size_t)snprintf(out + len, n - len, "%s%u", i ? "," : "",
					q->pcrs[i]);
}

int attest_quote_verify(const uint8_t *msg, size_t mlen, const uint8_t *sig,
			size_t slen, const uint8_t *pem, size_t pemlen,
			const char *const names[3], const uint8_t *nonce,
			size_t nlen, unsigned int pcr, struct attest_quote *out)
{
	TPMT_SIGNATURE ts;
	TPMS_ATTEST a;
	EVP_PKEY *pkey;
	size_t off = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	memset(&ts, 0, sizeof(ts));
	memset(&a, 0, sizeof(a));
	if (Tss2_MU_TPMT_SIGNATURE_Unmarshal(sig, slen, &off, &ts) ||
	    off != slen) {
		attest_err("%s: not a marshalled TPMT_SIGNATURE", names[SIG]);
		return -EBADMSG;
	}
	off = 0;
	if (Tss2_MU_TPMS_ATTEST_Unmarshal(msg, mlen, &off, &a) || off != mlen) {
		attest_err("%s: not a marshalled TPMS_ATTEST", names[MSG]);
		return -EBADMSG;
	}
	pkey = load_key(pem, pemlen, names[KEY]);
	if (!pkey)
		return -EBADMSG;
	/* The signature first: nothing in an unsigned message is evidence. */
	ret = check_signature(&ts, pkey, msg, mlen, names, &out->sig_alg);
	EVP_PKEY_free(pkey);
	if (ret)
		return ret;
	if (a.magic != TPM2_GENERATED_VALUE) {
		attest_err("%s: not generated by a TPM (magic 0x%08x)", names[MSG],
			   a.magic);
		return -EKEYREJECTED;
	}
	if (a.type != TPM2_ST_ATTEST_QUOTE) {
		attest_err("%s: not a quote (attestation type 0x%04x)", names[MSG],
			   a.type);
		return -EKEYREJECTED;
	}
	if (a.extraData.size != nlen ||
	    CRYPTO_memcmp(a.extraData.buffer, nonce, nlen)) {
		attest_err("%s: the quote's nonce is not the one given (a replayed quote, or one made for another verifier)",
			   names[MSG]);
		return -EKEYREJECTED;
	}
	ret = check_selection(&a.attested.quote.pcrSelect, pcr, names[MSG], out);
	if (ret)
		return ret;
	if (a.attested.quote.pcrDigest.size != ATTEST_SHA256_LEN) {
		attest_err("%s: the PCR digest has %u bytes, not SHA-256's 32",
			   names[MSG], a.attested.quote.pcrDigest.size);
		return -EKEYREJECTED;
	}
	out->pcr = pcr;
	memcpy(out->pcr_digest, a.attested.quote.pcrDigest.buffer,
	       ATTEST_SHA256_LEN);
	out->clock = a.clockInfo.clock;
	return 0;
}

/* SHA-256 over the quoted PCRs' values, @pcr's being @value. */
static void pcr_digest(const struct attest_quote *q,
		       const uint8_t value[ATTEST_SHA256_LEN],
		       uint8_t d[ATTEST_SHA256_LEN])
{
	uint8_t all[ATTEST_MAX_PCRS * ATTEST_SHA256_LEN];
	unsigned int i;

	for (i = 0; i < q->npcrs; i++)
		memcpy(all + i * ATTEST_SHA256_LEN,
		       q->pcrs[i] == q->pcr ? value : q->values[i],
		       ATTEST_SHA256_LEN);
	SHA256(all, q->npcrs * ATTEST_SHA256_LEN, d);
}

/* One "sha256:N=HEX" line of @what for quoted PCR @i into @v. */
static int value_line(const struct attest_quote *q, const char *line,
		      size_t len, unsigned int i, uint8_t *v,
		      const char *what)
{
	char want[16];
	int n;

	n = snprintf(want, sizeof(want), "sha256:%u=", q->pcrs[i]);
	if (len != (size_t)n + 2 * ATTEST_SHA256_LEN ||
	    memcmp(line, want, (size_t)n) ||
	    common_unhex(line + n, 2 * ATTEST_SHA256_LEN, v, ATTEST_SHA256_LEN)) {
		attest_err("%s: line %u: expected %s<64 hex digits> (the quote's PCRs in order)",
			   what, i + 1, want);
		return -EBADMSG;
	}
	return 0;
}

int attest_quote_values(struct attest_quote *q, const uint8_t *buf,
			size_t len, const char *what)
{
	size_t want = q->npcrs * ATTEST_SHA256_LEN;
	uint8_t d[ATTEST_SHA256_LEN];
	char list[128];
	unsigned int i;
	int ret;

	attest_quote_pcr_list(q, list, sizeof(list));
	if (len >= 7 && memcmp(buf, "sha256:", 7) == 0) {
		const char *p = (const char *)buf, *end = p + len;

		for (i = 0; i < q->npcrs; i++) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);

			if (p >= end) {
				attest_err("%s: %u values, the quote covers %s",
					   what, i, list);
				return -EBADMSG;
			}
			ret = value_line(q, p, l, i, q->values[i], what);
			if (ret)
				return ret;
			p += l + (nl != NULL);
		}
		if (p != end) {
			attest_err("%s: more values than the quote's PCRs %s", what,
				   list);
			return -EBADMSG;
		}
	} else if (len == want) {
		for (i = 0; i < q->npcrs; i++)
			memcpy(q->values[i], buf + i * ATTEST_SHA256_LEN,
			       ATTEST_SHA256_LEN);
	} else {
		attest_err("%s: neither %zu bytes (the values of %s, as tpm2_quote -F values writes them) nor sha256:N=HEX lines",
			   what, want, list);
		return -EBADMSG;
	}
	for (i = 0; i < q->npcrs && q->pcrs[i] != q->pcr; i++)
		;
	if (i == q->npcrs)	/* attest_quote_verify() made sure it is there */
		return -EINVAL;
	pcr_digest(q, q->values[i], d);
	if (CRYPTO_memcmp(d, q->pcr_digest, sizeof(d))) {
		attest_err("%s: these values of %s are not the quoted ones (their digest is not the quote's PCR digest)",
			   what, list);
		return -EKEYREJECTED;
	}
	q->have_values = true;
	return 0;
}

int attest_quote_matches(const struct attest_quote *q,
			 const uint8_t value[ATTEST_SHA256_LEN],
			 const char *what)
{
	uint8_t d[ATTEST_SHA256_LEN];

	/*
	 * The quote's pcrDigest: the AK scheme's hash (SHA-256) over the
	 * selected PCR values in index order, the replayed value in @pcr's
	 * place (the others are the checked --pcr-values).
	 */
	pcr_digest(q, value, d);
	if (CRYPTO_memcmp(d, q->pcr_digest, sizeof(d))) {
		attest_err("%s: the log does not replay to the quoted PCR %u (records missing, added, reordered or changed, or PCR %u extended by someone else)",
			   what, q->pcr, q->pcr);
		return -EBADE;
	}
	return 0;
}
