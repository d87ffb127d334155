// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * authorize.c - objects bound with PolicyAuthorize to PCR policies that an
 * authority key signs (docs/tpm.md, "Signed PCR policies").
 *
 * The object's authPolicy is PolicyAuthorize(authority name, policyRef):
 * it opens under any PCR policy the authority signed, so a new boot state
 * needs a new signature, never a TPM write. The digests are computed here
 * without a TPM (a build pipeline signs PCR policies without one) and are
 * the TPM's own (tests/tpm/authorize.sh compares them with tpm2-tools).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <tss2/tss2_mu.h>

#include "tpm_private.h"

#define SHA256_LEN	32

static int sha256_parts(const void *a, size_t alen, const void *b, size_t blen,
			const void *c, size_t clen, uint8_t out[SHA256_LEN])
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	int ok;

	ok = md && EVP_DigestInit_ex(md, EVP_sha256(), NULL) &&
	     EVP_DigestUpdate(md, a, alen) &&
	     (!blen || EVP_DigestUpdate(md, b, blen)) &&
	     (!clen || EVP_DigestUpdate(md, c, clen)) &&
	     EVP_DigestFinal_ex(md, out, NULL);
	EVP_MD_CTX_free(md);
	if (!ok) {
		tpm_err("SHA-256 failed");
		return -EIO;
	}
	return 0;
}

static void be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

/* PolicyPCR(@v) on a session whose digest is @start. */
static int pcr_policy_extend(const uint8_t start[SHA256_LEN],
			     const struct elfsig_tpm_pcr_values *v,
			     uint8_t out[ELFSIG_TPM_POLICY_SIZE])
{
	uint8_t head[SHA256_LEN + 4], sel[sizeof(TPML_PCR_SELECTION)];
	TPML_PCR_SELECTION tpml;
	TPM2B_DIGEST pcrs;
	size_t off = 0;
	int ret;

	if (!elfsig_tpm_bank_size(v->sel.bank) || !v->sel.mask ||
	    v->sel.mask >> ELFSIG_TPM_MAX_PCRS ||
	    v->digest_size != elfsig_tpm_bank_size(v->sel.bank)) {
		tpm_err("PCR policy: invalid PCR selection or values");
		return -EINVAL;
	}
	/* policyDigest = H(start || TPM_CC_PolicyPCR || pcrs || H(values)) */
	tpm_pcrsel_to_tpml(&v->sel, &tpml);
	if (Tss2_MU_TPML_PCR_SELECTION_Marshal(&tpml, sel, sizeof(sel), &off))
		return -EIO;
	ret = tpm_pcr_digest(v, TPM2_ALG_SHA256, &pcrs);
	if (ret)
		return ret;
	memcpy(head, start, SHA256_LEN);
	be32(head + SHA256_LEN, TPM2_CC_PolicyPCR);
	return sha256_parts(head, sizeof(head), sel, off, pcrs.buffer,
			    pcrs.size, out);
}

int elfsig_tpm_pcr_policy_digest(const struct elfsig_tpm_pcr_values *v,
				 uint8_t out[ELFSIG_TPM_POLICY_SIZE])
{
	static const uint8_t zero[SHA256_LEN];

	return pcr_policy_extend(zero, v, out);
}

int elfsig_tpm_authorize_policy(const uint8_t *name, size_t name_len,
				const uint8_t *ref, size_t ref_len,
				uint8_t out[ELFSIG_TPM_POLICY_SIZE])
{
	uint8_t head[SHA256_LEN + 4], mid[SHA256_LEN];
	int ret;

	if (!name_len || name_len > ELFSIG_TPM_MAX_NAME ||
	    ref_len > ELFSIG_TPM_MAX_POLICY_REF) {
		tpm_err("PolicyAuthorize: invalid key name or policy reference");
		return -EINVAL;
	}
	/* PolicyUpdate(TPM_CC_PolicyAuthorize, keyName, policyRef) from a
	 * reset digest: H(H(0...0 || CC || keyName) || policyRef). */
	memset(head, 0, SHA256_LEN);
	be32(head + SHA256_LEN, TPM2_CC_PolicyAuthorize);
	ret = sha256_parts(head, sizeof(head), name, name_len, NULL, 0, mid);
	if (!ret)
		ret = sha256_parts(mid, sizeof(mid), ref, ref_len, NULL, 0, out);
	return ret;
}

int elfsig_tpm_authorize_tbs(const uint8_t approved[ELFSIG_TPM_POLICY_SIZE],
			     const uint8_t *ref, size_t ref_len,
			     uint8_t out[ELFSIG_TPM_POLICY_SIZE])
{
	if (ref_len > ELFSIG_TPM_MAX_POLICY_REF) {
		tpm_err("PolicyAuthorize: policy reference over %d bytes",
			ELFSIG_TPM_MAX_POLICY_REF);
		return -EINVAL;
	}
	/* aHash = H(approvedPolicy || policyRef), nameAlg of the key */
	return sha256_parts(approved, ELFSIG_TPM_POLICY_SIZE, ref, ref_len,
			    NULL, 0, out);
}

/* The curves and RSA sizes an authority key may have (format v1's table). */
static int ec_curve(EVP_PKEY *key, TPMI_ECC_CURVE *curve, size_t *size)
{
	char group[64];

	if (!EVP_PKEY_get_group_name(key, group, sizeof(group), NULL))
		return -EKEYREJECTED;
	if (!strcmp(group, "prime256v1")) {
		*curve = TPM2_ECC_NIST_P256;
		*size = 32;
	} else if (!strcmp(group, "secp384r1")) {
		*curve = TPM2_ECC_NIST_P384;
		*size = 48;
	} else {
		return -EKEYREJECTED;
	}
	return 0;
}

static int rsa_public(EVP_PKEY *key, TPMT_PUBLIC *p)
{
	BIGNUM *n = NULL, *e = NULL;
	int bits = EVP_PKEY_get_bits(key), ret = -EKEYREJECTED;

	if (bits != 2048 && bits != 3072 && bits != 4096)
		return ret;
	if (!EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_N, &n) ||
	    !EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_E, &e) ||
	    BN_num_bits(e) > 32 || BN_num_bytes(n) != bits / 8)
		goto out;
	p->type = TPM2_ALG_RSA;
	p->parameters.rsaDetail.symmetric.algorithm = TPM2_ALG_NULL;
	p->parameters.rsaDetail.scheme.scheme = TPM2_ALG_NULL;
	p->parameters.rsaDetail.keyBits = (TPMI_RSA_KEY_BITS)bits;
	/* 0 stands for the default exponent, 65537 */
	p->parameters.rsaDetail.exponent = BN_get_word(e) == 65537 ? 0 :
					   (UINT32)BN_get_word(e);
	p->unique.rsa.size = (UINT16)(bits / 8);
	if (BN_bn2binpad(n, p->unique.rsa.buffer, bits / 8) != bits / 8)
		goto out;
	ret = 0;
out:
	BN_free(n);
	BN_free(e);
	return ret;
}

static int ec_public(EVP_PKEY *key, TPMT_PUBLIC *p)
{
	uint8_t point[1 + 2 * 48];
	size_t size, len = 0;
	TPMI_ECC_CURVE curve;

	if (ec_curve(key, &curve, &size) ||
	    !EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY,
					     point, sizeof(point), &len) ||
	    len != 1 + 2 * size || point[0] != 4)
		return -EKEYREJECTED;
	p->type = TPM2_ALG_ECC;
	p->parameters.eccDetail.symmetric.algorithm = TPM2_ALG_NULL;
	p->parameters.eccDetail.scheme.scheme = TPM2_ALG_NULL;
	p->parameters.eccDetail.curveID = curve;
	p->parameters.eccDetail.kdf.scheme = TPM2_ALG_NULL;
	p->unique.ecc.x.size = p->unique.ecc.y.size = (UINT16)size;
	memcpy(p->unique.ecc.x.buffer, point + 1, size);
	memcpy(p->unique.ecc.y.buffer, point + 1 + size, size);
	return 0;
}

/* A DER SubjectPublicKeyInfo, parsed; NULL with a message if it is not
 * one, or has bytes after it. */
static EVP_PKEY *parse_spki(const uint8_t *spki, size_t len)
{
	const unsigned char *p = spki;
	EVP_PKEY *key;

	if (!len || len > 4096) {
		tpm_err("authority key: not a public key (%zu bytes)", len);
		return NULL;
	}
	key = d2i_PUBKEY(NULL, &p, (long)len);
	if (!key || p != spki + len) {
		EVP_PKEY_free(key);
		tpm_err_ssl("authority key: not a DER public key");
		return NULL;
	}
	return key;
}

/*
 * The public area the TPM loads the authority key as (TPM2_LoadExternal):
 * a signing key, SHA-256 name, no scheme (the signature names its own),
 * so that its name is a function of the key alone.
 */
static int authority_public(const uint8_t *spki, size_t len, TPM2B_PUBLIC *pub)
{
	EVP_PKEY *key = parse_spki(spki, len);
	int ret;

	if (!key)
		return -EBADMSG;
	memset(pub, 0, sizeof(*pub));
	pub->publicArea.nameAlg = TPM2_ALG_SHA256;
	pub->publicArea.objectAttributes = TPMA_OBJECT_SIGN_ENCRYPT |
					   TPMA_OBJECT_USERWITHAUTH;
	if (EVP_PKEY_is_a(key, "RSA"))
		ret = rsa_public(key, &pub->publicArea);
	else if (EVP_PKEY_is_a(key, "EC"))
		ret = ec_public(key, &pub->publicArea);
	else
		ret = -EKEYREJECTED;
	if (ret)
		tpm_err("authority key: not an RSA 2048/3072/4096 or ECDSA P-256/P-384 key");
	EVP_PKEY_free(key);
	return ret;
}

static int public_name(const TPM2B_PUBLIC *pub, uint8_t *name, size_t *len)
{
	uint8_t buf[sizeof(TPMT_PUBLIC)];
	size_t off = 0;
	int ret;

	if (Tss2_MU_TPMT_PUBLIC_Marshal(&pub->publicArea, buf, sizeof(buf), &off))
		return -EIO;
	name[0] = TPM2_ALG_SHA256 >> 8;
	name[1] = TPM2_ALG_SHA256 & 0xff;
	ret = sha256_parts(buf, off, NULL, 0, NULL, 0, name + 2);
	*len = ret ? 0 : 2 + SHA256_LEN;
	return ret;
}

int elfsig_tpm_authority_name(const uint8_t *spki, size_t len, uint8_t *name,
			      size_t *name_len)
{
	TPM2B_PUBLIC pub;
	int ret;

	*name_len = 0;
	ret = authority_public(spki, len, &pub);
	return ret ? ret : public_name(&pub, name, name_len);
}

/* The authority's signature as the TPM takes it: RSASSA or ECDSA, SHA-256. */
static int tpm_signature(const TPM2B_PUBLIC *pub, const uint8_t *sig,
			 size_t len, TPMT_SIGNATURE *out)
{
	const TPMT_PUBLIC *p = &pub->publicArea;
	const unsigned char *q = sig;
	const BIGNUM *r, *s;
	ECDSA_SIG *es;
	size_t size;
	int ret = -EBADMSG;

	memset(out, 0, sizeof(*out));
	if (p->type == TPM2_ALG_RSA) {
		if (len != p->unique.rsa.size)
			goto bad;
		out->sigAlg = TPM2_ALG_RSASSA;
		out->signature.rsassa.hash = TPM2_ALG_SHA256;
		out->signature.rsassa.sig.size = (UINT16)len;
		memcpy(out->signature.rsassa.sig.buffer, sig, len);
		return 0;
	}
	size = p->unique.ecc.x.size;
	es = len <= 2 * 64 + 16 ? d2i_ECDSA_SIG(NULL, &q, (long)len) : NULL;
	if (!es)
		goto bad;
	ECDSA_SIG_get0(es, &r, &s);
	out->sigAlg = TPM2_ALG_ECDSA;
	out->signature.ecdsa.hash = TPM2_ALG_SHA256;
	out->signature.ecdsa.signatureR.size = (UINT16)size;
	out->signature.ecdsa.signatureS.size = (UINT16)size;
	if (q == sig + len &&
	    BN_bn2binpad(r, out->signature.ecdsa.signatureR.buffer, (int)size) == (int)size &&
	    BN_bn2binpad(s, out->signature.ecdsa.signatureS.buffer, (int)size) == (int)size)
		ret = 0;
	ECDSA_SIG_free(es);
	if (!ret)
		return 0;
bad:
	tpm_err("signed PCR policy: malformed signature (%zu bytes) for the authority key",
		len);
	return ret;
}

int tpm_authorized_policy(const struct elfsig_tpm_sealed *s,
			  uint8_t out[ELFSIG_TPM_POLICY_SIZE])
{
	uint8_t mid[ELFSIG_TPM_POLICY_SIZE];
	int ret;

	ret = elfsig_tpm_authorize_policy(s->auth_name, s->auth_name_len,
					  s->ref, s->ref_len,
					  s->sel.mask ? mid : out);
	if (!ret && s->sel.mask)
		ret = pcr_policy_extend(mid, &s->values, out);
	return ret;
}

size_t elfsig_tpm_sealed_authority(const struct elfsig_tpm_sealed *s,
				   const uint8_t **name, const uint8_t **ref,
				   size_t *ref_len)
{
	*name = s->authorized ? s->auth_name : NULL;
	*ref = s->authorized ? s->ref : NULL;
	*ref_len = s->authorized ? s->ref_len : 0;
	return s->authorized ? s->auth_name_len : 0;
}

static bool rc_is_value(TSS2_RC rc)
{
	/* TPM_RC_VALUE, whatever parameter it names (format 1) */
	return (rc & 0xfffff0bfu) == TPM2_RC_VALUE;
}

/*
 * PolicyPCR with each candidate's expected digest, in order, until the TPM
 * takes one: a digest that is not the current one fails with
 * TPM_RC_VALUE and leaves the session as it was. Return: the index, or
 * -EACCES when none matches, or a negative errno.
 */
static long match_pcr_policy(struct elfsig_tpm *t, ESYS_TR session,
			     const struct elfsig_tpm_signed_pcr_policy *pols,
			     size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		TPML_PCR_SELECTION tpml;
		TPM2B_DIGEST d;
		TSS2_RC rc;
		int ret;

		ret = tpm_pcr_digest(&pols[i].values, TPM2_ALG_SHA256, &d);
		if (ret)
			return ret;
		tpm_pcrsel_to_tpml(&pols[i].values.sel, &tpml);
		rc = Esys_PolicyPCR(t->esys, session, ESYS_TR_NONE, ESYS_TR_NONE,
				    ESYS_TR_NONE, &d, &tpml);
		if (rc == TSS2_RC_SUCCESS)
			return (long)i;
		if (!rc_is_value(rc))
			return tpm_rc_fail(rc, "PolicyPCR");
	}
	tpm_err("PCR policy not satisfied: the current PCR values match none of the %zu signed PCR policies",
		n);
	return -EACCES;
}

/*
 * The authority's public key in the TPM, named as computed. The owner
 * hierarchy: a key in the null hierarchy gets a null ticket from
 * VerifySignature, which PolicyAuthorize refuses.
 */
static int load_authority(struct elfsig_tpm *t, const TPM2B_PUBLIC *pub,
			  const uint8_t *name, size_t name_len, ESYS_TR *key)
{
	TPM2B_NAME *loaded = NULL;
	TSS2_RC rc;
	int ret;

	rc = Esys_LoadExternal(t->esys, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE,
			       NULL, pub, ESYS_TR_RH_OWNER, key);
	if (rc != TSS2_RC_SUCCESS) {
		*key = ESYS_TR_NONE;
		return tpm_rc_fail(rc, "loading the authority's public key (a key type this TPM lacks?)");
	}
	rc = Esys_TR_GetName(t->esys, *key, &loaded);
	ret = tpm_rc_fail(rc, "reading the authority key's name");
	if (!ret && (loaded->size != name_len ||
		     memcmp(loaded->name, name, name_len))) {
		tpm_err("the TPM names the authority key differently than computed");
		ret = -EIO;
	}
	Esys_Free(loaded);
	if (ret)
		tpm_flush(t, key, true);
	return ret;
}

/* The TPM checks the authority's signature and hands out the ticket
 * PolicyAuthorize wants. */
static int verify_signature(struct elfsig_tpm *t, const TPM2B_PUBLIC *pub,
			    const uint8_t name[ELFSIG_TPM_MAX_NAME],
			    size_t name_len, const TPM2B_DIGEST *ahash,
			    const TPMT_SIGNATURE *sig, TPMT_TK_VERIFIED **ticket)
{
	ESYS_TR key = ESYS_TR_NONE;
	TSS2_RC rc;
	int ret, fret;

	ret = load_authority(t, pub, name, name_len, &key);
	if (ret)
		return ret;
	rc = Esys_VerifySignature(t->esys, key, ESYS_TR_NONE, ESYS_TR_NONE,
				  ESYS_TR_NONE, ahash, sig, ticket);
	if ((rc & 0xfffff0bfu) == TPM2_RC_SIGNATURE) {
		tpm_err("the TPM refuses the signed PCR policy's signature: not made by the authority key");
		ret = -EBADMSG;
	} else {
		ret = tpm_rc_fail(rc, "verifying the signed PCR policy");
	}
	fret = tpm_flush(t, &key, ret != 0);
	ret = ret ?: fret;
	return ret;
}

int elfsig_tpm_seal_authorized(struct elfsig_tpm *t, const uint8_t *spki,
			       size_t spki_len, const uint8_t *ref,
			       size_t ref_len, const uint8_t *secret,
			       size_t len, struct elfsig_tpm_sealed **out)
{
	return elfsig_tpm_seal_authorized_pcrs(t, spki, spki_len, ref, ref_len,
					       NULL, secret, len, out);
}

int elfsig_tpm_seal_authorized_pcrs(struct elfsig_tpm *t, const uint8_t *spki,
				    size_t spki_len, const uint8_t *ref,
				    size_t ref_len,
				    const struct elfsig_tpm_pcr_values *pcrs,
				    const uint8_t *secret, size_t len,
				    struct elfsig_tpm_sealed **out)
{
	struct elfsig_tpm_sealed *s;
	ESYS_TR key = ESYS_TR_NONE;
	TPM2B_PUBLIC pub;
	TPM2B_DIGEST policy = { .size = ELFSIG_TPM_POLICY_SIZE };
	int ret;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	if (ref_len > ELFSIG_TPM_MAX_POLICY_REF) {
		free(s);
		tpm_err("PolicyAuthorize: policy reference over %d bytes",
			ELFSIG_TPM_MAX_POLICY_REF);
		return -EINVAL;
	}
	memcpy(s->ref, ref, ref_len);
	s->ref_len = ref_len;
	if (pcrs) {
		if (!elfsig_tpm_bank_size(pcrs->sel.bank) || !pcrs->sel.mask ||
		    pcrs->sel.mask >> ELFSIG_TPM_MAX_PCRS ||
		    pcrs->digest_size != elfsig_tpm_bank_size(pcrs->sel.bank)) {
			free(s);
			tpm_err("sealed object: invalid PCR selection or values");
			return -EINVAL;
		}
		s->sel = pcrs->sel;
		s->values = *pcrs;
		s->has_values = true;
	}
	ret = authority_public(spki, spki_len, &pub);
	if (!ret)
		ret = public_name(&pub, s->auth_name, &s->auth_name_len);
	if (!ret)
		ret = tpm_authorized_policy(s, policy.buffer);
	/* An object this TPM could never open is not written: the TPM must
	 * load the authority's key (RSA 4096 rarely loads). */
	if (!ret)
		ret = load_authority(t, &pub, s->auth_name, s->auth_name_len,
				     &key);
	if (!ret)
		ret = tpm_flush(t, &key, false);
	if (!ret)
		ret = tpm_seal_policy(t, &policy, secret, len, s);
	if (ret) {
		free(s);
		return ret;
	}
	s->authorized = true;
	*out = s;
	return 0;
}

int elfsig_tpm_unseal_authorized(struct elfsig_tpm *t,
				 const struct elfsig_tpm_sealed *s,
				 const uint8_t *spki, size_t spki_len,
				 const struct elfsig_tpm_signed_pcr_policy *pols,
				 size_t n, size_t *used, uint8_t *secret,
				 size_t cap, size_t *len)
{
	ESYS_TR srk, obj = ESYS_TR_NONE, session = ESYS_TR_NONE;
	TPM2B_SENSITIVE_DATA *data = NULL;
	TPMT_TK_VERIFIED *ticket = NULL;
	uint8_t name[ELFSIG_TPM_MAX_NAME];
	TPM2B_DIGEST approved = { .size = ELFSIG_TPM_POLICY_SIZE };
	TPM2B_DIGEST ahash = { .size = ELFSIG_TPM_POLICY_SIZE };
	TPM2B_NONCE ref = { .size = 0 };
	TPM2B_NAME key_name;
	TPMT_SIGNATURE sig;
	TPM2B_PUBLIC pub;
	size_t name_len;
	TSS2_RC rc;
	long i;
	int ret;

	*len = 0;
	*used = 0;
	if (!s->authorized) {
		tpm_err("sealed object: not bound to an authority with PolicyAuthorize");
		return -EINVAL;
	}
	if (!n) {
		tpm_err("no signed PCR policy to unseal with");
		return -EACCES;
	}
	ret = authority_public(spki, spki_len, &pub);
	if (!ret)
		ret = public_name(&pub, name, &name_len);
	if (ret)
		return ret;
	/* The object must open under this authority's policies only. */
	if (name_len != s->auth_name_len || memcmp(name, s->auth_name, name_len)) {
		tpm_err("sealed object: bound to another authority key");
		return -EBADE;
	}
	ret = tpm_srk_get(t, &srk);
	if (!ret && s->srk_name_len)
		ret = tpm_srk_check_name(t, srk, s->srk_name, s->srk_name_len);
	if (ret)
		return ret;
	ret = tpm_start_session(t, TPM2_SE_POLICY, srk,
				TPMA_SESSION_ENCRYPT | TPMA_SESSION_CONTINUESESSION,
				&session);
	if (ret)
		return ret;
	i = match_pcr_policy(t, session, pols, n);
	if (i < 0) {
		ret = (int)i;
		goto out;
	}
	ret = elfsig_tpm_pcr_policy_digest(&pols[i].values, approved.buffer);
	if (!ret)
		ret = elfsig_tpm_authorize_tbs(approved.buffer, s->ref, s->ref_len,
					       ahash.buffer);
	if (!ret)
		ret = tpm_signature(&pub, pols[i].sig, pols[i].sig_len, &sig);
	if (!ret)
		ret = verify_signature(t, &pub, name, name_len, &ahash, &sig,
				       &ticket);
	if (ret)
		goto out;
	ref.size = (UINT16)s->ref_len;
	memcpy(ref.buffer, s->ref, s->ref_len);
	key_name.size = (UINT16)name_len;
	memcpy(key_name.name, name, name_len);
	ret = tpm_rc_fail(Esys_PolicyAuthorize(t->esys, session, ESYS_TR_NONE,
					       ESYS_TR_NONE, ESYS_TR_NONE,
					       &approved, &ref, &key_name, ticket),
			  "PolicyAuthorize");
	if (ret)
		goto out;
	/* An object that also binds PCRs of its own: the approval replaces
	 * only the PCRs it covers. PolicyPCR of the current values; the
	 * unseal fails if they are not the object's. */
	if (s->sel.mask) {
		TPML_PCR_SELECTION tpml;
		TPM2B_DIGEST now = { .size = 0 };

		tpm_pcrsel_to_tpml(&s->sel, &tpml);
		ret = tpm_policy_pcr(t, session, &now, &tpml);
		if (ret)
			goto out;
	}
	ret = tpm_load(t, srk, &s->priv, &s->pub, &obj);
	if (ret)
		goto out;
	ret = tpm_unseal_call(t, obj, session, &data, &rc);
	if (ret == -EACCES && s->sel.mask)
		tpm_report_policy_failure(t, s);
	else if (ret)
		tpm_rc_fail(rc, "unsealing");
	if (!ret)
		*used = (size_t)i;
out:
	Esys_Free(ticket);
	return tpm_unseal_finish(t, ret, data, &session, &obj, secret, cap, len);
}
