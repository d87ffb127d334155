// SPDX-License-Identifier: GPL-2.0-only
/* cmd_attest_common.c - exit codes and the options several commands share. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attest.h"
#include "cmd.h"

int attest_exit_code(int err)
{
	switch (err) {
	case -EKEYREJECTED:
		return EXIT_QUOTE;
	case -EBADE:
		return EXIT_REPLAY;
	case -ENOKEY:
		return EXIT_FOREIGN;
	case -ENOLCK:
		return EXIT_UNLOCKED;
	case -EPERM:
		return EXIT_MODE;
	case -EFBIG:
		return EXIT_BADINPUT;
	default:
		return tool_exit_code(err);
	}
}

/* 1..64 bytes of hex (the quote's qualifying data). */
int parse_nonce(const char *arg, uint8_t *nonce, size_t *len)
{
	if (tool_parse_hex(arg, nonce, ATTEST_MAX_NONCE, len)) {
		tool_err("--nonce %s: 1 to %d bytes in hex", arg,
			ATTEST_MAX_NONCE);
		return -EINVAL;
	}
	return 0;
}

int parse_pcr(const char *arg, unsigned int *pcr)
{
	uint32_t v;

	if (tool_parse_u32(arg, &v) || v >= ELFSIG_TPM_MAX_PCRS) {
		tool_err("--pcr %s: 0..23", arg);
		return -EINVAL;
	}
	*pcr = v;
	return 0;
}

int attest_shared_opt(void *ctx, int opt, const char *arg)
{
	struct attest_opts *a = ctx;

	switch (opt) {
	case 'p':
		return parse_pcr(arg, &a->pcr) ? -EINVAL : 1;
	case 'n':
		return parse_nonce(arg, a->nonce, &a->nlen) ? -EINVAL : 1;
	}
	return a->common ? tool_tpm_opt(a->common, opt, arg) : 0;
}

/* A whole input file of at most @cap bytes, malloc'ed. */
int read_input(const char *path, size_t cap, uint8_t **buf, size_t *len)
{
	int ret;

	*buf = malloc(cap ? cap : 1);
	if (!*buf) {
		tool_err("%s: out of memory", path);
		return -ENOMEM;
	}
	ret = tool_read_bounded(path, *buf, cap, len, false);
	if (ret) {
		free(*buf);
		*buf = NULL;
	}
	return ret;
}

/*
 * The TPM, for @what ("no quote can be made"). A machine without a TPM
 * (no device node: no chip, or its driver not loaded yet) still keeps the
 * kernel's log, but nothing can attest it: say so in the one line, rather
 * than only that a device file is missing.
 */
int attest_tpm_open(const struct tool_tpm_opts *c, const char *what,
		    struct elfsig_tpm **tpm)
{
	const char *tcti = elfsig_tpm_tcti(c->tcti);
	const char *dev = tcti + strlen("device:");

	if (!strncmp(tcti, "device:", strlen("device:")) && *dev &&
	    access(dev, F_OK) && errno == ENOENT) {
		tool_err("no TPM: %s does not exist, so %s (the kernel's measurement log is kept, but without a TPM nothing attests it)",
			dev, what);
		return -ENODEV;
	}
	return tool_tpm_open(c, tpm);
}
