/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kl_pcrpolicy.h - signed PCR policies: expected PCR values, their
 * signature by the authority, and unsealing under one of them.
 */
#ifndef ELFSIG_KL_PCRPOLICY_H
#define ELFSIG_KL_PCRPOLICY_H

#include <stddef.h>
#include <stdint.h>

#include "elfsig_tpm.h"
#include "kl_authority.h"
#include "kl_policy.h"
#include "kl_util.h"

/**
 * kl_pcr_values_parse() - PCR values for @sel from "bank:index=hex" lines
 * @buf:  the file's bytes (the output of `elfsig-tpm pcrread`)
 * @len:  how many
 * @name: for messages
 * @sel:  the PCRs wanted: every one must appear exactly once
 * @vals: out, their values
 * Return: 0 or -EBADMSG.
 */
int kl_pcr_values_parse(const uint8_t *buf, size_t len, const char *name,
			const struct elfsig_tpm_pcrsel *sel,
			struct elfsig_tpm_pcr_values *vals);

#define KL_PCRPOL_VERSION	3		/* with a signed generation, for
						 * one machine (its SRK) */
#define KL_PCRPOL_MAX_SIZE	(16 * 1024)	/* larger files are refused */
#define KL_PCRPOL_MAX_FILES	64		/* per directory */
#define KL_PCRPOL_MAX_SIG	512		/* RSA-4096 */
/* The policyRef every elfsig object and PCR-policy signature carries:
 * a signature the authority made for another purpose opens nothing. */
#define KL_POLICY_REF		"elfsig-pcr-policy"

/* A signed PCR policy: a PCR state the authority approved. */
struct kl_pcr_policy {
	char *name;				/* file name, for messages */
	struct elfsig_tpm_pcr_values values;
	uint8_t authority[KL_FP_LEN];		/* as the file names it */
	uint8_t approved[ELFSIG_TPM_POLICY_SIZE]; /* PolicyPCR digest */
	uint8_t sig[KL_PCRPOL_MAX_SIG];
	size_t sig_len;
	unsigned int version;			/* 1, 2: refused */
	uint32_t generation;			/* v2 */
	uint8_t srk_name[ELFSIG_TPM_MAX_NAME];	/* v3: the machine's SRK */
	size_t srk_name_len;
	uint8_t gen_sig[KL_PCRPOL_MAX_SIG];	/* over kl_pcr_policy_gen_tbs() */
	size_t gen_sig_len;
};

/* What the authority signs to give a PCR policy its generation and its
 * machine (in software: the TPM checks only the approval): SHA-256 of
 * this tag, a NUL, the approved policy digest, the generation (32 bits,
 * big-endian) and the machine's SRK name (version 3). */
#define KL_GENERATION_TAG	"elfsig-pcr-policy-generation"
int kl_pcr_policy_gen_tbs(const uint8_t approved[ELFSIG_TPM_POLICY_SIZE],
			  uint32_t generation, const uint8_t *srk_name,
			  size_t srk_name_len, uint8_t out[KL_FP_LEN])
	__attribute__((warn_unused_result));

/**
 * kl_pcr_policy_parse() - parse a signed PCR policy file image
 * @buf:  the bytes
 * @len:  how many
 * @name: for messages (kept in @pp)
 * @pp:   out (clear with kl_pcr_policy_clear())
 *
 * Strict: version line, authority, selection, one value per selected PCR,
 * the policy digest (checked against the values) and the signature.
 * Return: 0 or -EBADMSG with a message naming the line.
 */
int kl_pcr_policy_parse(const uint8_t *buf, size_t len, const char *name,
			struct kl_pcr_policy *pp);
/**
 * kl_pcr_policy_sign() - approve @vals: compute the policy digest and sign
 * it through @sign, and its generation and machine
 * @vals: the PCR state
 * @generation: the generation it is issued under
 * @pol:  the enrolment policy (the machine: its SRK name)
 * @a:    the authority (its fingerprint goes into the file)
 * @sign: signs a SHA-256 digest: 0 and a malloc'ed signature, or -errno
 * @ctx:  for @sign
 * @text: out, the file's text (malloc'ed)
 * @len:  out, its length
 * Return: 0 or a negative errno.
 */
int kl_pcr_policy_sign(const struct elfsig_tpm_pcr_values *vals,
		       uint32_t generation, const struct kl_policy *pol,
		       const struct kl_authority *a,
		       int (*sign)(void *ctx, const uint8_t digest[KL_FP_LEN],
				   uint8_t **sig, size_t *sig_len),
		       void *ctx, char **text, size_t *len);
/**
 * kl_pcr_policy_check() - may a signed PCR policy be used with this
 * enrolment? Its selection must be the policy's, its authority @a, its
 * machine the policy's, and its signature must verify (in software; the
 * TPM checks it again), and so must that of its generation and machine
 * (version 3; versions 1 and 2 are refused)
 * @pp:  the signed PCR policy
 * @pol: the enrolment policy
 * @a:   the configured authority
 * Return: 0, -EPROTO for versions 1 and 2 (the message names the
 * command), or -EBADE with a message.
 */
int kl_pcr_policy_check(const struct kl_pcr_policy *pp,
			const struct kl_policy *pol,
			const struct kl_authority *a);
void kl_pcr_policy_clear(struct kl_pcr_policy *pp);
/**
 * kl_pcr_policies_load() - every regular, non-hidden file of @dir, in
 * name order, parsed and checked with kl_pcr_policy_check(); each file
 * refused gets one line and is left out
 * @dir: the directory
 * @pol: the (verified) policy
 * @a:   the authority
 * @out: out, the usable ones (free with kl_pcr_policies_free())
 * @n:   out, how many
 * @bad: out, how many files were refused
 * Return: 0, or a negative errno when the directory cannot be read or
 * holds more than KL_PCRPOL_MAX_FILES files.
 */
int kl_pcr_policies_load(const char *dir, const struct kl_policy *pol,
			 const struct kl_authority *a,
			 struct kl_pcr_policy **out, size_t *n, size_t *bad);
void kl_pcr_policies_free(struct kl_pcr_policy *pps, size_t n);

/**
 * kl_unseal_check() - does the TPM open @sealed now, under one of @pps, and
 * does it hold @a's fingerprint?
 * @tpm:    connection (pinned to the object's SRK)
 * @sealed: the enrolment's sealed object (format version 3)
 * @a:      the authority it must be bound to
 * @pps:    the signed PCR policies, tried in order
 * @n:      how many
 * @used:   out, the index of the policy that opened it
 * Return: 0, -EACCES when no policy matches the PCR state, -EBADE when the
 * object is not bound to @a or holds something else, or a TPM errno.
 */
int kl_unseal_check(struct elfsig_tpm *tpm,
		    const struct elfsig_tpm_sealed *sealed,
		    const struct kl_authority *a,
		    const struct kl_pcr_policy *pps, size_t n, size_t *used);
/**
 * kl_unseal_expect() - the TPM opens @sealed (bound with PolicyAuthorize
 * to the key @spki) under one of @cands, and it holds @fp
 * @tpm:      connection (pinned to the object's SRK)
 * @sealed:   the object
 * @spki:     the key the object is bound to (DER SubjectPublicKeyInfo)
 * @spki_len: its length
 * @fp:       what the object must hold: the authority's fingerprint
 * @cands:    PCR states and the key's signatures over their approval
 * @n:        how many
 * @used:     out, the index of the one that opened it
 * Return: 0, -EACCES when no candidate matches the PCRs, -EBADE when the
 * object holds something else, or a negative errno.
 */
int kl_unseal_expect(struct elfsig_tpm *tpm,
		     const struct elfsig_tpm_sealed *sealed,
		     const uint8_t *spki, size_t spki_len,
		     const uint8_t fp[KL_FP_LEN],
		     const struct elfsig_tpm_signed_pcr_policy *cands,
		     size_t n, size_t *used);

#endif /* ELFSIG_KL_PCRPOLICY_H */
