// SPDX-License-Identifier: LGPL-2.1-or-later
/* srk.c - the storage root key: standard template, primary or persistent. */
#include <errno.h>
#include <string.h>

#include "tpm_private.h"

/*
 * The ECC P-256 SRK template of the TCG "TPM v2.0 Provisioning Guidance"
 * (7.5.1), as systemd and the tpm2 OpenSSL provider instantiate it: a
 * restricted decryption key with AES-128-CFB, no scheme, zero-sized unique.
 * The same template always yields the same key from the owner seed, so
 * `tpm2_createprimary -C o -g sha256 -G ecc256:aes128cfb -a
 * "restricted|decrypt|fixedtpm|fixedparent|sensitivedataorigin|userwithauth|noda"`
 * and the provider's own primary are this very key.
 */
void tpm_srk_template(TPM2B_PUBLIC *tmpl)
{
	memset(tmpl, 0, sizeof(*tmpl));
	tmpl->publicArea.type = TPM2_ALG_ECC;
	tmpl->publicArea.nameAlg = TPM2_ALG_SHA256;
	tmpl->publicArea.objectAttributes =
		TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT |
		TPMA_OBJECT_SENSITIVEDATAORIGIN | TPMA_OBJECT_USERWITHAUTH |
		TPMA_OBJECT_NODA | TPMA_OBJECT_RESTRICTED | TPMA_OBJECT_DECRYPT;
	tmpl->publicArea.parameters.eccDetail.symmetric.algorithm = TPM2_ALG_AES;
	tmpl->publicArea.parameters.eccDetail.symmetric.keyBits.aes = 128;
	tmpl->publicArea.parameters.eccDetail.symmetric.mode.aes = TPM2_ALG_CFB;
	tmpl->publicArea.parameters.eccDetail.scheme.scheme = TPM2_ALG_NULL;
	tmpl->publicArea.parameters.eccDetail.curveID = TPM2_ECC_NIST_P256;
	tmpl->publicArea.parameters.eccDetail.kdf.scheme = TPM2_ALG_NULL;
}

static int tpm_create_primary(struct elfsig_tpm *t, const TPM2B_PUBLIC *tmpl,
			      ESYS_TR *out)
{
	static const TPM2B_SENSITIVE_CREATE sens;
	static const TPM2B_DATA outside;
	static const TPML_PCR_SELECTION creation_pcr;
	TSS2_RC rc;

	rc = Esys_CreatePrimary(t->esys, ESYS_TR_RH_OWNER, ESYS_TR_PASSWORD,
				ESYS_TR_NONE, ESYS_TR_NONE, &sens, tmpl,
				&outside, &creation_pcr, out, NULL, NULL, NULL,
				NULL);
	if (rc != TSS2_RC_SUCCESS)
		*out = ESYS_TR_NONE;
	return tpm_rc_fail(rc, "creating the storage root key");
}

int tpm_tr_from_public(struct elfsig_tpm *t, uint32_t handle, ESYS_TR *tr,
		       bool quiet)
{
	TSS2_RC rc;

	rc = Esys_TR_FromTPMPublic(t->esys, handle, ESYS_TR_NONE, ESYS_TR_NONE,
				   ESYS_TR_NONE, tr);
	if (rc == TSS2_RC_SUCCESS)
		return 0;
	*tr = ESYS_TR_NONE;
	if (quiet)
		return tpm_rc_errno(rc);
	if (tpm_rc_errno(rc) == -ENOENT) {
		tpm_err("no object at persistent handle 0x%08x", handle);
		return -ENOENT;
	}
	return tpm_rc_fail(rc, "looking up a persistent handle");
}

/*
 * A persistent SRK must be what the template makes: a TPM-generated,
 * non-duplicable, restricted storage key with our parameters. Anything
 * else at the handle (a key whose private part someone knows, a signing
 * key) would be used as the salt key of the unseal session and could
 * expose the secret. The public point itself is not pinned (see docs).
 */
static int check_srk_public(struct elfsig_tpm *t, ESYS_TR srk)
{
	TPM2B_PUBLIC *pub = NULL, tmpl;
	const TPMT_PUBLIC *p, *w;
	TSS2_RC rc;
	bool ok;

	rc = Esys_ReadPublic(t->esys, srk, ESYS_TR_NONE, ESYS_TR_NONE,
			     ESYS_TR_NONE, &pub, NULL, NULL);
	if (rc != TSS2_RC_SUCCESS)
		return tpm_rc_fail(rc, "reading the storage root key");
	tpm_srk_template(&tmpl);
	p = &pub->publicArea;
	w = &tmpl.publicArea;
	ok = p->type == w->type && p->nameAlg == w->nameAlg &&
	     p->objectAttributes == w->objectAttributes &&
	     p->authPolicy.size == 0 &&
	     !memcmp(&p->parameters.eccDetail, &w->parameters.eccDetail,
		     sizeof(w->parameters.eccDetail));
	Esys_Free(pub);
	if (!ok) {
		tpm_err("persistent handle 0x%08x does not hold a standard ECC P-256 storage root key",
			t->srk_handle);
		return -EKEYREJECTED;
	}
	return 0;
}

static int tpm_tr_get_name(struct elfsig_tpm *t, ESYS_TR tr, TPM2B_NAME **name)
{
	TSS2_RC rc = Esys_TR_GetName(t->esys, tr, name);

	return tpm_rc_fail(rc, "reading the storage root key's name");
}

/**
 * tpm_srk_check_name() - is @srk the key whose name is @name?
 *
 * Esys_TR_GetName hashes the public area ESAPI holds, the one it salts
 * sessions with, so a substituted key or a forged CreatePrimary/ReadPublic
 * response shows here, before any session is salted with it.
 * Return: 0, -ENOKEY (with a message) when the names differ, or a
 * negative errno.
 */
int tpm_srk_check_name(struct elfsig_tpm *t, ESYS_TR srk, const uint8_t *name,
		       size_t len)
{
	TPM2B_NAME *got = NULL;
	int ret = tpm_tr_get_name(t, srk, &got);

	if (ret)
		return ret;
	if (got->size != len || memcmp(got->name, name, len)) {
		tpm_err("storage root key is not the pinned one (its name differs): another TPM, a cleared owner seed, or a substituted key");
		ret = -ENOKEY;
	}
	Esys_Free(got);
	return ret;
}

/**
 * tpm_srk_get() - the SRK, loaded once per connection
 * @t:   connection
 * @srk: out, ESYS_TR of the SRK (owned by @t: do not flush)
 * Return: 0 or a negative errno.
 */
int tpm_srk_get(struct elfsig_tpm *t, ESYS_TR *srk)
{
	TPM2B_PUBLIC tmpl;
	int ret;

	if (t->srk != ESYS_TR_NONE) {
		*srk = t->srk;
		return 0;
	}
	if (t->srk_handle) {
		ret = tpm_tr_from_public(t, t->srk_handle, &t->srk, false);
		if (!ret)
			ret = check_srk_public(t, t->srk);
	} else {
		tpm_srk_template(&tmpl);
		ret = tpm_create_primary(t, &tmpl, &t->srk);
		t->srk_transient = ret == 0;
	}
	if (!ret && t->srk_name_len)
		ret = tpm_srk_check_name(t, t->srk, t->srk_name,
					 t->srk_name_len);
	if (ret) {
		if (t->srk_transient)
			tpm_flush(t, &t->srk, true);
		else if (t->srk != ESYS_TR_NONE)
			Esys_TR_Close(t->esys, &t->srk);
		t->srk_transient = false;
		return ret;
	}
	*srk = t->srk;
	return 0;
}

/**
 * tpm_srk_name() - the name of the loaded SRK @srk into @out
 * (ELFSIG_TPM_MAX_NAME bytes)
 * Return: 0 or a negative errno.
 */
int tpm_srk_name(struct elfsig_tpm *t, ESYS_TR srk, uint8_t *out, size_t *len)
{
	TPM2B_NAME *name = NULL;
	int ret = tpm_tr_get_name(t, srk, &name);

	*len = 0;
	if (ret)
		return ret;
	if (name->size > ELFSIG_TPM_MAX_NAME) {
		tpm_err("storage root key name of %u bytes is too long",
			name->size);
		ret = -EIO;
	} else {
		memcpy(out, name->name, name->size);
		*len = name->size;
	}
	Esys_Free(name);
	return ret;
}

int elfsig_tpm_srk_name(struct elfsig_tpm *t, uint8_t *out, size_t *len)
{
	ESYS_TR srk;
	int ret;

	*len = 0;
	ret = tpm_srk_get(t, &srk);
	return ret ? ret : tpm_srk_name(t, srk, out, len);
}
