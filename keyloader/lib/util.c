// SPDX-License-Identifier: GPL-2.0-only
/* util.c - error callback, bounded single reads, SHA-256. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/sha.h>

#include "common.h"
#include "kl_util.h"

COMMON_DEFINE_REPORTER(kl_set_error_callback, kl_error_cb, kl_err, kl_err_ssl)

static kl_note_cb note_cb;
static void *note_ctx;

void kl_set_note_callback(kl_note_cb cb, void *ctx)
{
	note_cb = cb;
	note_ctx = ctx;
}

void kl_note(const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;
	int n;

	if (!note_cb)
		return;
	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n >= 0)
		note_cb(msg, note_ctx);
	free(msg);
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
	fd = common_open_input(dirfd, path, false, kl_err);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st)) {
		err = -errno;
		kl_err("%s: cannot stat: %s", path, strerror(errno));
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
	err = common_read_upto(fd, p, (size_t)st.st_size + 1, &got);
	if (err) {
		kl_err("%s: read error: %s", path, strerror(-err));
		goto out;
	}
	if (got > (size_t)st.st_size) {
		err = -ESTALE;
		kl_err("%s: changed while being read", path);
		goto out;
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

int kl_sha256(const void *data, size_t len, uint8_t out[KL_FP_LEN])
{
	if (!SHA256(data, len, out)) {
		kl_err_ssl("cannot compute a SHA-256 digest");
		return -EIO;
	}
	return 0;
}

int kl_text_line(const uint8_t *buf, size_t len, size_t *pos, size_t *lineno,
		 const char *name, char *line, size_t max)
{
	const uint8_t *nl;
	size_t l, i;

	if (*pos >= len)
		return 0;
	nl = memchr(buf + *pos, '\n', len - *pos);
	l = nl ? (size_t)(nl - (buf + *pos)) : len - *pos;
	++*lineno;
	if (l > max) {
		kl_err("%s:%zu: line longer than %zu bytes", name, *lineno, max);
		return -EBADMSG;
	}
	memcpy(line, buf + *pos, l);
	line[l] = '\0';
	*pos += l + (nl ? 1 : 0);
	for (i = 0; i < l; i++) {
		unsigned char c = (unsigned char)line[i];

		if ((c < 0x20 && c != '\t') || c == 0x7f) {
			kl_err("%s:%zu: control character 0x%02x", name,
			       *lineno, c);
			return -EBADMSG;
		}
	}
	return 1;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

int kl_text_directive(const uint8_t *buf, size_t len, size_t *pos,
		      size_t *lineno, const char *name, char *line, size_t max,
		      char **word, char **value)
{
	int ret;

	while ((ret = kl_text_line(buf, len, pos, lineno, name, line, max)) > 0) {
		if (line[0] == '#')
			continue;
		kl_split_directive(line, word, value);
		if (**word)
			break;
	}
	return ret;
}

void kl_split_directive(char *line, char **word, char **value)
{
	char *p = line, *end;

	*word = p;
	while (*p && !is_blank(*p))
		p++;
	if (*p)
		*p++ = '\0';
	while (is_blank(*p))
		p++;
	*value = p;
	end = p + strlen(p);
	while (end > p && is_blank(end[-1]))
		*--end = '\0';
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void kl_names_free(char **names, size_t n)
{
	size_t i;

	if (!names)
		return;
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int kl_dir_list(const char *dir, const char *what, size_t max, int *dfd_out,
		char ***out, size_t *nout)
{
	char **names = NULL;
	size_t n = 0;
	struct dirent *de;
	DIR *d;
	int dfd, err = 0;

	*out = NULL;
	*nout = 0;
	*dfd_out = -1;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		err = -errno;
		kl_err("%s: cannot open %s: %s", dir, what, strerror(errno));
		return err;
	}
	d = fdopendir(dup(dfd));
	if (!d) {
		err = -errno;
		close(dfd);
		return err;
	}
	while ((errno = 0, de = readdir(d))) {
		char **nn;

		if (de->d_name[0] == '.')
			continue;
		if (n >= max) {
			kl_err("%s: more than %zu files", dir, max);
			err = -E2BIG;
			goto out;
		}
		nn = realloc(names, (n + 1) * sizeof(*names));
		if (!nn) {
			err = -ENOMEM;
			goto out;
		}
		names = nn;
		names[n] = strdup(de->d_name);
		if (!names[n]) {
			err = -ENOMEM;
			goto out;
		}
		n++;
	}
	if (errno) {
		err = -errno;
		kl_err("%s: cannot read directory: %s", dir, strerror(errno));
		goto out;
	}
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
out:
	closedir(d);
	if (err) {
		kl_names_free(names, n);
		close(dfd);
		return err;
	}
	*out = names;
	*nout = n;
	*dfd_out = dfd;
	return 0;
}

int kl_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s || (s[0] == '0' && s[1]))
		return -EBADMSG;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' ||
		    v > (max - (uint64_t)(*s - '0')) / 10)
			return -EBADMSG;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

int kl_read_dir_file(const char *dir, const char *name, size_t max,
		     char path[PATH_MAX], uint8_t **buf, size_t *len)
{
	if ((size_t)snprintf(path, PATH_MAX, "%s/%s", dir, name) >= PATH_MAX) {
		kl_err("%s/%s: path too long", dir, name);
		return -ENAMETOOLONG;
	}
	return kl_read_file(AT_FDCWD, path, max, buf, len);
}

int kl_parse_srk_name(const char *s, uint8_t out[ELFSIG_TPM_MAX_NAME],
		      size_t *len)
{
	size_t n = strlen(s) / 2;

	/* A SHA-256 TPM name: the algorithm (2 bytes) and the digest. */
	if (n != 2 + KL_FP_LEN || common_unhex(s, strlen(s), out, n) ||
	    out[0] != 0x00 || out[1] != 0x0b)
		return -EBADMSG;
	*len = n;
	return 0;
}

int kl_check_machine(const char *path, const uint8_t *name, size_t name_len,
		     const uint8_t *srk, size_t srk_len)
{
	if (name_len && name_len == srk_len && !memcmp(name, srk, srk_len))
		return 0;
	kl_err("%s: signed for another machine (its srk line names another TPM storage root key than this enrolment's)",
	       path);
	return -EBADE;
}

const char *kl_exit_word(int status)
{
	static const char *const word[] = {
		[KL_EXIT_OK] = "ok", [KL_EXIT_PARTIAL] = "partial",
		[KL_EXIT_USAGE] = "usage", [KL_EXIT_INPUT] = "bad-input",
		[KL_EXIT_TPM] = "tpm-error", [KL_EXIT_UNSEAL] = "pcr-mismatch",
		[KL_EXIT_POLICY] = "policy-mismatch",
		[KL_EXIT_KEYRING] = "keyring-error",
		[KL_EXIT_UNLOCKED] = "unlocked",
		[KL_EXIT_MEASURE] = "measure-error",
		[KL_EXIT_TIMEOUT] = "timeout", [KL_EXIT_SRK] = "srk-mismatch",
		[KL_EXIT_FOREIGN] = "foreign-keys",
		[KL_EXIT_ROLLBACK] = "rollback",
	};

	return status >= 0 && (size_t)status < ARRAY_SIZE(word) && word[status] ?
	       word[status] : "?";
}
