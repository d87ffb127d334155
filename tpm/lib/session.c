// SPDX-License-Identifier: LGPL-2.1-or-later
/* session.c - policy sessions (trial and real), PolicyPCR, flushing. */
#include <errno.h>
#include <string.h>

#include "tpm_private.h"

/**
 * tpm_flush() - flush a transient object or session, if any
 * @t:     connection
 * @tr:    the handle; set to ESYS_TR_NONE
 * @quiet: cleaning up after a failure that was already reported (a dead
 *         TPM fails the flushes too: one line is enough)
 * Return: 0 or a negative errno.
 */
int tpm_flush(struct elfsig_tpm *t, ESYS_TR *tr, bool quiet)
{
	TSS2_RC rc;

	if (*tr == ESYS_TR_NONE)
		return 0;
	rc = Esys_FlushContext(t->esys, *tr);
	*tr = ESYS_TR_NONE;
	if (quiet)
		return tpm_rc_errno(rc);
	return tpm_rc_fail(rc, "flushing a TPM object");
}

/**
 * tpm_start_session() - start an authorisation session
 * @t:       connection
 * @type:    TPM2_SE_POLICY, TPM2_SE_TRIAL or TPM2_SE_HMAC
 * @salt:    a loaded decryption key to salt the session with, or
 *           ESYS_TR_NONE; only a salted session can protect parameters
 * @attrs:   TPMA_SESSION_ENCRYPT (response) and/or _DECRYPT (command)
 *           parameter encryption, or 0
 * @session: out; the caller flushes it
 * Return: 0 or a negative errno.
 */
int tpm_start_session(struct elfsig_tpm *t, TPM2_SE type, ESYS_TR salt,
		      TPMA_SESSION attrs, ESYS_TR *session)
{
	const TPMT_SYM_DEF sym = {
		.algorithm = TPM2_ALG_AES,
		.keyBits.aes = 128,
		.mode.aes = TPM2_ALG_CFB,
	};
	TSS2_RC rc;

	rc = Esys_StartAuthSession(t->esys, salt, ESYS_TR_NONE, ESYS_TR_NONE,
				   ESYS_TR_NONE, ESYS_TR_NONE, NULL, type,
				   &sym, TPM2_ALG_SHA256, session);
	if (rc != TSS2_RC_SUCCESS) {
		*session = ESYS_TR_NONE;
		return tpm_rc_fail(rc, "starting a TPM session");
	}
	if (attrs) {
		rc = Esys_TRSess_SetAttributes(t->esys, *session, attrs, attrs);
		if (rc != TSS2_RC_SUCCESS) {
			tpm_flush(t, session, true);
			return tpm_rc_fail(rc, "setting session attributes");
		}
	}
	return 0;
}

int tpm_policy_pcr(struct elfsig_tpm *t, ESYS_TR session,
		   const TPM2B_DIGEST *pcr_digest,
		   const TPML_PCR_SELECTION *pcrs)
{
	TSS2_RC rc;

	rc = Esys_PolicyPCR(t->esys, session, ESYS_TR_NONE, ESYS_TR_NONE,
			    ESYS_TR_NONE, pcr_digest, pcrs);
	return tpm_rc_fail(rc, "PolicyPCR");
}

int tpm_policy_get_digest(struct elfsig_tpm *t, ESYS_TR session,
			  TPM2B_DIGEST *digest)
{
	TPM2B_DIGEST *d = NULL;
	TSS2_RC rc;

	rc = Esys_PolicyGetDigest(t->esys, session, ESYS_TR_NONE, ESYS_TR_NONE,
				  ESYS_TR_NONE, &d);
	if (rc != TSS2_RC_SUCCESS)
		return tpm_rc_fail(rc, "reading the policy digest");
	if (d->size > sizeof(digest->buffer)) {
		Esys_Free(d);
		tpm_err("TPM returned an oversized policy digest");
		return -EIO;
	}
	*digest = *d;
	Esys_Free(d);
	return 0;
}

/**
 * tpm_policy_pcr_session() - a session that has run PolicyPCR
 * @t:       connection
 * @trial:   trial session (policy digest computation)
 * @salt:    salt key; a salted session encrypts the response
 * @sel:     the PCR selection
 * @values:  for a trial session, the values the policy shall expect; NULL
 *           for a real session, where the TPM takes its current PCRs and
 *           a mismatch shows when the object is used (TPM_RC_POLICY_FAIL)
 * @session: out; the caller flushes it
 * Return: 0 or a negative errno.
 */
int tpm_policy_pcr_session(struct elfsig_tpm *t, bool trial, ESYS_TR salt,
			   const struct elfsig_tpm_pcrsel *sel,
			   const struct elfsig_tpm_pcr_values *values,
			   ESYS_TR *session)
{
	TPML_PCR_SELECTION tpml;
	TPM2B_DIGEST pcr_digest = { .size = 0 };
	int ret;

	tpm_pcrsel_to_tpml(sel, &tpml);
	if (values) {
		ret = tpm_pcr_digest(values, TPM2_ALG_SHA256, &pcr_digest);
		if (ret)
			return ret;
	}
	ret = tpm_start_session(t, trial ? TPM2_SE_TRIAL : TPM2_SE_POLICY, salt,
				salt == ESYS_TR_NONE ? 0 :
				TPMA_SESSION_ENCRYPT | TPMA_SESSION_CONTINUESESSION,
				session);
	if (ret)
		return ret;
	ret = tpm_policy_pcr(t, *session, &pcr_digest, &tpml);
	if (ret)
		tpm_flush(t, session, true);
	return ret;
}
