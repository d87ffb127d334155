// SPDX-License-Identifier: GPL-2.0-only
/* util.c - error callback, bounded single reads, atomic writes, hex, SHA-256. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

#include "kl.h"

static kl_error_cb error_cb;
static void *error_ctx;

void kl_set_error_callback(kl_error_cb cb, void *ctx)
{
	error_cb = cb;
	error_ctx = ctx;
}

static void __attribute__((format(printf, 2, 0)))
report(bool ssl, const char *fmt, va_list ap)
{
	int saved = errno;
	char msg[1024];
	int n;

	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof(msg))
		n = sizeof(msg) - 1;
	if (ssl) {
		unsigned long e, last = 0;

		while ((e = ERR_get_error()) != 0)
			last = e;
		if (last && (size_t)n < sizeof(msg) - 3) {
			const char *r = ERR_reason_error_string(last);

			snprintf(msg + n, sizeof(msg) - n, ": %s",
				 r ? r : "OpenSSL error");
		}
	} else {
		ERR_clear_error();
	}
	if (error_cb)
		error_cb(msg, error_ctx);
	errno = saved;
}

void kl_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(false, fmt, ap);
	va_end(ap);
}

void kl_err_ssl(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(true, fmt, ap);
	va_end(ap);
}

int kl_read_file(int dirfd, const char *path, size_t max, uint8_t **buf,
		 size_t *len)
{
	struct stat st;
	uint8_t *p = NULL;
	size_t got = 0;
	int fd, err;

	*buf = NULL;
	*len = 0;
	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY |
		    O_NONBLOCK);
	if (fd < 0) {
		err = -errno;
		kl_err("%s: cannot open: %s", path, strerror(errno));
		return err;
	}
	if (fstat(fd, &st)) {
		err = -errno;
		kl_err("%s: cannot stat: %s", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		err = -EINVAL;
		kl_err("%s: not a regular file", path);
		goto out;
	}
	if (st.st_size < 0 || (uint64_t)st.st_size > max) {
		err = -EFBIG;
		kl_err("%s: larger than %zu bytes", path, max);
		goto out;
	}
	/* The file may grow under us: read at most one byte past the size
	 * fstat() reported and refuse the file if that byte exists. */
	p = malloc((size_t)st.st_size + 2);
	if (!p) {
		err = -ENOMEM;
		kl_err("%s: out of memory", path);
		goto out;
	}
	for (;;) {
		ssize_t r = read(fd, p + got, (size_t)st.st_size + 1 - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = -errno;
			kl_err("%s: read error: %s", path, strerror(errno));
			goto out;
		}
		if (r == 0)
			break;
		got += r;
		if (got > (size_t)st.st_size) {
			err = -ESTALE;
			kl_err("%s: changed while being read", path);
			goto out;
		}
	}
	p[got] = '\0';
	*buf = p;
	*len = got;
	p = NULL;
	err = 0;
out:
	free(p);
	close(fd);
	return err;
}

static int write_all(int fd, const void *data, size_t len)
{
	const uint8_t *p = data;

	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		len -= w;
	}
	return 0;
}

int kl_write_prepare(const char *path, const void *data, size_t len,
		     unsigned int mode, char **tmp_out)
{
	char *tmp;
	int fd, err;

	*tmp_out = NULL;
	if (asprintf(&tmp, "%s.tmp.XXXXXX", path) < 0)
		return -ENOMEM;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		kl_err("%s: cannot create: %s", tmp, strerror(errno));
		free(tmp);
		return err;
	}
	err = write_all(fd, data, len);
	if (!err && fchmod(fd, mode))
		err = -errno;
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (err) {
		kl_err("%s: cannot write: %s", tmp, strerror(-err));
		unlink(tmp);
		free(tmp);
		return err;
	}
	*tmp_out = tmp;
	return 0;
}

int kl_write_commit(char *tmp, const char *path)
{
	char *dcopy;
	int dfd, err = 0;

	if (!tmp || !path)
		return -EINVAL;
	if (rename(tmp, path)) {
		err = -errno;
		kl_err("%s: cannot rename into place: %s", path,
		       strerror(errno));
		unlink(tmp);
	} else if ((dcopy = strdup(path))) {
		/* Make the rename itself durable. */
		dfd = open(dirname(dcopy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd >= 0) {
			fsync(dfd);
			close(dfd);
		}
		free(dcopy);
	}
	free(tmp);
	return err;
}

void kl_write_abort(char *tmp)
{
	if (tmp) {
		unlink(tmp);
		free(tmp);
	}
}

int kl_write_atomic(const char *path, const void *data, size_t len,
		    unsigned int mode)
{
	char *tmp;
	int err;

	err = kl_write_prepare(path, data, len, mode, &tmp);
	return err ? err : kl_write_commit(tmp, path);
}

void kl_sha256(const void *data, size_t len, uint8_t out[KL_FP_LEN])
{
	SHA256(data, len, out);
}

void kl_hex(const uint8_t *in, size_t len, char *out)
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

int kl_unhex(const char *in, size_t inlen, uint8_t *out, size_t len)
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
