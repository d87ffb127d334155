/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * elfsig_tpm.h - libelfsig-tpm: the TPM layer (TCTI, SRK, PCR policy seal).
 *
 * A small library over tpm2-tss ESAPI. Every function returns 0 or a
 * negative errno; the human-readable reason for a failure goes through the
 * error callback (elfsig_tpm_set_error_callback). The library never prints
 * on its own and never exits. Error codes with a fixed meaning:
 *
 *   -ENODEV        the TPM is not reachable (TCTI could not be loaded or
 *                  initialised, connection refused, device missing)
 *   -EACCES        the PCR policy is not satisfied (a sealed PCR changed)
 *   -EPERM         authorisation failed (wrong password, wrong hierarchy)
 *   -EBADMSG       malformed input: sealed-object file, PCR selection
 *   -ENOENT        no object at the given persistent handle
 *   -EEXIST        the persistent handle is already taken
 *   -ENOSPC        the TPM ran out of object or session slots
 *   -EBUSY         the TPM is in dictionary-attack lockout or asks to retry
 *   -EKEYREJECTED  the TPM refused the object (wrong TPM or parent)
 *   -ENOKEY        the storage root key is not the pinned one (its name
 *                  differs: another TPM, a cleared owner seed, a
 *                  substituted key or a forged TPM response)
 *   -EINVAL        invalid argument
 *   -EIO           any other TPM or TSS failure (the message has details)
 *
 * Anything else is an I/O, memory or crypto-library error.
 *
 * TCTI convention: an explicit string, else the environment variable
 * TPM2TOOLS_TCTI (as tpm2-tools), else "device:/dev/tpmrm0".
 */
#ifndef ELFSIG_TPM_H
#define ELFSIG_TPM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ELFSIG_TPM_API __attribute__((visibility("default")))

#define ELFSIG_TPM_DEFAULT_TCTI	"device:/dev/tpmrm0"
#define ELFSIG_TPM_TCTI_ENV	"TPM2TOOLS_TCTI"
#define ELFSIG_TPM_MAX_SECRET	128	/* largest sealed secret, bytes */
#define ELFSIG_TPM_MAX_PCRS	24	/* PCR indices 0..23 */
#define ELFSIG_TPM_MAX_DIGEST	64	/* SHA-512 */
#define ELFSIG_TPM_MAX_SEALED_FILE 8192	/* larger files are rejected */

typedef void (*elfsig_tpm_error_cb)(const char *msg, void *ctx);

/**
 * elfsig_tpm_set_error_callback() - route the library's error messages
 * @cb:  called with one line (no trailing newline) per failure; NULL
 *       silences the library
 * @ctx: passed back to @cb
 */
ELFSIG_TPM_API void elfsig_tpm_set_error_callback(elfsig_tpm_error_cb cb,
						  void *ctx);

/**
 * elfsig_tpm_tcti() - the TCTI string to use
 * @explicit_tcti: from a command-line option, or NULL
 *
 * Return: @explicit_tcti if set, else $TPM2TOOLS_TCTI if set and not
 * empty, else ELFSIG_TPM_DEFAULT_TCTI. Never NULL.
 */
ELFSIG_TPM_API const char *elfsig_tpm_tcti(const char *explicit_tcti);

/* An open connection to a TPM: ESAPI context plus the storage root key. */
struct elfsig_tpm;

#define ELFSIG_TPM_MAX_NAME	66	/* a TPM2B_NAME's bytes: alg + digest */

struct elfsig_tpm_opts {
	const char *tcti;	/* NULL: see elfsig_tpm_tcti() */
	uint32_t srk_handle;	/* persistent SRK (0x81xxxxxx), or 0 to
				 * create the SRK as a primary when needed */
	const uint8_t *srk_name; /* if set, the SRK's TPM name must be this
				  * (recorded at enrolment with
				  * elfsig_tpm_srk_name): a substituted key
				  * or forged response is refused */
	size_t srk_name_len;
};

/**
 * elfsig_tpm_open() - connect to the TPM
 * @opts: TCTI and SRK choice; NULL for defaults
 * @out:  the connection; free with elfsig_tpm_close()
 *
 * For socket TCTIs (swtpm, mssim) the endpoint is probed first with a
 * bounded timeout, so an unreachable TPM fails fast with the reason.
 * Return: 0, -ENODEV when the TPM cannot be reached, or a negative errno.
 */
ELFSIG_TPM_API int elfsig_tpm_open(const struct elfsig_tpm_opts *opts,
				   struct elfsig_tpm **out);

/**
 * elfsig_tpm_srk_name() - the TPM name of the storage root key
 * @tpm:  connection
 * @name: out, at least ELFSIG_TPM_MAX_NAME bytes (nameAlg || digest)
 * @len:  out, its length
 *
 * ESAPI computes the name from the very public area it uses to salt
 * sessions, so pinning it (elfsig_tpm_opts.srk_name) pins that key.
 * Return: 0, -ENOKEY when a pin is set and the SRK's name differs, or a
 * negative errno.
 */
ELFSIG_TPM_API int elfsig_tpm_srk_name(struct elfsig_tpm *tpm, uint8_t *name,
				       size_t *len);

/** elfsig_tpm_close() - flush what is still loaded and disconnect. */
ELFSIG_TPM_API void elfsig_tpm_close(struct elfsig_tpm *tpm);

/* PCR selection: one bank (TPM2_ALG_SHA1/SHA256/SHA384/SHA512 id) and a
 * bit mask of indices 0..23. */
struct elfsig_tpm_pcrsel {
	uint16_t bank;
	uint32_t mask;
};

/* PCR values for a selection, in ascending index order. */
struct elfsig_tpm_pcr_values {
	struct elfsig_tpm_pcrsel sel;
	size_t digest_size;
	uint8_t value[ELFSIG_TPM_MAX_PCRS][ELFSIG_TPM_MAX_DIGEST]; /* by index */
};

/**
 * elfsig_tpm_pcrsel_parse() - parse "sha256:0,2,4,7" (also ranges "0-7")
 * @s:   the text
 * @sel: out, the selection
 * Return: 0 and *@sel set, or -EBADMSG with a message.
 */
ELFSIG_TPM_API int elfsig_tpm_pcrsel_parse(const char *s,
					   struct elfsig_tpm_pcrsel *sel);

/**
 * elfsig_tpm_pcrsel_format() - format as "sha256:0,2,4,7"
 * @sel: the selection
 * @buf: out, the text, NUL-terminated
 * @len: size of @buf
 * Return: 0, or -ENOSPC if @len is too small.
 */
ELFSIG_TPM_API int elfsig_tpm_pcrsel_format(const struct elfsig_tpm_pcrsel *sel,
					    char *buf, size_t len);

/**
 * elfsig_tpm_bank_from_name() - "sha1", "sha256", "sha384", "sha512"
 * @name: the bank's name
 * Return: the TPM2_ALG_ID, or 0 for an unknown name.
 */
ELFSIG_TPM_API uint16_t elfsig_tpm_bank_from_name(const char *name);

/** elfsig_tpm_bank_name() - Return: "sha256" etc., or NULL. */
ELFSIG_TPM_API const char *elfsig_tpm_bank_name(uint16_t bank);

/** elfsig_tpm_bank_size() - Return: digest size of the bank, or 0. */
ELFSIG_TPM_API size_t elfsig_tpm_bank_size(uint16_t bank);

/**
 * elfsig_tpm_pcr_read() - read the PCRs of a selection
 * @tpm: connection
 * @sel: selection
 * @out: values, indexed by PCR number
 * Return: 0 or a negative errno.
 */
ELFSIG_TPM_API int elfsig_tpm_pcr_read(struct elfsig_tpm *tpm,
				       const struct elfsig_tpm_pcrsel *sel,
				       struct elfsig_tpm_pcr_values *out);

/**
 * elfsig_tpm_pcr_extend() - extend one PCR in one bank with a digest
 * @tpm:    connection
 * @index:  PCR index (0..23)
 * @bank:   TPM2_ALG_ID of the bank
 * @digest: digest to extend with
 * @size:   must equal elfsig_tpm_bank_size(@bank)
 * Return: 0 or a negative errno.
 */
ELFSIG_TPM_API int elfsig_tpm_pcr_extend(struct elfsig_tpm *tpm,
					 unsigned int index, uint16_t bank,
					 const uint8_t *digest, size_t size);

/**
 * elfsig_tpm_pcr_extend_data() - hash @data with the bank's algorithm and
 * extend PCR @index of that bank with the result (an event measurement)
 * @tpm:   connection
 * @index: PCR index (0..23)
 * @bank:  TPM2_ALG_ID of the bank
 * @data:  the event
 * @len:   its length
 * Return: 0 or a negative errno.
 */
ELFSIG_TPM_API int elfsig_tpm_pcr_extend_data(struct elfsig_tpm *tpm,
					      unsigned int index, uint16_t bank,
					      const void *data, size_t len);

#define ELFSIG_TPM_MAX_BANKS	4	/* sha1, sha256, sha384, sha512 */

/* The digests one event was extended with, one per bank. */
struct elfsig_tpm_event_digests {
	unsigned int count;
	struct {
		uint16_t bank;		/* TPM2_ALG_ID */
		size_t size;
		uint8_t digest[ELFSIG_TPM_MAX_DIGEST];	/* H_bank(event) */
	} d[ELFSIG_TPM_MAX_BANKS];
};

/**
 * elfsig_tpm_pcr_extend_event() - measure an event into several banks of
 * one PCR with a single TPM2_PCR_Extend
 * @tpm:    connection
 * @index:  PCR index (0..23)
 * @banks:  1..ELFSIG_TPM_MAX_BANKS distinct banks (TPM2_ALG_ID), in the
 *          order @out lists them
 * @nbanks: how many
 * @data:   the event
 * @len:    its length
 * @out:    the banks extended and H_bank(@data) for each
 *
 * Banks the TPM has not allocated for @index are skipped (the allocation
 * is read once per connection with TPM2_GetCapability); the others are
 * extended together, one TPM round trip instead of one per bank, with
 * the same result as elfsig_tpm_pcr_extend_data() bank after bank.
 * Return: 0, -ENOENT when none of @banks is allocated, -EINVAL for an
 * unknown or repeated bank, or a negative errno (then @out is empty and
 * no bank was extended).
 */
ELFSIG_TPM_API int elfsig_tpm_pcr_extend_event(struct elfsig_tpm *tpm,
					       unsigned int index,
					       const uint16_t *banks,
					       size_t nbanks, const void *data,
					       size_t len,
					       struct elfsig_tpm_event_digests *out);

/* A sealed object: PCR selection, TPM2B_PUBLIC, TPM2B_PRIVATE and,
 * optionally, the PCR values it was sealed to (informational: used to
 * name the PCR that changed when the policy fails). */
struct elfsig_tpm_sealed;

/**
 * elfsig_tpm_seal() - seal a secret under PolicyPCR
 * @tpm:      connection
 * @expected: the PCR values the secret shall unseal under (e.g. the
 *            next boot's state); only @expected->sel's PCRs are used
 * @secret:   1..ELFSIG_TPM_MAX_SECRET bytes
 * @len:      its length
 * @out:      the sealed object; free with elfsig_tpm_sealed_free()
 *
 * The policy digest is computed by the TPM in a trial session. The
 * object is a keyedHash data object (fixedTPM|fixedParent, no userWithAuth)
 * under the SRK, readable by tpm2_unseal with the same PCR policy.
 * Return: 0 or a negative errno.
 */
ELFSIG_TPM_API int elfsig_tpm_seal(struct elfsig_tpm *tpm,
				   const struct elfsig_tpm_pcr_values *expected,
				   const uint8_t *secret, size_t len,
				   struct elfsig_tpm_sealed **out);

/**
 * elfsig_tpm_seal_current() - seal to the current values of @sel
 * @tpm:    connection
 * @sel:    the PCRs
 * @secret: what to seal
 * @len:    its length
 * @out:    out, the sealed object
 * Return: 0 or a negative errno.
 */
ELFSIG_TPM_API int elfsig_tpm_seal_current(struct elfsig_tpm *tpm,
					   const struct elfsig_tpm_pcrsel *sel,
					   const uint8_t *secret, size_t len,
					   struct elfsig_tpm_sealed **out);

/**
 * elfsig_tpm_unseal() - unseal under a PolicyPCR session
 * @tpm:    connection
 * @sealed: the sealed object
 * @secret: out buffer; cleanse it after use
 * @cap:    its size (ELFSIG_TPM_MAX_SECRET is always enough for ours)
 * @len:    out, secret length
 *
 * The session is salted with the SRK and encrypts the response, so the
 * secret does not cross the TPM bus in clear. When @sealed records the
 * SRK's name, an SRK with another name is refused first.
 * Return: 0, -EACCES when the PCRs no longer match (the message names the
 * PCRs that changed when the file records the sealed values), -ENOKEY
 * when the SRK is not the one the object records (or the pinned one), or
 * a negative errno.
 */
ELFSIG_TPM_API int elfsig_tpm_unseal(struct elfsig_tpm *tpm,
				     const struct elfsig_tpm_sealed *sealed,
				     uint8_t *secret, size_t cap, size_t *len);

/** elfsig_tpm_sealed_free() - free a sealed object (NULL is fine). */
ELFSIG_TPM_API void elfsig_tpm_sealed_free(struct elfsig_tpm_sealed *sealed);

/** elfsig_tpm_sealed_pcrsel() - Return: the object's PCR selection (of an
 * authorized object: the PCRs it binds besides the approval, often none). */
ELFSIG_TPM_API const struct elfsig_tpm_pcrsel *
elfsig_tpm_sealed_pcrsel(const struct elfsig_tpm_sealed *sealed);

/**
 * elfsig_tpm_sealed_srk_name() - the TPM name of the SRK the object was
 * sealed under, as recorded by elfsig_tpm_seal (file format version 2)
 * @sealed: object
 * @name:   out, points into @sealed; NULL when not recorded
 *
 * elfsig_tpm_unseal() refuses (-ENOKEY) an SRK with another name before
 * it salts a session with it; pass it in elfsig_tpm_opts.srk_name to pin
 * every use of the SRK on a connection.
 * Return: the name's length, 0 when the object records none (a version 1
 * file, or an object imported from tpm2-tools).
 */
ELFSIG_TPM_API size_t elfsig_tpm_sealed_srk_name(const struct elfsig_tpm_sealed *sealed,
						 const uint8_t **name);

/**
 * elfsig_tpm_sealed_serialize() - the sealed-object file format (docs/tpm.md)
 * @sealed: object
 * @buf:    out, malloc'ed; free() it
 * @len:    out, its size
 * Return: 0 or a negative errno.
 */
ELFSIG_TPM_API int elfsig_tpm_sealed_serialize(const struct elfsig_tpm_sealed *sealed,
					       uint8_t **buf, size_t *len);

/**
 * elfsig_tpm_sealed_parse() - parse a sealed-object file image
 * @buf: the bytes
 * @len: how many
 * @out: out, the object (free with elfsig_tpm_sealed_free())
 *
 * Every length is checked against what remains; trailing bytes, unknown
 * versions and objects that are not PCR-policy data objects are refused.
 * Return: 0 and *@out set, or -EBADMSG with a message.
 */
ELFSIG_TPM_API int elfsig_tpm_sealed_parse(const uint8_t *buf, size_t len,
					   struct elfsig_tpm_sealed **out);

/**
 * elfsig_tpm_sealed_read_file() - read and parse a sealed-object file
 * @path: the file (at most ELFSIG_TPM_MAX_SEALED_FILE bytes)
 * @out:  out, the object
 * Return: 0 or a negative errno.
 */
ELFSIG_TPM_API int elfsig_tpm_sealed_read_file(const char *path,
					       struct elfsig_tpm_sealed **out);
/**
 * elfsig_tpm_sealed_write_file() - write a sealed object atomically
 * @sealed: the object
 * @path:   the file, replaced through a temporary file and a rename
 * Return: 0 or a negative errno.
 */
ELFSIG_TPM_API int elfsig_tpm_sealed_write_file(const struct elfsig_tpm_sealed *sealed,
						const char *path);

/**
 * elfsig_tpm_sealed_from_tss() - wrap a tpm2-tools object (the marshalled
 * TPM2B_PUBLIC and TPM2B_PRIVATE of `tpm2_create -u -r`) sealed under
 * PolicyPCR over @sel
 * @sel:     the PCRs it is sealed to
 * @pub:     the TPM2B_PUBLIC
 * @publen:  its length
 * @priv:    the TPM2B_PRIVATE
 * @privlen: its length
 * @out:     out, the object
 * Return: 0 or -EBADMSG.
 */
ELFSIG_TPM_API int elfsig_tpm_sealed_from_tss(const struct elfsig_tpm_pcrsel *sel,
					      const uint8_t *pub, size_t publen,
					      const uint8_t *priv, size_t privlen,
					      struct elfsig_tpm_sealed **out);

/**
 * elfsig_tpm_sealed_to_tss() - the marshalled TPM2B_PUBLIC and
 * TPM2B_PRIVATE, for `tpm2_load -u -r`; free() both
 * @sealed:  the object
 * @pub:     out, the TPM2B_PUBLIC
 * @publen:  out, its length
 * @priv:    out, the TPM2B_PRIVATE
 * @privlen: out, its length
 * Return: 0 or a negative errno.
 */
ELFSIG_TPM_API int elfsig_tpm_sealed_to_tss(const struct elfsig_tpm_sealed *sealed,
					    uint8_t **pub, size_t *publen,
					    uint8_t **priv, size_t *privlen);

/*
 * Signed PCR policies (docs/tpm.md): an object sealed with
 * elfsig_tpm_seal_authorized() has authPolicy = PolicyAuthorize(authority
 * key name, policyRef) and opens under any PolicyPCR digest the authority
 * signed. The authority key is given as a DER SubjectPublicKeyInfo: RSA
 * 2048, 3072 or 4096 bits (as far as the TPM implements them) or ECDSA
 * P-256 or P-384; its signatures are RSASSA-PKCS1-v1_5 or ECDSA with
 * SHA-256, as `openssl pkeyutl -sign -pkeyopt digest:sha256` makes them.
 */
#define ELFSIG_TPM_POLICY_SIZE		32	/* a SHA-256 policy digest */
#define ELFSIG_TPM_MAX_POLICY_REF	32	/* policyRef, bytes */

/* One PCR state the authority approved, and its signature over
 * elfsig_tpm_authorize_tbs(elfsig_tpm_pcr_policy_digest(values), ref). */
struct elfsig_tpm_signed_pcr_policy {
	struct elfsig_tpm_pcr_values values;
	const uint8_t *sig;
	size_t sig_len;
};

/**
 * elfsig_tpm_pcr_policy_digest() - the PolicyPCR digest of a PCR state,
 * computed without a TPM (a SHA-256 policy session from zero)
 * @v:   the selection and the values
 * @out: out, the digest (what tpm2_createpolicy --policy-pcr gives)
 * Return: 0, -EINVAL for an invalid selection, or a negative errno.
 */
ELFSIG_TPM_API int elfsig_tpm_pcr_policy_digest(const struct elfsig_tpm_pcr_values *v,
						uint8_t out[ELFSIG_TPM_POLICY_SIZE]);

/**
 * elfsig_tpm_authority_name() - the TPM name of an authority key, as
 * TPM2_LoadExternal names it (SHA-256 name, a signing key, no scheme)
 * @spki:     DER SubjectPublicKeyInfo
 * @len:      its length
 * @name:     out, at least ELFSIG_TPM_MAX_NAME bytes
 * @name_len: out, its length (34)
 * Return: 0, -EBADMSG when @spki is not a public key, -EKEYREJECTED for
 * a key type outside the list above.
 */
ELFSIG_TPM_API int elfsig_tpm_authority_name(const uint8_t *spki, size_t len,
					     uint8_t *name, size_t *name_len);

/**
 * elfsig_tpm_authorize_policy() - the PolicyAuthorize digest: the
 * authPolicy of an object bound to an authority
 * @name:     the authority key's TPM name
 * @name_len: its length
 * @ref:      policyRef (0..ELFSIG_TPM_MAX_POLICY_REF bytes)
 * @ref_len:  its length
 * @out:      out, the digest
 * Return: 0 or -EINVAL.
 */
ELFSIG_TPM_API int elfsig_tpm_authorize_policy(const uint8_t *name, size_t name_len,
					       const uint8_t *ref, size_t ref_len,
					       uint8_t out[ELFSIG_TPM_POLICY_SIZE]);

/**
 * elfsig_tpm_authorize_tbs() - what the authority signs to approve a
 * policy: aHash = SHA-256(approvedPolicy || policyRef)
 * @approved: the approved policy digest (a PolicyPCR digest)
 * @ref:      policyRef
 * @ref_len:  its length
 * @out:      out, the digest to sign
 * Return: 0 or -EINVAL.
 */
ELFSIG_TPM_API int elfsig_tpm_authorize_tbs(const uint8_t approved[ELFSIG_TPM_POLICY_SIZE],
					    const uint8_t *ref, size_t ref_len,
					    uint8_t out[ELFSIG_TPM_POLICY_SIZE]);

/**
 * elfsig_tpm_seal_authorized() - seal a secret under PolicyAuthorize
 * @tpm:      connection
 * @spki:     the authority key (DER SubjectPublicKeyInfo)
 * @spki_len: its length
 * @ref:      policyRef, binding the object to signatures made for it
 * @ref_len:  its length
 * @secret:   1..ELFSIG_TPM_MAX_SECRET bytes
 * @len:      its length
 * @out:      the object (sealed-object format version 3)
 *
 * No PCR state is involved: the object opens under any PCR policy the
 * authority signed (elfsig_tpm_unseal_authorized()).
 * Return: 0 or a negative errno.
 */
ELFSIG_TPM_API int elfsig_tpm_seal_authorized(struct elfsig_tpm *tpm,
					      const uint8_t *spki, size_t spki_len,
					      const uint8_t *ref, size_t ref_len,
					      const uint8_t *secret, size_t len,
					      struct elfsig_tpm_sealed **out);

/**
 * elfsig_tpm_seal_authorized_pcrs() - elfsig_tpm_seal_authorized(), and
 * bound to PCR values of its own as well
 * @tpm:      connection
 * @spki:     the key whose approvals open the object
 * @spki_len: its length
 * @ref:      policyRef
 * @ref_len:  its length
 * @pcrs:     PCRs (not covered by the approvals) and the values they must
 *            hold, or NULL: none
 * @secret:   1..ELFSIG_TPM_MAX_SECRET bytes
 * @len:      its length
 * @out:      the object (format version 3 with the "PCRs" flag)
 *
 * authPolicy = PolicyPCR(@pcrs) after PolicyAuthorize(key, @ref): an
 * approval of the key replaces only the PCRs it covers, @pcrs still bind.
 * Return: 0 or a negative errno.
 */
ELFSIG_TPM_API int elfsig_tpm_seal_authorized_pcrs(struct elfsig_tpm *tpm,
						   const uint8_t *spki, size_t spki_len,
						   const uint8_t *ref, size_t ref_len,
						   const struct elfsig_tpm_pcr_values *pcrs,
						   const uint8_t *secret, size_t len,
						   struct elfsig_tpm_sealed **out);

/**
 * elfsig_tpm_unseal_authorized() - unseal under the first signed PCR
 * policy that the current PCR values satisfy
 * @tpm:      connection
 * @sealed:   an object from elfsig_tpm_seal_authorized()
 * @spki:     the authority key the object must be bound to
 * @spki_len: its length
 * @pols:     the signed PCR policies, tried in order
 * @n:        how many
 * @used:     out, the index of the policy that opened it
 * @secret:   out buffer; cleanse it after use
 * @cap:      its size
 * @len:      out, the secret's length
 *
 * One salted policy session: PolicyPCR with each candidate's values until
 * the TPM takes one, TPM2_VerifySignature of that candidate's signature
 * (the key loaded in the owner hierarchy) for the ticket, PolicyAuthorize,
 * PolicyPCR over the object's own PCRs if it binds some
 * (elfsig_tpm_seal_authorized_pcrs()), Unseal. The SRK recorded in
 * @sealed is checked first.
 * Return: 0, -EBADE when @sealed is bound to another authority, -EACCES
 * when no policy matches the current PCRs or the object's own PCRs
 * differ from its values (the message names them), -EBADMSG when the TPM refuses
 * the matching policy's signature, -ENOKEY for another SRK, or a negative
 * errno.
 */
ELFSIG_TPM_API int elfsig_tpm_unseal_authorized(struct elfsig_tpm *tpm,
						const struct elfsig_tpm_sealed *sealed,
						const uint8_t *spki, size_t spki_len,
						const struct elfsig_tpm_signed_pcr_policy *pols,
						size_t n, size_t *used,
						uint8_t *secret, size_t cap,
						size_t *len);

/**
 * elfsig_tpm_sealed_authority() - the authority an object is bound to
 * @sealed:  the object
 * @name:    out, the authority key's TPM name (points into @sealed), or NULL
 * @ref:     out, the policyRef (points into @sealed), or NULL
 * @ref_len: out, its length
 * Return: the name's length, 0 when the object is sealed to a PCR state
 * (format version 1 or 2).
 */
ELFSIG_TPM_API size_t elfsig_tpm_sealed_authority(const struct elfsig_tpm_sealed *sealed,
						  const uint8_t **name,
						  const uint8_t **ref,
						  size_t *ref_len);

/*
 * Rollback counter (docs/tpm.md): a TPM_NT_COUNTER NV index. A counter
 * never goes backwards: one defined again starts above the highest value
 * any counter of the TPM ever had. Written and read with the index's
 * (empty) authValue in an HMAC session salted with the SRK, so the value
 * and the index's name are authenticated by the TPM.
 */
#define ELFSIG_TPM_NV_AUTHWRITE		0x00000004u
#define ELFSIG_TPM_NV_COUNTER		0x00000010u	/* TPM_NT_COUNTER << 4 */
#define ELFSIG_TPM_NV_AUTHREAD		0x00040000u
#define ELFSIG_TPM_NV_NO_DA		0x02000000u
#define ELFSIG_TPM_NV_WRITTEN		0x20000000u
/* What elfsig_tpm_counter_define() sets (WRITTEN comes with the first
 * increment); NO_DA: a wrong HMAC must not lock the TPM out. */
#define ELFSIG_TPM_COUNTER_ATTRS	(ELFSIG_TPM_NV_COUNTER | \
					 ELFSIG_TPM_NV_AUTHWRITE | \
					 ELFSIG_TPM_NV_AUTHREAD | \
					 ELFSIG_TPM_NV_NO_DA)

/* An NV index's public area, as the TPM reports it. */
struct elfsig_tpm_nv_info {
	uint32_t index;
	uint16_t name_alg;
	uint32_t attributes;		/* TPMA_NV */
	uint16_t auth_policy_size;
	uint16_t data_size;
	uint8_t name[ELFSIG_TPM_MAX_NAME];
	size_t name_len;
};

/**
 * elfsig_tpm_nv_info() - the public area and name of an NV index
 * @tpm:   connection
 * @index: NV index handle (0x01xxxxxx)
 * @info:  out
 * Return: 0, -ENOENT when the index is not defined (no message), or a
 * negative errno.
 */
ELFSIG_TPM_API int elfsig_tpm_nv_info(struct elfsig_tpm *tpm, uint32_t index,
				      struct elfsig_tpm_nv_info *info);

/**
 * elfsig_tpm_counter_check() - is @info a rollback counter as
 * elfsig_tpm_counter_define() makes it (type, attributes, SHA-256 name,
 * 8 bytes, no policy)?
 * @info: the index
 * Return: 0, or -EKEYREJECTED with a message.
 */
ELFSIG_TPM_API int elfsig_tpm_counter_check(const struct elfsig_tpm_nv_info *info);

/**
 * elfsig_tpm_counter_define() - define a rollback counter and increment
 * it once (so it can be read)
 * @tpm:   connection
 * @index: NV index handle
 * Return: 0, -EEXIST when @index is defined already (no message), -EPERM
 * without the owner authorization (empty), or a negative errno.
 */
ELFSIG_TPM_API int elfsig_tpm_counter_define(struct elfsig_tpm *tpm,
					     uint32_t index);

/**
 * elfsig_tpm_counter_read() - the counter's value, authenticated
 * @tpm:      connection (its SRK salts the session)
 * @index:    NV index handle
 * @name:     the index's expected name, or NULL: not checked
 * @name_len: its length
 * @value:    out
 * Return: 0, -ENOENT (not defined), -EKEYREJECTED (not a rollback
 * counter), -ESTALE (another name), -ENODATA (never incremented), or a
 * negative errno; a message in each case.
 */
ELFSIG_TPM_API int elfsig_tpm_counter_read(struct elfsig_tpm *tpm,
					   uint32_t index, const uint8_t *name,
					   size_t name_len, uint64_t *value);

/**
 * elfsig_tpm_counter_advance() - increment the counter @count times
 * (TPM2_NV_Increment each) and read it
 * @tpm:      connection
 * @index:    NV index handle
 * @name:     expected name, or NULL
 * @name_len: its length
 * @count:    increments (0: only read)
 * @value:    out, the value afterwards
 * Return: as elfsig_tpm_counter_read().
 */
ELFSIG_TPM_API int elfsig_tpm_counter_advance(struct elfsig_tpm *tpm,
					      uint32_t index, const uint8_t *name,
					      size_t name_len, unsigned int count,
					      uint64_t *value);

enum elfsig_tpm_keytype {
	ELFSIG_TPM_KEY_RSA2048 = 1,
	ELFSIG_TPM_KEY_ECC_P256 = 2,
};

/* Attributes every signing key gets (TPMA_OBJECT bits). */
#define ELFSIG_TPM_ATTR_FIXEDTPM		0x00000002u
#define ELFSIG_TPM_ATTR_FIXEDPARENT		0x00000010u
#define ELFSIG_TPM_ATTR_SENSITIVEDATAORIGIN	0x00000020u
#define ELFSIG_TPM_ATTR_USERWITHAUTH		0x00000040u
#define ELFSIG_TPM_ATTR_SIGN			0x00040000u

/**
 * elfsig_tpm_keygen() - create a signing key inside the TPM
 * @tpm:    connection
 * @type:   RSA-2048 or ECC P-256
 * @handle: persist the key at this handle (0x81000000..0x817FFFFF), or 0
 * @pem:    write the key as a "TSS2 PRIVATE KEY" PEM file, or NULL
 *
 * The key (fixedTPM|fixedParent|sensitiveDataOrigin|userWithAuth|sign,
 * no password) is created under the SRK. The PEM file holds only the
 * public area and the TPM-wrapped private blob; its parent is the
 * persistent SRK handle, or the owner hierarchy (the loader recreates the
 * same SRK from the standard template, as the tpm2 OpenSSL provider does).
 * At least one of @handle and @pem must be given.
 * Return: 0, -EEXIST if @handle is taken, or a negative errno.
 */
ELFSIG_TPM_API int elfsig_tpm_keygen(struct elfsig_tpm *tpm,
				     enum elfsig_tpm_keytype type,
				     uint32_t handle, const char *pem);

/**
 * elfsig_tpm_key_attributes() - read an object's attributes
 * @tpm:    connection
 * @handle: persistent handle
 * @attrs:  out, TPMA_OBJECT
 * Return: 0, -ENOENT if there is nothing at @handle, or a negative errno.
 */
ELFSIG_TPM_API int elfsig_tpm_key_attributes(struct elfsig_tpm *tpm,
					     uint32_t handle, uint32_t *attrs);

/**
 * elfsig_tpm_evict() - remove a persistent object
 * @tpm:    connection
 * @handle: persistent handle
 * Return: 0, -ENOENT if nothing is there, or a negative errno.
 */
ELFSIG_TPM_API int elfsig_tpm_evict(struct elfsig_tpm *tpm, uint32_t handle);

/**
 * elfsig_tpm_ak() - an attestation key: a restricted signing key (ECDSA
 * P-256 or RSASSA-2048, SHA-256; fixedTPM, no password), persistent
 * @tpm:     connection
 * @type:    key type for a new key; 0: ECC P-256, and any AK found is used
 * @handle:  persistent handle (0x81000000..0x817FFFFF)
 * @pub_pem: write the public key here (PEM SubjectPublicKeyInfo), or NULL
 * @created: out, 1 when the key was created now, 0 when it was there
 *
 * An AK already at @handle (of @type, when given) is reused; any other
 * object there is refused. A new key is created under the SRK and
 * persisted. A restricted key signs only data the TPM generated itself,
 * so its signature over a TPMS_ATTEST proves the TPM made that quote.
 * Return: 0, -EEXIST when @handle holds something that is not such an
 * AK, or a negative errno.
 */
ELFSIG_TPM_API int elfsig_tpm_ak(struct elfsig_tpm *tpm,
				 enum elfsig_tpm_keytype type, uint32_t handle,
				 const char *pub_pem, int *created);

/**
 * elfsig_tpm_quote() - TPM2_Quote over a PCR selection
 * @tpm:        connection
 * @ak_handle:  the AK (see elfsig_tpm_ak())
 * @nonce:      qualifying data (the verifier's nonce), 0..64 bytes
 * @nonce_len:  its length
 * @sel:        the PCRs to quote
 * @attest:     out, the marshalled TPMS_ATTEST (the TPM2B_ATTEST's
 *              content, as `tpm2_quote -m` writes it); free() it
 * @attest_len: out, its length
 * @sig:        out, the marshalled TPMT_SIGNATURE (as `tpm2_quote -s`
 *              writes it); free() it
 * @sig_len:    out, its length
 * Return: 0, -ENOENT when there is no key at @ak_handle, -EEXIST when it
 * is not an AK, or a negative errno.
 */
ELFSIG_TPM_API int elfsig_tpm_quote(struct elfsig_tpm *tpm, uint32_t ak_handle,
				    const uint8_t *nonce, size_t nonce_len,
				    const struct elfsig_tpm_pcrsel *sel,
				    uint8_t **attest, size_t *attest_len,
				    uint8_t **sig, size_t *sig_len);

struct elfsig_tpm_cert_opts {
	const char *key;	/* "handle:0x81000001" or a TSS2 PEM file */
	const char *tcti;	/* NULL: elfsig_tpm_tcti(NULL) */
	const char *subject;	/* "/CN=.../O=..." */
	unsigned int days;	/* validity of the self-signed cert; 0: 3650 */
	const char *cert;	/* self-signed certificate out (PEM), or NULL */
	const char *csr;	/* certificate request out (PEM), or NULL */
};

/**
 * elfsig_tpm_make_cert() - self-signed certificate and/or CSR for a TPM key
 * @opts: the key, TCTI, subject, validity and output files
 *
 * Loads the key through OpenSSL's tpm2 provider (TPM2OPENSSL_TCTI is set
 * from the TCTI convention) and signs with SHA-256 inside the TPM. The
 * certificate has keyUsage=critical,digitalSignature, a subject key
 * identifier, basicConstraints CA:FALSE and a random serial.
 * Return: 0 or a negative errno.
 */
ELFSIG_TPM_API int elfsig_tpm_make_cert(const struct elfsig_tpm_cert_opts *opts);

#ifdef __cplusplus
}
#endif
#endif /* ELFSIG_TPM_H */
