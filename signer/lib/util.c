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

/*
 * Open @path for reading only if it is a regular file. O_NONBLOCK keeps a
 * FIFO or a device from blocking the open; the type is then checked on the
 * descriptor itself, so nothing can be swapped in between.
 * Return: the descriptor (and *@st filled), or a negative errno; a file of
 * another type gives @not_reg.
 */
int elfsig_open_regular(const char *path, const char *name, struct stat *st,
			int not_reg)
{
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		ret = -errno;
		elfsig_err("%s: %s", name, strerror(errno));
		return ret;
	}
	if (fstat(fd, st) != 0) {
		ret = -errno;
		elfsig_err("%s: %s", name, strerror(errno));
		close(fd);
		return ret;
	}
	if (!S_ISREG(st->st_mode)) {
		elfsig_err("%s: not a regular file", name);
		close(fd);
		return not_reg;
	}
	return fd;
}

/*
 * An output path may name nothing yet or a regular file (through symbolic
 * links); never a device, FIFO, socket or directory, which a rename would
 * replace (as root, "-o /dev/null" would replace /dev/null).
 * Return: 0 if @path does not exist, 1 if it is a regular file (*@st
 * filled), or a negative errno.
 */
int elfsig_check_output(const char *path, struct stat *st)
{
	if (lstat(path, st) != 0) {
		if (errno == ENOENT)
			return 0;
		elfsig_err("%s: %s", path, strerror(errno));
		return -errno;
	}
	if (S_ISLNK(st->st_mode) && stat(path, st) != 0) {
		elfsig_err("%s: a symbolic link to nothing (%s)", path,
			   strerror(errno));
		return -EINVAL;
	}
	if (!S_ISREG(st->st_mode)) {
		elfsig_err("%s: exists and is not a regular file: refusing to replace it",
			   path);
		return -EINVAL;
	}
	return 1;
}

/* Read a whole file of at most @max bytes (signatures, certificates). */
int elfsig_read_small_file(const char *path, size_t max, uint8_t **out,
			   size_t *len)
{
	struct stat st;
	uint8_t *buf;
	int fd, ret;

	fd = elfsig_open_regular(path, path, &st, -EINVAL);
	if (fd < 0)
		return fd;
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

int elfsig_write_file(const char *path, const void *buf, size_t len)
{
	struct elfsig_pending pend;
	struct stat st;
	int ret;

	ret = elfsig_check_output(path, &st);
	if (ret < 0)
		return ret;
	ret = elfsig_pending_create(path, path, &pend);
	if (ret)
		return ret;
	ret = elfsig_write_full(pend.fd, buf, len, path);
	if (!ret && fchmod(pend.fd, 0644) != 0) {
		ret = -errno;
		elfsig_err("%s: %s", path, strerror(errno));
	}
	if (ret) {
		elfsig_pending_abort(&pend);
		return ret;
	}
	return elfsig_pending_commit(&pend, true);
}

int elfsig_read_file(const char *path, size_t max, uint8_t **out, size_t *len)
{
	return elfsig_read_small_file(path, max, out, len);
}
