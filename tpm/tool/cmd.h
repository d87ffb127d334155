/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd.h - elfsig-tpm subcommands and the helpers they share. */
#ifndef ELFSIG_TPM_CMD_H
#define ELFSIG_TPM_CMD_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>

#include "common.h"
#include "elfsig_tpm.h"

/* Documented exit codes (docs/tpm.md). */
enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,
	EXIT_USAGE = 2,
	EXIT_UNREACHABLE = 3,	/* -ENODEV */
	EXIT_POLICY = 4,	/* -EACCES */
	EXIT_BADINPUT = 5,	/* -EBADMSG */
};

/* Options every subcommand that talks to the TPM takes. */
struct common_opts {
	const char *tcti;
	uint32_t srk_handle;
	uint32_t timeout;	/* seconds until we give up on the TPM */
	uint8_t srk_name[ELFSIG_TPM_MAX_NAME];	/* --srk-name: pinned */
	size_t srk_name_len;
};

#define DEFAULT_TPM_TIMEOUT 120

#define COMMON_LONGOPTS \
	{ "tcti", required_argument, NULL, 'T' }, \
	{ "srk-handle", required_argument, NULL, 'S' }, \
	{ "timeout", required_argument, NULL, 'W' }, \
	{ "srk-name", required_argument, NULL, 'N' }, \
	{ "help", no_argument, NULL, 'h' }

extern const char *prog;

/*
 * TOOL_GETOPT(usage, longopts, common) - a command's option loop
 * (common_getopt()) for elfsig-tpm and elfsig-attest: the common options
 * when @common is not NULL, "usage: PROG USAGE" for --help, usage_err().
 */
#define TOOL_GETOPT(usage_, longopts_, common_) {			\
	.longopts = (longopts_), .usage = (usage_),			\
	.shared = tool_shared_opt, .ctx = (common_),			\
	.help = tool_help, .usage_err = usage_err,			\
	.exit_ok = EXIT_OK, .exit_usage = EXIT_USAGE,			\
}

int cmd_keygen(int argc, char **argv);
int cmd_seal(int argc, char **argv);
int cmd_unseal(int argc, char **argv);
int cmd_pcrread(int argc, char **argv);
int cmd_pcrextend(int argc, char **argv);
int cmd_evict(int argc, char **argv);
int cmd_srkname(int argc, char **argv);

/* cmd_common.c */
void err_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int usage_err(const char *usage, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int common_opt(struct common_opts *c, int opt, const char *arg);
/* common_opt() for common_getopt(); nothing with a NULL @ctx. */
int tool_shared_opt(void *ctx, int opt, const char *arg);
void tool_help(const char *usage);
int exit_code(int err);
int parse_u32(const char *s, uint32_t *out);
int parse_hex(const char *hex, uint8_t *out, size_t cap, size_t *len);
void print_hex(const uint8_t *p, size_t len);
int read_bounded(const char *path, uint8_t *buf, size_t cap, size_t *len,
		 bool pipe_ok);
int write_file(const char *path, const uint8_t *buf, size_t len);
int tpm_open(const struct common_opts *c, struct elfsig_tpm **tpm);
void tpm_watchdog(const struct common_opts *c);

#endif
