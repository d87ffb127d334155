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

#include "common.h"
#include "lib_private.h"

static struct common_reporter reporter;

/* Keys are loaded by common/lib/key.c: its lines go where the library's go. */
void elfsig_set_error_callback(elfsig_error_cb cb, void *ctx)
{
	reporter.cb = cb;
	reporter.ctx = ctx;
	common_set_error_callback(cb, ctx);
}
COMMON_DEFINE_ERR(elfsig_err, elfsig_err_ssl, reporter)
/* Drop error lines while @on (nested calls count). */
COMMON_DEFINE_MUTE(elfsig_mute)

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
	int ret = common_write_full(fd, buf, len);

	if (ret)
		elfsig_err("%s: write failed: %s", name, strerror(-ret));
	return ret;
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
		ret = errno ? -errno : -EIO;
		elfsig_err("%s: %s", name, strerror(errno));
		return ret;
	}
	if (fstat(fd, st) != 0) {
		ret = errno ? -errno : -EIO;
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

/* common_check_output(), reported through the library's callback. */
int elfsig_check_output(const char *path, struct stat *st)
{
	return common_check_output(path, st, elfsig_err);
}

/* Read a whole file of at most @max bytes (signatures, certificates). */
int elfsig_read_small_file(const char *path, size_t max, uint8_t **out,
			   size_t *len)
{
	struct stat st = { 0 };	/* fstat() fills it; the analyser cannot tell */
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
	return common_write_atomic(path, buf, len, 0644, elfsig_err);
}

int elfsig_read_file(const char *path, size_t max, uint8_t **out, size_t *len)
{
	return elfsig_read_small_file(path, max, out, len);
}
