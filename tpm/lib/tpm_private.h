/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* tpm_private.h - internals shared by the files of libelfsig-tpm. */
#ifndef ELFSIG_TPM_PRIVATE_H
#define ELFSIG_TPM_PRIVATE_H

#include <stdbool.h>
#include <tss2/tss2_esys.h>
#include <tss2/tss2_tctildr.h>

#include "elfsig_tpm.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct elfsig_tpm {
	char *tcti_conf;		/* the TCTI string in use */
	TSS2_TCTI_CONTEXT *tcti;
	ESYS_CONTEXT *esys;
	uint32_t srk_handle;		/* persistent SRK or 0 */
	uint8_t srk_name[ELFSIG_TPM_MAX_NAME];	/* pinned name, if any */
	size_t srk_name_len;
	ESYS_TR srk;			/* loaded SRK, ESYS_TR_NONE if not */
	bool srk_transient;		/* created by us: flush on close */
	bool pcr_alloc_known;		/* pcr_alloc has been asked */
	TPML_PCR_SELECTION pcr_alloc;	/* the TPM's allocated PCR banks */
};

struct elfsig_tpm_sealed {
	struct elfsig_tpm_pcrsel sel;
	TPM2B_PUBLIC pub;
	TPM2B_PRIVATE priv;
	bool has_values;		/* the values sealed to are recorded */
	struct elfsig_tpm_pcr_values values;
	/* The SRK's name at sealing (format version 2); 0: not recorded. */
	uint8_t srk_name[ELFSIG_TPM_MAX_NAME];
	size_t srk_name_len;
	/* Bound with PolicyAuthorize (format version 3): the authority key's
	 * name and the policyRef. sel is then empty, or (flag "PCRs") the
	 * PCRs PolicyPCR binds after PolicyAuthorize, to the recorded
	 * values. */
	bool authorized;
	uint8_t auth_name[ELFSIG_TPM_MAX_NAME];
	size_t auth_name_len;
	uint8_t ref[ELFSIG_TPM_MAX_POLICY_REF];
	size_t ref_len;
};

/* error.c */
void tpm_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* tpm_err() + ": reason" from OpenSSL's error queue, which it drains. */
void tpm_err_ssl(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tpm_err_mute(bool mute);
int tpm_rc_errno(TSS2_RC rc);
const char *tpm_rc_explain(TSS2_RC rc);
int tpm_rc_fail(TSS2_RC rc, const char *what);
bool tpm_rc_is_policy_fail(TSS2_RC rc);

/* Every wrapper: 0 on success, else a negative errno. With @quiet the
 * caller reports the failure itself (it knows better what it means). */

/* srk.c */
int tpm_srk_get(struct elfsig_tpm *t, ESYS_TR *srk);
void tpm_srk_template(TPM2B_PUBLIC *tmpl);
int tpm_tr_from_public(struct elfsig_tpm *t, uint32_t handle, ESYS_TR *tr,
		       bool quiet);
int tpm_srk_name(struct elfsig_tpm *t, ESYS_TR srk, uint8_t *out, size_t *len);
int tpm_srk_check_name(struct elfsig_tpm *t, ESYS_TR srk, const uint8_t *name,
		       size_t len);

/* session.c */
int tpm_flush(struct elfsig_tpm *t, ESYS_TR *tr, bool quiet);
int tpm_start_session(struct elfsig_tpm *t, TPM2_SE type, ESYS_TR salt,
		      TPMA_SESSION attrs, ESYS_TR *session);
int tpm_policy_pcr(struct elfsig_tpm *t, ESYS_TR session,
		   const TPM2B_DIGEST *pcr_digest,
		   const TPML_PCR_SELECTION *pcrs);
int tpm_policy_get_digest(struct elfsig_tpm *t, ESYS_TR session,
			  TPM2B_DIGEST *digest);
int tpm_policy_pcr_session(struct elfsig_tpm *t, bool trial, ESYS_TR salt,
			   const struct elfsig_tpm_pcrsel *sel,
			   const struct elfsig_tpm_pcr_values *values,
			   ESYS_TR *session);

/* pcr.c */
void tpm_pcrsel_to_tpml(const struct elfsig_tpm_pcrsel *sel,
			TPML_PCR_SELECTION *tpml);
int tpm_pcrsel_from_tpml(const TPML_PCR_SELECTION *tpml,
			 struct elfsig_tpm_pcrsel *sel);
int tpm_pcr_digest(const struct elfsig_tpm_pcr_values *values,
		   uint16_t hash_alg, TPM2B_DIGEST *out);
unsigned int tpm_popcount(uint32_t mask);
const char *tpm_md_name(uint16_t alg);

/* seal.c */
int tpm_load(struct elfsig_tpm *t, ESYS_TR parent, const TPM2B_PRIVATE *priv,
	     const TPM2B_PUBLIC *pub, ESYS_TR *obj);
int tpm_create(struct elfsig_tpm *t, ESYS_TR parent, ESYS_TR session,
	       const TPM2B_SENSITIVE_CREATE *sens, const TPM2B_PUBLIC *tmpl,
	       TPM2B_PRIVATE **priv, TPM2B_PUBLIC **pub);
/* The end of every unseal: hand @data over (refused when over @cap),
 * cleanse and free it, flush @session and @obj; after any failure, the
 * flushes included, nothing is handed back. Return: @ret or the first
 * failure. */
int tpm_unseal_finish(struct elfsig_tpm *t, int ret, TPM2B_SENSITIVE_DATA *data,
		      ESYS_TR *session, ESYS_TR *obj, uint8_t *secret,
		      size_t cap, size_t *len);
/* Esys_Unseal; @rc the TPM's code. Return: its errno (-EACCES: the
 * policy failed), no message. */
int tpm_unseal_call(struct elfsig_tpm *t, ESYS_TR obj, ESYS_TR session,
		    TPM2B_SENSITIVE_DATA **out, TSS2_RC *rc);
/* After a policy failure: one line naming the PCRs of @s->sel that differ
 * from the values it records. */
void tpm_report_policy_failure(struct elfsig_tpm *t,
			       const struct elfsig_tpm_sealed *s);
int tpm_seal_policy(struct elfsig_tpm *t, const TPM2B_DIGEST *policy,
		    const uint8_t *secret, size_t len,
		    struct elfsig_tpm_sealed *s);

/* authorize.c */
/* The authPolicy of an authorized object: PolicyAuthorize(auth_name,
 * ref), then PolicyPCR(values) when @s->sel names PCRs. */
int tpm_authorized_policy(const struct elfsig_tpm_sealed *s,
			  uint8_t out[ELFSIG_TPM_POLICY_SIZE]);

/* keygen.c */
int tpm_evict_control(struct elfsig_tpm *t, ESYS_TR obj, uint32_t handle,
		      ESYS_TR *out);
int tpm_read_public(struct elfsig_tpm *t, ESYS_TR obj, TPM2B_PUBLIC **pub);
bool tpm_handle_persistent_owner(uint32_t handle);

#endif
