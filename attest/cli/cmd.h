/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd.h - elfsig-attest subcommands and their exit codes. The
 * option, file and TPM helpers are those of the TPM programs (tpm_cli.h). */
#ifndef ELFSIG_ATTEST_CMD_H
#define ELFSIG_ATTEST_CMD_H

#include "tpm_cli.h"
#include "attest.h"

/* Documented exit codes (man/elfsig-attest.1, docs/attestation.md); 0-3
 * and 5 mean what they mean for elfsig-tpm. */
enum {
	EXIT_QUOTE = 6,		/* the quote is not valid */
	EXIT_REPLAY = 7,	/* the log does not match the quote or itself */
	EXIT_FOREIGN = 8,	/* a key not in the allow list */
	EXIT_UNLOCKED = 9,	/* never locked, or a key after the lock */
	EXIT_MODE = 10,		/* the mode is looser than --require-mode */
};

int cmd_ak(int argc, char **argv);
int cmd_quote(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_log(int argc, char **argv);

/* What several commands take: --pcr ('p'), --nonce ('n'), and the TPM
 * options when @common is set. */
struct attest_opts {
	struct tool_tpm_opts *common;
	unsigned int pcr;
	uint8_t nonce[ATTEST_MAX_NONCE];
	size_t nlen;
};

/* ATTEST_GETOPT(usage, longopts, aopts) - the option loop of a command
 * whose --pcr and --nonce (and TPM options) go into @aopts. */
#define ATTEST_GETOPT(usage_, longopts_, aopts_) {			\
	.longopts = (longopts_), .usage = (usage_),			\
	.shared = attest_shared_opt, .ctx = (aopts_),			\
	.help = tool_help, .usage_err = tool_usage_err,			\
	.exit_ok = EXIT_OK, .exit_usage = EXIT_USAGE,			\
}
#define ATTEST_OPTS_INIT(common_) \
	{ .common = (common_), .pcr = ATTEST_DEFAULT_PCR }

/* cmd_attest_common.c */
int attest_shared_opt(void *ctx, int opt, const char *arg);
int attest_exit_code(int err);
int parse_nonce(const char *arg, uint8_t *nonce, size_t *len);
int parse_pcr(const char *arg, unsigned int *pcr);
int read_input(const char *path, size_t cap, uint8_t **buf, size_t *len);
int attest_tpm_open(const struct tool_tpm_opts *c, const char *what,
		    struct elfsig_tpm **tpm);

#endif
