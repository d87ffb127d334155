/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kl_measure.h - measurement: the loader's events into the kernel's log or
 * a PCR, and the TCG event log replayed to predict PCR values.
 */
#ifndef ELFSIG_KL_MEASURE_H
#define ELFSIG_KL_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elfsig_tpm.h"
#include "kl_util.h"

struct kl_measure {
	struct elfsig_tpm *tpm;	/* NULL: no TPM, events are not extended */
	unsigned int pcr;
	int logfd;		/* event log, -1: none */
	unsigned int events;
	bool kernel_log;	/* the kernel measures: extend nothing */
};

/* The kernel's own measurement log of .elfsig (docs/attestation.md). */
#define KL_KERNEL_LOG	"/sys/kernel/security/elfsig/binary_measurements"

/**
 * kl_kernel_measures() - does the kernel measure .elfsig itself?
 *
 * Then its log must be the whole story of its PCR, and userspace
 * measurements are not evidence: the loader extends no PCR at all.
 * Return: true if KL_KERNEL_LOG exists.
 */
bool kl_kernel_measures(void);

/**
 * kl_measure_open_log() - open (append) the event log, creating its
 * directory
 * @m:    the measurement state; its logfd is set
 * @path: the log
 * Return: 0 or a negative errno.
 */
int kl_measure_open_log(struct kl_measure *m, const char *path);
/**
 * kl_measure_event() - measure one event into @m's PCR
 * @m:     the TPM, PCR and log
 * @event: the event text
 *
 * Extends the PCR in every bank the TPM has allocated (of sha256, sha1,
 * sha384, sha512) with the bank's hash of @event, all in one
 * TPM2_PCR_Extend, then writes one event log line per bank extended, in
 * that order. The sha256 bank must be there. Does nothing when
 * @m->kernel_log is set (the kernel measures).
 * Return: 0 or a negative errno.
 */
int kl_measure_event(struct kl_measure *m, const char *event);
void kl_measure_close(struct kl_measure *m);

#define KL_EVENTLOG_MAX_SIZE	(16 * 1024 * 1024)	/* larger logs are refused */
#define KL_MAX_REPLACE		16

/* A measured component and its successor: events whose SHA-256 digest is
 * @from are replayed with @to. */
struct kl_eventlog_replace {
	uint8_t from[KL_FP_LEN];
	uint8_t to[KL_FP_LEN];
	unsigned int hits;	/* out: events replaced */
};

/**
 * kl_eventlog_replay() - predict PCR values from a TCG event log
 * @buf:  the log (crypto-agile TCG PC Client format, as
 *        binary_bios_measurements holds it)
 * @len:  its size
 * @name: for messages
 * @rep:  components to replace; their hits are counted
 * @nrep: how many
 * @sel:  the PCRs wanted (sha256 bank)
 * @vals: out, their values after replaying every event, PCR 0 starting
 *        at the StartupLocality event's locality
 * Return: 0, -EINVAL for another bank, or -EBADMSG with a message.
 */
int kl_eventlog_replay(const uint8_t *buf, size_t len, const char *name,
		       struct kl_eventlog_replace *rep, size_t nrep,
		       const struct elfsig_tpm_pcrsel *sel,
		       struct elfsig_tpm_pcr_values *vals);

#endif /* ELFSIG_KL_MEASURE_H */
