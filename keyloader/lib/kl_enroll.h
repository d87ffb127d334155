/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kl_enroll.h - enrolment: exit statuses, the inputs of one enrolment and
 * their loading, signing, sealing and atomic writing.
 */
#ifndef ELFSIG_KL_ENROLL_H
#define ELFSIG_KL_ENROLL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elfsig_tpm.h"
#include "kl_authority.h"
#include "kl_measure.h"
#include "kl_pcrpolicy.h"
#include "kl_policy.h"
#include "kl_util.h"

struct kl_enroll_opts {
	const char *policy_path;
	const char *sig_path;		/* the policy's detached signature */
	const char *sealed_path;
	const char *authority_path;	/* the authority's public key */
	const char *pcrpol_dir;		/* signed PCR policies */
	const char *out;		/* a signed PCR policy's file, or NULL */
	const char *pcr_values;	/* expected PCR values file, or NULL: current */
	const char *event_log;	/* or: predicted from this TCG event log */
	struct kl_eventlog_replace replace[KL_MAX_REPLACE];
	size_t nreplace;
	const char *tcti;
	uint32_t srk_handle;
	const char *counter_path;	/* the rollback counter binding */
	const char *counter_sig_path;	/* its signature */
	uint32_t nv_index;		/* the counter */
};

/* Signs SHA-256 digests with the authority's private key (elfsig-enroll
 * holds it; the loader never does). */
struct kl_signer {
	int (*sign)(void *ctx, const uint8_t digest[KL_FP_LEN], uint8_t **sig,
		    size_t *sig_len);
	void *ctx;
	struct kl_authority auth;	/* its public half */
};

/* A file to replace atomically, with the others of one kl_write_all(). */
struct kl_out {
	const char *path;
	const void *data;
	size_t len;
	unsigned int mode;
	char *tmp;			/* internal */
};

/**
 * kl_write_all() - write every file under a temporary name and sync it,
 * then rename them into place in order; nothing is replaced unless every
 * file was written
 * @outs: the files
 * @n:    how many
 * Return: 0 or a negative errno.
 */
int kl_write_all(struct kl_out *outs, size_t n);

/**
 * kl_enroll_load() - read the policy, its signature and the authority's
 * public key, and check that the authority signed exactly these bytes
 * @o:   the paths
 * @pol: out, the policy (free with kl_policy_free())
 * @a:   out, the authority (free with kl_authority_free())
 * Return: 0, -EPROTO for a version 1 policy, -EBADE when the signature
 * does not verify, or another negative errno; one message in each case.
 */
int kl_enroll_load(const struct kl_enroll_opts *o, struct kl_policy *pol,
		   struct kl_authority *a);

/**
 * kl_enroll_machine() - this TPM's storage root key name into @pol: the
 * machine the policy and its PCR policies are signed for
 * @o:   the TPM options
 * @pol: the policy
 * Return: 0 or a negative errno.
 */
int kl_enroll_machine(const struct kl_enroll_opts *o, struct kl_policy *pol);
/**
 * kl_sealed_machine() - the SRK name @path (a sealed object) records, into
 * @pol: the machine an enrolment was sealed on
 * @path: the sealed object
 * @pol:  the policy
 * Return: 0 or a negative errno (an object without the name: -EBADMSG).
 */
int kl_sealed_machine(const char *path, struct kl_policy *pol);

/**
 * kl_enroll_sign_policy() - set @pol's version and authority, format it
 * and sign the text
 * @pol:     the policy
 * @s:       the authority's signer
 * @text:    out, the policy file (malloc'ed)
 * @len:     out, its length
 * @sig:     out, the detached signature (malloc'ed)
 * @sig_len: out, its length
 * Return: 0 or a negative errno.
 */
int kl_enroll_sign_policy(struct kl_policy *pol, const struct kl_signer *s,
			  char **text, size_t *len, uint8_t **sig,
			  size_t *sig_len);

/**
 * kl_enroll_seal() - seal the authority's fingerprint under
 * PolicyAuthorize(authority, KL_POLICY_REF) with this TPM
 * @o:   the TPM options
 * @a:   the authority
 * @buf: out, the sealed-object file (malloc'ed)
 * @len: out, its length
 * Return: 0 or a negative errno.
 */
int kl_enroll_seal(const struct kl_enroll_opts *o, const struct kl_authority *a,
		   uint8_t **buf, size_t *len);
/**
 * kl_enroll_seal_to() - seal @a's fingerprint under PolicyAuthorize(@key,
 * @ref) with this TPM: kl_enroll_seal() is @key = @a, @ref =
 * KL_POLICY_REF; the pcrsig opt-in is a systemd key and "" (what
 * systemd-measure signs), and the enrolment's own PCRs it does not sign
 * @o:    the enrolment's options (TPM, SRK pin)
 * @key:  the key whose approvals open the object
 * @ref:  the policyRef those approvals name
 * @pcrs: PCRs bound as well (PolicyPCR after PolicyAuthorize), or NULL
 * @a:    the enrolment authority (its fingerprint is what is sealed)
 * @buf: out, the sealed object's file (malloc'ed)
 * @len: out, its length
 * Return: 0 or a negative errno.
 */
int kl_enroll_seal_to(const struct kl_enroll_opts *o,
		      const struct kl_authority *key, const char *ref,
		      const struct elfsig_tpm_pcr_values *pcrs,
		      const struct kl_authority *a, uint8_t **buf, size_t *len);

/**
 * kl_enroll_pcr_values() - the PCR values of @o->pcr_values, or predicted
 * from @o->event_log with @o->replace, or the TPM's current ones
 * @o:    the options
 * @sel:  the PCRs
 * @vals: out, the values
 * Return: 0 or a negative errno.
 */
int kl_enroll_pcr_values(const struct kl_enroll_opts *o,
			 const struct elfsig_tpm_pcrsel *sel,
			 struct elfsig_tpm_pcr_values *vals);

/**
 * kl_enroll_pcr_policy() - a signed PCR policy for @pol's PCRs, with the
 * values of @o->pcr_values or the current ones
 * @o:    the options
 * @pol:  the policy (its selection)
 * @s:    the authority's signer
 * @text: out, the file's text (malloc'ed)
 * @len:  out, its length
 * @path: out, where it goes: @o->out, else the PCR policy directory and a
 *        name derived from the policy digest (malloc'ed)
 * Return: 0 or a negative errno.
 */
int kl_enroll_pcr_policy(const struct kl_enroll_opts *o,
			 const struct kl_policy *pol, const struct kl_signer *s,
			 char **text, size_t *len, char **path);

/**
 * kl_enroll_bind() - this machine's rollback counter, bound at @generation:
 * the counter is defined if need be (or reused), and the binding signed
 * @o:          the paths, TPM options and index
 * @s:          the authority's signer
 * @generation: the epoch the machine shall be at
 * @lower:      may the epoch go down (the binding's base up)?
 * @text:       out, the binding (malloc'ed)
 * @len:        out, its length
 * @sig:        out, its signature (malloc'ed)
 * @sig_len:    out, its length
 * @epoch:      out, the machine's epoch now
 *
 * With a valid binding of this TPM and counter already in place, an
 * epoch below @generation is raised by incrementing the counter (the
 * base stays: an older binding can then only give a higher epoch);
 * one above it is lowered (a new base) only with @lower. Without one,
 * base = counter - @generation (the counter advanced first if below).
 * Return: 0 or a negative errno, with a message.
 */
int kl_enroll_bind(const struct kl_enroll_opts *o, const struct kl_signer *s,
		   uint32_t generation, bool lower, char **text, size_t *len,
		   uint8_t **sig, size_t *sig_len, uint64_t *epoch);

/**
 * kl_pcr_policy_resign() - a PCR policy the authority signed (any
 * version: its approval signature is checked), signed again under
 * @generation for @pol's machine
 * @pp:         the parsed file
 * @pol:        the enrolment policy (its selection)
 * @s:          the authority's signer
 * @generation: the new generation
 * @text:       out, the file (malloc'ed)
 * @len:        out, its length
 * Return: 0, -EBADE when the file is not the authority's, or a negative
 * errno.
 */
int kl_pcr_policy_resign(const struct kl_pcr_policy *pp,
			 const struct kl_policy *pol, const struct kl_signer *s,
			 uint32_t generation, char **text, size_t *len);

/**
 * kl_sealed_pin() - pin @opts to the storage root key @sealed was sealed
 * under (the name elfsig_tpm_seal recorded in it)
 * @sealed: the sealed object
 * @path:   for the message
 * @opts:   the TPM options to pin
 *
 * @opts->srk_name points into @sealed afterwards.
 * Return: 0, or -EBADMSG with a message when @sealed records no SRK name
 * (format version 1, written before enrolment recorded it): such an
 * object is refused, `elfsig-enroll reseal` rewrites it.
 */
int kl_sealed_pin(const struct elfsig_tpm_sealed *sealed, const char *path,
		  struct elfsig_tpm_opts *opts);

/**
 * kl_sealed_check() - kl_sealed_pin(), and the object must be an
 * enrolment: bound with PolicyAuthorize to the PCR policies an authority
 * signs for elfsig (policyRef KL_POLICY_REF)
 * @sealed: the sealed object
 * @path:   for messages
 * @opts:   the TPM options to pin
 * Return: 0, -EBADMSG (no SRK name), -EPROTO for an object sealed to one
 * PCR state (version 1 enrolment: the message names elfsig-enroll
 * migrate), -EBADE for another policyRef.
 */
int kl_sealed_check(const struct elfsig_tpm_sealed *sealed, const char *path,
		    struct elfsig_tpm_opts *opts);

/** kl_policy_load() - read and parse a policy file. */
int kl_policy_load(const char *path, struct kl_policy *pol);

/**
 * kl_policy_verify() - does the TPM release @digest for this policy now?
 * @tpm:    connection
 * @sealed: the sealed object
 * @pol:    the parsed policy (its PCR selection must be the object's)
 * @digest: SHA-256 of the policy file's bytes
 *
 * Unseals under PolicyPCR and compares in constant time; the unsealed
 * bytes are cleansed.
 * Return: 0 when they match, -EACCES when the TPM refuses (PCR state
 * differs), -EBADE when the policy does not match the sealed digest or
 * PCR selection, or another negative errno (TPM failure).
 */
int kl_policy_verify(struct elfsig_tpm *tpm,
		     const struct elfsig_tpm_sealed *sealed,
		     const struct kl_policy *pol,
		     const uint8_t digest[KL_FP_LEN]);


/* enroll_write.c: the files of an enrolment, written together. */
/**
 * kl_enroll_write() - a whole enrolment: authority.pem, the signed
 * policy, the sealed object (this TPM), the counter binding and a signed
 * PCR policy (current or --pcr-values)
 * @o:     the paths and TPM
 * @pol:   the policy (its machine is set to this TPM's)
 * @s:     the authority
 * @force: the machine's epoch may go down
 * Return: 0, or -EIO after a message.
 */
int kl_enroll_write(const struct kl_enroll_opts *o, struct kl_policy *pol,
		    const struct kl_signer *s, bool force);
/**
 * kl_enroll_write_policy() - the signed policy alone, and a PCR policy
 * when the selection changed
 * @o:          the paths
 * @pol:        the policy
 * @s:          the authority
 * @pcr_policy: sign a PCR policy too
 * Return: 0, or -EIO after a message.
 */
int kl_enroll_write_policy(const struct kl_enroll_opts *o,
			   struct kl_policy *pol, const struct kl_signer *s,
			   bool pcr_policy);
/**
 * kl_enroll_binding_out() - the rollback counter binding (counter,
 * counter.sig) of this machine at @generation, to be written
 * @o:          the paths and counter
 * @s:          the authority
 * @generation: the generation bound
 * @lower:      the epoch may go down (--force)
 * @outs:       out, two files (the caller frees both .data)
 * Return: 0, or -EIO after a message.
 */
int kl_enroll_binding_out(const struct kl_enroll_opts *o,
			  const struct kl_signer *s, uint32_t generation,
			  bool lower, struct kl_out *outs);
/**
 * kl_enroll_resign_pcr_policies() - every PCR policy of the directory,
 * checked to be the authority's and signed again under @generation
 * @o:          the paths
 * @pol:        the policy
 * @s:          the authority
 * @generation: the generation signed
 * @outs:       out, the files (paths and data malloc'ed)
 * @max:        room in @outs
 * Return: how many, or -1 after a message.
 */
long kl_enroll_resign_pcr_policies(const struct kl_enroll_opts *o,
				   const struct kl_policy *pol,
				   const struct kl_signer *s, uint32_t generation,
				   struct kl_out *outs, size_t max);
/**
 * kl_enroll_write_generation() - the policy (its generation and machine
 * set) and every PCR policy of the directory signed under
 * pol->generation, with @bind the counter binding at it, and @extra, all
 * written together
 * @o:     the paths
 * @pol:   the policy
 * @s:     the authority
 * @bind:  write the counter binding too
 * @force: the machine's epoch may go down
 * @extra: a sealed object, or NULL (its data is not freed)
 * Return: 0, or -EIO after a message.
 */
int kl_enroll_write_generation(const struct kl_enroll_opts *o,
			       struct kl_policy *pol, const struct kl_signer *s,
			       bool bind, bool force, const struct kl_out *extra);
/** kl_enroll_values_source() - "the current", "the predicted" or the
 * --pcr-values file, for messages. */
const char *kl_enroll_values_source(const struct kl_enroll_opts *o);
#endif /* ELFSIG_KL_ENROLL_H */
