// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * write.c - add, replace or remove the .signature section, atomically.
 *
 * The new file is built in a temporary file next to the target: the bytes
 * of the input up to the end of the last thing worth keeping, then the
 * signature, (if needed) a copy of the section name table that also holds
 * ".signature", and a new section header table. No PT_LOAD byte and no
 * program header moves. The image digest is computed over the temporary
 * file itself, so what is signed is exactly what lands, whatever happens to
 * the input meanwhile. Only then is the file synced and renamed over the
 * target.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/limits.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/xattr.h>

#include "lib_private.h"

#define PAD_CHECK_MAX	(64u << 10)	/* trailing padding we may drop */
/* Of a temporary name's NAME_MAX bytes, what "." and ".elfsig-XXXXXXXX" leave. */
#define TMP_BASE_MAX	((int)(NAME_MAX - sizeof(".elfsig-12345678")))

static const char sig_name[] = ELFSIG_SECTION_NAME;	/* with its NUL */

struct plan {
	struct elfsig_shdr *shdrs;	/* the new table */
	uint32_t shnum;
	uint32_t shstrndx;
	uint32_t sig_index;		/* where .signature goes (sign) */
	char *strtab;			/* new name table, or NULL to keep */
	uint64_t strtab_size;
	uint32_t name_off;		/* of ".signature" in the name table */
	uint64_t cut;			/* input bytes kept: [0, cut) */
};

/* A byte range of the input that the rewrite owns and may drop. */
struct range {
	uint64_t off, len;
};

/* Bytes of [from, to) outside every owned range; each owned range valid. */
static uint64_t uncovered(uint64_t from, uint64_t to, const struct range *r,
			  size_t n)
{
	uint64_t pos = from, total = 0;

	while (pos < to) {
		uint64_t next = to;
		bool inside = false;
		size_t i;

		for (i = 0; i < n; i++) {
			if (!r[i].len)
				continue;
			if (pos >= r[i].off && pos < r[i].off + r[i].len) {
				inside = true;
				if (r[i].off + r[i].len > next || next == to)
					next = r[i].off + r[i].len;
			}
		}
		if (inside) {
			pos = next < to ? next : to;
			continue;
		}
		for (i = 0; i < n; i++)
			if (r[i].len && r[i].off > pos && r[i].off < next)
				next = r[i].off;
		total += next - pos;
		pos = next;
	}
	return total;
}

/* Are the input bytes in [from, to), outside the owned ranges, all zero? */
static bool only_padding(const struct elfsig_elf *in, uint64_t from, uint64_t to,
			 const struct range *r, size_t n)
{
	uint8_t buf[4096];
	uint64_t pos;

	if (uncovered(from, to, r, n) > PAD_CHECK_MAX)
		return false;
	for (pos = from; pos < to;) {
		size_t chunk = to - pos < sizeof(buf) ? (size_t)(to - pos) : sizeof(buf);
		size_t i, k;

		if (elfsig_pread_full(in->fd, buf, chunk, pos, in->name))
			return false;
		for (i = 0; i < chunk; i++) {
			bool owned = false;

			for (k = 0; k < n; k++)
				if (r[k].len && pos + i >= r[k].off &&
				    pos + i < r[k].off + r[k].len)
					owned = true;
			if (!owned && buf[i] != 0)
				return false;
		}
		pos += chunk;
	}
	return true;
}

/*
 * Where the kept part of the input ends: after the headers, every PT_LOAD
 * and every section that stays, unless what follows is something other
 * than our own old structures and zero padding (then nothing is dropped).
 */
static void plan_cut(const struct elfsig_elf *in, struct plan *p)
{
	struct range owned[3] = { { 0, 0 } };
	uint64_t keep = in->load_end;
	uint32_t i;

	if (in->ehsize > keep)
		keep = in->ehsize;
	if (in->shnum)
		owned[0] = (struct range){ in->shoff,
			(uint64_t)in->shnum * elfsig_shdr_size(in) };
	if (in->sig_index >= 0)
		owned[1] = (struct range){ in->shdrs[in->sig_index].offset,
					   in->shdrs[in->sig_index].size };
	if (p->strtab && in->shnum)
		owned[2] = (struct range){ in->shdrs[in->shstrndx].offset,
					   in->shdrs[in->shstrndx].size };

	for (i = 0; i < in->shnum; i++) {
		const struct elfsig_shdr *sh = &in->shdrs[i];

		if (sh->type == SHT_NULL || sh->type == SHT_NOBITS)
			continue;
		if ((int)i == in->sig_index || (p->strtab && i == in->shstrndx))
			continue;
		if (sh->offset + sh->size > keep)
			keep = sh->offset + sh->size;
	}
	p->cut = in->size;
	if (keep < in->size && only_padding(in, keep, in->size, owned, 3))
		p->cut = keep;
}

/* Find ".signature" as a string (or string suffix) of the name table. */
static bool find_name(const struct elfsig_elf *in, uint32_t *off)
{
	const char *s = in->shstrtab;
	uint64_t n = in->shstrtab_size;
	const char *hit;

	if (!s || n < sizeof(sig_name))
		return false;
	hit = memmem(s, n, sig_name, sizeof(sig_name));
	if (!hit)
		return false;
	*off = (uint32_t)(hit - s);
	return true;
}

static bool links_by_info(const struct elfsig_shdr *sh)
{
	return sh->type == SHT_REL || sh->type == SHT_RELA ||
	       (sh->flags & SHF_INFO_LINK);
}

/*
 * Drop .signature from the table when no symbol table can name a section
 * by index (or it is the last entry): then only sh_link, sh_info and
 * e_shstrndx need renumbering. Return: whether it was dropped.
 */
static bool renumber_without(const struct elfsig_elf *in, struct plan *p)
{
	uint32_t s = (uint32_t)in->sig_index, i;

	for (i = 0; i < in->shnum && s != in->shnum - 1; i++) {
		const struct elfsig_shdr *sh = &in->shdrs[i];

		if (sh->type == SHT_SYMTAB || sh->type == SHT_DYNSYM ||
		    sh->type == SHT_GROUP || sh->type == SHT_SYMTAB_SHNDX ||
		    sh->link == s || (links_by_info(sh) && sh->info == s))
			return false;
	}
	memmove(&p->shdrs[s], &p->shdrs[s + 1],
		(in->shnum - s - 1) * sizeof(*p->shdrs));
	p->shnum--;
	for (i = 0; i < p->shnum; i++) {
		struct elfsig_shdr *sh = &p->shdrs[i];

		if (sh->link > s)
			sh->link--;
		if (links_by_info(sh) && sh->info > s)
			sh->info--;
	}
	if (p->shstrndx > s)
		p->shstrndx--;
	return true;
}

static int plan_sections(const struct elfsig_elf *in, bool sign, struct plan *p)
{
	uint64_t extra;

	if (in->shnum == 0) {
		static const char fresh[] = "\0.shstrtab\0" ELFSIG_SECTION_NAME;

		if (!sign)
			return 0;
		p->shnum = 3;
		p->shdrs = calloc(3, sizeof(*p->shdrs));
		p->strtab_size = sizeof(fresh);
		p->strtab = malloc(sizeof(fresh));
		if (!p->shdrs || !p->strtab)
			return -ENOMEM;
		memcpy(p->strtab, fresh, sizeof(fresh));
		p->shdrs[1].name = 1;
		p->shdrs[1].type = SHT_STRTAB;
		p->shdrs[1].addralign = 1;
		p->shstrndx = 1;
		p->sig_index = 2;
		p->name_off = 11;
		return 0;
	}

	extra = sign && in->sig_index < 0;
	if (in->shnum + extra >= ELFSIG_SHN_LORESERVE) {
		elfsig_err("%s: too many sections to add .signature", in->name);
		return -EBADMSG;
	}
	p->shnum = in->shnum + (uint32_t)extra;
	p->shstrndx = in->shstrndx;
	p->shdrs = calloc(p->shnum, sizeof(*p->shdrs));
	if (!p->shdrs)
		return -ENOMEM;
	memcpy(p->shdrs, in->shdrs, in->shnum * sizeof(*p->shdrs));

	if (!sign) {
		if (renumber_without(in, p))
			return 0;
		/*
		 * Symbol tables name sections by index, and some are loaded and
		 * signed: rather than rewrite them, the entry becomes SHT_NULL.
		 */
		memset(&p->shdrs[in->sig_index], 0, sizeof(*p->shdrs));
		return 0;
	}

	p->sig_index = in->sig_index >= 0 ? (uint32_t)in->sig_index : in->shnum;
	if (find_name(in, &p->name_off))
		return 0;
	/* Append the name to a new copy of the name table. */
	if (in->shstrtab_size + sizeof(sig_name) > UINT32_MAX) {
		elfsig_err("%s: section name table too large", in->name);
		return -EBADMSG;
	}
	p->strtab_size = in->shstrtab_size + sizeof(sig_name);
	p->strtab = malloc(p->strtab_size);
	if (!p->strtab)
		return -ENOMEM;
	memcpy(p->strtab, in->shstrtab, in->shstrtab_size);
	memcpy(p->strtab + in->shstrtab_size, sig_name, sizeof(sig_name));
	p->name_off = (uint32_t)in->shstrtab_size;
	return 0;
}

static int pwrite_full(int fd, const void *buf, size_t len, uint64_t off,
		       const char *name);

/* Copy [@off, @off + @len) of @from to the same place in @to. */
static int copy_range(int from, int to, uint64_t off, uint64_t len,
		      const char *name)
{
	uint8_t buf[64 << 10];
	loff_t in_off = (loff_t)off, out_off = (loff_t)off;
	uint64_t done = 0;

	while (done < len) {
		size_t want = len - done > (1u << 30) ? (1u << 30) : (size_t)(len - done);
		ssize_t n = copy_file_range(from, &in_off, to, &out_off, want, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (uint64_t)n;
	}
	while (done < len) {	/* fallback: no copy_file_range here */
		size_t want = len - done > sizeof(buf) ? sizeof(buf) : (size_t)(len - done);
		int ret = elfsig_pread_full(from, buf, want, off + done, name);

		if (ret)
			return ret;
		ret = pwrite_full(to, buf, want, off + done, name);
		if (ret)
			return ret;
		done += want;
	}
	return 0;
}

/*
 * The first @len bytes of @from into the empty @to, holes kept holes: only
 * the data extents are copied (SEEK_DATA/SEEK_HOLE), so a sparse file
 * stays sparse where it was. Without SEEK_DATA, everything is copied.
 */
static int copy_prefix(int from, int to, uint64_t len, const char *name)
{
	uint64_t off = 0;
	int ret;

	while (off < len) {
		off_t data = lseek(from, (off_t)off, SEEK_DATA), hole;

		if (data < 0 && errno == ENXIO)
			break;			/* a hole up to the end */
		if (data < 0)
			return copy_range(from, to, off, len - off, name);
		if ((uint64_t)data >= len)
			break;
		hole = lseek(from, data, SEEK_HOLE);
		if (hole < 0 || (uint64_t)hole > len)
			hole = (off_t)len;
		ret = copy_range(from, to, (uint64_t)data,
				 (uint64_t)(hole - data), name);
		if (ret)
			return ret;
		off = (uint64_t)hole;
	}
	/* A hole at the end is still part of the file. */
	if (ftruncate(to, (off_t)len) != 0) {
		ret = -errno;
		elfsig_err("%s: %s", name, strerror(errno));
		return ret;
	}
	return 0;
}

static int pwrite_full(int fd, const void *buf, size_t len, uint64_t off,
		       const char *name)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);

		if (n < 0) {
			int ret = -errno;

			if (errno == EINTR)
				continue;
			elfsig_err("%s: write failed: %s", name, strerror(errno));
			return ret;
		}
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

/* Write the tail and the patched header into the temporary file. */
static int write_tail(const struct elfsig_elf *tmp, struct plan *p,
		      const uint8_t *der, size_t der_len, const char *name)
{
	size_t shsz = elfsig_shdr_size(tmp);
	size_t align = tmp->is64 ? 8 : 4;
	uint64_t pos = p->cut, shoff, end;
	uint8_t ehdr[64];
	uint8_t *sht = NULL;
	int ret;

	if (der) {
		struct elfsig_shdr *sh = &p->shdrs[p->sig_index];

		memset(sh, 0, sizeof(*sh));
		sh->name = p->name_off;
		sh->type = SHT_PROGBITS;
		sh->offset = pos;
		sh->size = der_len;
		sh->addralign = 1;
		ret = pwrite_full(tmp->fd, der, der_len, pos, name);
		if (ret)
			return ret;
		pos += der_len;
	}
	if (p->strtab) {
		p->shdrs[p->shstrndx].offset = pos;
		p->shdrs[p->shstrndx].size = p->strtab_size;
		ret = pwrite_full(tmp->fd, p->strtab, p->strtab_size, pos, name);
		if (ret)
			return ret;
		pos += p->strtab_size;
	}
	shoff = p->shnum ? (pos + align - 1) & ~(uint64_t)(align - 1) : 0;
	end = p->shnum ? shoff + (uint64_t)p->shnum * shsz : pos;
	if (!tmp->is64 && end > UINT32_MAX) {
		elfsig_err("%s: the signed file would be too large for ELF32", name);
		return -EFBIG;
	}
	if (p->shnum) {
		sht = calloc(p->shnum, shsz);
		if (!sht)
			return -ENOMEM;
		for (uint32_t i = 0; i < p->shnum; i++)
			elfsig_encode_shdr(tmp, &p->shdrs[i], sht + (size_t)i * shsz);
		ret = pwrite_full(tmp->fd, sht, (size_t)p->shnum * shsz, shoff, name);
		free(sht);
		if (ret)
			return ret;
	}
	if (ftruncate(tmp->fd, (off_t)end) != 0) {
		ret = -errno;
		elfsig_err("%s: %s", name, strerror(errno));
		return ret;
	}

	/* Only the four section-table fields of the header change. */
	memcpy(ehdr, tmp->ehdr, tmp->ehsize);
	elfsig_put_off(tmp, ehdr + (tmp->is64 ? offsetof(Elf64_Ehdr, e_shoff)
					      : offsetof(Elf32_Ehdr, e_shoff)), shoff);
	elfsig_put_half(tmp, ehdr + (tmp->is64 ? offsetof(Elf64_Ehdr, e_shentsize)
					       : offsetof(Elf32_Ehdr, e_shentsize)),
			p->shnum ? (uint16_t)shsz : 0);
	elfsig_put_half(tmp, ehdr + (tmp->is64 ? offsetof(Elf64_Ehdr, e_shnum)
					       : offsetof(Elf32_Ehdr, e_shnum)),
			(uint16_t)p->shnum);
	elfsig_put_half(tmp, ehdr + (tmp->is64 ? offsetof(Elf64_Ehdr, e_shstrndx)
					       : offsetof(Elf32_Ehdr, e_shstrndx)),
			p->shnum ? (uint16_t)p->shstrndx : 0);
	return pwrite_full(tmp->fd, ehdr, tmp->ehsize, 0, name);
}

/* The result must parse, and hash exactly as the temporary file did. */
static int self_check(int fd, const struct elfsig_elf *tmp, bool sign,
		      size_t der_len, const char *name)
{
	struct elfsig_elf out;
	int ret;

	ret = elfsig_elf_parse_fd(&out, fd, name, ELFSIG_PARSE_ALL);
	if (ret)
		return ret;
	if (memcmp(out.nehdr, tmp->nehdr, tmp->ehsize) != 0 ||
	    (sign && (out.sig_index < 0 ||
		      out.shdrs[out.sig_index].size != der_len)) ||
	    (!sign && out.sig_index >= 0)) {
		elfsig_err("%s: internal error: the rewritten file fails its check",
			   name);
		ret = -EIO;
	}
	elfsig_elf_release(&out);
	return ret;
}

/*
 * Copy the extended attributes of @from to @to, where this process may
 * set them (security.capability and ACLs included; trusted.* and
 * security.* need privileges): best effort, as cp --preserve=xattr.
 */
static void copy_xattrs(int from, int to)
{
	char *names = NULL, *val = NULL;
	ssize_t len, vlen;
	const char *n;

	len = flistxattr(from, NULL, 0);
	if (len <= 0 || len > XATTR_LIST_MAX)
		return;
	names = malloc((size_t)len);
	val = malloc(XATTR_SIZE_MAX);
	if (!names || !val)
		goto out;
	len = flistxattr(from, names, (size_t)len);
	for (n = names; len > 0 && n < names + len; n += strlen(n) + 1) {
		/*
		 * IMA's hash or signature and EVM's HMAC describe the old
		 * content: copied, they would be wrong (docs/guide.md).
		 */
		if (!strcmp(n, "security.ima") || !strcmp(n, "security.evm"))
			continue;
		vlen = fgetxattr(from, n, val, XATTR_SIZE_MAX);
		if (vlen >= 0)
			(void)fsetxattr(to, n, val, (size_t)vlen, 0);
	}
out:
	free(names);
	free(val);
}

/*
 * The file attributes chattr sets that describe how a file is kept, not
 * what it holds. Immutable and append-only never get this far (the rename
 * over such a file fails); No_COW only takes on an empty file.
 */
#define KEPT_FLAGS	(FS_NODUMP_FL | FS_NOATIME_FL | FS_SYNC_FL | \
			 FS_COMPR_FL | FS_NOCOMP_FL | FS_DIRSYNC_FL)

/* @from's KEPT_FLAGS on @to too. Return: 0, or a negative errno. */
static int copy_flags(int from, int to, const char *name)
{
	int have = 0, want = 0;

	if (ioctl(from, FS_IOC_GETFLAGS, &have) != 0 || !(have & KEPT_FLAGS))
		return 0;		/* none, or no such attributes here */
	if (ioctl(to, FS_IOC_GETFLAGS, &want) != 0)
		want = 0;
	want |= have & KEPT_FLAGS;
	if (ioctl(to, FS_IOC_SETFLAGS, &want) != 0) {
		int ret = -errno;

		elfsig_err("%s: cannot keep the file's attributes (chattr): %s",
			   name, strerror(errno));
		return ret;
	}
	return 0;
}

static int keep_metadata(int fd, int from, const struct stat *st,
			 bool in_place, const char *name)
{
	mode_t mode = st->st_mode & (in_place ? 07777 : 0777);

	if (in_place && fchown(fd, st->st_uid, st->st_gid) != 0 &&
	    (st->st_uid != geteuid() || st->st_gid != getegid())) {
		elfsig_err("%s: cannot keep the file's owner: %s", name,
			   strerror(errno));
		return -EPERM;
	}
	if (fchmod(fd, mode) != 0) {
		int ret = -errno;

		elfsig_err("%s: %s", name, strerror(errno));
		return ret;
	}
	/* After fchown(), which clears security.capability. */
	if (in_place)
		copy_xattrs(from, fd);
	return in_place ? copy_flags(from, fd, name) : 0;
}

/* One line for a signed file whose ELFSIG note changes what the kernel does. */
/* Does @elf ask for an executable stack (its last PT_GNU_STACK, as binfmt_elf)? */
static bool exec_stack(const struct elfsig_elf *elf)
{
	bool exec = false;
	unsigned int i;

	for (i = 0; i < elf->phnum; i++)
		if (elf->phdrs[i].type == PT_GNU_STACK)
			exec = elf->phdrs[i].flags & PF_X;
	return exec;
}

static void warn_note(const struct elfsig_elf *elf, const char *path,
		      enum elfsig_note_state note, uint32_t flags)
{
	if (note == ELFSIG_NOTE_COVERED && (flags & ELFSIG_FLAG_ANON_EXEC))
		elfsig_err("warning: %s: carries ELFSIG_FLAG_ANON_EXEC: its image is verified at exec, but the process may map unverified code and is not a verified process",
			   path);
	else if (exec_stack(elf))
		elfsig_err("warning: %s: asks for an executable stack (PT_GNU_STACK with PF_X): the kernel will not run it verified; link it with -z noexecstack",
			   path);
	if (note == ELFSIG_NOTE_COVERED && (flags & ~ELFSIG_FLAG_ANON_EXEC))
		elfsig_err("warning: %s: its ELFSIG note sets reserved flag bits 0x%x: the kernel ignores them, a later format may not",
			   path, flags & ~ELFSIG_FLAG_ANON_EXEC);
	if (note == ELFSIG_NOTE_UNCOVERED)
		elfsig_err("warning: %s: its ELFSIG note lies outside every PT_LOAD or in a section no PT_NOTE maps: not signed, the kernel ignores it",
			   path);
}

/*
 * The input named by @at: opened in its directory, never through a
 * symbolic link, a regular file, and (with @check_id) the very file a walk
 * saw there.
 */
static int open_at(struct elfsig_elf *in, const struct elfsig_at *at,
		   bool check_id, const char *path)
{
	int fd, ret;

	fd = openat(at->dfd, at->base, O_RDONLY | O_CLOEXEC | O_NOCTTY |
		    O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0) {
		ret = -errno;
		elfsig_err("%s: %s", path, errno != ELOOP ? strerror(errno) :
			   check_id ? "changed since the walk: now a symbolic link" :
			   "changed while being signed: now a symbolic link");
		return ret;
	}
	ret = elfsig_elf_parse_fd(in, fd, path, ELFSIG_PARSE_ALL);
	if (ret) {
		close(fd);
		return ret;
	}
	if (check_id && (in->st.st_dev != at->id.dev ||
			 in->st.st_ino != at->id.ino)) {
		elfsig_err("%s: changed since the walk: another file has its name",
			   path);
		ret = -ESTALE;
	} else if (!S_ISREG(in->st.st_mode)) {
		elfsig_err("%s: not a regular file", path);
		ret = -ENOEXEC;
	}
	if (ret) {
		elfsig_elf_release(in);
		close(fd);
		in->fd = -1;
	}
	return ret;
}

/*
 * An in-place rewrite replaces the directory entry it read: check, in the
 * directory the rename will use, that the entry still names that file.
 */
static int check_entry(const struct elfsig_pending *pend,
		       const struct stat *read, const char *path)
{
	struct stat st;

	if (fstatat(pend->dfd, pend->base, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    st.st_dev == read->st_dev && st.st_ino == read->st_ino)
		return 0;
	elfsig_err("%s: changed while being signed: %s no longer names the file read",
		   path, pend->target);
	return -ESTALE;
}

/*
 * Build the output in a temporary file next to the target, complete but not
 * yet synced or renamed: elfsig_pending_commit() finishes the job.
 */
int elfsig_rewrite_prepare(const char *path, const char *out,
			   enum elfsig_hash hash, elfsig_make_sig_fn make_sig,
			   void *ctx, unsigned int flags,
			   const struct elfsig_at *at,
			   struct elfsig_pending *pend)
{
	struct elfsig_elf in, tmp;
	struct plan plan = { 0 };
	bool sign = make_sig != NULL, in_place = !out;
	uint8_t *der = NULL;
	size_t der_len = 0;
	enum elfsig_note_state note = ELFSIG_NOTE_ABSENT;
	uint32_t note_flags = 0;
	struct elfsig_at here = { .dfd = -1 };
	char *dir = NULL, *base = NULL;
	struct stat ost;
	int ret;

	memset(pend, 0, sizeof(*pend));
	pend->fd = -1;
	pend->dfd = -1;
	pend->name = path;
	memset(&in, 0, sizeof(in));
	in.fd = -1;
	memset(&tmp, 0, sizeof(tmp));
	tmp.fd = -1;
	if (!out && !at) {
		/*
		 * In place follows symbolic links: the file they point to is
		 * replaced. Its directory is opened once; the input is read
		 * and replaced there, so no later change to the path can put
		 * what was read from one directory into another.
		 */
		char *real = realpath(path, NULL);

		if (!real) {
			ret = -errno;
			elfsig_err("%s: %s", path, strerror(errno));
			return ret;
		}
		ret = elfsig_open_dir_of(real, &dir, &base, &here.dfd);
		free(real);
		if (ret) {
			elfsig_err("%s: cannot open its directory: %s", path,
				   strerror(-ret));
			return ret;
		}
		here.base = base;
	}
	if (at)
		ret = open_at(&in, at, true, path);
	else if (here.dfd >= 0)
		ret = open_at(&in, &here, false, path);
	else
		ret = elfsig_elf_open(&in, path, path, ELFSIG_PARSE_ALL);
	if (ret) {
		in.fd = -1;	/* closed by the failed open */
		goto out;
	}

	if (!sign && in.sig_index < 0) {
		elfsig_err("%s: not signed", path);
		ret = -ENODATA;
		goto out;
	}
	if (out) {
		ret = elfsig_check_output(out, &ost);
		if (ret < 0)
			goto out;
		if (ret == 1 && ost.st_dev == in.st.st_dev &&
		    ost.st_ino == in.st.st_ino)
			in_place = true;
	}
	ret = plan_sections(&in, sign, &plan);
	if (ret) {
		if (ret == -ENOMEM)
			elfsig_err("%s: out of memory", path);
		goto out;
	}
	plan_cut(&in, &plan);

	/* A walk's file is its own name in its directory, never a link's target. */
	if (out)
		ret = elfsig_pending_create(out, path, pend);
	else if (at)
		ret = elfsig_pending_create_at(at->dfd, NULL, at->base, path,
					       path, pend);
	else
		ret = elfsig_pending_create_at(here.dfd, dir, base, path, path,
					       pend);
	if (!ret && in_place)
		ret = check_entry(pend, &in.st, path);
	if (ret)
		goto out;
	ret = copy_prefix(in.fd, pend->fd, plan.cut, path);
	if (ret)
		goto out;

	/* From here on, the temporary file is the truth. */
	ret = elfsig_elf_parse_fd(&tmp, pend->fd, path, ELFSIG_PARSE_SEGMENTS);
	if (ret)
		goto out;
	if (sign) {
		uint8_t digest[ELFSIG_MAX_DIGEST], msg[ELFSIG_MAX_MESSAGE];
		size_t dlen, mlen;

		/* The note as it will be signed: that of the temporary file. */
		ret = elfsig_elf_flags(&tmp, &note, &note_flags);
		if (!ret && note == ELFSIG_NOTE_ABSENT) {
			/* Only to warn: a note section no PT_NOTE maps (the
			 * input's sections, the temporary has none parsed). */
			enum elfsig_note_state sec = ELFSIG_NOTE_ABSENT;
			uint32_t sec_flags = 0;

			if (elfsig_elf_flags(&in, &sec, &sec_flags) == 0 &&
			    sec == ELFSIG_NOTE_UNCOVERED)
				note = sec;
		}
		if (!ret)
			ret = elfsig_elf_digest(&tmp, hash, digest, &dlen);
		if (!ret)
			ret = elfsig_build_message(hash, digest, dlen, msg, &mlen);
		if (!ret)
			ret = make_sig(ctx, msg, mlen, &der, &der_len);
		if (ret)
			goto out;
		if (der_len == 0 || der_len > ELFSIG_MAX_SIG_SIZE) {
			elfsig_err("%s: signature of %zu bytes exceeds the %u-byte limit",
				   path, der_len, ELFSIG_MAX_SIG_SIZE);
			ret = -EFBIG;
			goto out;
		}
	}
	ret = write_tail(&tmp, &plan, der, der_len, path);
	if (!ret)
		ret = self_check(pend->fd, &tmp, sign, der_len, path);
	if (!ret)
		ret = keep_metadata(pend->fd, in.fd, &in.st, in_place, path);
	if (!ret && sign)
		warn_note(&tmp, path, note, note_flags);
out:
	if (ret)
		elfsig_pending_abort(pend);
	elfsig_elf_release(&tmp);
	elfsig_elf_release(&in);
	if (in.fd >= 0)
		close(in.fd);
	if (here.dfd >= 0)
		close(here.dfd);
	free(dir);
	free(base);
	free(der);
	free(plan.shdrs);
	free(plan.strtab);
	return ret;
}

/*
 * Open the directory of @path (@dfd); @dir is its path, @base @path's last
 * component in it. All three are set on success only.
 * Return: 0, -ENOMEM, -EISDIR (no last component), or open()'s -errno.
 */
int elfsig_open_dir_of(const char *path, char **dir, char **base, int *dfd)
{
	char *copy = strdup(path), *d = NULL, *b = NULL;
	int fd, ret;

	*dir = NULL;
	*base = NULL;
	*dfd = -1;
	if (!copy)
		return -ENOMEM;
	d = strdup(dirname(copy));
	free(copy);
	b = strdup(elfsig_basename(path));
	ret = !d || !b ? -ENOMEM : !*b ? -EISDIR : 0;
	if (!ret) {
		fd = open(d, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			ret = -errno;
	}
	if (ret) {
		free(d);
		free(b);
		return ret;
	}
	*dir = d;
	*base = b;
	*dfd = fd;
	return 0;
}

/*
 * Make a new entry ".BASE.elfsig-XXXXXXXX" in @dfd with @make (which
 * fails with -EEXIST when the name is taken), trying other names.
 * Return: what @make returned, with @name set unless it failed.
 */
int elfsig_tmp_name(int dfd, const char *base, char **name,
		    int (*make)(int dfd, const char *name, void *ctx),
		    void *ctx)
{
	uint32_t r;
	int i, ret = -EEXIST;

	*name = NULL;
	for (i = 0; i < 100 && ret == -EEXIST; i++) {
		free(*name);
		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			r = (uint32_t)random();
		/* Within NAME_MAX whatever @base's length: cut it short. */
		if (asprintf(name, ".%.*s.elfsig-%08x", TMP_BASE_MAX, base, r) < 0) {
			*name = NULL;
			return -ENOMEM;
		}
		ret = make(dfd, *name, ctx);
	}
	if (ret < 0) {
		free(*name);
		*name = NULL;
	}
	return ret;
}

static int make_tmp_file(int dfd, const char *name, void *ctx)
{
	int fd = openat(dfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
			O_CLOEXEC, 0600);

	(void)ctx;
	return fd < 0 ? -errno : fd;
}

/*
 * Start replacing @base in the open directory @dfd (@dir its path, or NULL
 * when @target's own directory part names it; @target and @name are for
 * messages): a new, empty temporary file beside it, named
 * ".NAME.elfsig-XXXXXXXX". The pending file holds its own descriptor of
 * the directory, and the rename happens in it.
 */
int elfsig_pending_create_at(int dfd, const char *dir, const char *base,
			     const char *target, const char *name,
			     struct elfsig_pending *pend)
{
	char *tmpname = NULL, *tmp;
	int ret;

	memset(pend, 0, sizeof(*pend));
	pend->fd = -1;
	pend->name = name;
	pend->dfd = fcntl(dfd, F_DUPFD_CLOEXEC, 0);
	if (pend->dfd < 0) {
		ret = -errno;
		elfsig_err("%s: %s", name, strerror(errno));
		goto fail;
	}
	if (dir) {
		pend->dir = strdup(dir);
	} else {
		char *copy = strdup(target);

		pend->dir = copy ? strdup(dirname(copy)) : NULL;
		free(copy);
	}
	pend->base = strdup(base);
	pend->target = strdup(target);
	if (!pend->dir || !pend->base || !pend->target) {
		ret = -ENOMEM;
		elfsig_err("%s: out of memory", name);
		goto fail;
	}
	ret = elfsig_tmp_name(pend->dfd, base, &tmpname, make_tmp_file, NULL);
	pend->tmpname = tmpname;
	if (ret < 0) {
		elfsig_err("%s: cannot create a file in %s: %s", name,
			   pend->dir, strerror(-ret));
		goto fail;
	}
	pend->fd = ret;
	/* Into a local: a field's address handed out would lose the others. */
	if (asprintf(&tmp, "%s/%s", pend->dir, tmpname) < 0) {
		ret = -ENOMEM;
		elfsig_err("%s: out of memory", name);
		goto fail;
	}
	pend->tmp = tmp;
	return 0;
fail:
	elfsig_pending_abort(pend);
	return ret;
}

/* elfsig_pending_create_at() in the directory of the path @target. */
int elfsig_pending_create(const char *target, const char *name,
			  struct elfsig_pending *pend)
{
	char *dir = NULL, *base = NULL;
	int dfd, ret;

	memset(pend, 0, sizeof(*pend));
	pend->fd = -1;
	pend->dfd = -1;
	ret = elfsig_open_dir_of(target, &dir, &base, &dfd);
	if (ret) {
		if (ret == -ENOMEM)
			elfsig_err("%s: out of memory", name);
		else
			elfsig_err("%s: cannot open the directory of %s: %s",
				   name, target, strerror(-ret));
		return ret;
	}
	ret = elfsig_pending_create_at(dfd, dir, base, target, name, pend);
	close(dfd);
	free(dir);
	free(base);
	return ret;
}

void elfsig_pending_abort(struct elfsig_pending *pend)
{
	if (pend->fd >= 0)
		close(pend->fd);
	if (pend->tmpname && pend->dfd >= 0)
		unlinkat(pend->dfd, pend->tmpname, 0);
	if (pend->dfd >= 0)
		close(pend->dfd);
	free(pend->tmp);
	free(pend->tmpname);
	free(pend->target);
	free(pend->base);
	free(pend->dir);
	memset(pend, 0, sizeof(*pend));
	pend->fd = -1;
	pend->dfd = -1;
}

/*
 * Rename the temporary file over the target. With @sync, fsync it first;
 * a batch passes false after one syncfs() covered every file. With
 * @sync_dir, fsync the directory after the rename (a batch: once each).
 */
int elfsig_pending_commit(struct elfsig_pending *pend, bool sync,
			  bool sync_dir)
{
	int ret = 0;

	if (sync && fsync(pend->fd) != 0) {
		ret = -errno;
		elfsig_err("%s: %s", pend->name, strerror(errno));
		goto fail;
	}
	if (renameat(pend->dfd, pend->tmpname, pend->dfd, pend->base) != 0) {
		ret = -errno;
		elfsig_err("%s: cannot replace %s: %s", pend->name, pend->target,
			   strerror(errno));
		goto fail;
	}
	free(pend->tmpname);
	pend->tmpname = NULL;
	if (sync_dir)
		(void)fsync(pend->dfd);
fail:
	elfsig_pending_abort(pend);
	return ret;
}

int elfsig_rewrite(const char *path, const char *out, enum elfsig_hash hash,
		   elfsig_make_sig_fn make_sig, void *ctx, unsigned int flags)
{
	struct elfsig_pending pend;
	int ret;

	ret = elfsig_rewrite_prepare(path, out, hash, make_sig, ctx, flags, NULL,
				     &pend);
	if (ret)
		return ret;
	return elfsig_pending_commit(&pend, true, true);
}

/*
 * Commit many prepared files with one syncfs() per file system instead of
 * one fsync() each (a journal commit apiece): every temporary file is on
 * stable storage before the first rename, so each file still ends up
 * either old or new, never torn. Entries whose results[i] is non-zero are
 * skipped.
 */
void elfsig_pending_commit_all(struct elfsig_pending *p, size_t n, int *results)
{
	dev_t devs[64];
	size_t ndev = 0, i, j;
	struct stat st;

	for (i = 0; i < n; i++) {
		bool seen = false;

		if (results[i])
			continue;
		if (fstat(p[i].fd, &st) != 0) {
			results[i] = -errno;
			elfsig_err("%s: %s", p[i].name, strerror(errno));
			elfsig_pending_abort(&p[i]);
			continue;
		}
		for (j = 0; j < ndev; j++)
			seen |= devs[j] == st.st_dev;
		if (seen && ndev < sizeof(devs) / sizeof(devs[0]))
			continue;
		if (syncfs(p[i].fd) != 0) {
			results[i] = -errno;
			elfsig_err("%s: %s", p[i].name, strerror(errno));
			elfsig_pending_abort(&p[i]);
			continue;
		}
		if (ndev < sizeof(devs) / sizeof(devs[0]))
			devs[ndev++] = st.st_dev;
	}
	for (i = 0; i < n; i++) {
		char *dir;
		bool seen = false;

		if (results[i])
			continue;
		dir = p[i].dir;
		p[i].dir = NULL;
		for (j = 0; j < i && dir; j++)
			seen |= !results[j] && p[j].dir && !strcmp(p[j].dir, dir);
		/* The directory once, through the descriptor already open. */
		results[i] = elfsig_pending_commit(&p[i], false, !seen);
		/* Keep the name to skip the same directory later. */
		p[i].dir = results[i] ? NULL : dir;
		if (results[i])
			free(dir);
	}
	for (i = 0; i < n; i++) {
		free(p[i].dir);
		p[i].dir = NULL;
	}
}
