// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_common.c - exit codes, error output and JSON helpers for signelf.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"

static bool quiet;
static char last_error[1024];

static void on_error(const char *msg, void *ctx)
{
	snprintf(last_error, sizeof(last_error), "%s", msg);
	if (!quiet)
		fprintf(stderr, "signelf: %s\n", msg);
}

void cmd_init_errors(void)
{
	elfsig_set_error_callback(on_error, NULL);
}

void cmd_quiet(bool q)
{
	quiet = q;
}

const char *cmd_last_error(void)
{
	return last_error;
}

void cmd_clear_error(void)
{
	last_error[0] = '\0';
}

void cmd_error(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	on_error(msg, NULL);
}

int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "signelf %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see 'signelf %s --help')\n", cmd);
	return EXIT_USAGE;
}

int exit_code(int ret)
{
	switch (ret) {
	case 0:
		return EXIT_VALID;
	case -EKEYREJECTED:
	case -ENOKEY:
		return EXIT_REJECTED;
	case -ENODATA:
		return EXIT_UNSIGNED;
	case -ENOEXEC:
	case -EBADMSG:
		return EXIT_MALFORMED;
	case -EINVAL:
		return EXIT_USAGE;
	default:
		return EXIT_FAILURE_IO;
	}
}

int worse(int a, int b)
{
	return a > b ? a : b;
}

void json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

void print_hex(FILE *f, const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(f, "%02x", p[i]);
}
