/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd.h - what signelf's subcommands share: exit codes, messages, JSON.
 */
#ifndef SIGNELF_CMD_H
#define SIGNELF_CMD_H

#include <stdbool.h>
#include <stdio.h>

#include "common.h"
#include "elfsig/elfsig.h"

/* Documented exit codes (signelf(1)). */
enum signelf_exit {
	EXIT_VALID = 0,		/* success; for verify: every file is valid */
	EXIT_REJECTED = 1,	/* bad signature, no trusted key, refused */
	EXIT_UNSIGNED = 2,	/* the file has no signature */
	EXIT_MALFORMED = 3,	/* not ELF, malformed ELF or signature */
	EXIT_USAGE = 4,		/* bad command line */
	EXIT_FAILURE_IO = 5,	/* I/O, key, crypto or resource error */
};

int cmd_sign(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_digest(int argc, char **argv);
int cmd_attach(int argc, char **argv);
int cmd_remove(int argc, char **argv);
int cmd_sign_deb(int argc, char **argv);

/* Map a library return value to an exit code. */
int exit_code(int ret);
/* Keep the worse of two exit codes (the numerically larger). */
int worse(int a, int b);

/* Error output: "signelf: <msg>" on stderr; cmd_quiet() silences it and
 * cmd_last_error() returns the last message (for --json). */
void cmd_init_errors(void);
void cmd_quiet(bool quiet);
const char *cmd_last_error(void);
void cmd_clear_error(void);
__attribute__((format(printf, 1, 2))) void cmd_error(const char *fmt, ...);

/* "signelf CMD: msg (see 'signelf CMD --help')"; returns EXIT_USAGE. */
__attribute__((format(printf, 2, 3)))
int usage_error(const char *cmd, const char *fmt, ...);

/*
 * getopt_long() returned '?' or ':' (every option string starts with ':'):
 * name the option and say what is wrong with it. Returns EXIT_USAGE.
 */
int bad_option(const char *cmd, int c, char **argv);

/*
 * Names as signelf prints them everywhere (signelf(1), NAMES): C escapes
 * as ls -b writes them (\\n, \\t, ..., \\\\, \\ooo for any other control
 * byte, unprintable character or byte that is not valid UTF-8), spaces
 * and printable UTF-8 as they are (common_escape_name()); print_name()
 * writes the whole of it.
 */
void print_name(FILE *f, const char *name);
/* "KEY":"escaped name", and "name_b64":"..." (its bytes) when the escaped
 * text is not the name itself. */
void json_name(FILE *f, const char *key, const char *name);

/* "valid", "unsigned", "malformed"... for a library return value (--json). */
const char *status_name(int ret);

/*
 * @out must not be the same file as @in (device and inode): an output may
 * never overwrite an input such as a key, certificate or signature.
 * Returns 0, or EXIT_USAGE after one message.
 */
int refuse_same_file(const char *cmd, const char *out, const char *in);

/*
 * Resolve a password in OpenSSL's -passin syntax: pass:STR, env:VAR,
 * file:PATH, fd:N or stdin (the first line of the last three). Returns 0
 * and *@pass (free with free_pass()), or EXIT_USAGE / EXIT_FAILURE_IO.
 */
int read_pass(const char *spec, char **pass);
void free_pass(char *pass);

/*
 * Load the signer of @so for command @cmd: @output may not be its key or
 * certificate; @pass_spec (or NULL) is read with read_pass(). Returns 0
 * and *@signer, or the exit status after one message.
 */
int load_signer(const char *cmd, struct elfsig_signer_opts *so,
		const char *output, const char *pass_spec,
		struct elfsig_signer **signer);

void print_hex(FILE *f, const unsigned char *p, size_t n);

#endif /* SIGNELF_CMD_H */
