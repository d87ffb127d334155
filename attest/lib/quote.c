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
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <tss2/tss2_mu.h>

#include "attest.h"
#include "elfsig_tpm.h"
#include "kl.h"

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
		kl_err_ssl("%s: not a PEM public key", name);
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
		kl_err("%s: signature algorithm 0x%04x does not go with the key in %s (ECDSA or RSASSA, SHA-256)",
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
		kl_err_ssl("%s: the quote's signature does not verify with the attestation key %s",
			   names[SIG], names[KEY]);
		return -EKEYREJECTED;
	}
	return 0;
}

/* The selection must be exactly sha256:@pcr. */
static int check_selection(const TPML_PCR_SELECTION *sel, unsigned int pcr,
			   const char *name)
{
	const TPMS_PCR_SELECTION *s = &sel->pcrSelections[0];
	bool ok = sel->count == 1 && s->hash == TPM2_ALG_SHA256 &&
		  s->sizeofSelect <= sizeof(s->pcrSelect) &&
		  s->sizeofSelect * 8u > pcr;
	unsigned int i;

	for (i = 0; ok && i < s->sizeofSelect * 8u; i++)
		ok = !!(s->pcrSelect[i / 8] & (1u << (i % 8))) == (i == pcr);
	if (!ok) {
		char got[160] = "", bank[8];
		size_t n = 0;
		unsigned int k;

		for (k = 0; k < sel->count && k < TPM2_NUM_PCR_BANKS &&
			    n < sizeof(got) - 40; k++) {
			const TPMS_PCR_SELECTION *b = &sel->pcrSelections[k];
			const char *alg = elfsig_tpm_bank_name(b->hash);
			unsigned int bits = b->sizeofSelect <= sizeof(b->pcrSelect) ?
					    b->sizeofSelect * 8u : 0;
			const char *sep = ":";

			snprintf(bank, sizeof(bank), "0x%04x", b->hash);
			n += snprintf(got + n, sizeof(got) - n, "%s%s",
				      k ? "+" : "", alg ? alg : bank);
			for (i = 0; i < bits && n < sizeof(got) - 8; i++) {
				if (!(b->pcrSelect[i / 8] & (1u << (i % 8))))
					continue;
				n += snprintf(got + n, sizeof(got) - n, "%s%u",
					      sep, i);
				sep = ",";
			}
		}
		kl_err("%s: the quote covers PCRs %s and not sha256:%u alone",
		       name, n ? got : "none", pcr);
		return -EKEYREJECTED;
	}
	return 0;
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
		kl_err("%s: not a marshalled TPMT_SIGNATURE", names[SIG]);
		return -EBADMSG;
	}
	off = 0;
	if (Tss2_MU_TPMS_ATTEST_Unmarshal(msg, mlen, &off, &a) || off != mlen) {
		kl_err("%s: not a marshalled TPMS_ATTEST", names[MSG]);
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
		kl_err("%s: not generated by a TPM (magic 0x%08x)", names[MSG],
		       a.magic);
		return -EKEYREJECTED;
	}
	if (a.type != TPM2_ST_ATTEST_QUOTE) {
		kl_err("%s: not a quote (attestation type 0x%04x)", names[MSG],
		       a.type);
		return -EKEYREJECTED;
	}
	if (a.extraData.size != nlen ||
	    CRYPTO_memcmp(a.extraData.buffer, nonce, nlen)) {
		kl_err("%s: the quote's nonce is not the one given (a replayed quote, or one made for another verifier)",
		       names[MSG]);
		return -EKEYREJECTED;
	}
	ret = check_selection(&a.attested.quote.pcrSelect, pcr, names[MSG]);
	if (ret)
		return ret;
	if (a.attested.quote.pcrDigest.size != ATTEST_SHA256_LEN) {
		kl_err("%s: the PCR digest has %u bytes, not SHA-256's 32",
		       names[MSG], a.attested.quote.pcrDigest.size);
		return -EKEYREJECTED;
	}
	out->pcr = pcr;
	memcpy(out->pcr_digest, a.attested.quote.pcrDigest.buffer,
	       ATTEST_SHA256_LEN);
	out->clock = a.clockInfo.clock;
	return 0;
}

int attest_quote_matches(const struct attest_quote *q,
			 const uint8_t value[ATTEST_SHA256_LEN],
			 const char *what)
{
	uint8_t d[ATTEST_SHA256_LEN];

	/* The quote's pcrDigest: the AK scheme's hash (SHA-256) over the
	 * selected PCR values in index order; here the one value. */
	kl_sha256(value, ATTEST_SHA256_LEN, d);
	if (CRYPTO_memcmp(d, q->pcr_digest, sizeof(d))) {
		kl_err("%s: the log does not replay to the quoted PCR %u (records missing, added, reordered or changed, or PCR %u extended by someone else)",
		       what, q->pcr, q->pcr);
		return -EBADE;
	}
	return 0;
}
