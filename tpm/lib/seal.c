// SPDX-License-Identifier: LGPL-2.1-or-later
/* seal.c - seal and unseal a small secret under PolicyPCR. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/crypto.h>

#include "tpm_private.h"

int tpm_create(struct elfsig_tpm *t, ESYS_TR parent, ESYS_TR session,
	       const TPM2B_SENSITIVE_CREATE *sens, const TPM2B_PUBLIC *tmpl,
	       TPM2B_PRIVATE **priv, TPM2B_PUBLIC **pub)
{
	static const TPM2B_DATA outside;
	static const TPML_PCR_SELECTION creation_pcr;
	TSS2_RC rc;

	rc = Esys_Create(t->esys, parent, session, ESYS_TR_NONE, ESYS_TR_NONE,
			 sens, tmpl, &outside, &creation_pcr, priv, pub, NULL,
			 NULL, NULL);
	return tpm_rc_fail(rc, "creating a TPM object");
}

int tpm_load(struct elfsig_tpm *t, ESYS_TR parent, const TPM2B_PRIVATE *priv,
	     const TPM2B_PUBLIC *pub, ESYS_TR *obj)
{
	TSS2_RC rc;

	rc = Esys_Load(t->esys, parent, ESYS_TR_PASSWORD, ESYS_TR_NONE,
		       ESYS_TR_NONE, priv, pub, obj);
	if (rc != TSS2_RC_SUCCESS)
		*obj = ESYS_TR_NONE;
	return tpm_rc_fail(rc, "loading the object under the storage root key");
}

/* Unseal reports its own failures: a policy failure needs the PCR story. */
int tpm_unseal_call(struct elfsig_tpm *t, ESYS_TR obj, ESYS_TR session,
		    TPM2B_SENSITIVE_DATA **out, TSS2_RC *rc)
{
	*rc = Esys_Unseal(t->esys, obj, session, ESYS_TR_NONE, ESYS_TR_NONE,
			  out);
	return tpm_rc_errno(*rc);
}

/* The sealed data object: no userWithAuth, so only the policy opens it. */
static void sealed_template(TPM2B_PUBLIC *tmpl, const TPM2B_DIGEST *policy)
{
	memset(tmpl, 0, sizeof(*tmpl));
	tmpl->publicArea.type = TPM2_ALG_KEYEDHASH;
	tmpl->publicArea.nameAlg = TPM2_ALG_SHA256;
	tmpl->publicArea.objectAttributes = TPMA_OBJECT_FIXEDTPM |
					    TPMA_OBJECT_FIXEDPARENT;
	tmpl->publicArea.authPolicy = *policy;
	tmpl->publicArea.parameters.keyedHashDetail.scheme.scheme =
		TPM2_ALG_NULL;
}

static int check_values(const struct elfsig_tpm_pcr_values *v)
{
	if (!elfsig_tpm_bank_size(v->sel.bank) || !v->sel.mask ||
	    v->sel.mask >> ELFSIG_TPM_MAX_PCRS ||
	    v->digest_size != elfsig_tpm_bank_size(v->sel.bank)) {
		tpm_err("sealing: invalid PCR selection or values");
		return -EINVAL;
	}
	return 0;
}

/*
 * Create the sealed data object with authPolicy @policy under the SRK and
 * fill @s's public and private parts and the SRK's name, recorded so that
 * unsealing can refuse any other SRK before it salts a session with it.
 */
int tpm_seal_policy(struct elfsig_tpm *t, const TPM2B_DIGEST *policy,
		    const uint8_t *secret, size_t len,
		    struct elfsig_tpm_sealed *s)
{
	TPM2B_SENSITIVE_CREATE sens;
	TPM2B_PRIVATE *priv = NULL;
	TPM2B_PUBLIC *pub = NULL;
	ESYS_TR srk, hmac = ESYS_TR_NONE;
	TPM2B_PUBLIC tmpl;
	int ret, fret;

	memset(&sens, 0, sizeof(sens));
	if (len == 0 || len > ELFSIG_TPM_MAX_SECRET) {
		tpm_err("sealing: the secret must be 1 to %d bytes, not %zu",
			ELFSIG_TPM_MAX_SECRET, len);
		return -EINVAL;
	}
	ret = tpm_srk_get(t, &srk);
	if (ret)
		return ret;
	/* A salted HMAC session encrypts the secret on its way in. */
	ret = tpm_start_session(t, TPM2_SE_HMAC, srk,
				TPMA_SESSION_DECRYPT |
				TPMA_SESSION_CONTINUESESSION, &hmac);
	if (ret)
		return ret;
	sealed_template(&tmpl, policy);
	sens.sensitive.data.size = (UINT16)len;
	memcpy(sens.sensitive.data.buffer, secret, len);
	ret = tpm_create(t, srk, hmac, &sens, &tmpl, &priv, &pub);
	OPENSSL_cleanse(&sens, sizeof(sens));
	fret = tpm_flush(t, &hmac, ret != 0);
	ret = ret ?: fret;
	if (!ret) {
		s->pub = *pub;
		s->priv = *priv;
		ret = tpm_srk_name(t, srk, s->srk_name, &s->srk_name_len);
	}
	Esys_Free(priv);
	Esys_Free(pub);
	return ret;
}

int elfsig_tpm_seal(struct elfsig_tpm *t,
		    const struct elfsig_tpm_pcr_values *expected,
		    const uint8_t *secret, size_t len,
		    struct elfsig_tpm_sealed **out)
{
	struct elfsig_tpm_sealed *s = NULL;
	ESYS_TR trial = ESYS_TR_NONE;
	TPM2B_DIGEST policy;
	int ret, fret;

	*out = NULL;
	ret = check_values(expected);
	if (ret)
		return ret;

	/* The policy digest as the TPM computes it, in a trial session. */
	ret = tpm_policy_pcr_session(t, true, ESYS_TR_NONE, &expected->sel,
				     expected, &trial);
	if (ret)
		return ret;
	ret = tpm_policy_get_digest(t, trial, &policy);
	fret = tpm_flush(t, &trial, ret != 0);
	ret = ret ?: fret;
	if (ret)
		return ret;

	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	ret = tpm_seal_policy(t, &policy, secret, len, s);
	if (ret) {
		free(s);
		return ret;
	}
	s->sel = expected->sel;
	s->has_values = true;
	s->values = *expected;
	s->values.sel = expected->sel;
	*out = s;
	return 0;
}

int elfsig_tpm_seal_current(struct elfsig_tpm *t,
			    const struct elfsig_tpm_pcrsel *sel,
			    const uint8_t *secret, size_t len,
			    struct elfsig_tpm_sealed **out)
{
	struct elfsig_tpm_pcr_values cur;
	int ret;

	*out = NULL;
	ret = elfsig_tpm_pcr_read(t, sel, &cur);
	if (ret)
		return ret;
	return elfsig_tpm_seal(t, &cur, secret, len, out);
}

/* After a policy failure: say which PCRs differ from the sealed state. */
void tpm_report_policy_failure(struct elfsig_tpm *t,
			       const struct elfsig_tpm_sealed *s)
{
	struct elfsig_tpm_pcr_values cur;
	char list[128], sel[128];
	size_t used = 0;
	unsigned int i, n = 0;
	bool have_cur = false;

	elfsig_tpm_pcrsel_format(&s->sel, sel, sizeof(sel));
	if (s->has_values) {
		/* Best effort: its failure must not be a second message. */
		tpm_err_mute(true);
		have_cur = elfsig_tpm_pcr_read(t, &s->sel, &cur) == 0;
		tpm_err_mute(false);
	}
	if (!have_cur) {
		tpm_err("PCR policy not satisfied: one of PCRs %s changed since the secret was sealed",
			sel);
		return;
	}
	list[0] = '\0';
	for (i = 0; i < ELFSIG_TPM_MAX_PCRS; i++) {
		int w;

		if (!(s->sel.mask & (1u << i)) ||
		    !memcmp(cur.value[i], s->values.value[i], cur.digest_size))
			continue;
		w = snprintf(list + used, sizeof(list) - used, "%s%u",
			     n ? "," : "", i);
		if (w > 0 && (size_t)w < sizeof(list) - used)
			used += w;
		n++;
	}
	if (n)
		tpm_err("PCR policy not satisfied: PCR%s %s changed since enrolment (bank %s)",
			n > 1 ? "s" : "", list,
			elfsig_tpm_bank_name(s->sel.bank));
	else
		tpm_err("PCR policy not satisfied: PCRs %s hold the recorded values, but the object was sealed to other values",
			sel);
}

int tpm_unseal_finish(struct elfsig_tpm *t, int ret, TPM2B_SENSITIVE_DATA *data,
		      ESYS_TR *session, ESYS_TR *obj, uint8_t *secret,
		      size_t cap, size_t *len)
{
	int fret;

	*len = 0;
	if (!ret && data->size > cap) {
		tpm_err("unsealing: secret of %u bytes does not fit in %zu",
			data->size, cap);
		ret = -ENOSPC;
	}
	if (!ret) {
		memcpy(secret, data->buffer, data->size);
		*len = data->size;
	}
	if (data) {
		OPENSSL_cleanse(data, sizeof(*data));
		Esys_Free(data);
	}
	fret = tpm_flush(t, session, ret != 0);
	ret = ret ?: fret;
	fret = tpm_flush(t, obj, ret != 0);
	ret = ret ?: fret;
	if (ret && *len) {
		/* A failed flush fails the call: hand nothing back. */
		OPENSSL_cleanse(secret, *len);
		*len = 0;
	}
	return ret;
}

int elfsig_tpm_unseal(struct elfsig_tpm *t,
		      const struct elfsig_tpm_sealed *s,
		      uint8_t *secret, size_t cap, size_t *len)
{
	ESYS_TR srk, obj = ESYS_TR_NONE, session = ESYS_TR_NONE;
	TPM2B_SENSITIVE_DATA *data = NULL;
	TSS2_RC rc;
	int ret;

	*len = 0;
	if (s->authorized) {
		tpm_err("sealed object: bound to an authority's signed PCR policies, not to one PCR state");
		return -EINVAL;
	}
	ret = tpm_srk_get(t, &srk);
	if (!ret && s->srk_name_len)
		ret = tpm_srk_check_name(t, srk, s->srk_name, s->srk_name_len);
	if (ret)
		return ret;
	ret = tpm_load(t, srk, &s->priv, &s->pub, &obj);
	if (ret)
		return ret;
	ret = tpm_policy_pcr_session(t, false, srk, &s->sel, NULL, &session);
	if (ret)
		goto out;
	ret = tpm_unseal_call(t, obj, session, &data, &rc);
	if (ret == -EACCES) {
		tpm_report_policy_failure(t, s);
		goto out;
	}
	if (ret) {
		tpm_rc_fail(rc, "unsealing");
		goto out;
	}
out:
	return tpm_unseal_finish(t, ret, data, &session, &obj, secret, cap, len);
}
