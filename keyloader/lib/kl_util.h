/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kl_util.h - the keyloader library's plumbing: its error callback, files
 * and directories read once, text lines and directives, the enrolment
 * layout.
 *
 * Every function of the library returns 0 or a negative errno; the
 * reason for a failure goes through the error callback
 * (kl_set_error_callback). Nothing here prints on its own or exits.
 */
#ifndef ELFSIG_KL_UTIL_H
#define ELFSIG_KL_UTIL_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cert.h"
#include "common.h"
#include "elfsig_tpm.h"

#define KL_FP_LEN		COMMON_FP_LEN	/* SHA-256 fingerprint */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

typedef void (*kl_error_cb)(const char *msg, void *ctx);
void kl_set_error_callback(kl_error_cb cb, void *ctx);
void kl_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* kl_err() with the most specific OpenSSL reason appended (queue drained). */
void kl_err_ssl(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * What the enrolment writers did ("PATH: PCR policy for ... signed"), one
 * line each, goes to the note callback: elfsig-enroll prints it on
 * stdout; without one nothing is said. OpenSSL's error queue is not
 * touched.
 */
typedef void (*kl_note_cb)(const char *msg, void *ctx);
void kl_set_note_callback(kl_note_cb cb, void *ctx);
void kl_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

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

/**
 * kl_sha256() - SHA-256 of @len bytes at @data
 * @data: the bytes
 * @len:  how many
 * @out:  the digest; undefined on failure, never to be used then
 * Return: 0, or -EIO with one error line (OpenSSL could not hash: out of
 * memory, or no provider serves SHA-256).
 */
int kl_sha256(const void *data, size_t len, uint8_t out[KL_FP_LEN])
	__attribute__((warn_unused_result));

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

#endif /* ELFSIG_KL_UTIL_H */
