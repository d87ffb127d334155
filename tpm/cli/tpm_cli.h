/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tpm_cli.h - what the programs that talk to the TPM share (elfsig-tpm,
 * elfsig-attest): exit codes, the TPM options, option, file and hex
 * helpers that print "PROG: ..." on stderr (tpm/cli/cli.c).
 */
#ifndef ELFSIG_TPM_CLI_H
#define ELFSIG_TPM_CLI_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>

#include "common.h"
#include "elfsig_tpm.h"

/* Documented exit codes (docs/tpm.md, man/elfsig-attest.1). */
enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,
	EXIT_USAGE = 2,
	EXIT_UNREACHABLE = 3,	/* -ENODEV */
	EXIT_POLICY = 4,	/* -EACCES */
	EXIT_BADINPUT = 5,	/* -EBADMSG */
};

/* Options every subcommand that talks to the TPM takes. */
struct tool_tpm_opts {
	const char *tcti;
	uint32_t srk_handle;
	uint32_t timeout;	/* seconds until we give up on the TPM */
	uint8_t srk_name[ELFSIG_TPM_MAX_NAME];	/* --srk-name: pinned */
	size_t srk_name_len;
};

#define TOOL_TPM_TIMEOUT 120

#define TOOL_TPM_LONGOPTS \
	{ "tcti", required_argument, NULL, 'T' }, \
	{ "srk-handle", required_argument, NULL, 'S' }, \
	{ "timeout", required_argument, NULL, 'W' }, \
	{ "srk-name", required_argument, NULL, 'N' }, \
	{ "help", no_argument, NULL, 'h' }

extern const char *prog;

/*
 * TOOL_GETOPT(usage, longopts, common) - a command's option loop
 * (common_getopt()) for elfsig-tpm and elfsig-attest: the common options
 * when @common is not NULL, "usage: PROG USAGE" for --help, tool_usage_err().
 */
#define TOOL_GETOPT(usage_, longopts_, common_) {			\
	.longopts = (longopts_), .usage = (usage_),			\
	.shared = tool_shared_opt, .ctx = (common_),			\
	.help = tool_help, .usage_err = tool_usage_err,			\
	.exit_ok = EXIT_OK, .exit_usage = EXIT_USAGE,			\
}

/* cli.c */
void tool_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int tool_usage_err(const char *usage, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int tool_tpm_opt(struct tool_tpm_opts *c, int opt, const char *arg);
/* tool_tpm_opt() for common_getopt(); nothing with a NULL @ctx. */
int tool_shared_opt(void *ctx, int opt, const char *arg);
void tool_help(const char *usage);
int tool_exit_code(int err);
int tool_parse_u32(const char *s, uint32_t *out);
int tool_parse_hex(const char *hex, uint8_t *out, size_t cap, size_t *len);
void tool_print_hex(const uint8_t *p, size_t len);
int tool_read_bounded(const char *path, uint8_t *buf, size_t cap, size_t *len,
		      bool pipe_ok);
int tool_write_file(const char *path, const uint8_t *buf, size_t len);
int tool_tpm_open(const struct tool_tpm_opts *c, struct elfsig_tpm **tpm);
void tool_tpm_watchdog(const struct tool_tpm_opts *c);

#endif
