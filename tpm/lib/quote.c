// SPDX-License-Identifier: LGPL-2.1-or-later
/* quote.c - attestation key (restricted signing key) and TPM2_Quote. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <tss2/tss2_mu.h>

#include "tpm_private.h"

#define AK_ATTRS (TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT | \
		  TPMA_OBJECT_SENSITIVEDATAORIGIN | TPMA_OBJECT_USERWITHAUTH | \
		  TPMA_OBJECT_RESTRICTED | TPMA_OBJECT_SIGN_ENCRYPT)

/*
 * A restricted signing key: the TPM signs with it only what it generated
 * itself (TPMS_ATTEST starting with TPM_GENERATED_VALUE), so a signature
 * under it cannot be had for a forged quote. The scheme is fixed in the
 * key, as a restricted key requires.
 */
static void ak_template(enum elfsig_tpm_keytype type, TPM2B_PUBLIC *tmpl)
{
	TPMT_PUBLIC *p = &tmpl->publicArea;

	memset(tmpl, 0, sizeof(*tmpl));
	p->nameAlg = TPM2_ALG_SHA256;
	p->objectAttributes = AK_ATTRS;
	if (type == ELFSIG_TPM_KEY_RSA2048) {
		p->type = TPM2_ALG_RSA;
		p->parameters.rsaDetail.symmetric.algorithm = TPM2_ALG_NULL;
		p->parameters.rsaDetail.scheme.scheme = TPM2_ALG_RSASSA;
		p->parameters.rsaDetail.scheme.details.rsassa.hashAlg =
			TPM2_ALG_SHA256;
		p->parameters.rsaDetail.keyBits = 2048;
	} else {
		p->type = TPM2_ALG_ECC;
		p->parameters.eccDetail.symmetric.algorithm = TPM2_ALG_NULL;
		p->parameters.eccDetail.scheme.scheme = TPM2_ALG_ECDSA;
		p->parameters.eccDetail.scheme.details.ecdsa.hashAlg =
			TPM2_ALG_SHA256;
		p->parameters.eccDetail.curveID = TPM2_ECC_NIST_P256;
		p->parameters.eccDetail.kdf.scheme = TPM2_ALG_NULL;
	}
}

/* What a key found at the handle must be to serve as our AK. */
static int ak_check(const TPMT_PUBLIC *p, uint32_t handle,
		    enum elfsig_tpm_keytype want)
{
	bool ok = (p->objectAttributes & AK_ATTRS) == AK_ATTRS &&
		  !(p->objectAttributes & TPMA_OBJECT_DECRYPT);

	if (p->type == TPM2_ALG_ECC)
		ok = ok && want != ELFSIG_TPM_KEY_RSA2048 &&
		     p->parameters.eccDetail.curveID == TPM2_ECC_NIST_P256 &&
		     p->parameters.eccDetail.scheme.scheme == TPM2_ALG_ECDSA &&
		     p->parameters.eccDetail.scheme.details.ecdsa.hashAlg ==
		     TPM2_ALG_SHA256;
	else if (p->type == TPM2_ALG_RSA)
		ok = ok && want != ELFSIG_TPM_KEY_ECC_P256 &&
		     p->parameters.rsaDetail.keyBits == 2048 &&
		     p->parameters.rsaDetail.scheme.scheme == TPM2_ALG_RSASSA &&
		     p->parameters.rsaDetail.scheme.details.rsassa.hashAlg ==
		     TPM2_ALG_SHA256;
	else
		ok = false;
	if (!ok) {
		tpm_err("persistent handle 0x%08x holds a key that is not %s restricted signing key (ECDSA P-256 or RSASSA-2048 with SHA-256, fixedTPM)",
			handle, want ? "the requested" : "a");
		return -EEXIST;
	}
	return 0;
}

/* The key's public part as an OpenSSL key. */
static EVP_PKEY *public_to_pkey(const TPMT_PUBLIC *p)
{
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	EVP_PKEY *pkey = NULL;
	BIGNUM *n = NULL, *e = NULL;
	uint8_t point[1 + 2 * TPM2_MAX_ECC_KEY_BYTES];
	const char *type;
	bool ok = bld != NULL;

	if (ok && p->type == TPM2_ALG_ECC) {
		const TPMS_ECC_POINT *q = &p->unique.ecc;

		type = "EC";
		ok = q->x.size == 32 && q->y.size == 32;
		if (ok) {
			point[0] = 0x04;	/* uncompressed */
			memcpy(point + 1, q->x.buffer, 32);
			memcpy(point + 33, q->y.buffer, 32);
			ok = OSSL_PARAM_BLD_push_utf8_string(bld,
					OSSL_PKEY_PARAM_GROUP_NAME, "P-256", 0) &&
			     OSSL_PARAM_BLD_push_octet_string(bld,
					OSSL_PKEY_PARAM_PUB_KEY, point, 65);
		}
	} else if (ok) {
		uint32_t exp = p->parameters.rsaDetail.exponent;

		type = "RSA";
		n = BN_bin2bn(p->unique.rsa.buffer, p->unique.rsa.size, NULL);
		e = BN_new();
		ok = n && e && BN_set_word(e, exp ? exp : 65537) &&
		     OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n) &&
		     OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e);
	}
	if (ok)
		ok = (params = OSSL_PARAM_BLD_to_param(bld)) &&
		     (ctx = EVP_PKEY_CTX_new_from_name(NULL, type, NULL)) &&
		     EVP_PKEY_fromdata_init(ctx) > 0 &&
		     EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY,
				       params) > 0;
	if (!ok) {
		EVP_PKEY_free(pkey);
		pkey = NULL;
	}
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	BN_free(n);
	BN_free(e);
	return pkey;
}

/* Write the public key as PEM (SubjectPublicKeyInfo), replacing @path. */
static int write_public_pem(const TPMT_PUBLIC *p, const char *path)
{
	EVP_PKEY *pkey = public_to_pkey(p);
	BIO *bio = NULL;
	int fd, ret = -EIO;
	bool ok;

	if (!pkey) {
		tpm_err("%s: cannot convert the attestation key's public part",
			path);
		return -EIO;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		tpm_err("%s: %s", path, strerror(errno));
		goto out;
	}
	bio = BIO_new_fd(fd, BIO_NOCLOSE);
	ok = bio && PEM_write_bio_PUBKEY(bio, pkey) > 0 && BIO_flush(bio) > 0;
	if (close(fd))
		ok = false;
	if (!ok) {
		tpm_err("%s: write failed", path);
		goto out;
	}
	ret = 0;
out:
	BIO_free(bio);
	EVP_PKEY_free(pkey);
	return ret;
}

/* Create the AK under the SRK and persist it at @handle. */
static int ak_create(struct elfsig_tpm *t, enum elfsig_tpm_keytype type,
		     uint32_t handle, TPM2B_PUBLIC **pub)
{
	static const TPM2B_SENSITIVE_CREATE sens;	/* empty auth */
	TPM2B_PRIVATE *priv = NULL;
	ESYS_TR srk, obj = ESYS_TR_NONE, persisted = ESYS_TR_NONE;
	TPM2B_PUBLIC tmpl;
	int ret, fret;

	ret = tpm_srk_get(t, &srk);
	if (ret)
		return ret;
	ak_template(type, &tmpl);
	ret = tpm_create(t, srk, ESYS_TR_PASSWORD, &sens, &tmpl, &priv, pub);
	if (!ret)
		ret = tpm_load(t, srk, priv, *pub, &obj);
	if (!ret)
		ret = tpm_evict_control(t, obj, handle, &persisted);
	if (!ret)
		Esys_TR_Close(t->esys, &persisted);
	fret = tpm_flush(t, &obj, ret != 0);
	ret = ret ?: fret;
	Esys_Free(priv);
	if (ret) {
		Esys_Free(*pub);
		*pub = NULL;
	}
	return ret;
}

int elfsig_tpm_ak(struct elfsig_tpm *t, enum elfsig_tpm_keytype type,
		  uint32_t handle, const char *pub_pem, int *created)
{
	TPM2B_PUBLIC *pub = NULL;
	ESYS_TR tr;
	int ret;

	*created = 0;
	if (type && type != ELFSIG_TPM_KEY_RSA2048 &&
	    type != ELFSIG_TPM_KEY_ECC_P256) {
		tpm_err("attestation key: unknown key type");
		return -EINVAL;
	}
	if (!tpm_handle_persistent_owner(handle)) {
		tpm_err("attestation key: 0x%08x is not an owner persistent handle (0x81000000..0x817fffff)",
			handle);
		return -EINVAL;
	}
	ret = tpm_tr_from_public(t, handle, &tr, true);
	if (ret == 0) {
		ret = tpm_read_public(t, tr, &pub);
		Esys_TR_Close(t->esys, &tr);
		if (!ret)
			ret = ak_check(&pub->publicArea, handle, type);
	} else if (ret == -ENOENT) {
		ret = ak_create(t, type ? type : ELFSIG_TPM_KEY_ECC_P256,
				handle, &pub);
		*created = ret == 0;
	} else {
		tpm_err("persistent handle 0x%08x: cannot tell whether it is free",
			handle);
	}
	if (!ret && pub_pem) {
		ret = write_public_pem(&pub->publicArea, pub_pem);
		if (ret && *created) {
			/* All or nothing: no key left behind after an error. */
			elfsig_tpm_evict(t, handle);
			*created = 0;
		}
	}
	Esys_Free(pub);
	return ret;
}

static int tpm_quote_call(struct elfsig_tpm *t, ESYS_TR key,
			  const TPM2B_DATA *qualifying,
			  const TPML_PCR_SELECTION *pcrs, TPM2B_ATTEST **quoted,
			  TPMT_SIGNATURE **sig)
{
	static const TPMT_SIG_SCHEME key_scheme = { .scheme = TPM2_ALG_NULL };
	TSS2_RC rc;

	rc = Esys_Quote(t->esys, key, ESYS_TR_PASSWORD, ESYS_TR_NONE,
			ESYS_TR_NONE, qualifying, &key_scheme, pcrs, quoted,
			sig);
	return tpm_rc_fail(rc, "TPM2_Quote");
}

int elfsig_tpm_quote(struct elfsig_tpm *t, uint32_t ak_handle,
		     const uint8_t *nonce, size_t nonce_len,
		     const struct elfsig_tpm_pcrsel *sel, uint8_t **attest,
		     size_t *attest_len, uint8_t **sig, size_t *sig_len)
{
	TPM2B_DATA qualifying = { .size = 0 };
	TPML_PCR_SELECTION tpml;
	TPM2B_ATTEST *quoted = NULL;
	TPMT_SIGNATURE *signature = NULL;
	TPM2B_PUBLIC *pub = NULL;
	uint8_t sbuf[sizeof(TPMT_SIGNATURE)];
	size_t slen = 0;
	ESYS_TR ak;
	int ret;

	*attest = *sig = NULL;
	*attest_len = *sig_len = 0;
	if (nonce_len > sizeof(qualifying.buffer) || !elfsig_tpm_bank_size(sel->bank) ||
	    !sel->mask || sel->mask >> ELFSIG_TPM_MAX_PCRS) {
		tpm_err("quote: nonce of more than %zu bytes, or invalid PCR selection",
			sizeof(qualifying.buffer));
		return -EINVAL;
	}
	memcpy(qualifying.buffer, nonce, nonce_len);
	qualifying.size = (UINT16)nonce_len;
	tpm_pcrsel_to_tpml(sel, &tpml);
	ret = tpm_tr_from_public(t, ak_handle, &ak, false);
	if (ret)
		return ret;
	/* Quote only with a key that is an AK: a quote signed by anything
	 * else would not verify as one anyway, say why here. */
	ret = tpm_read_public(t, ak, &pub);
	if (!ret)
		ret = ak_check(&pub->publicArea, ak_handle, 0);
	if (!ret)
		ret = tpm_quote_call(t, ak, &qualifying, &tpml, &quoted,
				     &signature);
	Esys_TR_Close(t->esys, &ak);
	if (ret)
		goto out;
	if (Tss2_MU_TPMT_SIGNATURE_Marshal(signature, sbuf, sizeof(sbuf),
					   &slen) != TSS2_RC_SUCCESS) {
		tpm_err("quote: cannot marshal the signature");
		ret = -EIO;
		goto out;
	}
	*attest = malloc(quoted->size ? quoted->size : 1);
	*sig = malloc(slen);
	if (!*attest || !*sig) {
		free(*attest);
		free(*sig);
		*attest = *sig = NULL;
		ret = -ENOMEM;
		goto out;
	}
	memcpy(*attest, quoted->attestationData, quoted->size);
	*attest_len = quoted->size;
	memcpy(*sig, sbuf, slen);
	*sig_len = slen;
out:
	Esys_Free(pub);
	Esys_Free(quoted);
	Esys_Free(signature);
	return ret;
}
