/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kl_pcrsig.h - PCR signatures: sealing to a key that signs PCR values.
 */
#ifndef ELFSIG_KL_PCRSIG_H
#define ELFSIG_KL_PCRSIG_H

#include <stddef.h>
#include <stdint.h>

#include "elfsig_tpm.h"
#include "kl_authority.h"
#include "kl_pcrpolicy.h"
#include "kl_policy.h"
#include "kl_util.h"

#define KL_PCRSIG_MAX_SIZE	(64 * 1024)	/* larger files are refused */
#define KL_PCRSIG_MAX_ENTRIES	64		/* per file, and in all */
#define KL_PCRSIG_MAX_FILES	64		/* per directory */

/* One entry of a systemd .pcrsig file. */
struct kl_pcrsig_entry {
	uint16_t bank;				/* its bank (TPM2_ALG_ID) */
	uint32_t pcrs;				/* PCR mask */
	uint8_t pkfp[KL_FP_LEN];		/* systemd's key fingerprint */
	uint8_t pol[ELFSIG_TPM_POLICY_SIZE];	/* PolicyPCR digest */
	uint8_t sig[KL_PCRPOL_MAX_SIG];		/* over SHA-256(pol) */
	size_t sig_len;
};

struct kl_pcrsig_file {
	struct kl_pcrsig_entry *entries;
	size_t n;
};

/* The systemd key a signed policy opts in to. */
struct kl_pcrsig_key {
	struct kl_authority key;		/* fp: SHA-256 of the SPKI */
	uint8_t pkfp[KL_FP_LEN];		/* systemd's: of i2d_PublicKey */
};

/**
 * kl_pcrsig_parse() - a .pcrsig file image, strictly (docs/keyloader.md)
 * @buf:  the bytes (untrusted)
 * @len:  how many (at most KL_PCRSIG_MAX_SIZE)
 * @name: for messages
 * @f:    out, every entry of every bank (free with kl_pcrsig_file_free())
 * Return: 0, or -EBADMSG with one line naming the byte, or -ENOMEM.
 */
int kl_pcrsig_parse(const uint8_t *buf, size_t len, const char *name,
		    struct kl_pcrsig_file *f);
void kl_pcrsig_file_free(struct kl_pcrsig_file *f);
/**
 * kl_pcrsig_key_load() - the systemd public key (PEM or DER SPKI), which
 * must be the one @pol opts in to
 * @path: the key file
 * @pol:  the signed policy (its pcrsig-key line)
 * @k:    out (free with kl_pcrsig_key_free())
 * Return: 0, -EBADE (another key) or a negative errno, with a message.
 */
int kl_pcrsig_key_load(const char *path, const struct kl_policy *pol,
		       struct kl_pcrsig_key *k);
void kl_pcrsig_key_free(struct kl_pcrsig_key *k);
/**
 * kl_pcrsig_load() - the usable entries of every .pcrsig file of @dir:
 * sha256 bank, signed by @k (pkfp, and the signature verifies), for
 * exactly @pol's pcrsig PCRs; a file with none gets one line
 * @dir:  the directory of .pcrsig files
 * @pol:  the signed policy (its pcrsig-pcrs line)
 * @k:    the opted-in key (kl_pcrsig_key_load())
 * @out:  out, the entries (free())
 * @nout: out, how many
 * Return: 0 or a negative errno (the directory unreadable).
 */
int kl_pcrsig_load(const char *dir, const struct kl_policy *pol,
		   const struct kl_pcrsig_key *k, struct kl_pcrsig_entry **out,
		   size_t *nout);
/**
 * kl_pcrsig_own_pcrs() - the PCRs the pcrsig object binds itself: the
 * policy's PCRs minus those systemd signs (pcrsig-pcrs)
 * @pol: the signed policy
 * @sel: out; its mask is 0 when systemd signs every one of them
 */
void kl_pcrsig_own_pcrs(const struct kl_policy *pol,
			struct elfsig_tpm_pcrsel *sel);
/**
 * kl_pcrsig_sealed_check() - @sealed is bound with PolicyAuthorize to @k
 * with an empty policyRef and PolicyPCR over exactly
 * kl_pcrsig_own_pcrs(), under the SRK @pin names
 * @sealed: the object
 * @path:   its file, for messages
 * @pol:    the signed policy
 * @k:      the opted-in key
 * @pin:    the SRK pin (handle or name), as the enrolment's
 * Return: 0, -EBADE with a message, or -EPROTO with a message for an
 * object that does not bind those PCRs (sealed by an elfsig before it
 * did: the opt-in is left out, elfsig-enroll pcrsig seal replaces it).
 */
int kl_pcrsig_sealed_check(const struct elfsig_tpm_sealed *sealed,
			   const char *path, const struct kl_policy *pol,
			   const struct kl_pcrsig_key *k,
			   const struct elfsig_tpm_opts *pin);
/**
 * kl_pcrsig_open() - what the opt-in brings, as the loader reads it: the
 * systemd key @key_path (the one @pol opts in to), its object
 * @sealed_path (bound to that key, under the SRK @pin names) and the
 * usable entries of @dir (kl_pcrsig_load())
 * @dir:         the directory of .pcrsig files
 * @sealed_path: the opt-in's sealed object
 * @key_path:    the systemd public key
 * @pol:         the signed policy
 * @pin:         the SRK pin
 * @k:           out, the key (free with kl_pcrsig_key_free())
 * @sealed:      out, the object (free with elfsig_tpm_sealed_free())
 * @es:          out, the usable entries (free())
 * @n:           out, how many
 *
 * The outputs are set, and must be freed, also on failure.
 * Return: 0, -EBADE (another key or object), -EPROTO (an object that does
 * not bind the enrolment's own PCRs) or a negative errno, with a
 * message.
 */
int kl_pcrsig_open(const char *dir, const char *sealed_path,
		   const char *key_path, const struct kl_policy *pol,
		   const struct elfsig_tpm_opts *pin, struct kl_pcrsig_key *k,
		   struct elfsig_tpm_sealed **sealed,
		   struct kl_pcrsig_entry **es, size_t *n);
/**
 * kl_pcrsig_unseal() - open the pcrsig object under the entry whose
 * policy digest is that of the current PCR values; it must hold @a's
 * fingerprint
 * @tpm:    the TPM
 * @sealed: the opt-in's object
 * @a:      the enrolment authority
 * @pol:    the signed policy
 * @k:      the opted-in key
 * @es:     the usable entries (kl_pcrsig_open())
 * @n:      how many
 * @used:   out, the index in @es of the entry that opened it
 * Return: as kl_unseal_expect(); -EACCES when no entry matches.
 */
int kl_pcrsig_unseal(struct elfsig_tpm *tpm,
		     const struct elfsig_tpm_sealed *sealed,
		     const struct kl_authority *a, const struct kl_policy *pol,
		     const struct kl_pcrsig_key *k,
		     const struct kl_pcrsig_entry *es, size_t n, size_t *used);

#endif /* ELFSIG_KL_PCRSIG_H */
