/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * attest.h - the verifier's library: the kernel's measurement log
 * (docs/attestation.md), TPM quote verification, allow lists, verdict.
 *
 * Pure functions over bytes: no file or TPM access. Every function
 * returns 0 or a negative errno; the reason goes through the library's
 * error callback (attest_set_error_callback(); certificates are parsed by
 * common/lib/cert.c, whose lines go through common's), one line per failure.
 * Codes with a fixed meaning:
 *
 *   -EBADMSG       malformed input (log, quote, signature, key, allow list)
 *   -EKEYREJECTED  the quote is not valid (signature, magic, type, nonce,
 *                  PCR selection)
 *   -EBADE         the log does not match: a digest differs from its data,
 *                  a record of another PCR, the replay differs from the
 *                  quoted PCR, or the log contradicts itself
 *   -ENOLCK        the keyring was never locked, or a key followed the lock
 *   -ENOKEY        a key that the allow list does not hold
 */
#ifndef ELFSIG_ATTEST_H
#define ELFSIG_ATTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef void (*attest_error_cb)(const char *msg, void *ctx);
/** attest_set_error_callback() - where the library's error lines go */
void attest_set_error_callback(attest_error_cb cb, void *ctx);

#define ATTEST_MAX_LOG		(8u << 20)	/* bytes of log read at most */
#define ATTEST_MAX_RECORDS	8192
#define ATTEST_MAX_NAME		255		/* IMA_EVENT_NAME_LEN_MAX */
#define ATTEST_MAX_BUF		(64 * 1024)	/* a record's buf field */
#define ATTEST_MAX_ALLOW	4096		/* fingerprints in an allow list */
#define ATTEST_MAX_ALLOW_FILE	(1u << 20)
#define ATTEST_MAX_QUOTE_FILE	4096		/* TPMS_ATTEST, TPMT_SIGNATURE */
#define ATTEST_MAX_KEY_FILE	16384		/* the AK's PEM */
#define ATTEST_MAX_NONCE	64		/* TPM2B_DATA */
#define ATTEST_MAX_PCRS	24		/* a PC client TPM's PCRs */
#define ATTEST_MAX_VALUES_FILE	8192		/* --pcr-values */
#define ATTEST_DEFAULT_PCR	13
#define ATTEST_SHA1_LEN		20
#define ATTEST_SHA256_LEN	32
#define ATTEST_TEMPLATE		"ima-buf"

/* Event names (the n-ng field) and the init record's text. */
#define ATTEST_EV_INIT		"elfsig-init"
#define ATTEST_EV_KEY		".elfsig"
#define ATTEST_EV_MODE		"elfsig-mode"
#define ATTEST_EV_LOCK		"elfsig-lock"
#define ATTEST_INIT_FMT		"elfsig log v1 pcr=%u"

/* One record of the log; the pointers point into the parsed image. */
struct attest_record {
	uint32_t pcr;
	const uint8_t *sha1;		/* the record's template digest */
	const uint8_t *tdata;		/* template data: the three fields */
	uint32_t tdata_len;
	const uint8_t *digest;		/* d-ng: SHA-256 of buf */
	const char *name;		/* n-ng, NUL-terminated */
	const uint8_t *buf;
	uint32_t buf_len;
};

struct attest_log {
	size_t n;
	struct attest_record *rec;
};

/**
 * attest_log_parse() - split a binary_measurements image into records
 * @img:  the log's bytes (they must outlive @log)
 * @len:  how many
 * @what: the log's name, for messages
 * @log:  out; free with attest_log_free()
 *
 * Every length is checked against what remains of the image and of the
 * record, and against the contract's bounds; the template must be
 * "ima-buf" with exactly the fields d-ng ("sha256:\0" + 32 bytes), n-ng
 * (NUL-terminated) and buf.
 * Return: 0, or -EBADMSG naming the record, or -ENOMEM.
 */
int attest_log_parse(const uint8_t *img, size_t len, const char *what,
		     struct attest_log *log);

/** attest_log_free() - free what attest_log_parse() allocated. @log: it */
void attest_log_free(struct attest_log *log);

/**
 * attest_log_replay() - check every record's digests and replay the log
 * @log:   the parsed log
 * @pcr:   the PCR it is the log of
 * @what:  the log's name, for messages
 * @value: out, the SHA-256 bank's value after the replay
 *
 * Each record must be for @pcr, its d-ng digest must be SHA-256 of its
 * buf, and its SHA-1 template digest must be IMA's hash of its template
 * data. The SHA-256 bank is replayed from zero with the SHA-256 template
 * digests.
 * Return: 0 or -EBADE naming the record.
 */
int attest_log_replay(const struct attest_log *log, unsigned int pcr,
		      const char *what, uint8_t value[ATTEST_SHA256_LEN]);

/*
 * One certificate the kernel admitted, listed once however often it was
 * admitted: the asymmetric key type has no update, so an add of a key
 * whose description is already in the keyring replaces that key. The
 * same certificate added again is one key; another certificate with the
 * same description (the kernel's default: subject name and key
 * identifier) replaces it, which @replaced_by records.
 */
struct attest_key {
	size_t record;			/* its first admission */
	size_t admissions;		/* how many records admit it */
	size_t last_record;		/* its last admission */
	size_t replaced_by;		/* a later record with its description, or 0 */
	uint8_t fp[ATTEST_SHA256_LEN];	/* SHA-256 of the DER */
	char *subject;			/* one line, RFC 2253 */
	char *description;		/* the kernel's default key description */
	bool after_lock;
};

/* What the log says .elfsig trusted. Record numbers count from 0. */
struct attest_summary {
	unsigned int pcr;
	size_t records;
	size_t nkeys;			/* distinct certificates (and after-lock keys) */
	size_t admissions;		/* .elfsig records before the lock */
	size_t replaced;		/* keys with replaced_by set */
	struct attest_key *keys;
	const char *mode;		/* the last mode recorded, or NULL */
	size_t mode_record;
	bool locked;
	size_t lock_record;
	unsigned long lock_keys;	/* keys=N of the lock record */
	size_t keys_after_lock;
};

/**
 * attest_log_summarize() - what the records say, checked against the
 * contract
 * @log:  a parsed (and replayed) log
 * @pcr:  the PCR the log is for
 * @what: the log's name, for messages
 * @s:    out; free with attest_summary_free()
 *
 * Record 0 must be elfsig-init for @pcr; .elfsig data must be exactly
 * one DER certificate; modes only tighten; one lock, whose key count is
 * the number of key admissions (.elfsig records) before it — not the
 * number of keys in the ring, which a re-add or a replacement makes
 * smaller. Each certificate is listed once. Keys after the lock are recorded
 * (attest_verdict() refuses them).
 * Return: 0, -EBADMSG for an unknown event or malformed data, -EBADE when
 * the log contradicts itself, or -ENOMEM.
 */
int attest_log_summarize(const struct attest_log *log, unsigned int pcr,
			 const char *what, struct attest_summary *s);

/** attest_summary_free() - free a summary. @s: it */
void attest_summary_free(struct attest_summary *s);

struct attest_allow {
	size_t n;
	uint8_t (*fp)[ATTEST_SHA256_LEN];
};

/**
 * attest_allow_parse() - an allow list: one "sha256:<64 hex>" a line,
 * blank lines and lines starting with '#' ignored
 * @buf:   the file's bytes
 * @len:   how many
 * @what:  the file's name, for messages
 * @allow: out; free with attest_allow_free()
 * Return: 0, -EBADMSG naming the line, or -ENOMEM.
 */
int attest_allow_parse(const uint8_t *buf, size_t len, const char *what,
		       struct attest_allow *allow);

/** attest_allow_free() - free an allow list. @allow: it */
void attest_allow_free(struct attest_allow *allow);

/** attest_allowed() - Return: whether @fp is in @allow. */
bool attest_allowed(const struct attest_allow *allow,
		    const uint8_t fp[ATTEST_SHA256_LEN]);

/** attest_mode_rank() - Return: the rank of mode @name, loosest first
 * (off 0, permissive 1, enforce 2, require 3), or -1 for no mode. */
int attest_mode_rank(const char *name);
/** attest_mode_name() - Return: the name of mode rank @rank (0..3). */
const char *attest_mode_name(int rank);

/**
 * attest_verdict() - may the platform team trust what .elfsig held?
 * @s:        the summary
 * @allow:    the allow list, or NULL for none
 * @min_mode: the loosest mode that may be trusted (attest_mode_rank()),
 *            or -1: the mode is reported, not judged
 * Return: 0, -ENOLCK when a key followed the lock or there was no lock,
 * -ENOKEY naming the first key @allow does not hold, -EPERM when the
 * mode recorded last is looser than @min_mode or none was recorded.
 */
int attest_verdict(const struct attest_summary *s,
		   const struct attest_allow *allow, int min_mode);

/* What a verified quote says besides the PCR digest. */
struct attest_quote {
	uint32_t pcr;			/* the measurement PCR among them */
	uint8_t pcr_digest[ATTEST_SHA256_LEN];
	/* The quoted sha256 PCRs, ascending (the digest's order), and
	 * their values once attest_quote_values() checked them. */
	unsigned int npcrs;
	uint8_t pcrs[ATTEST_MAX_PCRS];
	uint8_t values[ATTEST_MAX_PCRS][ATTEST_SHA256_LEN];
	bool have_values;
	const char *sig_alg;		/* "ECDSA" or "RSASSA" */
	uint64_t clock;			/* ms the TPM has run */
	/* resetCount, restartCount and firmwareVersion are left out: the
	 * TPM obfuscates them for keys outside the endorsement and
	 * platform hierarchies, as an owner-hierarchy AK is. */
};

/**
 * attest_quote_verify() - verify a TPM quote
 * @msg:     the marshalled TPMS_ATTEST (`tpm2_quote -m`)
 * @mlen:    its length
 * @sig:     the marshalled TPMT_SIGNATURE (`tpm2_quote -s`)
 * @slen:    its length
 * @pem:     the AK's public key, PEM
 * @pemlen:  its length
 * @names:   the three file names (message, signature, key), for messages
 * @nonce:   the nonce the verifier gave
 * @nlen:    its length
 * @pcr:     the PCR the quote must cover, in the sha256 bank
 * @out:     out, what the quote says
 *
 * The signature (ECDSA or RSASSA, SHA-256) must verify with the key over
 * the message; the message must be a TPM-generated quote whose qualifying
 * data is @nonce and whose selection is PCRs of the sha256 bank alone,
 * @pcr among them (a boot quote of sha256:0,7,13 serves the boot chain's
 * check and the .elfsig log's replay at once). With more PCRs than @pcr,
 * attest_quote_values() must give their values before the replay can
 * match.
 * Return: 0, -EBADMSG when a file cannot be parsed, -EKEYREJECTED when
 * the quote is not valid.
 */
int attest_quote_verify(const uint8_t *msg, size_t mlen, const uint8_t *sig,
			size_t slen, const uint8_t *pem, size_t pemlen,
			const char *const names[3], const uint8_t *nonce,
			size_t nlen, unsigned int pcr, struct attest_quote *out);

/**
 * attest_quote_values() - the values of the quoted PCRs
 * @q:    a verified quote; its values are filled in
 * @buf:  the file: what `tpm2_quote -o FILE -F values` writes (32 bytes a
 *        PCR, in the quote's order), or "sha256:N=HEX" lines, one a
 *        quoted PCR (`elfsig-tpm pcrread`)
 * @len:  its length
 * @what: its name, for messages
 *
 * The values must hash to the quote's PCR digest: they are then as much
 * evidence as the quote.
 * Return: 0, -EBADMSG when @buf is malformed, -EKEYREJECTED when the
 * values are not the quoted ones.
 */
int attest_quote_values(struct attest_quote *q, const uint8_t *buf,
			size_t len, const char *what);

/**
 * attest_quote_pcr_list() - the quoted PCRs as "sha256:0,7,13"
 * @q:   the quote
 * @out: where
 * @n:   its size
 */
void attest_quote_pcr_list(const struct attest_quote *q, char *out, size_t n);

/**
 * attest_quote_matches() - does the replayed PCR value give the quoted
 * PCR digest?
 * @q:     the verified quote
 * @value: the replayed SHA-256 PCR value
 * @what:  the log's name, for messages
 * Return: 0 or -EBADE.
 */
int attest_quote_matches(const struct attest_quote *q,
			 const uint8_t value[ATTEST_SHA256_LEN],
			 const char *what);

/**
 * attest_log_check() - parse, check and replay a log, and summarize it
 * @img:   the log's bytes
 * @len:   how many
 * @what:  the log's name, for messages
 * @pcr:   the PCR it is the log of
 * @q:     a verified quote the replay must match, or NULL
 * @value: out, the replayed SHA-256 PCR value
 * @s:     out, the summary; free with attest_summary_free()
 *
 * attest_log_parse(), attest_log_replay(), attest_quote_matches() (with
 * @q) and attest_log_summarize(), in that order.
 * Return: 0 or the first failure's code.
 */
int attest_log_check(const uint8_t *img, size_t len, const char *what,
		     unsigned int pcr, const struct attest_quote *q,
		     uint8_t value[ATTEST_SHA256_LEN], struct attest_summary *s);

/**
 * attest_report() - print what .elfsig trusted
 * @f:      where
 * @s:      the summary
 * @q:      the verified quote, or NULL (the log alone, not verified)
 * @value:  the replayed PCR value
 * @allow:  the allow list, or NULL
 * @result: the verdict's code (0, -ENOLCK, -ENOKEY, -EPERM)
 * @json:   one JSON object instead of lines of text
 */
void attest_report(FILE *f, const struct attest_summary *s,
		   const struct attest_quote *q,
		   const uint8_t value[ATTEST_SHA256_LEN],
		   const struct attest_allow *allow, int result, bool json);

#endif /* ELFSIG_ATTEST_H */
