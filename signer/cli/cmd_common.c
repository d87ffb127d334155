// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_common.c - exit codes, error output and JSON helpers for signelf.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "cmd.h"

static bool quiet;
static char last_error[4 * 1024 + 1];	/* a 1024-byte line, escaped */

void print_name(FILE *f, const char *name)
{
	size_t n = common_escape_name(NULL, 0, name);
	char *buf = malloc(n + 1);

	if (!buf) {	/* the plainest safe form */
		fputs("?", f);
		return;
	}
	common_escape_name(buf, n + 1, name);
	fputs(buf, f);
	free(buf);
}

/* Every line signelf writes to stderr is escaped whole: one line, always. */
static void on_error(const char *msg, void *ctx)
{
	common_escape_name(last_error, sizeof(last_error), msg);
	if (!quiet)
		fprintf(stderr, "signelf: %s\n", last_error);
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
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "signelf %s: ", cmd);
	print_name(stderr, msg);
	fprintf(stderr, " (see 'signelf %s --help')\n", cmd);
	return EXIT_USAGE;
}

int bad_option(const char *cmd, int c, char **argv)
{
	char name[64];

	const char *word = optind > 0 ? argv[optind - 1] : "";

	/* A long option is the word getopt took; a short one is optopt. */
	if (!strncmp(word, "--", 2) || !optopt)
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(word, "="), word);
	else
		snprintf(name, sizeof(name), "-%c", optopt);
	if (c == ':')
		return usage_error(cmd, "option '%s' requires an argument", name);
	return usage_error(cmd, "invalid option '%s'", name);
}

const char *status_name(int ret)
{
	switch (ret) {
	case 0:
		return "valid";
	case -ENOKEY:
		return "no-trusted-key";
	case -EKEYREJECTED:
		return "rejected";
	case -ENODATA:
		return "unsigned";
	case -ENOEXEC:
	case -EBADMSG:
		return "malformed";
	default:
		return "error";
	}
}

int refuse_same_file(const char *cmd, const char *out, const char *in)
{
	struct stat a, b;

	if (!out || !in || stat(out, &a) != 0 || stat(in, &b) != 0)
		return 0;
	if (a.st_dev != b.st_dev || a.st_ino != b.st_ino)
		return 0;
	cmd_error("%s: output '%s' is the input '%s': refusing to overwrite it",
		  cmd, out, in);
	return EXIT_USAGE;
}

#define MAX_PASS	1024

/* The first line of @fd, at most MAX_PASS bytes, into @buf. */
static int read_line(int fd, char *buf, const char *what)
{
	size_t n = 0;

	while (n < MAX_PASS) {
		ssize_t r = read(fd, buf + n, 1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			cmd_error("key password from %s: %m", what);
			return EXIT_FAILURE_IO;
		}
		if (r == 0 || buf[n] == '\n')
			break;
		n++;
	}
	if (n == MAX_PASS) {
		cmd_error("key password from %s: longer than %d bytes", what, MAX_PASS - 1);
		return EXIT_USAGE;
	}
	if (n && buf[n - 1] == '\r')
		n--;
	buf[n] = '\0';
	return 0;
}

int read_pass(const char *spec, char **pass)
{
	char *buf = calloc(1, MAX_PASS + 1);
	const char *v;
	struct stat st;
	char *end;
	int fd, ret = 0;
	long n;

	if (!buf)
		return EXIT_FAILURE_IO;
	if (!strncmp(spec, "pass:", 5)) {
		snprintf(buf, MAX_PASS + 1, "%s", spec + 5);
	} else if (!strncmp(spec, "env:", 4)) {
		v = getenv(spec + 4);
		if (!v) {
			cmd_error("key password: environment variable '%s' is not set",
				  spec + 4);
			ret = EXIT_USAGE;
		} else {
			snprintf(buf, MAX_PASS + 1, "%s", v);
		}
	} else if (!strncmp(spec, "file:", 5)) {
		fd = open(spec + 5, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
		if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
			cmd_error("key password file %s: %s", spec + 5, fd < 0 ?
				  strerror(errno) : "not a regular file");
			ret = EXIT_USAGE;
		} else {
			ret = read_line(fd, buf, spec + 5);
		}
		if (fd >= 0)
			close(fd);
	} else if (!strncmp(spec, "fd:", 3)) {
		errno = 0;
		n = strtol(spec + 3, &end, 10);
		if (errno || end == spec + 3 || *end || n < 0 || n > 65535) {
			cmd_error("key password: '%s' is not a file descriptor", spec + 3);
			ret = EXIT_USAGE;
		} else {
			ret = read_line((int)n, buf, spec);
		}
	} else if (!strcmp(spec, "stdin")) {
		ret = read_line(STDIN_FILENO, buf, "standard input");
	} else {
		/* Never echo it: it may be a password given without "pass:". */
		cmd_error("key password: must be pass:STR, env:VAR, file:PATH, fd:N or stdin");
		ret = EXIT_USAGE;
	}
	if (ret) {
		free_pass(buf);
		return ret;
	}
	*pass = buf;
	return 0;
}

void free_pass(char *pass)
{
	if (pass)
		OPENSSL_cleanse(pass, MAX_PASS + 1);
	free(pass);
}

int load_signer(const char *cmd, struct elfsig_signer_opts *so,
		const char *output, const char *pass_spec,
		struct elfsig_signer **signer)
{
	char *pass = NULL;
	int ret;

	if (refuse_same_file(cmd, output, so->key) ||
	    refuse_same_file(cmd, output, so->cert))
		return EXIT_USAGE;
	if (pass_spec) {
		ret = read_pass(pass_spec, &pass);
		if (ret)
			return ret;
		so->key_pass = pass;
	}
	ret = elfsig_signer_load(so, signer);
	free_pass(pass);
	so->key_pass = NULL;
	if (ret)
		return ret == -EINVAL ? EXIT_USAGE : EXIT_FAILURE_IO;
	return 0;
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

void json_name(FILE *f, const char *key, const char *name)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *p = (const unsigned char *)name;
	size_t len = strlen(name), i;

	fprintf(f, "\"%s\":", key);
	common_json_string(f, name);
	if (common_escape_name(NULL, 0, name) == len && common_name_is_utf8(name))
		return;		/* printed as it is: no escape in it */
	/* The exact bytes, for a name whose text has escapes. */
	fputs(",\"name_b64\":\"", f);
	for (i = 0; i + 2 < len; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];

		fprintf(f, "%c%c%c%c", b64[v >> 18], b64[(v >> 12) & 63],
			b64[(v >> 6) & 63], b64[v & 63]);
	}
	if (len - i == 1)
		fprintf(f, "%c%c==", b64[p[i] >> 2], b64[(p[i] & 3) << 4]);
	else if (len - i == 2)
		fprintf(f, "%c%c%c=", b64[p[i] >> 2],
			b64[(p[i] & 3) << 4 | p[i + 1] >> 4],
			b64[(p[i + 1] & 15) << 2]);
	fputc('"', f);
}

void print_hex(FILE *f, const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(f, "%02x", p[i]);
}
