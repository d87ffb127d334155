/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * common.h - plumbing shared by signer/, tpm/, keyloader/ and attest/: one
 * error formatter that drains OpenSSL's queue, full writes, atomic file
 * replacement, hex. Linked into each component's library, hidden.
 * Certificates (cert.h) and private keys (key.h) have their own headers.
 */
#ifndef ELFSIG_COMMON_H
#define ELFSIG_COMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define COMMON_INTERNAL __attribute__((visibility("hidden")))

/* A component's error reporter: one line, printf-style, errno preserved. */
typedef void (*common_err_fn)(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* Where a component's error lines go: its library's error callback. */
struct common_reporter {
	void (*cb)(const char *msg, void *ctx);
	void *ctx;
	int muted;		/* > 0: lines are dropped */
};

/**
 * common_report() - format one line (common_vformat()) and hand it to
 * @r's callback, errno preserved
 * @r:   the component's reporter
 * @ssl: append OpenSSL's reason
 * @fmt: printf format
 * @ap:  its arguments
 */
void common_report(const struct common_reporter *r, bool ssl, const char *fmt,
		   va_list ap) __attribute__((format(printf, 3, 0))) COMMON_INTERNAL;

/*
 * COMMON_DEFINE_ERR(err, err_ssl, reporter) - define a component's two
 * printf-style reporters: err() for one line, err_ssl() for one line with
 * OpenSSL's reason appended.
 */
#define COMMON_DEFINE_ERR(err, err_ssl, reporter)			\
void err(const char *fmt, ...)						\
{									\
	va_list ap;							\
									\
	va_start(ap, fmt);						\
	common_report(&(reporter), false, fmt, ap);			\
	va_end(ap);							\
}									\
void err_ssl(const char *fmt, ...)					\
{									\
	va_list ap;							\
									\
	va_start(ap, fmt);						\
	common_report(&(reporter), true, fmt, ap);			\
	va_end(ap);							\
}

/*
 * COMMON_DEFINE_REPORTER(set_cb, cb_type, err, err_ssl) - a component's
 * error plumbing: its reporter (static, named "reporter"), the public
 * set_cb() that installs its error callback, and err() and err_ssl()
 * (COMMON_DEFINE_ERR).
 */
#define COMMON_DEFINE_REPORTER(set_cb, cb_type, err, err_ssl)		\
static struct common_reporter reporter;					\
void set_cb(cb_type cb, void *ctx)					\
{									\
	reporter.cb = cb;						\
	reporter.ctx = ctx;						\
}									\
COMMON_DEFINE_ERR(err, err_ssl, reporter)

/*
 * COMMON_DEFINE_MUTE(mute) - after COMMON_DEFINE_REPORTER: mute(true)
 * drops the component's error lines until mute(false); calls nest.
 */
#define COMMON_DEFINE_MUTE(mute)					\
void mute(bool on)							\
{									\
	reporter.muted += on ? 1 : -1;					\
}

/*
 * common's own error lines (key.c, cert.c): one callback, installed by
 * each program (and by libelfsig's elfsig_set_error_callback()); none
 * drops them.
 */
typedef void (*common_error_cb)(const char *msg, void *ctx);
/** common_set_error_callback() - where common's error lines go */
void common_set_error_callback(common_error_cb cb, void *ctx) COMMON_INTERNAL;
void common_err(const char *fmt, ...)
	__attribute__((format(printf, 1, 2))) COMMON_INTERNAL;
void common_err_ssl(const char *fmt, ...)
	__attribute__((format(printf, 1, 2))) COMMON_INTERNAL;

/**
 * common_vformat() - format one error line
 * @msg: out, the line (always NUL-terminated)
 * @n:   size of @msg
 * @fmt: printf format
 * @ap:  its arguments
 * @ssl: append ": reason" for the most specific entry of OpenSSL's error
 *       queue; the queue is drained either way
 */
void common_vformat(char *msg, size_t n, const char *fmt, va_list ap,
		    bool ssl) __attribute__((format(printf, 3, 0))) COMMON_INTERNAL;

/**
 * common_write_full() - write all of @len bytes, retrying on EINTR
 * @fd:  the file
 * @buf: the bytes
 * @len: how many
 * Return: 0 or a negative errno.
 */
int common_write_full(int fd, const void *buf, size_t len) COMMON_INTERNAL;

struct stat;

/**
 * common_check_output() - may @path be replaced by a rename?
 * @path: the output; it may name nothing yet or a regular file (through
 *        symbolic links), never a device, FIFO, socket or directory, which
 *        a rename would replace (as root, "/dev/null" would become a file)
 * @st:   out, its status when it exists
 * @err:  where a refusal is reported
 * Return: 0 if @path does not exist, 1 if it is a regular file, or a
 * negative errno.
 */
int common_check_output(const char *path, struct stat *st,
			common_err_fn err) COMMON_INTERNAL;

/**
 * common_atomic_prepare() - the first half of common_write_atomic(): a
 * temporary file next to @path holding @len bytes, mode @mode, synced
 * @path:    the file it will replace (checked by common_check_output())
 * @data:    the bytes
 * @len:     how many
 * @mode:    its mode
 * @tmp_out: out, the temporary file, for common_atomic_commit() or
 *           common_atomic_abort() (both free it)
 * @err:     where failures are reported
 * Return: 0 or a negative errno (then nothing is left behind).
 */
int common_atomic_prepare(const char *path, const void *data, size_t len,
			  unsigned int mode, char **tmp_out,
			  common_err_fn err) COMMON_INTERNAL;

/**
 * common_atomic_commit() - rename a prepared file over @path and sync the
 * directory, so that the rename itself survives a crash
 * @tmp:  from common_atomic_prepare(); freed (and unlinked on failure)
 * @path: the file to replace
 * @err:  where failures are reported
 * Return: 0 or a negative errno.
 */
int common_atomic_commit(char *tmp, const char *path,
			 common_err_fn err) COMMON_INTERNAL;

/** common_atomic_abort() - unlink and free a prepared file. @tmp: or NULL */
void common_atomic_abort(char *tmp) COMMON_INTERNAL;

/**
 * common_write_atomic() - replace @path with @len bytes: a reader sees the
 * old file or the new one, never a part
 * @path: the file
 * @data: the bytes
 * @len:  how many
 * @mode: its mode
 * @err:  where failures are reported
 * Return: 0 or a negative errno.
 */
int common_write_atomic(const char *path, const void *data, size_t len,
			unsigned int mode, common_err_fn err) COMMON_INTERNAL;

/**
 * common_sync_dir() - fsync the directory that holds @path (best effort)
 * @path: a file in the directory
 */
void common_sync_dir(const char *path) COMMON_INTERNAL;

/**
 * common_open_input() - open a user-named input for reading, refused
 * unless it is a regular file
 * @dirfd:  as openat()'s (AT_FDCWD for a path)
 * @path:   the input
 * @follow: false adds O_NOFOLLOW (a symbolic link is refused)
 * @err:    where a refusal is reported (one line naming @path)
 *
 * Opened O_NONBLOCK (a FIFO's open does not wait for a writer),
 * O_CLOEXEC and O_NOCTTY, its type checked on the descriptor: a FIFO,
 * device, socket or directory is refused without blocking.
 *
 * Return: the descriptor, or a negative errno (-EINVAL when not a
 * regular file).
 */
int common_open_input(int dirfd, const char *path, bool follow,
		      common_err_fn err) COMMON_INTERNAL;

/**
 * common_arm_alarm() - a watchdog an inherited signal mask cannot disable
 * @secs:    seconds until SIGALRM (0 disarms)
 * @handler: the SIGALRM handler
 *
 * Installs @handler, unblocks SIGALRM (a parent may have blocked it, and
 * the mask survives exec) and starts the alarm.
 */
void common_arm_alarm(unsigned int secs, void (*handler)(int)) COMMON_INTERNAL;

/**
 * common_read_upto() - read from @fd until end of file or @cap bytes,
 * retrying on EINTR
 * @fd:  the file
 * @buf: out, at most @cap bytes
 * @cap: room in @buf
 * @got: out, bytes read (also on error)
 *
 * A caller that must tell "exactly @cap" from "more" asks for one byte
 * more than it accepts.
 *
 * Return: 0 or a negative errno.
 */
int common_read_upto(int fd, void *buf, size_t cap, size_t *got) COMMON_INTERNAL;

/**
 * common_memdup() - a malloc'ed copy of @n bytes (an OpenSSL buffer kept
 * past its own free, say)
 * @src: the bytes
 * @n:   how many (more than 0)
 *
 * Return: the copy, or NULL when out of memory.
 */
void *common_memdup(const void *src, size_t n) COMMON_INTERNAL;

/**
 * common_memdup_out() - common_memdup() into a caller's buffer and length
 * @dst:     out, the copy (left alone on error)
 * @dst_len: out, @n (left alone on error)
 * @src:     the bytes
 * @n:       how many (more than 0)
 *
 * Return: 0 or -ENOMEM.
 */
int common_memdup_out(uint8_t **dst, size_t *dst_len, const void *src,
		      size_t n) COMMON_INTERNAL;

/**
 * common_hex() - lower-case hex of @len bytes, NUL-terminated
 * @in:  the bytes
 * @len: how many
 * @out: out, at least 2 * @len + 1 bytes
 */
void common_hex(const uint8_t *in, size_t len, char *out) COMMON_INTERNAL;

/**
 * common_unhex() - exactly @len bytes from 2 * @len hex digits
 * @in:    the digits (either case)
 * @inlen: how many
 * @out:   out, @len bytes
 * @len:   how many bytes are wanted
 * Return: 0 or -EBADMSG.
 */
int common_unhex(const char *in, size_t inlen, uint8_t *out,
		 size_t len) COMMON_INTERNAL;

/**
 * common_unbase64() - strict base64 (RFC 4648: padded, no line breaks, the
 * padding bits zero, so one encoding per value)
 * @in:  the text
 * @n:   its length
 * @out: out, at most @cap bytes
 * @cap: room in @out
 * @len: out, bytes decoded
 * Return: 0 or -EBADMSG.
 */
int common_unbase64(const char *in, size_t n, uint8_t *out, size_t cap,
		    size_t *len) COMMON_INTERNAL;

/**
 * common_version() - the project's version (the top-level VERSION file),
 * one for every program and library
 * Return: a static string, e.g. "0.1".
 */
const char *common_version(void) COMMON_INTERNAL;

/**
 * common_is_version_request() - is this command line "PROG -V" or
 * "PROG --version", the option alone?
 * @argc: main()'s
 * @argv: main()'s
 * Return: true when it is.
 */
bool common_is_version_request(int argc, char **argv) COMMON_INTERNAL;

/**
 * common_print_version() - "PROG VERSION" on stdout
 * @prog: the program's name
 */
void common_print_version(const char *prog) COMMON_INTERNAL;

/* ---- cmd.c: the programs' subcommand tables ---- */
#include <stdio.h>

struct common_cmd {
	const char *name;
	int (*run)(int argc, char **argv);	/* argv[0] is the command */
	const char *summary;
};

struct common_prog {
	const char *name;		/* "signelf" */
	const char *intro;		/* what the program is, for --help */
	const char *outro;		/* common options, exit statuses */
	const struct common_cmd *cmds;
	size_t ncmds;
	int exit_ok;
	int exit_usage;
};

/**
 * common_prog_main() - run the subcommand named by argv[1]
 * @p:    the program's table
 * @argc: main()'s
 * @argv: main()'s
 *
 * "-h", "--help" and "help" print the table; "help CMD" runs CMD --help;
 * "-V" or "--version" alone prints the version;
 * no command prints the table on stderr; an unknown one gets one line.
 * Return: the command's exit status, @p->exit_ok or @p->exit_usage.
 */
int common_prog_main(const struct common_prog *p, int argc,
		     char **argv) COMMON_INTERNAL;

struct option;

/**
 * struct common_getopt - one subcommand's option loop, for common_getopt()
 * @longopts:   the command's long options ('h' is --help)
 * @usage:      the command's usage text, for --help and usage errors
 * @shared:     the options every command of the program takes: 1 taken,
 *              0 not one of them, < 0 refused (its line printed); or NULL
 * @ctx:        for @shared
 * @operands:   the command takes arguments after its options (it checks
 *              them itself); otherwise one is a usage error
 * @help:       print @usage for --help, on stdout
 * @usage_err:  print @fmt's line (none when NULL) and @usage on stderr;
 *              return the usage exit status
 * @exit_ok:    the status after --help
 * @exit_usage: the status after a refused shared option
 * @status:     out: what the command returns when common_getopt() < 0
 */
struct common_getopt {
	const struct option *longopts;
	const char *usage;
	int (*shared)(void *ctx, int opt, const char *arg);
	void *ctx;
	bool operands;
	void (*help)(const char *usage);
	int (*usage_err)(const char *usage, const char *fmt, ...)
		__attribute__((format(printf, 2, 3)));
	int exit_ok;
	int exit_usage;
	int status;
};

/**
 * common_getopt() - the next option of the command's own
 * @g:    the command's loop
 * @argc: the command's
 * @argv: the command's (argv[0] is the command)
 *
 * Shared options, --help, an unknown option or a missing argument, and
 * stray arguments are dealt with here, so that the command's switch has
 * only its own options:
 *
 *	while ((opt = common_getopt(&g, argc, argv)) > 0)
 *		switch (opt) { ... }
 *	if (opt < 0)
 *		return g.status;
 *
 * Return: an option for the command (optarg set), 0 when all are parsed,
 * or -1: the command returns @g->status (--help printed, or a usage error).
 */
int common_getopt(struct common_getopt *g, int argc, char **argv) COMMON_INTERNAL;

/* The command table and exit statuses of a struct common_prog initializer. */
#define COMMON_PROG_CMDS(table, ok, usage) \
	.cmds = (table), .ncmds = sizeof(table) / sizeof((table)[0]), \
	.exit_ok = (ok), .exit_usage = (usage)

/**
 * common_tss_quiet() - keep tpm2-tss from logging failures on stderr
 *
 * tpm2-tss logs every failure on its own; the tools' one line per failure
 * says it better. A TSS2_LOG the user set wins.
 */
void common_tss_quiet(void) COMMON_INTERNAL;

/**
 * common_stderr_error() - an error callback for the libraries: one line,
 * "PROG: msg", on stderr
 * @msg: the message
 * @ctx: the program's name
 */
void common_stderr_error(const char *msg, void *ctx) COMMON_INTERNAL;

/**
 * common_escape_name() - a name as the tools print it: C escapes as ls -b
 * writes them (\\n, \\t, ..., \\\\, \\ooo for any other control byte,
 * unprintable character or byte that is not valid UTF-8), spaces and
 * printable UTF-8 as they are
 * @out:  where (NULL with @size 0: only the length)
 * @size: at most this many bytes with the NUL (never part of an escape)
 * @name: the name
 * Return: the full length of the escaped text.
 */
size_t common_escape_name(char *out, size_t size, const char *name) COMMON_INTERNAL;
/**
 * common_name_is_utf8() - is @name valid UTF-8?
 * @name: the name
 * Return: true or false.
 */
bool common_name_is_utf8(const char *name) COMMON_INTERNAL;
/**
 * common_json_string() - @s as a JSON string of its escaped text
 * (common_escape_name()): valid JSON for any bytes
 * @f: where
 * @s: the text
 */
void common_json_string(FILE *f, const char *s) COMMON_INTERNAL;
/**
 * common_json_escaped() - a JSON string of text already escaped (no
 * control byte in it): only '"' and '\\' are escaped again
 * @f:    where
 * @text: the text
 */
void common_json_escaped(FILE *f, const char *text) COMMON_INTERNAL;

#endif /* ELFSIG_COMMON_H */
