// SPDX-License-Identifier: LGPL-2.1-or-later
/* keygen.c - TPM-resident signing keys: create, persist, TSS2 PEM, evict. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <openssl/asn1t.h>
#include <openssl/bio.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <tss2/tss2_mu.h>

#include "tpm_private.h"

#define PERSISTENT_OWNER_FIRST	0x81000000u
#define PERSISTENT_OWNER_LAST	0x817fffffu
#define TSS2_PEM_NAME		"TSS2 PRIVATE KEY"
#define OID_LOADABLE_KEY	"2.23.133.10.1.3"

/* The TSSPrivKey ASN.1 structure of the "TSS2 PRIVATE KEY" format
 * (James Bottomley's TPM 2.0 key file spec, as openssl_tpm2_engine and
 * the tpm2 OpenSSL provider use it). */
typedef struct {
	ASN1_OBJECT *type;
	ASN1_BOOLEAN empty_auth;
	ASN1_INTEGER *parent;
	ASN1_OCTET_STRING *pubkey;
	ASN1_OCTET_STRING *privkey;
} TSSPRIVKEY;

ASN1_SEQUENCE(TSSPRIVKEY) = {
	ASN1_SIMPLE(TSSPRIVKEY, type, ASN1_OBJECT),
	ASN1_EXP_OPT(TSSPRIVKEY, empty_auth, ASN1_BOOLEAN, 0),
	ASN1_SIMPLE(TSSPRIVKEY, parent, ASN1_INTEGER),
	ASN1_SIMPLE(TSSPRIVKEY, pubkey, ASN1_OCTET_STRING),
	ASN1_SIMPLE(TSSPRIVKEY, privkey, ASN1_OCTET_STRING)
} static_ASN1_SEQUENCE_END(TSSPRIVKEY)

static void signing_template(enum elfsig_tpm_keytype type, TPM2B_PUBLIC *tmpl)
{
	TPMT_PUBLIC *p = &tmpl->publicArea;

	memset(tmpl, 0, sizeof(*tmpl));
	p->nameAlg = TPM2_ALG_SHA256;
	p->objectAttributes = TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT |
			      TPMA_OBJECT_SENSITIVEDATAORIGIN |
			      TPMA_OBJECT_USERWITHAUTH |
			      TPMA_OBJECT_SIGN_ENCRYPT;
	if (type == ELFSIG_TPM_KEY_RSA2048) {
		p->type = TPM2_ALG_RSA;
		p->parameters.rsaDetail.symmetric.algorithm = TPM2_ALG_NULL;
		p->parameters.rsaDetail.scheme.scheme = TPM2_ALG_NULL;
		p->parameters.rsaDetail.keyBits = 2048;
		p->parameters.rsaDetail.exponent = 0;
	} else {
		p->type = TPM2_ALG_ECC;
		p->parameters.eccDetail.symmetric.algorithm = TPM2_ALG_NULL;
		p->parameters.eccDetail.scheme.scheme = TPM2_ALG_NULL;
		p->parameters.eccDetail.curveID = TPM2_ECC_NIST_P256;
		p->parameters.eccDetail.kdf.scheme = TPM2_ALG_NULL;
	}
}

int tpm_evict_control(struct elfsig_tpm *t, ESYS_TR obj, uint32_t handle,
		      ESYS_TR *out)
{
	TSS2_RC rc;

	rc = Esys_EvictControl(t->esys, ESYS_TR_RH_OWNER, obj,
			       ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE,
			       handle, out);
	if (rc != TSS2_RC_SUCCESS)
		*out = ESYS_TR_NONE;
	return tpm_rc_fail(rc, "changing a persistent object");
}

int tpm_read_public(struct elfsig_tpm *t, ESYS_TR obj, TPM2B_PUBLIC **pub)
{
	TSS2_RC rc;

	rc = Esys_ReadPublic(t->esys, obj, ESYS_TR_NONE, ESYS_TR_NONE,
			     ESYS_TR_NONE, pub, NULL, NULL);
	return tpm_rc_fail(rc, "reading a public area");
}

bool tpm_handle_persistent_owner(uint32_t handle)
{
	return handle >= PERSISTENT_OWNER_FIRST &&
	       handle <= PERSISTENT_OWNER_LAST;
}

/* Refuse to overwrite: the handle may hold someone's key. */
static int handle_free(struct elfsig_tpm *t, uint32_t handle)
{
	ESYS_TR tr;
	int ret = tpm_tr_from_public(t, handle, &tr, true);

	if (ret == 0) {
		Esys_TR_Close(t->esys, &tr);
		tpm_err("persistent handle 0x%08x already holds an object (remove it first: elfsig-tpm evict --handle 0x%08x)",
			handle, handle);
		return -EEXIST;
	}
	if (ret == -ENOENT)
		return 0;
	tpm_err("persistent handle 0x%08x: cannot tell whether it is free",
		handle);
	return ret;
}

static int write_tss2_pem(const char *path, uint32_t parent,
			  const TPM2B_PUBLIC *pub, const TPM2B_PRIVATE *priv)
{
	uint8_t pubbuf[sizeof(*pub)], privbuf[sizeof(*priv)];
	size_t publen = 0, privlen = 0;
	TSSPRIVKEY *k;
	unsigned char *der = NULL;
	BIO *bio = NULL;
	int derlen, fd, ret = -EIO;
	bool ok;

	if (Tss2_MU_TPM2B_PUBLIC_Marshal(pub, pubbuf, sizeof(pubbuf), &publen) ||
	    Tss2_MU_TPM2B_PRIVATE_Marshal(priv, privbuf, sizeof(privbuf),
					  &privlen)) {
		tpm_err("%s: cannot marshal the key", path);
		return -EIO;
	}
	k = (TSSPRIVKEY *)ASN1_item_new(ASN1_ITEM_rptr(TSSPRIVKEY));
	if (!k)
		return -ENOMEM;
	k->type = OBJ_txt2obj(OID_LOADABLE_KEY, 1);
	k->empty_auth = 1;
	if (!k->type || !ASN1_INTEGER_set_uint64(k->parent, parent) ||
	    !ASN1_OCTET_STRING_set(k->pubkey, pubbuf, (int)publen) ||
	    !ASN1_OCTET_STRING_set(k->privkey, privbuf, (int)privlen) ||
	    (derlen = ASN1_item_i2d((ASN1_VALUE *)k, &der,
				    ASN1_ITEM_rptr(TSSPRIVKEY))) <= 0) {
		tpm_err("%s: cannot encode the TSS2 key", path);
		goto out;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = -errno;
		tpm_err("%s: %s", path, strerror(errno));
		goto out;
	}
	bio = BIO_new_fd(fd, BIO_NOCLOSE);
	ok = bio && PEM_write_bio(bio, TSS2_PEM_NAME, "", der, derlen) > 0 &&
	     BIO_flush(bio) > 0 && fsync(fd) == 0;
	if (close(fd))
		ok = false;
	if (!ok) {
		tpm_err("%s: write failed", path);
		unlink(path);	/* ours: created with O_EXCL above */
		goto out;
	}
	ret = 0;
out:
	BIO_free(bio);
	OPENSSL_free(der);
	ASN1_item_free((ASN1_VALUE *)k, ASN1_ITEM_rptr(TSSPRIVKEY));
	return ret;
}

int elfsig_tpm_keygen(struct elfsig_tpm *t, enum elfsig_tpm_keytype type,
		      uint32_t handle, const char *pem)
{
	static const TPM2B_SENSITIVE_CREATE sens; /* no password: userWithAuth
						   * with empty auth, as
						   * handle: keys need */
	TPM2B_PRIVATE *priv = NULL;
	TPM2B_PUBLIC *pub = NULL;
	ESYS_TR srk, obj = ESYS_TR_NONE, persisted = ESYS_TR_NONE;
	TPM2B_PUBLIC tmpl;
	int ret, fret;

	if (type != ELFSIG_TPM_KEY_RSA2048 && type != ELFSIG_TPM_KEY_ECC_P256) {
		tpm_err("keygen: unknown key type");
		return -EINVAL;
	}
	if (!handle && !pem) {
		tpm_err("keygen: give a persistent handle, a key file, or both");
		return -EINVAL;
	}
	if (handle && !tpm_handle_persistent_owner(handle)) {
		tpm_err("keygen: 0x%08x is not an owner persistent handle (0x81000000..0x817fffff)",
			handle);
		return -EINVAL;
	}
	if (pem && access(pem, F_OK) == 0) {
		tpm_err("%s: already exists, not overwriting a key", pem);
		return -EEXIST;
	}
	if (handle) {
		ret = handle_free(t, handle);
		if (ret)
			return ret;
	}
	ret = tpm_srk_get(t, &srk);
	if (ret)
		return ret;
	signing_template(type, &tmpl);
	ret = tpm_create(t, srk, ESYS_TR_PASSWORD, &sens, &tmpl, &priv, &pub);
	if (ret)
		goto out;
	if (handle) {
		ret = tpm_load(t, srk, priv, pub, &obj);
		if (ret)
			goto out;
		ret = tpm_evict_control(t, obj, handle, &persisted);
		if (ret)
			goto out;
		Esys_TR_Close(t->esys, &persisted);
	}
	if (pem) {
		ret = write_tss2_pem(pem, t->srk_handle ? t->srk_handle :
				     TPM2_RH_OWNER, pub, priv);
		if (ret && handle) {
			/* All or nothing: do not leave a key behind that the
			 * caller was told about in an error. */
			elfsig_tpm_evict(t, handle);
		}
	}
out:
	fret = tpm_flush(t, &obj, ret != 0);
	ret = ret ?: fret;
	Esys_Free(priv);
	Esys_Free(pub);
	return ret;
}

int elfsig_tpm_key_attributes(struct elfsig_tpm *t, uint32_t handle,
			      uint32_t *attrs)
{
	TPM2B_PUBLIC *pub = NULL;
	ESYS_TR tr;
	int ret;

	ret = tpm_tr_from_public(t, handle, &tr, false);
	if (ret)
		return ret;
	ret = tpm_read_public(t, tr, &pub);
	if (!ret)
		*attrs = pub->publicArea.objectAttributes;
	Esys_Free(pub);
	Esys_TR_Close(t->esys, &tr);
	return ret;
}

int elfsig_tpm_evict(struct elfsig_tpm *t, uint32_t handle)
{
	ESYS_TR tr, out;
	int ret;

	if (!tpm_handle_persistent_owner(handle)) {
		tpm_err("evict: 0x%08x is not an owner persistent handle",
			handle);
		return -EINVAL;
	}
	ret = tpm_tr_from_public(t, handle, &tr, false);
	if (ret)
		return ret;
	ret = tpm_evict_control(t, tr, handle, &out);
	/* ESAPI keeps the evicted object's node (and returns no new one). */
	Esys_TR_Close(t->esys, &tr);
	return ret;
}
