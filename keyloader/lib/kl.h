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

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cert.h"
#include "common.h"
#include "elfsig_tpm.h"

#define KL_FP_LEN		COMMON_FP_LEN	/* SHA-256 fingerprint */
#define KL_POLICY_VERSION	4		/* signed, with a generation, for
						 * one machine (its SRK) */
#define KL_GENERATION_MAX	1000000000u	/* larger generations are refused */
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

/**
 * kl_text_line() - the next line of a text file image
 * @buf:    the file's bytes
 * @len:    how many
 * @pos:    in/out, where the next line starts
 * @lineno: in/out, the line number, for messages
 * @name:   the file, for messages
 * @line:   out, the line without its newline, NUL-terminated (@max + 1
 *          bytes)
 * @max:    longest line allowed
 * Return: 1 for a line, 0 at the end, -EBADMSG with a message for a line
 * over @max bytes or with a control character (tab allowed).
 */
int kl_text_line(const uint8_t *buf, size_t len, size_t *pos, size_t *lineno,
		 const char *name, char *line, size_t max);
/**
 * kl_text_directive() - the next directive of a text file image: as
 * kl_text_line(), skipping comment ('#') and blank lines, the line split
 * by kl_split_directive()
 * @buf:    the file's bytes
 * @len:    how many
 * @pos:    in/out, where the next line starts
 * @lineno: in/out, the line number, for messages
 * @name:   the file, for messages
 * @line:   the line buffer (@max + 1 bytes)
 * @max:    longest line allowed
 * @word:   out, the directive, in @line
 * @value:  out, the rest of the line, in @line
 * Return: as kl_text_line().
 */
int kl_text_directive(const uint8_t *buf, size_t len, size_t *pos,
		      size_t *lineno, const char *name, char *line, size_t max,
		      char **word, char **value);
/**
 * kl_dir_list() - the regular entries of a directory that do not start
 * with a dot, in name order
 * @dir:     the directory
 * @what:    what it is, for messages
 * @max:     more entries are refused (-E2BIG)
 * @dfd_out: out, the directory, open (close() it)
 * @out:     out, the names (free with kl_names_free())
 * @nout:    out, how many
 * Return: 0 or a negative errno with a message.
 */
int kl_dir_list(const char *dir, const char *what, size_t max, int *dfd_out,
		char ***out, size_t *nout);
/**
 * kl_read_dir_file() - kl_read_file() of @dir/@name
 * @dir:  the directory
 * @name: a name kl_dir_list() gave
 * @max:  larger files are refused
 * @path: out, @dir/@name (PATH_MAX bytes), for messages
 * @buf:  out, as kl_read_file()
 * @len:  out, as kl_read_file()
 * Return: 0 or a negative errno with a message (a path too long too).
 */
int kl_read_dir_file(const char *dir, const char *name, size_t max,
		     char path[PATH_MAX], uint8_t **buf, size_t *len);
void kl_names_free(char **names, size_t n);
/**
 * kl_default_paths() - set every path not given to @dir/FILE
 * @dir:   the enrolment directory
 * @files: per path, its file name under @dir, or NULL for the policy's
 *         signature: the first path (the policy) with ".sig"
 * @paths: the paths; NULL ones are set, pointing into @bufs
 * @bufs:  one buffer per path
 * @n:     how many
 * Return: 0, or -ENAMETOOLONG with a message.
 */
int kl_default_paths(const char *dir, const char *const *files,
		     const char **paths[], char (*bufs)[PATH_MAX], size_t n);
/** kl_parse_u64() - a decimal number 0..@max, no sign, no leading zeros.
 * Return: 0 or -EBADMSG. */
int kl_parse_u64(const char *s, uint64_t max, uint64_t *out);
/** kl_split_directive() - "word   value  " into word and value, both
 * trimmed, in place. */
void kl_split_directive(char *line, char **word, char **value);
/** kl_parse_srk_name() - a SHA-256 TPM name in hex (68 digits: 000b and
 * the digest), as the files write a machine's SRK. Return: 0 or
 * -EBADMSG. */
int kl_parse_srk_name(const char *s, uint8_t out[ELFSIG_TPM_MAX_NAME],
		      size_t *len);
/**
 * kl_check_machine() - is a file signed for this machine? @name (the
 * SRK name it carries) must be @srk (the enrolment's, pinned from its
 * sealed object)
 * @path:     the file, for the message
 * @name:     the SRK name the file was signed for
 * @name_len: its length
 * @srk:      this machine's
 * @srk_len:  its length
 * Return: 0, or -EBADE with one line.
 */
int kl_check_machine(const char *path, const uint8_t *name, size_t name_len,
		     const uint8_t *srk, size_t srk_len);

/* ---- policy.c ---- */
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

/* ---- cert.c (common/cert.c parses) ---- */
/** kl_cert_load() - kl_read_file() + common_cert_parse(); @name kept. */
int kl_cert_load(int dirfd, const char *path, struct common_cert *cert);

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
int kl_certdir_load(const char *dir, struct common_cert **certs, size_t *n);
void kl_certs_free(struct common_cert *certs, size_t n);

/* ---- platca.c ---- */
#define KL_PLATFORM_CA_MAX	64	/* certificates, all files together */
struct x509_st;
struct kl_platform_ca {
	struct x509_st *x509;
	const char *file;	/* where it came from (not copied) */
};
struct kl_platform_cas {
	struct kl_platform_ca *ca;
	size_t n;
};
/**
 * kl_platform_ca_load() - append the platform CA certificates of @path
 * @path: a PEM bundle (every CERTIFICATE block) or one DER certificate;
 *        kept by reference in @cas
 * @cas:  in/out (start zeroed; free with kl_platform_cas_free())
 * Return: 0 or a negative errno (a file without a certificate: -EBADMSG).
 */
int kl_platform_ca_load(const char *path, struct kl_platform_cas *cas);
void kl_platform_cas_free(struct kl_platform_cas *cas);
/**
 * kl_platform_ca_check() - would a kernel with CONFIG_ELFSIG_TRUSTED_KEYS,
 * trusting exactly @cas, admit @cert into .elfsig?
 * @cas:  the platform CA certificates
 * @cert: the certificate (its name is used in the message)
 *
 * As the kernel: @cert is no CA and has digitalSignature key usage, its
 * authority key identifier names one of @cas, that one is a CA, and
 * @cert's signature verifies with its key. Direct issue only: the kernel
 * builds no chains.
 * Return: 0, or -EKEYREJECTED with one line saying why.
 */
int kl_platform_ca_check(const struct kl_platform_cas *cas,
			 const struct common_cert *cert);

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

/* A key linked into a keyring, as kl_keyring_list() finds it. */
struct kl_ring_key {
	int32_t id;
	char *desc;	/* "type;uid;gid;perm;description", NULL if not viewable */
};
/**
 * kl_keyring_list() - every key (and keyring) linked into @keyring
 * @keyring: the keyring
 * @keys:    out, in the kernel's order (free with kl_ring_keys_free())
 * @n:       out, how many
 *
 * The kernel shows a key's type and description, never an asymmetric
 * key's certificate: what a key is can be known only by adding it.
 * Return: 0 or a negative errno (the keyring could not be read).
 */
int kl_keyring_list(int32_t keyring, struct kl_ring_key **keys, size_t *n);
void kl_ring_keys_free(struct kl_ring_key *keys, size_t n);

/* ---- measure.c ---- */
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

/* ---- authority.c ---- */
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

/* ---- pcrpolicy.c ---- */
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
void kl_pcr_policy_gen_tbs(const uint8_t approved[ELFSIG_TPM_POLICY_SIZE],
			   uint32_t generation, const uint8_t *srk_name,
			   size_t srk_name_len, uint8_t out[KL_FP_LEN]);

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

/* ---- pcrsig.c ---- */
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


/* ---- eventlog.c ---- */
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

/* ---- counter.c ---- */
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

/* ---- enroll.c ---- */
/*
 * Exit statuses of elfsig-keyloader (docs/keyloader.md), which
 * `elfsig-enroll check` shares where the cause is the same.
 */
enum kl_exit {
	KL_EXIT_OK		= 0,	/* every enrolled key loaded / would load */
	KL_EXIT_PARTIAL		= 1,	/* some files refused */
	KL_EXIT_USAGE		= 2,
	KL_EXIT_INPUT		= 3,	/* a file missing, unreadable, malformed */
	KL_EXIT_TPM		= 4,	/* TPM missing, unreachable or failing */
	KL_EXIT_UNSEAL		= 5,	/* no signed PCR policy matches */
	KL_EXIT_POLICY		= 6,	/* not the authority's, or its machine's */
	KL_EXIT_KEYRING		= 7,
	KL_EXIT_UNLOCKED	= 8,
	KL_EXIT_MEASURE		= 9,
	KL_EXIT_TIMEOUT		= 10,
	KL_EXIT_SRK		= 11,	/* another storage root key */
	KL_EXIT_FOREIGN		= 12,
	KL_EXIT_ROLLBACK	= 13,	/* revoked, or the counter disagrees */
};
/**
 * kl_exit_word() - the word for an exit status ("ok", "rollback", ...)
 * @status: the status
 * Return: the word, or "?" for a status not in the table.
 */
const char *kl_exit_word(int status);

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

#endif /* ELFSIG_KL_H */
