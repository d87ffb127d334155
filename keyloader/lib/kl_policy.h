/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kl_policy.h - the enrolment policy: its text format, keys, PCR
 * selection.
 */
#ifndef ELFSIG_KL_POLICY_H
#define ELFSIG_KL_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elfsig_tpm.h"
#include "kl_util.h"

#define KL_POLICY_VERSION	4		/* signed, with a generation, for
						 * one machine (its SRK) */
#define KL_GENERATION_MAX	1000000000u	/* larger generations are refused */
#define KL_POLICY_MAX_SIZE	(1024 * 1024)	/* larger policy files are refused */
#define KL_POLICY_MAX_LINE	1024
#define KL_DEFAULT_PCRS		"sha256:0,2,4,7"
#define KL_DEFAULT_MEASURE_PCR	13
#define KL_STATIC_PCRS		0xffffu	/* PCRs 0..15: sealable */

struct kl_policy_key {
	uint8_t fp[KL_FP_LEN];	/* SHA-256 of the certificate's DER */
	char *subject;		/* from the comment line above, or NULL */
};

struct kl_policy {
	unsigned int version;		/* 1: sealed digest, 2: signed,
					 * 3: with a generation */
	uint8_t authority[KL_FP_LEN];	/* v2: SHA-256 of the authority's
					 * DER SubjectPublicKeyInfo */
	struct elfsig_tpm_pcrsel sel;	/* PCRs the digest is sealed to */
	unsigned int measure_pcr;	/* PCR the loader extends */
	uint32_t generation;		/* v3: refused below the machine's
					 * epoch (rollback counter) */
	/* v4: the machine it is signed for, its SRK's TPM name */
	uint8_t srk_name[ELFSIG_TPM_MAX_NAME];
	size_t srk_name_len;
	/* Opt-in (docs/keyloader.md, "systemd .pcrsig"): PCR policies
	 * signed by this systemd key open the pcrsig object too. */
	bool pcrsig;
	uint8_t pcrsig_key[KL_FP_LEN];	/* SHA-256 of its DER SPKI */
	struct elfsig_tpm_pcrsel pcrsig_sel;	/* exactly these PCRs */
	size_t nkeys;
	struct kl_policy_key *keys;
};

/**
 * kl_policy_parse() - parse a policy file image (see docs/keyloader.md)
 * @buf:  the file's bytes
 * @len:  how many
 * @name: for messages
 * @pol:  out, the policy (free with kl_policy_free())
 *
 * Strict: one header, one "pcrs", one "measure-pcr", unique keys, no
 * unknown directives, no NUL bytes, bounded line length and key count.
 * Return: 0, or -EBADMSG with a message naming the line.
 */
int kl_policy_parse(const uint8_t *buf, size_t len, const char *name,
		    struct kl_policy *pol);
/** kl_policy_format() - the canonical text of @pol; free(*buf). */
int kl_policy_format(const struct kl_policy *pol, char **buf, size_t *len);
/** kl_parse_generation() - a generation number, decimal, 0..
 * KL_GENERATION_MAX, no leading zeros. Return: 0 or -EBADMSG. */
int kl_parse_generation(const char *s, uint32_t *out);
/** kl_policy_find() - Return: index of @fp in @pol, or -1. */
long kl_policy_find(const struct kl_policy *pol, const uint8_t fp[KL_FP_LEN]);
/** kl_policy_add() - add a key (no-op if present). Return: 0, 1 if it was
 * already there, or a negative errno. */
int kl_policy_add(struct kl_policy *pol, const uint8_t fp[KL_FP_LEN],
		  const char *subject);
/** kl_policy_remove() - Return: 0, or -ENOENT if @fp is not enrolled. */
int kl_policy_remove(struct kl_policy *pol, const uint8_t fp[KL_FP_LEN]);
/** kl_policy_check_pcrs() - @sel holds only static PCRs (0..15), and the
 * measurement PCR is one of 8, 9, 11..15 (not the firmware's, not IMA's,
 * not resettable) and not in @sel. Return: 0 or -EINVAL. */
int kl_policy_check_pcrs(const struct elfsig_tpm_pcrsel *sel,
			 unsigned int measure_pcr);
void kl_policy_free(struct kl_policy *pol);

#endif /* ELFSIG_KL_POLICY_H */
