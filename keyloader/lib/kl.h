/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kl.h - the keyloader library: enrolment policy, certificates, the
 * .elfsig keyring, measurement. Shared by elfsig-keyloader and elfsig-enroll.
 *
 * Every function returns 0 or a negative errno; the reason for a failure
 * goes through the error callback (kl_set_error_callback). Nothing here
 * prints on its own or exits.
 */
#ifndef ELFSIG_KL_H
#define ELFSIG_KL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common.h"
#include "elfsig_tpm.h"

#define KL_FP_LEN		32		/* SHA-256 fingerprint */
#define KL_POLICY_VERSION	1
#define KL_POLICY_MAX_SIZE	(1024 * 1024)	/* larger policy files are refused */
#define KL_POLICY_MAX_LINE	1024
#define KL_MAX_KEYS		4096		/* enrolled keys, certificate files */
#define KL_CERT_MAX_SIZE	(64 * 1024)	/* larger certificate files are refused */
#define KL_DEFAULT_PCRS		"sha256:0,2,4,7"
#define KL_DEFAULT_MEASURE_PCR	13
#define KL_STATIC_PCRS		0xffffu	/* PCRs 0..15: sealable */
#define KL_DEFAULT_KEYRING	".elfsig"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- util.c ---- */
typedef void (*kl_error_cb)(const char *msg, void *ctx);
void kl_set_error_callback(kl_error_cb cb, void *ctx);
void kl_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* kl_err() with the most specific OpenSSL reason appended (queue drained). */
void kl_err_ssl(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * kl_read_file() - read a regular file once, into memory
 * @dirfd: directory for a relative @path (AT_FDCWD for the cwd)
 * @path:  file; a symbolic link as the last component is refused
 * @max:   larger files are refused with -EFBIG
 * @buf:   out, malloc'ed (one spare NUL byte after the data); free() it
 * @len:   out, bytes read
 * Return: 0 or a negative errno.
 */
int kl_read_file(int dirfd, const char *path, size_t max, uint8_t **buf,
		 size_t *len);

void kl_sha256(const void *data, size_t len, uint8_t out[KL_FP_LEN]);

/* ---- policy.c ---- */
struct kl_policy_key {
	uint8_t fp[KL_FP_LEN];	/* SHA-256 of the certificate's DER */
	char *subject;		/* from the comment line above, or NULL */
};

struct kl_policy {
	unsigned int version;
	struct elfsig_tpm_pcrsel sel;	/* PCRs the digest is sealed to */
	unsigned int measure_pcr;	/* PCR the loader extends */
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

/* ---- cert.c ---- */
struct kl_cert {
	char *name;		/* file name, for messages */
	uint8_t *der;		/* exactly the bytes given to the kernel */
	size_t der_len;
	uint8_t fp[KL_FP_LEN];	/* SHA-256 of der */
	char *subject;		/* printable one-line subject */
	int error;		/* 0, or why the file is not a certificate */
};

/**
 * kl_cert_parse() - a certificate from a PEM or DER file image
 * @buf:  the file's bytes
 * @len:  how many
 * @name: for messages (kept in @cert)
 * @cert: out (clear with kl_cert_clear())
 *
 * DER: the whole image must be one certificate. PEM: exactly one
 * CERTIFICATE block; its decoded bytes must be one certificate.
 * Return: 0, or -EBADMSG with a message.
 */
int kl_cert_parse(const uint8_t *buf, size_t len, const char *name,
		  struct kl_cert *cert);
/** kl_cert_load() - kl_read_file() + kl_cert_parse(); @name kept. */
int kl_cert_load(int dirfd, const char *path, struct kl_cert *cert);
void kl_cert_clear(struct kl_cert *cert);

/**
 * kl_certdir_load() - every regular, non-hidden file of @dir, by name
 * @dir:   the directory
 * @certs: out, the files, in name order
 * @n:     out, how many
 *
 * Each file is read once. A file that is not a certificate is still
 * returned, with ->error set (the caller reports and skips it).
 * Return: 0 and *@certs (free with kl_certs_free), or a negative errno
 * when the directory cannot be read or holds more than KL_MAX_KEYS files.
 */
int kl_certdir_load(const char *dir, struct kl_cert **certs, size_t *n);
void kl_certs_free(struct kl_cert *certs, size_t n);

/* ---- keyring.c ---- */
/**
 * kl_keyring_find() - the keyring named @name, from /proc/keys
 * @name: e.g. ".elfsig"
 * @id:   out, its serial
 * Return: 0 and *@id, -ENOKEY if there is none, -ENOTUNIQ if several.
 */
int kl_keyring_find(const char *name, int32_t *id);
/** kl_keyring_find_in() - the same, over a /proc/keys-format stream. */
int kl_keyring_find_in(FILE *f, const char *name, int32_t *id);
/** kl_keyring_resolve() - a keyring ID, "@s"/"@u"/"@us"/"@p"/"@t", or
 * "%:NAME" (found by name); it must be a keyring, and not one that every
 * process of a user shares (kl_keyring_check_description).
 * Return: 0 or a negative errno. */
int kl_keyring_resolve(const char *spec, int32_t *id);
/** kl_keyring_check_description() - @desc as keyctl_describe() gives it:
 * a keyring, not a user's or user-session or persistent keyring (a
 * process without a session keyring gets the user-session one for @s).
 * Return: 0, -ENOTDIR or -EINVAL. */
int kl_keyring_check_description(const char *desc);
/** kl_keyring_add() - add_key("asymmetric", "", der) into @keyring.
 * Return: 0 and *@key, -EPERM when the keyring is locked, or -errno. */
int kl_keyring_add(int32_t keyring, const uint8_t *der, size_t len,
		   int32_t *key);
/** kl_keyring_arm() - for the kernel's .elfsig, open the kernel's
 * lock-on-close file and keep it open: however this process ends, the
 * kernel then locks .elfsig. Nothing for another keyring, or a kernel
 * without the file. Return: 0 or a negative errno. */
int kl_keyring_arm(int32_t keyring);
/** kl_keyring_lock() - lock @keyring: for the kernel's .elfsig,
 * fs.elfsig.lock=1; for any other keyring (or an older kernel),
 * KEYCTL_RESTRICT_KEYRING with no type. Every later add or link is
 * refused. Async-signal-safe. Return: 0, -EEXIST if it already was
 * locked, or a negative errno. */
int kl_keyring_lock(int32_t keyring);

/* ---- measure.c ---- */
struct kl_measure {
	struct elfsig_tpm *tpm;	/* NULL: no TPM, events are not extended */
	unsigned int pcr;
	int logfd;		/* event log, -1: none */
	unsigned int events;
};

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
 * that order. The sha256 bank must be there.
 * Return: 0 or a negative errno.
 */
int kl_measure_event(struct kl_measure *m, const char *event);
void kl_measure_close(struct kl_measure *m);

/* ---- pcrvalues.c ---- */
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

/* ---- enroll.c ---- */
struct kl_enroll_opts {
	const char *policy_path;
	const char *sealed_path;
	const char *pcr_values;	/* expected PCR values file, or NULL: current */
	const char *tcti;
	uint32_t srk_handle;
};

/**
 * kl_enroll_commit() - seal a policy and write it
 * @pol: the policy
 * @o:   where to write, the TPM, and the PCR values to seal to
 *
 * Seals SHA-256 of @pol's canonical text under PolicyPCR (to the current
 * PCR values, or those of @o->pcr_values), then writes the policy and the
 * sealed object, each atomically.
 * Return: 0 or a negative errno; nothing is written unless sealing worked.
 */
int kl_enroll_commit(const struct kl_policy *pol,
		     const struct kl_enroll_opts *o);

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

#endif /* ELFSIG_KL_H */
