// SPDX-License-Identifier: LGPL-2.1-or-later
/* nv.c - the rollback counter: a TPM_NT_COUNTER NV index, read and
 * advanced through an HMAC session salted with the (pinned) SRK. */
#include <errno.h>
#include <string.h>

#include "tpm_private.h"

/*
 * Only the SRK-salted session authenticates the TPM's answer: its
 * response HMAC covers the value read, and the command HMAC covers the
 * index's name, so an interposer can neither lower the value nor
 * substitute another index's public area.
 */
static int hmac_session(struct elfsig_tpm *t, ESYS_TR *session)
{
	ESYS_TR srk;
	int ret;

	ret = tpm_srk_get(t, &srk);
	if (ret)
		return ret;
	return tpm_start_session(t, TPM2_SE_HMAC, srk,
				 TPMA_SESSION_CONTINUESESSION, session);
}

static void nv_close(struct elfsig_tpm *t, ESYS_TR *tr)
{
	if (*tr != ESYS_TR_NONE)
		Esys_TR_Close(t->esys, tr);
	*tr = ESYS_TR_NONE;
}

/* The index, its public area and its name, as ESAPI holds them. */
static int nv_open(struct elfsig_tpm *t, uint32_t index, ESYS_TR *tr,
		   struct elfsig_tpm_nv_info *info)
{
	TPM2B_NV_PUBLIC *pub = NULL;
	TPM2B_NAME *name = NULL;
	TSS2_RC rc;
	int ret;

	memset(info, 0, sizeof(*info));
	if (index < 0x01000000u || index > 0x01ffffffu) {
		tpm_err("0x%08x is not an NV index handle (0x01xxxxxx)", index);
		return -EINVAL;
	}
	rc = Esys_TR_FromTPMPublic(t->esys, index, ESYS_TR_NONE, ESYS_TR_NONE,
				   ESYS_TR_NONE, tr);
	if (rc != TSS2_RC_SUCCESS) {
		*tr = ESYS_TR_NONE;
		if (tpm_rc_errno(rc) == -ENOENT)
			return -ENOENT;
		return tpm_rc_fail(rc, "reading an NV index");
	}
	rc = Esys_NV_ReadPublic(t->esys, *tr, ESYS_TR_NONE, ESYS_TR_NONE,
				ESYS_TR_NONE, &pub, &name);
	ret = tpm_rc_fail(rc, "reading an NV index's public area");
	if (!ret && name->size > sizeof(info->name)) {
		tpm_err("NV index 0x%08x: name of %u bytes", index, name->size);
		ret = -EIO;
	}
	if (!ret) {
		info->index = index;
		info->name_alg = pub->nvPublic.nameAlg;
		info->attributes = pub->nvPublic.attributes;
		info->auth_policy_size = pub->nvPublic.authPolicy.size;
		info->data_size = pub->nvPublic.dataSize;
		memcpy(info->name, name->name, name->size);
		info->name_len = name->size;
	}
	Esys_Free(pub);
	Esys_Free(name);
	if (ret)
		nv_close(t, tr);
	return ret;
}

int elfsig_tpm_nv_info(struct elfsig_tpm *t, uint32_t index,
		       struct elfsig_tpm_nv_info *info)
{
	ESYS_TR tr = ESYS_TR_NONE;
	int ret = nv_open(t, index, &tr, info);

	nv_close(t, &tr);
	return ret;
}

int elfsig_tpm_counter_check(const struct elfsig_tpm_nv_info *info)
{
	if (info->name_alg != TPM2_ALG_SHA256 || info->data_size != 8 ||
	    info->auth_policy_size != 0 ||
	    (info->attributes & ~ELFSIG_TPM_NV_WRITTEN) !=
	    ELFSIG_TPM_COUNTER_ATTRS) {
		tpm_err("NV index 0x%08x is not an elfsig rollback counter (a TPM_NT_COUNTER, SHA-256 name, attributes 0x%08x, no policy; it has attributes 0x%08x)",
			info->index, ELFSIG_TPM_COUNTER_ATTRS, info->attributes);
		return -EKEYREJECTED;
	}
	return 0;
}

static uint64_t be64_get(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* The counter at @tr, in @session. */
static int counter_read(struct elfsig_tpm *t, ESYS_TR tr, ESYS_TR session,
			uint32_t index, uint64_t *value)
{
	TPM2B_MAX_NV_BUFFER *data = NULL;
	TSS2_RC rc;
	int ret;

	rc = Esys_NV_Read(t->esys, tr, tr, session, ESYS_TR_NONE, ESYS_TR_NONE,
			  8, 0, &data);
	if ((rc & ~TSS2_RC_LAYER_MASK) == TPM2_RC_NV_UNINITIALIZED) {
		tpm_err("NV index 0x%08x: the counter was never incremented (defined again?)",
			index);
		return -ENODATA;
	}
	ret = tpm_rc_fail(rc, "reading the rollback counter");
	if (!ret && data->size != 8) {
		tpm_err("NV index 0x%08x: read %u bytes, not 8", index,
			data->size);
		ret = -EIO;
	}
	if (!ret)
		*value = be64_get(data->buffer);
	Esys_Free(data);
	return ret;
}

/* Open @index, which must be named @name (when given) and be a counter. */
static int counter_open(struct elfsig_tpm *t, uint32_t index,
			const uint8_t *name, size_t name_len, ESYS_TR *tr)
{
	struct elfsig_tpm_nv_info info;
	int ret;

	ret = nv_open(t, index, tr, &info);
	if (ret == -ENOENT) {
		tpm_err("NV index 0x%08x is not defined: no rollback counter",
			index);
		return ret;
	}
	if (ret)
		return ret;
	ret = elfsig_tpm_counter_check(&info);
	/* Its name changes with the first increment: say why first. */
	if (!ret && name && !(info.attributes & ELFSIG_TPM_NV_WRITTEN)) {
		tpm_err("NV index 0x%08x: the counter was never incremented (defined again?)",
			index);
		ret = -ENODATA;
	}
	if (!ret && name && (info.name_len != name_len ||
			     memcmp(info.name, name, name_len))) {
		tpm_err("NV index 0x%08x is not the bound counter (its name differs: undefined and defined again with other attributes, or another index)",
			index);
		ret = -ESTALE;
	}
	if (ret)
		nv_close(t, tr);
	return ret;
}

int elfsig_tpm_counter_read(struct elfsig_tpm *t, uint32_t index,
			    const uint8_t *name, size_t name_len,
			    uint64_t *value)
{
	ESYS_TR tr = ESYS_TR_NONE, session = ESYS_TR_NONE;
	int ret, fret;

	*value = 0;
	ret = counter_open(t, index, name, name_len, &tr);
	if (ret)
		return ret;
	ret = hmac_session(t, &session);
	if (!ret)
		ret = counter_read(t, tr, session, index, value);
	fret = tpm_flush(t, &session, ret != 0);
	nv_close(t, &tr);
	return ret ? ret : fret;
}

int elfsig_tpm_counter_advance(struct elfsig_tpm *t, uint32_t index,
			       const uint8_t *name, size_t name_len,
			       unsigned int count, uint64_t *value)
{
	ESYS_TR tr = ESYS_TR_NONE, session = ESYS_TR_NONE;
	unsigned int i;
	int ret, fret;

	*value = 0;
	ret = counter_open(t, index, name, name_len, &tr);
	if (ret)
		return ret;
	ret = hmac_session(t, &session);
	for (i = 0; !ret && i < count; i++)
		ret = tpm_rc_fail(Esys_NV_Increment(t->esys, tr, tr, session,
						    ESYS_TR_NONE, ESYS_TR_NONE),
				  "incrementing the rollback counter");
	if (!ret)
		ret = counter_read(t, tr, session, index, value);
	fret = tpm_flush(t, &session, ret != 0);
	nv_close(t, &tr);
	return ret ? ret : fret;
}

int elfsig_tpm_counter_define(struct elfsig_tpm *t, uint32_t index)
{
	TPM2B_NV_PUBLIC pub = {
		.nvPublic = {
			.nvIndex = index,
			.nameAlg = TPM2_ALG_SHA256,
			.attributes = ELFSIG_TPM_COUNTER_ATTRS,
			.dataSize = 8,
		},
	};
	TPM2B_AUTH auth = { .size = 0 };
	ESYS_TR tr = ESYS_TR_NONE;
	uint64_t value;
	TSS2_RC rc;
	int ret;

	if (index < 0x01000000u || index > 0x01ffffffu) {
		tpm_err("0x%08x is not an NV index handle (0x01xxxxxx)", index);
		return -EINVAL;
	}
	rc = Esys_NV_DefineSpace(t->esys, ESYS_TR_RH_OWNER, ESYS_TR_PASSWORD,
				 ESYS_TR_NONE, ESYS_TR_NONE, &auth, &pub, &tr);
	if (tpm_rc_errno(rc) == -EEXIST)
		return -EEXIST;
	ret = tpm_rc_fail(rc, "defining the rollback counter (owner authorization)");
	nv_close(t, &tr);
	if (ret)
		return ret;
	/* A counter reads only once incremented: it then starts above the
	 * highest value any counter of this TPM ever had. */
	return elfsig_tpm_counter_advance(t, index, NULL, 0, 1, &value);
}
