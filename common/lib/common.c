// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * common.c - error lines, full and atomic writes, hex: the plumbing that
 * signer/, tpm/ and keyloader/ share (common.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/err.h>

#include "common.h"

void common_vformat(char *msg, size_t n, const char *fmt, va_list ap, bool ssl)
{
	unsigned long e, last = 0;
	int len;

	len = vsnprintf(msg, n, fmt, ap);
	if (len < 0)
		len = 0;
	if ((size_t)len >= n)
		len = (int)n - 1;
	/* The last entry is the most specific: it names what failed. */
	while ((e = ERR_get_error()) != 0)
		last = e;
	if (ssl && last && (size_t)len < n - 3) {
		const char *r = ERR_reason_error_string(last);
		char buf[256];

		if (!r) {
			ERR_error_string_n(last, buf, sizeof(buf));
			r = buf;
		}
		snprintf(msg + len, n - (size_t)len, ": %s", r);
	}
}

COMMON_DEFINE_REPORTER(common_set_error_callback, common_error_cb, common_err,
		       common_err_ssl)

void common_report(const struct common_reporter *r, bool ssl, const char *fmt,
		   va_list ap)
{
	int saved = errno;
	char msg[1024];

	common_vformat(msg, sizeof(msg), fmt, ap, ssl);
	if (r->cb && r->muted <= 0)
		r->cb(msg, r->ctx);
	errno = saved;
}

int common_write_full(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int common_check_output(const char *path, struct stat *st, common_err_fn err)
{
	if (lstat(path, st) != 0) {
		if (errno == ENOENT)
			return 0;
		err("%s: %s", path, strerror(errno));
		return -errno;
	}
	if (S_ISLNK(st->st_mode) && stat(path, st) != 0) {
		err("%s: a symbolic link to nothing (%s)", path, strerror(errno));
		return -EINVAL;
	}
	if (!S_ISREG(st->st_mode)) {
		err("%s: exists and is not a regular file: refusing to replace it",
		    path);
		return -EINVAL;
	}
	return 1;
}

int common_atomic_prepare(const char *path, const void *data, size_t len,
			  unsigned int mode, char **tmp_out, common_err_fn err)
{
	struct stat st;
	char *tmp;
	int fd, ret;

	*tmp_out = NULL;
	ret = common_check_output(path, &st, err);
	if (ret < 0)
		return ret;
	if (asprintf(&tmp, "%s.tmp.XXXXXX", path) < 0) {
		err("%s: out of memory", path);
		return -ENOMEM;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		err("%s: cannot create a file next to it: %s", path, strerror(errno));
		free(tmp);
		return ret;
	}
	ret = common_write_full(fd, data, len);
	if (!ret && fchmod(fd, mode))
		ret = -errno;
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (ret) {
		err("%s: cannot write: %s", path, strerror(-ret));
		unlink(tmp);
		free(tmp);
		return ret;
	}
	*tmp_out = tmp;
	return 0;
}

void common_sync_dir(const char *path)
{
	char *copy = strdup(path);
	int fd;

	if (!copy)
		return;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
	free(copy);
}

int common_atomic_commit(char *tmp, const char *path, common_err_fn err)
{
	int ret = 0;

	if (!tmp || !path)
		return -EINVAL;
	if (rename(tmp, path)) {
		ret = -errno;
		err("%s: cannot rename into place: %s", path, strerror(errno));
		unlink(tmp);
	} else {
		common_sync_dir(path);
	}
	free(tmp);
	return ret;
}

void common_atomic_abort(char *tmp)
{
	if (tmp) {
		unlink(tmp);
		free(tmp);
	}
}

int common_write_atomic(const char *path, const void *data, size_t len,
			unsigned int mode, common_err_fn err)
{
	char *tmp;
	int ret;

	ret = common_atomic_prepare(path, data, len, mode, &tmp, err);
	return ret ? ret : common_atomic_commit(tmp, path, err);
}

int common_open_input(int dirfd, const char *path, bool follow,
		      common_err_fn err)
{
	struct stat st;
	int fd, ret;

	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK |
		    (follow ? 0 : O_NOFOLLOW));
	if (fd < 0) {
		ret = -errno;
		err("%s: cannot open: %s", path, strerror(errno));
		return ret;
	}
	if (fstat(fd, &st)) {
		ret = -errno;
		err("%s: cannot stat: %s", path, strerror(errno));
		close(fd);
		return ret;
	}
	if (!S_ISREG(st.st_mode)) {
		err("%s: not a regular file", path);
		close(fd);
		return -EINVAL;
	}
	return fd;
}

void common_arm_alarm(unsigned int secs, void (*handler)(int))
{
	struct sigaction sa;
	sigset_t set;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	alarm(secs);
}

int common_read_upto(int fd, void *buf, size_t cap, size_t *got)
{
	uint8_t *p = buf;
	ssize_t n;

	*got = 0;
	while (*got < cap) {
		n = read(fd, p + *got, cap - *got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		*got += (size_t)n;
	}
	return 0;
}

void *common_memdup(const void *src, size_t n)
{
	void *p = malloc(n);

	if (p)
		memcpy(p, src, n);
	return p;
}

int common_memdup_out(uint8_t **dst, size_t *dst_len, const void *src,
		      size_t n)
{
	uint8_t *p = common_memdup(src, n);

	if (!p)
		return -ENOMEM;
	*dst = p;
	*dst_len = n;
	return 0;
}

void common_tss_quiet(void)
{
	setenv("TSS2_LOG", "all+none", 0);
}

void common_hex(const uint8_t *in, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * len] = '\0';
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int common_unhex(const char *in, size_t inlen, uint8_t *out, size_t len)
{
	size_t i;

	if (inlen != 2 * len)
		return -EBADMSG;
	for (i = 0; i < len; i++) {
		int hi = hexval(in[2 * i]), lo = hexval(in[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -EBADMSG;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

static int base64val(uint8_t c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

int common_unbase64(const char *s, size_t n, uint8_t *out, size_t cap,
		    size_t *len)
{
	size_t i, o = 0, pad = 0;

	if (!n || n % 4)
		return -EBADMSG;
	if (s[n - 1] == '=')
		pad = s[n - 2] == '=' ? 2 : 1;
	if ((n / 4) * 3 - pad > cap)
		return -EBADMSG;
	for (i = 0; i < n; i += 4) {
		int v[4], k;
		uint32_t w = 0;

		for (k = 0; k < 4; k++) {
			v[k] = i + (size_t)k >= n - pad ? 0 : base64val((uint8_t)s[i + k]);
			if (v[k] < 0)
				return -EBADMSG;
			w = w << 6 | (uint32_t)v[k];
		}
		out[o++] = (uint8_t)(w >> 16);
		if (i + 4 < n || pad < 2)
			out[o++] = (uint8_t)(w >> 8);
		if (i + 4 < n || pad < 1)
			out[o++] = (uint8_t)w;
		/* Padding bits must be zero: one encoding per signature. */
		if (i + 4 >= n && ((pad == 2 && (w & 0xffff)) ||
				   (pad == 1 && (w & 0xff))))
			return -EBADMSG;
	}
	*len = o;
	return 0;
}

/* The length of the valid UTF-8 sequence at @p (up to @end), or 0; its
 * code point in *@cp. */
static size_t utf8_len(const unsigned char *p, const unsigned char *end,
		       uint32_t *cp)
{
	size_t n, i;
	uint32_t c;

	if (*p >= 0xc2 && *p <= 0xdf) {
		n = 2;
		c = *p & 0x1f;
	} else if (*p >= 0xe0 && *p <= 0xef) {
		n = 3;
		c = *p & 0x0f;
	} else if (*p >= 0xf0 && *p <= 0xf4) {
		n = 4;
		c = *p & 0x07;
	} else {
		return 0;
	}
	if ((size_t)(end - p) < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;	/* overlong, out of range, a surrogate */
	*cp = c;
	return n;
}

/*
 * The length of the printable UTF-8 character at @p, or 0. Line and
 * paragraph separators, directional formatting characters, the BOM and
 * C1 controls are not printable here: each can make one line read as two
 * or reorder what follows.
 */
static size_t utf8_printable(const unsigned char *p, const unsigned char *end)
{
	uint32_t c = 0;
	size_t n = utf8_len(p, end, &c);

	if (!n || c < 0xa0 || c == 0x2028 || c == 0x2029 || c == 0x200e ||
	    c == 0x200f || (c >= 0x202a && c <= 0x202e) ||
	    (c >= 0x2066 && c <= 0x2069) || c == 0xfeff)
		return 0;
	return n;
}

size_t common_escape_name(char *out, size_t size, const char *name)
{
	const unsigned char *p = (const unsigned char *)name;
	const unsigned char *end = p + strlen(name);
	size_t len = 0;

	while (p < end) {
		char buf[5];
		const char *add = buf;
		size_t k, n = 1;

		if (*p >= 0x20 && *p < 0x7f && *p != '\\') {
			add = (const char *)p;	/* the byte itself */
			k = 1;
		} else if (*p == '\\') {
			add = "\\\\";
			k = 2;
		} else if (*p >= 0x07 && *p <= 0x0d) {
			static const char c_esc[] = "\\a\\b\\t\\n\\v\\f\\r";

			add = c_esc + 2 * (*p - 0x07);
			k = 2;
		} else if (*p >= 0x80 && (n = utf8_printable(p, end)) != 0) {
			add = (const char *)p;	/* a printable character, as it is */
			k = n;
		} else {
			n = 1;
			snprintf(buf, sizeof(buf), "\\%03o", *p);
			k = 4;
		}
		if (len + k < size)
			memcpy(out + len, add, k);
		else if (size)
			size = len + 1;	/* stop here: never a part of an escape */
		len += k;
		p += n;
	}
	if (size)
		out[len < size ? len : size - 1] = '\0';
	return len;
}

bool common_name_is_utf8(const char *name)
{
	const unsigned char *p = (const unsigned char *)name;
	const unsigned char *end = p + strlen(name);
	uint32_t c;

	while (p < end) {
		size_t n = *p < 0x80 ? 1 : utf8_len(p, end, &c);

		if (!n)
			return false;
		p += n;
	}
	return true;
}

void common_json_escaped(FILE *f, const char *text)
{
	fputc('"', f);
	for (; *text; text++) {
		if (*text == '"' || *text == '\\')
			fputc('\\', f);
		fputc(*text, f);
	}
	fputc('"', f);
}

/* A JSON string of @s's escaped text (common_escape_name()): valid for any bytes. */
void common_json_string(FILE *f, const char *s)
{
	size_t n = common_escape_name(NULL, 0, s);
	char *buf = malloc(n + 1);

	if (!buf) {
		fputs("\"?\"", f);
		return;
	}
	common_escape_name(buf, n + 1, s);
	common_json_escaped(f, buf);
	free(buf);
}
