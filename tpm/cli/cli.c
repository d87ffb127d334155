// SPDX-License-Identifier: GPL-2.0-only
/* cli.c - option parsing, files and exit codes of the programs that talk to the TPM. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "common.h"
#include "tpm_cli.h"

static void __attribute__((format(printf, 1, 0)))
tool_verr(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void tool_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_verr(fmt, ap);
	va_end(ap);
}

int tool_usage_err(const char *usage, const char *fmt, ...)
{
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		tool_verr(fmt, ap);
		va_end(ap);
	}
	fprintf(stderr, "usage: %s %s\n", prog, usage);
	return EXIT_USAGE;
}

int tool_parse_u32(const char *s, uint32_t *out)
{
	unsigned long long v;
	char *end;

	if (!*s || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v > UINT32_MAX)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

/* Returns 1 if @opt was a common option, 0 if not, or a usage error. */
int tool_tpm_opt(struct tool_tpm_opts *c, int opt, const char *arg)
{
	switch (opt) {
	case 'T':
		c->tcti = arg;
		return 1;
	case 'S':
		if (tool_parse_u32(arg, &c->srk_handle) ||
		    (c->srk_handle >> 24) != 0x81) {
			tool_err("--srk-handle %s: expected a persistent handle like 0x81000001",
				arg);
			return -EINVAL;
		}
		return 1;
	case 'N':
		if (tool_parse_hex(arg, c->srk_name, sizeof(c->srk_name),
				   &c->srk_name_len) || c->srk_name_len < 4) {
			tool_err("--srk-name %s: the hex name printed by 'elfsig-tpm srkname'",
				arg);
			return -EINVAL;
		}
		return 1;
	case 'W':
		if (tool_parse_u32(arg, &c->timeout) || !c->timeout ||
		    c->timeout > 3600) {
			tool_err("--timeout %s: seconds, 1..3600", arg);
			return -EINVAL;
		}
		return 1;
	}
	return 0;
}

int tool_shared_opt(void *ctx, int opt, const char *arg)
{
	return ctx ? tool_tpm_opt(ctx, opt, arg) : 0;
}

void tool_help(const char *usage)
{
	printf("usage: %s %s\n", prog, usage);
}

int tool_exit_code(int err)
{
	switch (err) {
	case 0:
		return EXIT_OK;
	case -ENODEV:
		return EXIT_UNREACHABLE;
	case -EACCES:
		return EXIT_POLICY;
	case -EBADMSG:
		return EXIT_BADINPUT;
	default:
		return EXIT_FAIL;
	}
}

int tool_parse_hex(const char *hex, uint8_t *out, size_t cap, size_t *len)
{
	size_t n = strlen(hex);

	if (n >= 2 && hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X')) {
		hex += 2;
		n -= 2;
	}
	if (n == 0 || n % 2 || n / 2 > cap || common_unhex(hex, n, out, n / 2))
		return -EINVAL;
	*len = n / 2;
	return 0;
}

void tool_print_hex(const uint8_t *p, size_t len)
{
	while (len--)
		printf("%02x", *p++);
}

/*
 * Read at most @cap bytes of @path ("-": stdin); more is an error. A
 * regular file (common_open_input(): a FIFO, device or directory is
 * refused without blocking); with @pipe_ok also a pipe, so that a secret
 * handed over with <(...) never touches a disk (then read blocking).
 */
int tool_read_bounded(const char *path, uint8_t *buf, size_t cap, size_t *len,
		      bool pipe_ok)
{
	int fd = 0;
	struct stat st;
	uint8_t extra;
	int ret = 0;

	*len = 0;
	if (strcmp(path, "-") && !pipe_ok) {
		fd = common_open_input(AT_FDCWD, path, true, tool_err);
		if (fd < 0)
			return fd;
	} else if (strcmp(path, "-")) {
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
		if (fd < 0) {
			ret = -errno;
			tool_err("%s: %s", path, strerror(errno));
			return ret;
		}
		if (fstat(fd, &st) ||
		    !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode)) ||
		    fcntl(fd, F_SETFL, 0)) {
			tool_err("%s: not a regular file or a pipe", path);
			close(fd);
			return -EINVAL;
		}
	}
	ret = common_read_upto(fd, buf, cap, len);
	if (ret)
		tool_err("%s: %s", path, strerror(-ret));
	else if (*len == cap && read(fd, &extra, 1) == 1) {
		tool_err("%s: larger than %zu bytes", path, cap);
		ret = -EFBIG;
	}
	if (fd)
		close(fd);
	return ret;
}

/*
 * Replace @path atomically, mode 0600 ("-" is stdout); an existing device,
 * FIFO or directory is never replaced.
 */
int tool_write_file(const char *path, const uint8_t *buf, size_t len)
{
	int ret;

	if (strcmp(path, "-"))
		return common_write_atomic(path, buf, len, 0600, tool_err);
	ret = common_write_full(1, buf, len);
	if (ret)
		tool_err("standard output: %s", strerror(-ret));
	return ret;
}

static char watchdog_msg[512];
static size_t watchdog_len;

static void watchdog_fired(int sig)
{
	ssize_t n = write(2, watchdog_msg, watchdog_len);

	(void)n;
	_exit(EXIT_UNREACHABLE);
}

/*
 * ESAPI's synchronous calls block without limit, and a TPM (or a socket
 * that accepted and went silent) may never answer: the program, not the
 * library, puts a deadline on the whole TPM conversation.
 */
void tool_tpm_watchdog(const struct tool_tpm_opts *c)
{
	unsigned int secs = c->timeout ? c->timeout : TOOL_TPM_TIMEOUT;
	int n;

	n = snprintf(watchdog_msg, sizeof(watchdog_msg),
		     "%s: TPM not reachable at %s: no answer within %u s\n",
		     prog, elfsig_tpm_tcti(c->tcti), secs);
	watchdog_len = n < 0 ? 0 : (size_t)n < sizeof(watchdog_msg) ?
		       (size_t)n : sizeof(watchdog_msg) - 1;
	common_arm_alarm(secs, watchdog_fired);
}

int tool_tpm_open(const struct tool_tpm_opts *c, struct elfsig_tpm **tpm)
{
	struct elfsig_tpm_opts o = {
		.tcti = c->tcti,
		.srk_handle = c->srk_handle,
		.srk_name = c->srk_name_len ? c->srk_name : NULL,
		.srk_name_len = c->srk_name_len,
	};

	tool_tpm_watchdog(c);
	return elfsig_tpm_open(&o, tpm);
}
