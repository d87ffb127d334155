// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * util.c - error reporting, full reads and writes, range arithmetic.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/err.h>

#include "lib_private.h"

static elfsig_error_cb error_cb;
static void *error_ctx;

void elfsig_set_error_callback(elfsig_error_cb cb, void *ctx)
{
	error_cb = cb;
	error_ctx = ctx;
}

__attribute__((format(printf, 1, 0)))
static void report(const char *fmt, va_list ap, bool ssl)
{
	int saved = errno;
	char msg[1024];
	int n;

	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	if (n < 0)
		n = 0;
	if (ssl) {
		/* Keep one line: append the most specific OpenSSL reason. */
		unsigned long e, last = 0;

		while ((e = ERR_get_error()) != 0)
			last = e;
		if (last && (size_t)n < sizeof(msg) - 3) {
			const char *r = ERR_reason_error_string(last);
			char buf[256];

			if (!r) {
				ERR_error_string_n(last, buf, sizeof(buf));
				r = buf;
			}
			snprintf(msg + n, sizeof(msg) - n, ": %s", r);
		}
	}
	if (error_cb)
		error_cb(msg, error_ctx);
	errno = saved;
}

void elfsig_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(fmt, ap, false);
	va_end(ap);
}

void elfsig_err_ssl(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(fmt, ap, true);
	va_end(ap);
}

/* Read exactly @len bytes at @off; a short file is malformed input. */
int elfsig_pread_full(int fd, void *buf, size_t len, uint64_t off,
		      const char *name)
{
	uint8_t *p = buf;

	if (off > (uint64_t)INT64_MAX || len > (uint64_t)INT64_MAX - off) {
		elfsig_err("%s: read offset out of range", name);
		return -EBADMSG;
	}
	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			elfsig_err("%s: read failed: %s", name, strerror(errno));
			return (int)n;
		}
		if (n == 0) {
			elfsig_err("%s: file shrank while being read", name);
			return -EBADMSG;
		}
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

int elfsig_write_full(int fd, const void *buf, size_t len, const char *name)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			elfsig_err("%s: write failed: %s", name, strerror(errno));
			return (int)n;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Read a whole file of at most @max bytes (signatures, certificates). */
int elfsig_read_small_file(const char *path, size_t max, uint8_t **out,
			   size_t *len)
{
	struct stat st;
	uint8_t *buf;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		elfsig_err("%s: %s", path, strerror(errno));
		return ret;
	}
	if (fstat(fd, &st) != 0) {
		ret = -errno;
		elfsig_err("%s: %s", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		elfsig_err("%s: not a regular file", path);
		ret = -EINVAL;
		goto out;
	}
	if (st.st_size <= 0 || (uint64_t)st.st_size > max) {
		elfsig_err("%s: size %lld is not between 1 and %zu bytes", path,
			   (long long)st.st_size, max);
		ret = -EBADMSG;
		goto out;
	}
	buf = malloc((size_t)st.st_size);
	if (!buf) {
		ret = -ENOMEM;
		elfsig_err("%s: out of memory", path);
		goto out;
	}
	ret = elfsig_pread_full(fd, buf, (size_t)st.st_size, 0, path);
	if (ret) {
		free(buf);
		goto out;
	}
	*out = buf;
	*len = (size_t)st.st_size;
out:
	close(fd);
	return ret;
}

/* Is [off, off + len) inside [0, limit)? Overflow-safe. */
bool elfsig_range_ok(uint64_t off, uint64_t len, uint64_t limit)
{
	return off <= limit && len <= limit - off;
}

/* Do [a, a + alen) and [b, b + blen) share a byte? Both ranges are valid. */
bool elfsig_ranges_overlap(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	if (!alen || !blen)
		return false;
	return a < b + blen && b < a + alen;
}

const char *elfsig_basename(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}
