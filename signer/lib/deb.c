// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * deb.c - sign every ELF file of a Debian package: the ar archive is
 * rewritten with its data.tar's ELF members signed and control.tar's
 * md5sums updated to match; every other byte of both tar streams (headers,
 * modes, owners, other members, their order) is kept, and each stream is
 * compressed again with its own compressor (gzip, xz, zstd or none).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "common.h"
#include "elfsig/elfsig.h"
#include "lib_private.h"

extern char **environ;

/* Bounds on what a package may make us hold in memory. */
#define DEB_MAX_FILE	(1ull << 31)	/* the .deb itself */
#define DEB_MAX_TAR	(1ull << 32)	/* one decompressed tar stream */
#define TAR_BLOCK	512
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct ar_member {
	const uint8_t *hdr;	/* its 60-byte header in the input */
	const uint8_t *data;
	size_t size;
	char name[17];
	uint8_t *new_data;	/* the rewritten member, or NULL: unchanged */
	size_t new_size;
};

struct deb {
	const char *name;	/* for messages */
	char tmpdir[PATH_MAX];
	struct ar_member m[8];
	size_t n;
	int control, data;	/* indexes into m */
	struct elfsig_deb_stats *stats;
	/* the signed files: path (no "./") and new MD5 */
	struct deb_signed {
		char *path;
		char *link_of;	/* a hard link: the path it names */
		uint8_t md5[16];
	} *signed_files;
	size_t nsigned, cap;
};

static const struct compressor {
	const char *suffix;
	const char *const dec[4];
	const char *const enc[4];
} compressors[] = {
	{ "", { NULL }, { NULL } },
	{ ".gz", { "gzip", "-dc", NULL }, { "gzip", "-9nc", NULL } },
	{ ".xz", { "xz", "-dc", NULL }, { "xz", "-c", NULL } },
	{ ".zst", { "zstd", "-dcq", NULL }, { "zstd", "-qc", NULL } },
};

static const struct compressor *compressor_of(const char *member,
					      const char *stem)
{
	size_t i, n = strlen(stem);

	if (strncmp(member, stem, n))
		return NULL;
	for (i = 0; i < ARRAY_SIZE(compressors); i++)
		if (!strcmp(member + n, compressors[i].suffix))
			return &compressors[i];
	return NULL;
}

/* ---- ar ---- */

static int parse_decimal(const uint8_t *p, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;

	while (i < n && p[i] >= '0' && p[i] <= '9') {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(p[i++] - '0');
	}
	if (i == 0)
		return -1;
	while (i < n && p[i] == ' ')
		i++;
	if (i != n)
		return -1;
	*out = v;
	return 0;
}

static int ar_parse(struct deb *d, const uint8_t *buf, size_t len)
{
	size_t off = 8;
	int i;

	if (len < 8 || memcmp(buf, "!<arch>\n", 8)) {
		elfsig_err("%s: not a Debian package (no ar archive)", d->name);
		return -EBADMSG;
	}
	d->control = d->data = -1;
	while (off < len) {
		struct ar_member *m;
		uint64_t size;

		if (d->n == ARRAY_SIZE(d->m)) {
			elfsig_err("%s: more than %zu archive members", d->name,
				   ARRAY_SIZE(d->m));
			return -EBADMSG;
		}
		m = &d->m[d->n];
		if (len - off < 60 || buf[off + 58] != '`' || buf[off + 59] != '\n' ||
		    parse_decimal(buf + off + 48, 10, &size) ||
		    size > len - off - 60) {
			elfsig_err("%s: archive member %zu: malformed or truncated header",
				   d->name, d->n + 1);
			return -EBADMSG;
		}
		m->hdr = buf + off;
		m->data = buf + off + 60;
		m->size = (size_t)size;
		memcpy(m->name, m->hdr, 16);
		m->name[16] = 0;
		for (i = 15; i >= 0 && (m->name[i] == ' ' || m->name[i] == '/'); i--)
			m->name[i] = 0;
		off += 60 + m->size + (m->size & 1);
		if (d->n == 0 && (strcmp(m->name, "debian-binary") ||
				  m->size < 4 || memcmp(m->data, "2.", 2))) {
			elfsig_err("%s: not a Debian package (no debian-binary 2.x first)",
				   d->name);
			return -EBADMSG;
		}
		if (compressor_of(m->name, "control.tar")) {
			if (d->control >= 0 || d->n != 1)
				goto order;
			d->control = (int)d->n;
		} else if (compressor_of(m->name, "data.tar")) {
			if (d->data >= 0 || d->control < 0)
				goto order;
			d->data = (int)d->n;
		} else if (d->n && m->name[0] != '_') {
			/* dpkg ignores only members named _*. */
			elfsig_err("%s: unknown archive member '%s'", d->name, m->name);
			return -EBADMSG;
		}
		d->n++;
	}
	if (off > len + 1 || d->control < 0 || d->data < 0) {
		elfsig_err("%s: not a Debian package (control.tar and data.tar expected)",
			   d->name);
		return -EBADMSG;
	}
	return 0;
order:
	elfsig_err("%s: archive member '%s' out of place", d->name, d->m[d->n].name);
	return -EBADMSG;
}

/* ---- external compressors, through files in our temporary directory ---- */

static int tmp_path(struct deb *d, char *buf, size_t n, const char *leaf)
{
	if ((size_t)snprintf(buf, n, "%s/%s", d->tmpdir, leaf) >= n)
		return -ENAMETOOLONG;
	return 0;
}

static int run_filter(struct deb *d, const char *const argv[], const char *in,
		      const char *out)
{
	posix_spawn_file_actions_t fa;
	char err[PATH_MAX];
	pid_t pid;
	int ret, status;

	if (posix_spawn_file_actions_init(&fa))
		return -ENOMEM;
	ret = tmp_path(d, err, sizeof(err), "err");
	if (!ret)
		ret = posix_spawn_file_actions_addopen(&fa, 0, in, O_RDONLY, 0) ||
		      posix_spawn_file_actions_addopen(&fa, 1, out,
						       O_WRONLY | O_CREAT | O_TRUNC, 0600) ||
		      posix_spawn_file_actions_addopen(&fa, 2, err,
						       O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (!ret)
		ret = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv,
				   environ);
	posix_spawn_file_actions_destroy(&fa);
	if (ret) {
		elfsig_err("%s: cannot run %s: %s", d->name, argv[0], strerror(ret));
		return -ENOENT;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		/* Its first line of complaint goes into ours. */
		char why[160] = "";
		FILE *f = fopen(err, "re");

		if (f) {
			if (fgets(why, sizeof(why), f))
				why[strcspn(why, "\n")] = 0;
			fclose(f);
		}
		unlink(err);
		elfsig_err("%s: %s %s failed (status %d)%s%s", d->name, argv[0],
			   argv[1], WIFEXITED(status) ? WEXITSTATUS(status) : -1,
			   why[0] ? ": " : "", why);
		return -EBADMSG;
	}
	unlink(err);
	return 0;
}

/* Write @len bytes to the temporary file @leaf. */
static int tmp_write(struct deb *d, const char *leaf, const void *buf, size_t len)
{
	char path[PATH_MAX];
	int fd, ret;

	ret = tmp_path(d, path, sizeof(path), leaf);
	if (ret)
		return ret;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = -errno;
		elfsig_err("%s: %s: %s", d->name, path, strerror(-ret));
		return ret;
	}
	ret = elfsig_write_full(fd, buf, len, path);
	close(fd);
	return ret;
}

/* Decompress (or compress, @enc) a member's bytes through its program. */
static int filter(struct deb *d, const struct compressor *c, bool enc,
		  const uint8_t *in, size_t inlen, uint8_t **out, size_t *outlen)
{
	char ipath[PATH_MAX], opath[PATH_MAX];
	int ret;

	if (!c->dec[0]) {	/* uncompressed */
		*out = common_memdup(in, inlen ? inlen : 1);
		*outlen = inlen;
		return *out ? 0 : -ENOMEM;
	}
	ret = tmp_path(d, ipath, sizeof(ipath), "in");
	if (!ret)
		ret = tmp_path(d, opath, sizeof(opath), "out");
	if (!ret)
		ret = tmp_write(d, "in", in, inlen);
	if (!ret)
		ret = run_filter(d, enc ? c->enc : c->dec, ipath, opath);
	if (!ret)
		ret = elfsig_read_small_file(opath, DEB_MAX_TAR, out, outlen);
	unlink(ipath);
	unlink(opath);
	return ret;
}

/* ---- tar ---- */

struct tar_entry {
	size_t hdr;		/* offset of its (last) header block */
	size_t data;		/* offset of its content */
	uint64_t size;
	char type;
	char path[PATH_MAX];	/* without a leading "./" */
	char link[PATH_MAX];	/* a hard link's target */
};

static int tar_number(const uint8_t *p, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;

	if (p[0] & 0x80) {	/* GNU base-256 */
		if (p[0] != 0x80)
			return -1;
		for (i = 1; i < n; i++) {
			if (v >> 56)
				return -1;
			v = v << 8 | p[i];
		}
		*out = v;
		return 0;
	}
	while (i < n && p[i] == ' ')
		i++;
	for (; i < n && p[i] >= '0' && p[i] <= '7'; i++) {
		if (v >> 60)
			return -1;
		v = v << 3 | (uint64_t)(p[i] - '0');
	}
	if (i < n && p[i] != 0 && p[i] != ' ')
		return -1;
	*out = v;
	return 0;
}

static bool tar_checksum_ok(const uint8_t *h)
{
	uint64_t want;
	unsigned long sum = 0;
	int i;

	if (tar_number(h + 148, 8, &want))
		return false;
	for (i = 0; i < TAR_BLOCK; i++)
		sum += (i >= 148 && i < 156) ? ' ' : h[i];
	return sum == want;
}

static void tar_set_checksum(uint8_t *h)
{
	unsigned long sum = 0;
	int i;

	memset(h + 148, ' ', 8);
	for (i = 0; i < TAR_BLOCK; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06lo", sum);
	h[155] = ' ';
}

static int tar_set_size(uint8_t *h, uint64_t size)
{
	int i;

	if (size < (1ull << 33)) {
		char tmp[13];

		snprintf(tmp, sizeof(tmp), "%011llo", (unsigned long long)size);
		memcpy(h + 124, tmp, 12);
	} else {
		h[124] = 0x80;
		for (i = 11; i >= 1; i--, size >>= 8)
			h[124 + i] = (uint8_t)size;
	}
	tar_set_checksum(h);
	return 0;
}

/* @src without a leading "./" or "/" into @dst (which may be @src). */
static void strip_dot(char *dst, const char *src, size_t n)
{
	size_t len;

	while (src[0] == '.' && src[1] == '/')
		src += 2;
	while (src[0] == '/')
		src++;
	len = strnlen(src, n - 1);
	memmove(dst, src, len);
	dst[len] = 0;
}

/*
 * The next entry at *@off of a @len-byte tar stream; 1 at its end (two
 * zero blocks or the stream's end), 0 with @e set, or -EBADMSG.
 */
static int tar_next(struct deb *d, const char *what, const uint8_t *t,
		    size_t len, size_t *off, struct tar_entry *e)
{
	char longname[PATH_MAX] = "", longlink[PATH_MAX] = "", name[257];

	for (;;) {
		const uint8_t *h;
		uint64_t size;
		size_t n;

		if (len - *off < TAR_BLOCK)
			return 1;
		h = t + *off;
		for (n = 0; n < TAR_BLOCK && !h[n]; n++)
			;
		if (n == TAR_BLOCK)
			return 1;
		if (!tar_checksum_ok(h) || tar_number(h + 124, 12, &size) ||
		    size > len - *off - TAR_BLOCK) {
			elfsig_err("%s: %s: malformed tar header at offset %zu",
				   d->name, what, *off);
			return -EBADMSG;
		}
		e->hdr = *off;
		e->data = *off + TAR_BLOCK;
		e->size = size;
		e->type = (char)h[156];
		*off += TAR_BLOCK + (size_t)((size + TAR_BLOCK - 1) & ~(uint64_t)(TAR_BLOCK - 1));
		if (*off > len)
			*off = len;
		if (e->type == 'L' || e->type == 'K') {	/* GNU long name, link */
			char *dst = e->type == 'L' ? longname : longlink;

			if (size == 0 || size >= PATH_MAX) {
				elfsig_err("%s: %s: long name of %llu bytes", d->name,
					   what, (unsigned long long)size);
				return -EBADMSG;
			}
			memcpy(dst, t + e->data, (size_t)size);
			dst[size] = 0;
			continue;
		}
		if (e->type == 'x' || e->type == 'g' || e->type == 'S') {
			/* pax records could change a size or a path. */
			elfsig_err("%s: %s: pax or sparse tar member at offset %zu: not supported",
				   d->name, what, e->hdr);
			return -EBADMSG;
		}
		if (longname[0]) {
			strip_dot(e->path, longname, sizeof(e->path));
		} else {
			/* ustar: prefix (155 at 345) "/" name (100) */
			if (!memcmp(h + 257, "ustar", 5) && h[345])
				snprintf(name, sizeof(name), "%.155s/%.100s",
					 (const char *)h + 345, (const char *)h);
			else
				snprintf(name, sizeof(name), "%.100s", (const char *)h);
			strip_dot(e->path, name, sizeof(e->path));
		}
		if (longlink[0])
			strip_dot(e->link, longlink, sizeof(e->link));
		else {
			snprintf(name, sizeof(name), "%.100s", (const char *)h + 157);
			strip_dot(e->link, name, sizeof(e->link));
		}
		return 0;
	}
}

/* ---- the ELF members ---- */

/* ET_EXEC or ET_DYN with program headers: what sign --tree signs. */
static bool want_signed(const uint8_t *p, uint64_t size)
{
	uint16_t type, phnum;
	bool le;

	if (size < 64 || memcmp(p, "\177ELF", 4) || (p[4] != 1 && p[4] != 2) ||
	    (p[5] != 1 && p[5] != 2))
		return false;
	le = p[5] == 1;
	type = le ? (uint16_t)(p[16] | p[17] << 8) : (uint16_t)(p[16] << 8 | p[17]);
	if (p[4] == 1)
		phnum = le ? (uint16_t)(p[44] | p[45] << 8) : (uint16_t)(p[44] << 8 | p[45]);
	else
		phnum = le ? (uint16_t)(p[56] | p[57] << 8) : (uint16_t)(p[56] << 8 | p[57]);
	return (type == 2 || type == 3) && phnum > 0;
}

static int record(struct deb *d, const char *path, const char *link_of,
		  const uint8_t *buf, size_t len)
{
	struct deb_signed *s;

	if (d->nsigned == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 64;
		void *p = realloc(d->signed_files, cap * sizeof(*s));

		if (!p)
			return -ENOMEM;
		d->signed_files = p;
		d->cap = cap;
	}
	s = &d->signed_files[d->nsigned];
	memset(s, 0, sizeof(*s));
	s->path = strdup(path);
	s->link_of = link_of ? strdup(link_of) : NULL;
	if (!s->path || (link_of && !s->link_of)) {
		free(s->path);
		free(s->link_of);
		return -ENOMEM;
	}
	if (buf && !EVP_Digest(buf, len, s->md5, NULL, EVP_md5(), NULL)) {
		elfsig_err_ssl("%s: MD5", d->name);
		free(s->path);
		free(s->link_of);
		return -EIO;
	}
	d->nsigned++;
	return 0;
}

static const struct deb_signed *find_signed(const struct deb *d, const char *path)
{
	size_t i;

	for (i = 0; i < d->nsigned; i++)
		if (!strcmp(d->signed_files[i].path, path))
			return &d->signed_files[i];
	return NULL;
}

/* Sign one member's bytes through a file of our temporary directory. */
static int sign_member(struct deb *d, const struct elfsig_signer *signer,
		       const struct tar_entry *e, const uint8_t *content,
		       uint8_t **out, size_t *outlen)
{
	const char *leaf = strrchr(e->path, '/') ? strrchr(e->path, '/') + 1 : e->path;
	char path[PATH_MAX];
	int ret;

	/* Named as the member, so that the library's line names it too. */
	if (!*leaf || strlen(leaf) > NAME_MAX || !strncmp(leaf, ".elfsig", 7) ||
	    !strcmp(leaf, "in") || !strcmp(leaf, "out") || !strcmp(leaf, "err"))
		leaf = "elf";
	ret = tmp_path(d, path, sizeof(path), leaf);
	if (!ret)
		ret = tmp_write(d, leaf, content, (size_t)e->size);
	if (!ret)
		ret = elfsig_sign_file(signer, path, NULL, 0);
	if (!ret)
		ret = elfsig_read_small_file(path, DEB_MAX_TAR, out, outlen);
	unlink(path);
	return ret;
}

static int buf_append(uint8_t **buf, size_t *len, size_t *cap, const void *p,
		      size_t n)
{
	if (!n)
		return 0;
	if (n > *cap - *len) {
		size_t c = *cap ? *cap : 1 << 20;
		void *q;

		while (c - *len < n) {
			if (c > SIZE_MAX / 2)
				return -ENOMEM;
			c *= 2;
		}
		q = realloc(*buf, c);
		if (!q)
			return -ENOMEM;
		*buf = q;
		*cap = c;
	}
	memcpy(*buf + *len, p, n);
	*len += n;
	return 0;
}

/* data.tar: every ELF member signed, every other byte kept. */
static int rewrite_data(struct deb *d, const struct elfsig_signer *signer,
			const uint8_t *t, size_t len, uint8_t **out, size_t *outlen)
{
	static const uint8_t zero[TAR_BLOCK];
	uint8_t *o = NULL, *sig = NULL;
	size_t olen = 0, cap = 0, off = 0, prev = 0, siglen;
	struct tar_entry e;
	int ret;

	while ((ret = tar_next(d, "data.tar", t, len, &off, &e)) == 0) {
		const uint8_t *content = t + e.data;

		if (e.type == '1' && find_signed(d, e.link)) {
			ret = record(d, e.path, e.link, NULL, 0);
			if (ret)
				goto fail;
			d->stats->hard_links++;
		}
		/* Detached debug symbols are ELF files nothing executes. */
		if ((e.type != '0' && e.type != 0 && e.type != '7') ||
		    !strncmp(e.path, "usr/lib/debug/", 14) ||
		    !want_signed(content, e.size)) {
			if (e.type == '0' || e.type == 0 || e.type == '7')
				d->stats->other_files++;
			continue;
		}
		/* Everything up to this member's header block, then the header. */
		ret = buf_append(&o, &olen, &cap, t + prev, e.hdr - prev);
		if (!ret)
			ret = sign_member(d, signer, &e, content, &sig, &siglen);
		if (!ret)
			ret = buf_append(&o, &olen, &cap, t + e.hdr, TAR_BLOCK);
		if (!ret)
			ret = tar_set_size(o + olen - TAR_BLOCK, siglen);
		if (!ret)
			ret = buf_append(&o, &olen, &cap, sig, siglen);
		if (!ret && siglen % TAR_BLOCK)
			ret = buf_append(&o, &olen, &cap, zero,
					 TAR_BLOCK - siglen % TAR_BLOCK);
		if (!ret)
			ret = record(d, e.path, NULL, sig, siglen);
		free(sig);
		sig = NULL;
		if (ret)
			goto fail;
		d->stats->signed_files++;
		prev = off;
	}
	if (ret < 0)
		goto fail;
	ret = buf_append(&o, &olen, &cap, t + prev, len - prev);
	if (ret)
		goto fail;
	*out = o;
	*outlen = olen;
	return 0;
fail:
	free(o);
	return ret;
}

/* control.tar: the md5sums lines of the signed files, everything else kept. */
static int rewrite_control(struct deb *d, uint8_t *t, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t off = 0, updated = 0;
	struct tar_entry e;
	int ret;

	while ((ret = tar_next(d, "control.tar", t, len, &off, &e)) == 0) {
		char *p, *end;

		if (strcmp(e.path, "md5sums") || (e.type != '0' && e.type != 0))
			continue;
		p = (char *)t + e.data;
		end = p + e.size;
		/* "<32 hex>  path\n": same length before and after. */
		while (p < end) {
			char *nl = memchr(p, '\n', (size_t)(end - p));
			char path[PATH_MAX];
			const struct deb_signed *s;
			size_t n = (size_t)((nl ? nl : end) - p);
			int i;

			if (n < 35 || p[32] != ' ' || p[33] != ' ' || n - 34 >= PATH_MAX) {
				elfsig_err("%s: control.tar: md5sums: malformed line", d->name);
				return -EBADMSG;
			}
			memcpy(path, p + 34, n - 34);
			path[n - 34] = 0;
			strip_dot(path, path, sizeof(path));
			s = find_signed(d, path);
			if (s && s->link_of)
				s = find_signed(d, s->link_of);
			if (s) {
				for (i = 0; i < 16; i++) {
					p[2 * i] = hex[s->md5[i] >> 4];
					p[2 * i + 1] = hex[s->md5[i] & 15];
				}
				updated++;
			}
			p += n + 1;
		}
	}
	if (ret < 0)
		return ret;
	d->stats->md5sums_updated = updated;
	return 0;
}

/* ---- the package ---- */

static int ar_write(struct deb *d, uint8_t **out, size_t *outlen)
{
	uint8_t *o = NULL;
	size_t olen = 0, cap = 0, i;
	int ret;

	ret = buf_append(&o, &olen, &cap, "!<arch>\n", 8);
	for (i = 0; !ret && i < d->n; i++) {
		const struct ar_member *m = &d->m[i];
		const uint8_t *data = m->new_data ? m->new_data : m->data;
		size_t size = m->new_data ? m->new_size : m->size;
		uint8_t hdr[60];
		char sz[11];

		memcpy(hdr, m->hdr, 60);
		if (size > 9999999999ull) {
			elfsig_err("%s: member %s too large for ar", d->name, m->name);
			ret = -EFBIG;
			break;
		}
		snprintf(sz, sizeof(sz), "%-10zu", size);
		memcpy(hdr + 48, sz, 10);
		ret = buf_append(&o, &olen, &cap, hdr, 60);
		if (!ret)
			ret = buf_append(&o, &olen, &cap, data, size);
		if (!ret && (size & 1))
			ret = buf_append(&o, &olen, &cap, "\n", 1);
	}
	if (ret) {
		free(o);
		return ret;
	}
	*out = o;
	*outlen = olen;
	return 0;
}

static void deb_free(struct deb *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		free(d->m[i].new_data);
	for (i = 0; i < d->nsigned; i++) {
		free(d->signed_files[i].path);
		free(d->signed_files[i].link_of);
	}
	free(d->signed_files);
	if (d->tmpdir[0])
		rmdir(d->tmpdir);
}

int elfsig_sign_deb(const struct elfsig_signer *signer, const char *path,
		    const char *out, struct elfsig_deb_stats *stats)
{
	struct elfsig_deb_stats dummy = { 0 };
	struct deb d = { .name = path };
	uint8_t *buf = NULL, *ctl = NULL, *data = NULL, *newdata = NULL, *pkg = NULL;
	size_t len, ctllen, datalen, newlen, pkglen;
	const struct compressor *cc, *dc;
	const char *tmp = getenv("TMPDIR");
	struct stat st;
	int ret;

	d.stats = stats ? stats : &dummy;
	memset(d.stats, 0, sizeof(*d.stats));
	if (!out)
		out = path;
	ret = elfsig_read_small_file(path, DEB_MAX_FILE, &buf, &len);
	if (ret)
		return ret;
	if (stat(path, &st)) {
		ret = -errno;
		goto done;
	}
	ret = ar_parse(&d, buf, len);
	if (ret)
		goto done;
	cc = compressor_of(d.m[d.control].name, "control.tar");
	dc = compressor_of(d.m[d.data].name, "data.tar");
	if ((size_t)snprintf(d.tmpdir, sizeof(d.tmpdir), "%s/elfsig-deb.XXXXXX",
			     tmp && *tmp ? tmp : "/tmp") >= sizeof(d.tmpdir))
		errno = ENAMETOOLONG;
	else if (mkdtemp(d.tmpdir))
		errno = 0;
	if (errno) {
		ret = -errno;
		elfsig_err("%s: cannot make a temporary directory: %s", path,
			   strerror(-ret));
		d.tmpdir[0] = 0;
		goto done;
	}
	ret = filter(&d, dc, false, d.m[d.data].data, d.m[d.data].size, &data, &datalen);
	if (!ret)
		ret = rewrite_data(&d, signer, data, datalen, &newdata, &newlen);
	if (ret)
		goto done;
	if (!d.stats->signed_files) {
		/* No ELF: the package passes through, byte for byte. */
		pkg = buf;
		pkglen = len;
		buf = NULL;
	} else {
		ret = filter(&d, cc, false, d.m[d.control].data, d.m[d.control].size,
			     &ctl, &ctllen);
		if (!ret)
			ret = rewrite_control(&d, ctl, ctllen);
		if (!ret)
			ret = filter(&d, cc, true, ctl, ctllen, &d.m[d.control].new_data,
				     &d.m[d.control].new_size);
		if (!ret)
			ret = filter(&d, dc, true, newdata, newlen, &d.m[d.data].new_data,
				     &d.m[d.data].new_size);
		if (!ret)
			ret = ar_write(&d, &pkg, &pkglen);
		if (ret)
			goto done;
	}
	ret = common_write_atomic(out, pkg, pkglen, st.st_mode & 07777, elfsig_err);
done:
	free(buf);
	free(ctl);
	free(data);
	free(newdata);
	free(pkg);
	deb_free(&d);
	return ret;
}
