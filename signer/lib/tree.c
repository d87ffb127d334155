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
 *
 * No path is ever resolved below the root (docs/signer-security.md): the
 * walk descends with openat() from the directory it holds open, without
 * following a link, and checks that it opened the directory it listed;
 * every file is then read, replaced and linked relative to a descriptor
 * of its directory, reached again from the root the same way, each step
 * checked against what the walk saw.
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

/* A directory the walk entered; the root is the first. */
struct tree_dir {
	size_t parent;		/* its index (the root: itself) */
	const char *name;	/* in the parent (inside @path) */
	char *path;		/* for messages */
	dev_t dev;
	ino_t ino;
	unsigned int depth;	/* the root: 0 */
};

struct tree_file {
	char *path;		/* for messages */
	const char *name;	/* in its directory (inside @path) */
	size_t dir;
	dev_t dev;
	ino_t ino;
	enum verdict verdict;
	size_t primary;		/* for another name of a listed file: its index */
	bool alias;
	int result;		/* signing's result (V_SIGN) */
	struct elfsig_file_id signed_id;	/* the signed file (V_SIGN, 0) */
};

/* Files with several names, by (dev, ino): open addressing. */
struct link_table {
	size_t *slot;		/* file index + 1; 0: empty */
	size_t size, used;	/* size: a power of two */
};

/*
 * The directories from the root to the one last asked for, each open: the
 * files come in walk order, so consecutive ones mostly share them.
 */
struct cursor {
	size_t dir[TREE_MAX_DEPTH + 1];
	int fd[TREE_MAX_DEPTH + 1];
	unsigned int n;		/* fd[0] is the root's, never closed here */
};

struct walk {
	const struct elfsig_signer *signer;
	unsigned int flags;
	struct elfsig_tree_stats *st;
	dev_t root_dev;
	int root_fd;
	struct tree_dir *dirs;
	size_t ndirs, dcap;
	struct tree_file *files;
	size_t n, cap;
	struct link_table links;
	struct cursor cur;
	struct { dev_t dev; ino_t ino; } stack[TREE_MAX_DEPTH + 1];
	int first_err;
};

static void failed(struct walk *w, int err)
{
	w->st->failed++;
	if (!w->first_err)
		w->first_err = err ? err : -EIO;
}

static struct tree_file *add_file(struct walk *w, char *path, size_t name_off,
				  size_t dir, const struct stat *st)
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
	f->name = path + name_off;
	f->dir = dir;
	f->dev = st->st_dev;
	f->ino = st->st_ino;
	return f;
}

static size_t link_hash(dev_t dev, ino_t ino)
{
	uint64_t h = (uint64_t)ino * 0x9e3779b97f4a7c15ull ^ (uint64_t)dev;

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	return (size_t)(h ^ (h >> 32));
}

/* The slot of (@dev, @ino) in @t: its file, or the empty one to fill. */
static size_t *link_slot(const struct walk *w, const struct link_table *t,
			 dev_t dev, ino_t ino)
{
	size_t i = link_hash(dev, ino) & (t->size - 1);

	while (t->slot[i]) {
		const struct tree_file *f = &w->files[t->slot[i] - 1];

		if (f->dev == dev && f->ino == ino)
			break;
		i = (i + 1) & (t->size - 1);
	}
	return &t->slot[i];
}

/* Keep the table at most half full. Return: 0 or -ENOMEM. */
static int link_grow(struct walk *w)
{
	struct link_table *t = &w->links, nt;
	size_t i;

	if (t->size && 2 * (t->used + 1) <= t->size)
		return 0;
	nt.size = t->size ? 2 * t->size : 1024;
	nt.used = t->used;
	nt.slot = calloc(nt.size, sizeof(*nt.slot));
	if (!nt.slot)
		return -ENOMEM;
	for (i = 0; i < t->size; i++) {
		if (t->slot[i]) {
			const struct tree_file *f = &w->files[t->slot[i] - 1];

			*link_slot(w, &nt, f->dev, f->ino) = t->slot[i];
		}
	}
	free(t->slot);
	*t = nt;
	return 0;
}

/* Another name of a file already listed? (Only files with st_nlink > 1.) */
static bool find_primary(const struct walk *w, const struct stat *st, size_t *idx)
{
	size_t *slot;

	if (!w->links.size)
		return false;
	slot = link_slot(w, &w->links, st->st_dev, st->st_ino);
	if (!*slot)
		return false;
	*idx = *slot - 1;
	return true;
}

/* List the file last added, which has several names. Return: 0, -ENOMEM. */
static int remember_links(struct walk *w)
{
	const struct tree_file *f = &w->files[w->n - 1];

	if (link_grow(w))
		return -ENOMEM;
	*link_slot(w, &w->links, f->dev, f->ino) = w->n;
	w->links.used++;
	return 0;
}

/*
 * What to do with the regular file @f, listed in the directory @dfd as
 * @listed: read its header, quietly, from the file opened there, which
 * must be the one listed.
 */
static enum verdict classify(struct walk *w, int dfd, const struct tree_file *f)
{
	const char *path = f->path;
	struct elfsig_elf elf;
	uint8_t ident[EI_NIDENT + 2];
	enum verdict v = V_SIGN;
	struct stat st;
	uint16_t type;
	unsigned int i;
	bool load = false;
	ssize_t got;
	int fd, ret;

	fd = openat(dfd, f->name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK |
		    O_NOFOLLOW);
	if (fd < 0) {
		ret = -errno;
		elfsig_err("%s: %s", path, errno == ELOOP ?
			   "changed since the walk: now a symbolic link" :
			   strerror(errno));
		failed(w, ret);
		return V_FAILED;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_dev != f->dev || st.st_ino != f->ino) {
		elfsig_err("%s: changed since the walk: another file has its name",
			   path);
		failed(w, -ESTALE);
		close(fd);
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
		 elfsig_signer_owns_fd(w->signer, fd, path))
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

static void visit_dir(struct walk *w, int fd, size_t dir, unsigned int depth);

/* Record a directory the walk enters. Return: its index, or -1 (ENOMEM). */
static ssize_t add_dir(struct walk *w, size_t parent, unsigned int depth, char *path,
		       size_t name_off, const struct stat *st)
{
	struct tree_dir *d;

	if (w->ndirs == w->dcap) {
		size_t cap = w->dcap ? 2 * w->dcap : 64;
		struct tree_dir *nd = realloc(w->dirs, cap * sizeof(*nd));

		if (!nd)
			return -1;
		/* Zeroed: the analyser cannot tell every entry read is written. */
		memset(nd + w->dcap, 0, (cap - w->dcap) * sizeof(*nd));
		w->dirs = nd;
		w->dcap = cap;
	}
	d = &w->dirs[w->ndirs];
	d->parent = parent;
	d->path = path;
	d->name = path + name_off;
	d->dev = st->st_dev;
	d->ino = st->st_ino;
	d->depth = depth;
	return (ssize_t)w->ndirs++;
}

/*
 * Enter @name, listed in @dfd as @listed: opened relative to @dfd without
 * following a link, and only if it is the directory listed (not one
 * swapped in since).
 */
static void enter_dir(struct walk *w, int dfd, size_t parent,
		      unsigned int depth, char *path,
		      size_t name_off, const struct stat *listed)
{
	struct stat st;
	ssize_t d;
	int fd;

	fd = openat(dfd, path + name_off, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	if (fd < 0) {
		int ret = -errno;

		elfsig_err("%s: cannot open the directory: %s", path,
			   errno == ELOOP || errno == ENOTDIR ?
			   "changed since the walk: not a directory now" :
			   strerror(errno));
		failed(w, ret);
		free(path);
		return;
	}
	if (fstat(fd, &st) != 0 || st.st_dev != listed->st_dev ||
	    st.st_ino != listed->st_ino) {
		elfsig_err("%s: changed since the walk: another directory has its name: not entered",
			   path);
		failed(w, -ESTALE);
		close(fd);
		free(path);
		return;
	}
	d = add_dir(w, parent, depth, path, name_off, &st);
	if (d < 0) {
		elfsig_err("%s: out of memory", path);
		failed(w, -ENOMEM);
		close(fd);
		free(path);
		return;
	}
	visit_dir(w, fd, (size_t)d, depth);
}

static void visit(struct walk *w, int dfd, size_t dir, unsigned int depth,
		  const char *name)
{
	const struct tree_dir *parent = &w->dirs[dir];
	struct tree_file *f;
	struct stat st;
	size_t primary, name_off;
	char *path;

	if (asprintf(&path, "%s/%s", parent->path, name) < 0) {
		elfsig_err("%s/%s: out of memory", parent->path, name);
		failed(w, -ENOMEM);
		return;
	}
	name_off = strlen(path) - strlen(name);
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		int ret = -errno;

		elfsig_err("%s: %s", path, strerror(errno));
		failed(w, ret);
		free(path);
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		if (st.st_dev != w->root_dev && !(w->flags & ELFSIG_TREE_CROSS_FS)) {
			w->st->other_fs++;
		} else if (depth >= TREE_MAX_DEPTH) {
			elfsig_err("%s: nested more than %u directories deep: not entered",
				   path, TREE_MAX_DEPTH);
			failed(w, -ELOOP);
		} else {
			enter_dir(w, dfd, dir, depth + 1, path, name_off, &st);
			return;		/* the directory keeps @path */
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
		f = add_file(w, path, name_off, dir, &st);
		if (!f)
			goto nomem;
		f->alias = true;
		f->primary = primary;
		return;
	}
	f = add_file(w, path, name_off, dir, &st);
	if (!f)
		goto nomem;
	f->verdict = classify(w, dfd, f);
	if (st.st_nlink > 1 && remember_links(w)) {
		elfsig_err("%s: out of memory", path);
		failed(w, -ENOMEM);
	}
	return;
nomem:
	elfsig_err("%s: out of memory", path);
	free(path);
	failed(w, -ENOMEM);
}

/* List the directory @dir open as @fd, visit what it holds, close @fd. */
static void visit_dir(struct walk *w, int fd, size_t dir, unsigned int depth)
{
	const char *path = w->dirs[dir].path;
	unsigned int k;
	char **names = NULL;
	size_t n = 0, i;
	DIR *d;
	int ret;

	for (k = 0; k < depth; k++) {
		if (w->stack[k].dev == w->dirs[dir].dev &&
		    w->stack[k].ino == w->dirs[dir].ino) {
			elfsig_err("%s: directory loop: the same directory as %u levels up: not entered",
				   path, depth - k);
			failed(w, -ELOOP);
			close(fd);
			return;
		}
	}
	w->stack[depth].dev = w->dirs[dir].dev;
	w->stack[depth].ino = w->dirs[dir].ino;
	d = fdopendir(fd);
	if (!d) {
		ret = -errno;
		elfsig_err("%s: cannot read the directory: %s", path, strerror(errno));
		failed(w, ret);
		close(fd);
		return;
	}
	ret = list_dir(d, &names, &n);
	if (ret) {
		elfsig_err("%s: cannot read the directory: %s", path, strerror(-ret));
		failed(w, ret);
	}
	for (i = 0; i < n; i++) {
		visit(w, dirfd(d), dir, depth, names[i]);
		free(names[i]);
	}
	free(names);
	closedir(d);
}

/*
 * A descriptor of the directory @dir, reached from the root one step at
 * a time, each step relative to the last without following a link and
 * checked to be the directory the walk saw. The cursor owns it.
 * Return: the descriptor, or a negative errno (and a message for @who).
 */
static int cursor_open(struct walk *w, size_t dir, const char *who)
{
	struct cursor *c = &w->cur;
	size_t want[TREE_MAX_DEPTH + 1] = { 0 }, x = dir;
	unsigned int depth = w->dirs[dir].depth, k;

	for (k = depth + 1; k-- > 0; x = w->dirs[x].parent)
		want[k] = x;
	for (k = 1; k < c->n && k <= depth && c->dir[k] == want[k]; k++)
		;
	while (c->n > k)
		close(c->fd[--c->n]);
	for (; k <= depth; k++) {
		const struct tree_dir *d = &w->dirs[want[k]];
		struct stat st;
		int fd;

		fd = openat(c->fd[k - 1], d->name, O_RDONLY | O_DIRECTORY |
			    O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			int ret = -errno;

			elfsig_err("%s: %s: %s", who, d->path,
				   errno == ELOOP || errno == ENOTDIR ?
				   "changed since the walk: not a directory now" :
				   strerror(errno));
			return ret;
		}
		if (fstat(fd, &st) != 0 || st.st_dev != d->dev ||
		    st.st_ino != d->ino) {
			elfsig_err("%s: %s: changed since the walk: another directory has its name",
				   who, d->path);
			close(fd);
			return -ESTALE;
		}
		c->dir[k] = want[k];
		c->fd[k] = fd;
		c->n = k + 1;
	}
	return c->fd[depth];
}

static void cursor_close(struct walk *w)
{
	while (w->cur.n > 1)
		close(w->cur.fd[--w->cur.n]);
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

struct link_from {
	int dfd;
	const char *name;
};

static int make_link(int dfd, const char *name, void *ctx)
{
	const struct link_from *from = ctx;

	return linkat(from->dfd, from->name, dfd, name, 0) == 0 ? 0 : -errno;
}

/*
 * Give @f, another name of @p, the signed file: a new link next to @f in
 * the directory the name is in, checked to be the very file signed, then
 * renamed over @f's entry, checked to be still the file the walk saw.
 * Both directories are reached as the walk saw them (cursor_open()), so a
 * directory swapped meanwhile makes this fail, never replace a file
 * elsewhere.
 */
static int relink(struct walk *w, const struct tree_file *p,
		  const struct tree_file *f)
{
	struct link_from from;
	const char *why = NULL;
	char *tmp = NULL;
	struct stat st;
	int dfd = -1, ret;

	ret = cursor_open(w, f->dir, f->path);
	if (ret < 0)
		return ret;
	/* Its own: the cursor moves on to @p's directory. */
	dfd = fcntl(ret, F_DUPFD_CLOEXEC, 0);
	if (dfd < 0) {
		ret = -errno;
		goto out;
	}
	if (fstatat(dfd, f->name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    st.st_dev != f->dev || st.st_ino != f->ino) {
		why = "changed since the walk";
		ret = -ESTALE;
		goto out;
	}
	ret = cursor_open(w, p->dir, f->path);
	if (ret < 0) {
		close(dfd);
		return ret;
	}
	from.dfd = ret;
	from.name = p->name;
	ret = elfsig_tmp_name(dfd, f->name, &tmp, make_link, &from);
	if (ret)
		goto out;
	if (fstatat(dfd, tmp, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    st.st_dev != p->signed_id.dev || st.st_ino != p->signed_id.ino) {
		why = "the other name changed while being linked";
		ret = -ESTALE;
	} else if (renameat(dfd, tmp, dfd, f->name) != 0) {
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
	return ret;
}

/*
 * Sign the files @index[0..@n) of the walk in batches, each prepared in
 * its directory as the walk saw it.
 */
static void sign_batches(struct walk *w, const size_t *index, size_t n)
{
	struct elfsig_pending pend[ELFSIG_BATCH_MAX];
	int results[ELFSIG_BATCH_MAX];
	/* Beside each batch: the cursor's descriptors. */
	size_t batch = elfsig_batch_size(TREE_MAX_DEPTH + 1), start, i;

	for (start = 0; start < n; start += batch) {
		size_t m = n - start < batch ? n - start : batch;

		for (i = 0; i < m; i++) {
			struct tree_file *f = &w->files[index[start + i]];
			struct elfsig_at at;
			int dfd = cursor_open(w, f->dir, f->path);

			memset(&pend[i], 0, sizeof(pend[i]));
			pend[i].fd = -1;
			pend[i].dfd = -1;
			if (dfd < 0) {
				results[i] = dfd;
				continue;
			}
			at.dfd = dfd;
			at.base = f->name;
			at.id.dev = f->dev;
			at.id.ino = f->ino;
			results[i] = elfsig_sign_prepare_at(w->signer, f->path,
							    &at, &pend[i]);
		}
		for (i = 0; i < m; i++) {
			struct tree_file *f = &w->files[index[start + i]];
			struct stat st;

			if (results[i])
				continue;
			if (fstat(pend[i].fd, &st) != 0) {
				results[i] = -errno;
				elfsig_err("%s: %s", f->path, strerror(errno));
				elfsig_pending_abort(&pend[i]);
				continue;
			}
			f->signed_id.dev = st.st_dev;
			f->signed_id.ino = st.st_ino;
		}
		elfsig_pending_commit_all(pend, m, results);
		for (i = 0; i < m; i++)
			w->files[index[start + i]].result = results[i];
	}
}

/* Sign what the walk found, then give the other names the signed files. */
static void sign_found(struct walk *w)
{
	size_t *index, n = 0, i;

	index = calloc(w->n + 1, sizeof(*index));
	if (!index) {
		elfsig_err("%s: out of memory", w->dirs[0].path);
		failed(w, -ENOMEM);
		return;
	}
	for (i = 0; i < w->n; i++)
		if (!w->files[i].alias && w->files[i].verdict == V_SIGN)
			index[n++] = i;
	sign_batches(w, index, n);
	for (i = 0; i < n; i++) {
		int r = w->files[index[i]].result;

		if (r)
			failed(w, r);
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
			} else if (relink(w, p, f)) {
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
	cursor_close(w);
	free(index);
}

int elfsig_sign_tree(const struct elfsig_signer *signer, const char *dir,
		     unsigned int flags, struct elfsig_tree_stats *stats)
{
	struct walk *w;
	struct stat st, fst;
	char *path;
	size_t i;
	int fd, ret;

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
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &fst) != 0 || fst.st_dev != st.st_dev ||
	    fst.st_ino != st.st_ino) {
		ret = fd < 0 ? -errno : -ESTALE;
		elfsig_err("%s: cannot open the directory: %s", dir,
			   fd < 0 ? strerror(errno) : "it changed while being opened");
		if (fd >= 0)
			close(fd);
		stats->failed = 1;
		return ret;
	}
	w = calloc(1, sizeof(*w));
	path = strdup(dir);
	if (!w || !path || add_dir(w, 0, 0, path, strlen(path), &st) < 0) {
		elfsig_err("%s: out of memory", dir);
		free(path);
		if (w)
			free(w->dirs);
		free(w);
		close(fd);
		return -ENOMEM;
	}
	w->signer = signer;
	w->flags = flags;
	w->st = stats;
	w->root_dev = st.st_dev;
	/* The root stays open for the cursor; the walk reads its own copy. */
	w->root_fd = fd;
	w->cur.dir[0] = 0;
	w->cur.fd[0] = fd;
	w->cur.n = 1;
	fd = fcntl(w->root_fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0) {
		ret = -errno;
		elfsig_err("%s: %s", dir, strerror(errno));
		failed(w, ret);
	} else {
		visit_dir(w, fd, 0, 0);
	}
	for (i = 0; i < w->n; i++)
		if (!w->files[i].alias)
			count_skip(stats, w->files[i].verdict);
	sign_found(w);
	ret = w->first_err;
	for (i = 0; i < w->n; i++)
		free(w->files[i].path);
	for (i = 0; i < w->ndirs; i++)
		free(w->dirs[i].path);
	close(w->root_fd);
	free(w->links.slot);
	free(w->dirs);
	free(w->files);
	free(w);
	return ret;
}
