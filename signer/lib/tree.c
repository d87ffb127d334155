// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tree.c - sign every executable and library below a directory.
 *
 * The walk only decides what to sign: it never follows a symbolic link,
 * stays on one file system unless asked, and lists each file once (a
 * file with several names is signed under the first and its other names
 * are linked to the result). The signing itself is the batch path of
 * elfsig_sign_files(): one loaded key, each file built in a temporary file
 * next to it and renamed over it, one syncfs() per batch.
 */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "lib_private.h"

#define TREE_MAX_DEPTH	128	/* deeper than any real root file system */

enum verdict {
	V_SIGN,			/* to be signed */
	V_NOT_ELF,
	V_NOT_LOADABLE,
	V_ALREADY,
	V_FAILED,
};

struct tree_file {
	char *path;
	dev_t dev;
	ino_t ino;
	enum verdict verdict;
	size_t primary;		/* for another name of a listed file: its index */
	bool alias;
	int result;		/* signing's result (V_SIGN) */
	struct elfsig_file_id signed_id;	/* the signed file (V_SIGN, 0) */
};

struct walk {
	const struct elfsig_signer *signer;
	unsigned int flags;
	struct elfsig_tree_stats *st;
	dev_t root_dev;
	struct tree_file *files;
	size_t n, cap;
	struct { dev_t dev; ino_t ino; } stack[TREE_MAX_DEPTH + 1];
	int first_err;
};

static void failed(struct walk *w, int err)
{
	w->st->failed++;
	if (!w->first_err)
		w->first_err = err ? err : -EIO;
}

static struct tree_file *add_file(struct walk *w, char *path, const struct stat *st)
{
	struct tree_file *f;

	if (w->n == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 256;
		struct tree_file *nf = realloc(w->files, cap * sizeof(*nf));

		if (!nf)
			return NULL;
		w->files = nf;
		w->cap = cap;
	}
	f = &w->files[w->n++];
	memset(f, 0, sizeof(*f));
	f->path = path;
	f->dev = st->st_dev;
	f->ino = st->st_ino;
	return f;
}

/* Another name of a file already listed? (Only files with st_nlink > 1.) */
static bool find_primary(const struct walk *w, const struct stat *st, size_t *idx)
{
	size_t i;

	for (i = 0; i < w->n; i++) {
		if (!w->files[i].alias && w->files[i].dev == st->st_dev &&
		    w->files[i].ino == st->st_ino) {
			*idx = i;
			return true;
		}
	}
	return false;
}

/* What to do with the regular file @path: read its header, quietly. */
static enum verdict classify(struct walk *w, const char *path)
{
	struct elfsig_elf elf;
	uint8_t ident[EI_NIDENT + 2];
	enum verdict v = V_SIGN;
	uint16_t type;
	unsigned int i;
	bool load = false;
	ssize_t got;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0) {
		ret = -errno;
		elfsig_err("%s: %s", path, strerror(errno));
		failed(w, ret);
		return V_FAILED;
	}
	got = pread(fd, ident, sizeof(ident), 0);
	if (got < 0) {
		ret = -errno;
		elfsig_err("%s: read failed: %s", path, strerror(errno));
		failed(w, ret);
		close(fd);
		return V_FAILED;
	}
	if (got < (ssize_t)sizeof(ident) || memcmp(ident, ELFMAG, SELFMAG) != 0) {
		close(fd);
		return V_NOT_ELF;
	}
	type = ident[EI_DATA] == ELFDATA2MSB ?
	       (uint16_t)(ident[EI_NIDENT] << 8 | ident[EI_NIDENT + 1]) :
	       (uint16_t)(ident[EI_NIDENT + 1] << 8 | ident[EI_NIDENT]);
	if (type != ET_EXEC && type != ET_DYN) {	/* ET_REL, ET_CORE... */
		close(fd);
		return V_NOT_LOADABLE;
	}
	/* An executable or library that does not parse is a failure. */
	ret = elfsig_elf_parse_fd(&elf, fd, path, ELFSIG_PARSE_ALL);
	if (ret) {
		failed(w, ret);
		close(fd);
		return V_FAILED;
	}
	for (i = 0; i < elf.phnum; i++)
		load |= elf.phdrs[i].type == PT_LOAD;
	if (!load)
		v = V_NOT_LOADABLE;
	else if (elf.sig_index >= 0 && !(w->flags & ELFSIG_TREE_FORCE) &&
		 elfsig_signer_owns(w->signer, path))
		v = V_ALREADY;
	elfsig_elf_release(&elf);
	close(fd);
	return v;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in @dir but "." and "..", sorted (a stable order of work). */
static int list_dir(DIR *dir, char ***out, size_t *count)
{
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *d;

	errno = 0;
	while ((d = readdir(dir)) != NULL) {
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if (n == cap) {
			char **nn;

			cap = cap ? 2 * cap : 64;
			nn = realloc(names, cap * sizeof(*nn));
			if (!nn)
				goto nomem;
			names = nn;
		}
		names[n] = strdup(d->d_name);
		if (!names[n])
			goto nomem;
		n++;
		errno = 0;
	}
	if (errno) {
		int ret = -errno;

		while (n)
			free(names[--n]);
		free(names);
		return ret;
	}
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	*out = names;
	*count = n;
	return 0;
nomem:
	while (n)
		free(names[--n]);
	free(names);
	return -ENOMEM;
}

static void visit_dir(struct walk *w, const char *path, unsigned int depth);

static void visit(struct walk *w, int dfd, const char *dir, const char *name,
		  unsigned int depth)
{
	struct tree_file *f;
	struct stat st;
	size_t primary;
	char *path;

	if (asprintf(&path, "%s/%s", dir, name) < 0) {
		elfsig_err("%s/%s: out of memory", dir, name);
		failed(w, -ENOMEM);
		return;
	}
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		int ret = -errno;

		elfsig_err("%s: %s", path, strerror(errno));
		failed(w, ret);
		free(path);
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		if (st.st_dev != w->root_dev && !(w->flags & ELFSIG_TREE_CROSS_FS))
			w->st->other_fs++;
		else if (depth >= TREE_MAX_DEPTH) {
			elfsig_err("%s: nested more than %u directories deep: not entered",
				   path, TREE_MAX_DEPTH);
			failed(w, -ELOOP);
		} else {
			visit_dir(w, path, depth + 1);
		}
		free(path);
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		w->st->not_regular++;
		free(path);
		return;
	}
	if (st.st_nlink > 1 && find_primary(w, &st, &primary)) {
		f = add_file(w, path, &st);
		if (!f)
			goto nomem;
		f->alias = true;
		f->primary = primary;
		return;
	}
	f = add_file(w, path, &st);
	if (!f)
		goto nomem;
	f->verdict = classify(w, path);
	return;
nomem:
	elfsig_err("%s: out of memory", path);
	free(path);
	failed(w, -ENOMEM);
}

static void visit_dir(struct walk *w, const char *path, unsigned int depth)
{
	char **names = NULL;
	size_t n = 0, i;
	struct stat st;
	unsigned int k;
	DIR *dir;
	int fd, ret;

	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0) {
		ret = -errno;
		elfsig_err("%s: cannot open the directory: %s", path, strerror(errno));
		failed(w, ret);
		if (fd >= 0)
			close(fd);
		return;
	}
	for (k = 0; k < depth; k++) {
		if (w->stack[k].dev == st.st_dev && w->stack[k].ino == st.st_ino) {
			elfsig_err("%s: directory loop: the same directory as %u levels up: not entered",
				   path, depth - k);
			failed(w, -ELOOP);
			close(fd);
			return;
		}
	}
	w->stack[depth].dev = st.st_dev;
	w->stack[depth].ino = st.st_ino;
	dir = fdopendir(fd);
	if (!dir) {
		ret = -errno;
		elfsig_err("%s: cannot read the directory: %s", path, strerror(errno));
		failed(w, ret);
		close(fd);
		return;
	}
	ret = list_dir(dir, &names, &n);
	if (ret) {
		elfsig_err("%s: cannot read the directory: %s", path, strerror(-ret));
		failed(w, ret);
	}
	for (i = 0; i < n; i++) {
		visit(w, dirfd(dir), path, names[i], depth);
		free(names[i]);
	}
	free(names);
	closedir(dir);
}

/* Count a file left alone, by why. */
static void count_skip(struct elfsig_tree_stats *st, enum verdict v)
{
	if (v == V_NOT_ELF)
		st->not_elf++;
	else if (v == V_NOT_LOADABLE)
		st->not_loadable++;
	else if (v == V_ALREADY)
		st->already_signed++;
}

static int make_link(int dfd, const char *name, void *to)
{
	return linkat(AT_FDCWD, to, dfd, name, 0) == 0 ? 0 : -errno;
}

/*
 * Give @f, another name of @p, the signed file: a new link next to @f in
 * the directory the name is in, checked to be the very file signed, then
 * renamed over @f's entry, checked to be still the file the walk saw. A
 * directory on either path swapped for a symbolic link meanwhile can make
 * this fail, never replace a file elsewhere.
 */
static int relink(const struct tree_file *p, const struct tree_file *f)
{
	char *dir = NULL, *base = NULL, *tmp = NULL;
	const char *why = NULL;
	struct stat st;
	int dfd, ret;

	ret = elfsig_open_dir_of(f->path, &dir, &base, &dfd);
	if (ret)
		goto out;
	if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    st.st_dev != f->dev || st.st_ino != f->ino) {
		why = "changed since the walk";
		ret = -ESTALE;
		goto out;
	}
	ret = elfsig_tmp_name(dfd, base, &tmp, make_link, (void *)p->path);
	if (ret)
		goto out;
	if (fstatat(dfd, tmp, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    st.st_dev != p->signed_id.dev || st.st_ino != p->signed_id.ino) {
		why = "the other name changed while being linked";
		ret = -ESTALE;
	} else if (renameat(dfd, tmp, dfd, base) != 0) {
		ret = -errno;
	}
	if (ret)
		unlinkat(dfd, tmp, 0);
out:
	if (ret)
		elfsig_err("%s: cannot link it to the signed %s: %s", f->path,
			   p->path, why ? why : strerror(-ret));
	if (dfd >= 0)
		close(dfd);
	free(tmp);
	free(base);
	free(dir);
	return ret;
}

/* Sign what the walk found, then give the other names the signed files. */
static void sign_found(struct walk *w)
{
	struct elfsig_file_id *ids, *signed_ids;
	const char **paths;
	size_t *index, n = 0, i;
	int *results;

	paths = calloc(w->n + 1, sizeof(*paths));
	index = calloc(w->n + 1, sizeof(*index));
	results = calloc(w->n + 1, sizeof(*results));
	ids = calloc(w->n + 1, sizeof(*ids));
	signed_ids = calloc(w->n + 1, sizeof(*signed_ids));
	if (!paths || !index || !results || !ids || !signed_ids) {
		elfsig_err("%s: out of memory", w->n ? w->files[0].path : "tree");
		failed(w, -ENOMEM);
		goto out;
	}
	for (i = 0; i < w->n; i++) {
		if (!w->files[i].alias && w->files[i].verdict == V_SIGN) {
			index[n] = i;
			ids[n].dev = w->files[i].dev;
			ids[n].ino = w->files[i].ino;
			paths[n++] = w->files[i].path;
		}
	}
	if (n)
		elfsig_sign_files_ids(w->signer, paths, ids, signed_ids, n, 0,
				      results);
	for (i = 0; i < n; i++) {
		w->files[index[i]].result = results[i];
		w->files[index[i]].signed_id = signed_ids[i];
		if (results[i])
			failed(w, results[i]);
		else
			w->st->signed_files++;
	}
	for (i = 0; i < w->n; i++) {
		const struct tree_file *f = &w->files[i], *p;

		if (!f->alias)
			continue;
		p = &w->files[f->primary];
		switch (p->verdict) {
		case V_SIGN:
			if (p->result) {
				elfsig_err("%s: not signed: it is another name of %s, which failed",
					   f->path, p->path);
				failed(w, p->result);
			} else if (relink(p, f)) {
				failed(w, -EIO);
			} else {
				w->st->hard_links++;
			}
			break;
		case V_NOT_ELF:
		case V_NOT_LOADABLE:
		case V_ALREADY:
			count_skip(w->st, p->verdict);
			break;
		case V_FAILED:
			elfsig_err("%s: not signed: it is another name of %s, which failed",
				   f->path, p->path);
			failed(w, -EIO);
			break;
		}
	}
out:
	free(paths);
	free(index);
	free(results);
	free(ids);
	free(signed_ids);
}

int elfsig_sign_tree(const struct elfsig_signer *signer, const char *dir,
		     unsigned int flags, struct elfsig_tree_stats *stats)
{
	struct walk *w;
	struct stat st;
	size_t i;
	int ret;

	memset(stats, 0, sizeof(*stats));
	if (lstat(dir, &st) != 0) {
		ret = -errno;
		elfsig_err("%s: %s", dir, strerror(errno));
		stats->failed = 1;
		return ret;
	}
	if (!S_ISDIR(st.st_mode)) {
		elfsig_err("%s: not a directory (a symbolic link is not followed)", dir);
		stats->failed = 1;
		return -ENOTDIR;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		elfsig_err("%s: out of memory", dir);
		return -ENOMEM;
	}
	w->signer = signer;
	w->flags = flags;
	w->st = stats;
	w->root_dev = st.st_dev;
	visit_dir(w, dir, 0);
	for (i = 0; i < w->n; i++)
		if (!w->files[i].alias)
			count_skip(stats, w->files[i].verdict);
	sign_found(w);
	ret = w->first_err;
	for (i = 0; i < w->n; i++)
		free(w->files[i].path);
	free(w->files);
	free(w);
	return ret;
}
