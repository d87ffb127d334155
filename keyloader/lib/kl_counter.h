/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kl_counter.h - the rollback counter: its binding to an NV index, epochs,
 * revocation.
 */
#ifndef ELFSIG_KL_COUNTER_H
#define ELFSIG_KL_COUNTER_H

#include <stddef.h>
#include <stdint.h>

#include "elfsig_tpm.h"
#include "kl_authority.h"
#include "kl_pcrpolicy.h"
#include "kl_util.h"

#define KL_BINDING_VERSION	1
#define KL_BINDING_MAX_SIZE	4096
#define KL_DEFAULT_NV_INDEX	0x0100e15fu	/* owner range: "e15f" */
#define KL_ADVANCE_MAX		16	/* NV_Increment per loader run */
#define KL_ENROLL_ADVANCE_MAX	4096	/* per elfsig-enroll command */

/* A machine's rollback counter, as the authority bound it (the files
 * counter and counter.sig). epoch = counter - base. */
struct kl_binding {
	uint8_t authority[KL_FP_LEN];
	uint8_t srk_name[ELFSIG_TPM_MAX_NAME];	/* the machine's TPM */
	size_t srk_name_len;
	uint32_t nv_index;
	uint8_t nv_name[ELFSIG_TPM_MAX_NAME];	/* the counter's TPM name */
	size_t nv_name_len;
	uint64_t base;
};

/** kl_binding_parse() - strict parser (fixed line order). Return: 0 or
 * -EBADMSG with a message. */
int kl_binding_parse(const uint8_t *buf, size_t len, const char *name,
		     struct kl_binding *b);
/** kl_binding_format() - the file's text (malloc'ed). Return: 0 or
 * -ENOMEM. */
int kl_binding_format(const struct kl_binding *b, char **text, size_t *len);
/**
 * kl_binding_load() - read and parse a binding, and check that @a signed
 * exactly these bytes (detached signature, SHA-256, like the policy's)
 * @path:     the binding
 * @sig_path: its signature
 * @a:        the configured authority
 * @b:        out
 * Return: 0, -ENOENT (no binding: the message names elfsig-enroll
 * counter), -EBADE (another authority, a bad signature), or another
 * negative errno; one message in each case.
 */
int kl_binding_load(const char *path, const char *sig_path,
		    const struct kl_authority *a, struct kl_binding *b);
/** kl_binding_check_machine() - is @b for this TPM (the sealed object's
 * SRK name) and the configured index? Return: 0 or -EBADE with a
 * message. */
int kl_binding_check_machine(const struct kl_binding *b, const char *path,
			     const uint8_t *srk_name, size_t srk_name_len,
			     uint32_t nv_index);
/**
 * kl_counter_epoch() - the machine's epoch: the bound counter (its name
 * checked, the value authenticated by the TPM) minus the base
 * @tpm:   connection (pinned to the SRK)
 * @b:     the verified binding
 * @value: out, the counter
 * @epoch: out
 * Return: 0, an errno of elfsig_tpm_counter_read(), or -ERANGE for a
 * value below the base; a message in each case (kl_counter_reason()).
 */
int kl_counter_epoch(struct elfsig_tpm *tpm, const struct kl_binding *b,
		     uint64_t *value, uint64_t *epoch);
/**
 * kl_counter_advance() - raise the epoch towards @target, by at most
 * @max increments
 * @tpm:    connection
 * @b:      the binding
 * @epoch:  the epoch now
 * @target: the epoch wanted (nothing happens when not above @epoch)
 * @max:    increments at most
 * @after:  out, the epoch reached
 * Return: 0 or a negative errno.
 */
int kl_counter_advance(struct elfsig_tpm *tpm, const struct kl_binding *b,
		       uint64_t epoch, uint64_t target, unsigned int max,
		       uint64_t *after);
/** kl_pcr_policies_drop_revoked() - move the PCR policies of a
 * generation below @epoch (one line each) after the others, which keep
 * their order. Return: how many are usable (the first ones). */
size_t kl_pcr_policies_drop_revoked(struct kl_pcr_policy *pps, size_t n,
				    uint64_t epoch);
/**
 * kl_pcr_policies_match() - which of @pps approves the current PCR
 * values, as read (unauthenticated: only to say why nothing opened)
 * @tpm: connection
 * @pps: the PCR policies
 * @n:   how many
 * Return: its index, or -1 (none, or the PCRs could not be read).
 */
long kl_pcr_policies_match(struct elfsig_tpm *tpm,
			   const struct kl_pcr_policy *pps, size_t n);
/** kl_counter_reason() - a few words for a kl_counter_epoch() errno. */
const char *kl_counter_reason(int err);

#endif /* ELFSIG_KL_COUNTER_H */
