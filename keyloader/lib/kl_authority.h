/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kl_authority.h - the enrolment authority: its public key, and the
 * signatures it makes on policies.
 */
#ifndef ELFSIG_KL_AUTHORITY_H
#define ELFSIG_KL_AUTHORITY_H

#include <stddef.h>
#include <stdint.h>

#include "elfsig_tpm.h"
#include "kl_policy.h"
#include "kl_util.h"

struct evp_pkey_st;

/* The enrolment authority's public key. */
struct kl_authority {
	struct evp_pkey_st *key;
	uint8_t *spki;			/* DER SubjectPublicKeyInfo */
	size_t spki_len;
	uint8_t fp[KL_FP_LEN];		/* SHA-256 of spki */
	uint8_t tpm_name[ELFSIG_TPM_MAX_NAME];	/* as the TPM names it */
};

/**
 * kl_authority_load() - the authority's public key from a file
 * @path: PEM "PUBLIC KEY" or DER SubjectPublicKeyInfo (at most 16 KiB)
 * @a:    out (free with kl_authority_free())
 * Return: 0, -EKEYREJECTED for a key type outside RSA 2048/3072/4096 and
 * ECDSA P-256/P-384, or another negative errno.
 */
int kl_authority_load(const char *path, struct kl_authority *a);
/** kl_authority_from_der() - the same from DER bytes; @name for messages.
 * Return: 0 or a negative errno. */
int kl_authority_from_der(const uint8_t *der, size_t len, const char *name,
			  struct kl_authority *a);
/** kl_authority_pem() - the key as PEM, malloc'ed. Return: 0 or -ENOMEM. */
int kl_authority_pem(const struct kl_authority *a, char **pem, size_t *len);
/** kl_authority_verify_digest() - does @sig (RSA PKCS#1 v1.5 or DER
 * ECDSA, SHA-256) sign @digest? Return: 0 or -EBADMSG (no message). */
int kl_authority_verify_digest(const struct kl_authority *a,
			       const uint8_t digest[KL_FP_LEN],
			       const uint8_t *sig, size_t sig_len);
void kl_authority_free(struct kl_authority *a);

/**
 * kl_policy_check_signature() - is @pol (parsed from @buf) signed by @a?
 * @pol:     the parsed policy
 * @buf:     the policy file's bytes, exactly as parsed
 * @len:     how many
 * @sig:     the detached signature over @buf (SHA-256)
 * @sig_len: its length
 * @a:       the configured authority (not used for a version 1 policy)
 * @path:    for messages
 * Return: 0, -EPROTO for a version 1 policy (with the migration command),
 * -EBADE when it names another authority or the signature does not
 * verify.
 */
int kl_policy_check_signature(const struct kl_policy *pol, const uint8_t *buf,
			      size_t len, const uint8_t *sig, size_t sig_len,
			      const struct kl_authority *a, const char *path);
/** kl_policy_verify_bytes() - the signature check alone, for any signed
 * version (migration reads version 2). Return: 0 or -EBADE. */
int kl_policy_verify_bytes(const struct kl_policy *pol, const uint8_t *buf,
			   size_t len, const uint8_t *sig, size_t sig_len,
			   const struct kl_authority *a, const char *path);

#endif /* ELFSIG_KL_AUTHORITY_H */
