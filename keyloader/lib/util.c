// SPDX-License-Identifier: GPL-2.0-only
/* util.c - error callback, bounded single reads, SHA-256. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/sha.h>

#include "common.h"
#include "kl.h"

static struct common_reporter reporter;

void kl_set_error_callback(kl_error_cb cb, void *ctx)
{
	reporter.cb = cb;
	reporter.ctx = ctx;
}

COMMON_DEFINE_ERR(kl_err, kl_err_ssl, reporter)

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

void kl_sha256(const void *data, size_t len, uint8_t out[KL_FP_LEN])
{
	SHA256(data, len, out);
}
