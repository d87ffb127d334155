// SPDX-License-Identifier: GPL-2.0-only
/*
 * kfuzz.c - the kernel's own parser (fs/elfsig/parse.c of the patched
 * source, compiled unmodified against tests/kfuzz/include) on arbitrary
 * files, and differentially against libelfsig: whatever the signer
 * accepts as a signed file, the kernel must find the same signature in.
 *
 * The harness reads the ELF header and program headers as binfmt_elf does
 * (elf_read_phdrs' checks), then calls elfsig_check_image(),
 * elfsig_find_section() and elfsig_pkcs7_hash_algo(). An ELF32 file's
 * headers are widened to the native types first, as fs/elfsig/exec.c
 * does for the compat ELF loader (compat_binfmt_elf). Every file is also
 * read as a library mapped by a task of either class is
 * (elfsig_read_headers()), and compared with the file's bytes, with what
 * libelfsig read of its headers, and with the exec path's read.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>

#include "elfsig_private.h"	/* the kernel's, from fs/elfsig/ */

/* What libelfsig says, from kfuzz_lib.c: the kernel's headers and
 * libelfsig's cannot share a translation unit. */
#include "kfuzz_view.h"

/* The signer id (for the kernel's cache) points inside the section only. */
static bool inside(const u8 *p, size_t n, const u8 *der, size_t len)
{
	return p >= der && n <= len && (size_t)(p - der) <= len - n;
}

static void check_signer(const u8 *der, size_t len, int shape,
			 enum hash_algo algo)
{
	struct elfsig_signer who;
	enum hash_algo algo2 = 0;

	if (elfsig_pkcs7_parse(der, len, &algo2, &who) != shape ||
	    (shape == 0 && algo2 != algo))
		abort();	/* the two entry points must agree */
	if (shape || !who.id)
		return;
	if (!who.id_len || !inside(who.id, who.id_len, der, len) ||
	    (who.issuer && !inside(who.issuer, who.issuer_len, der, len)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
void fuzz_report(void);

/* What the kernel's parser said, for the replay summary. */
static unsigned long n_signed, n_unsigned, n_refused, n_agree, n_agree32;
static unsigned long n_notes, n_notes_bad, n_notes_agree;
static unsigned long n_hdrs64, n_hdrs32, n_hdrs_refused, n_hdrs_short,
		     n_hdrs_unreadable, n_hdrs_lib, n_hdrs_exec;

void fuzz_report(void)
{
	printf("kernel parser: %lu signed, %lu unsigned, %lu refused; "
	       "%lu signed files agreed with libelfsig, %lu of them ELF32\n",
	       n_signed, n_unsigned, n_refused, n_agree, n_agree32);
	printf("kernel note parser: %lu files read, %lu malformed; "
	       "%lu agreed with libelfsig\n",
	       n_notes, n_notes_bad, n_notes_agree);
	printf("kernel header reader: %lu read as ELF64, %lu as ELF32, "
	       "%lu refused (%lu short, %lu unreadable); %lu agreed with "
	       "libelfsig, %lu with the exec path\n",
	       n_hdrs64, n_hdrs32, n_hdrs_refused, n_hdrs_short,
	       n_hdrs_unreadable, n_hdrs_lib, n_hdrs_exec);
}

/*
 * The headers the reader must have read from the file's bytes: the ELF
 * header at 0 and the table at e_phoff, an ELF32 file's widened by the
 * kernel's elfsig_widen_headers(). Return: the table, or NULL.
 */
static struct elf_phdr *file_headers(const u8 *data, bool is32, u64 phoff,
				     unsigned int phnum, struct elfhdr *ehdr)
{
	struct elf_phdr *phdrs = calloc(phnum, sizeof(*phdrs));
	struct elf32_phdr *p32;
	struct elf32_hdr e32;

	if (!phdrs)
		return NULL;
	if (!is32) {
		memcpy(ehdr, data, sizeof(*ehdr));
		memcpy(phdrs, data + phoff, phnum * sizeof(*phdrs));
		return phdrs;
	}
	p32 = calloc(phnum, sizeof(*p32));
	if (!p32) {
		free(phdrs);
		return NULL;
	}
	memcpy(&e32, data, sizeof(e32));
	memcpy(p32, data + phoff, phnum * sizeof(*p32));
	memset(ehdr, 0, sizeof(*ehdr));
	elfsig_widen_headers(ehdr, phdrs, &e32, p32);
	free(p32);
	return phdrs;
}

/* libelfsig read the same headers (it read a little-endian file). */
static bool lib_same_headers(const struct lib_view *lib,
			     const struct elfsig_wide *w)
{
	const struct elfhdr *e = &w->ehdr;
	unsigned int i;

	if (e->e_type != lib->type || e->e_ehsize != lib->ehsize ||
	    e->e_phentsize != lib->phentsize || e->e_phnum != lib->phnum ||
	    e->e_phoff != lib->phoff || e->e_shoff != lib->shoff)
		return false;
	for (i = 0; i < e->e_phnum; i++) {
		const struct elf_phdr *p = &w->phdrs[i];
		const struct lib_phdr *q = &lib->phdrs[i];

		if (p->p_type != q->type || p->p_flags != q->flags ||
		    p->p_offset != q->offset || p->p_vaddr != q->vaddr ||
		    p->p_filesz != q->filesz || p->p_memsz != q->memsz ||
		    p->p_align != q->align)
			return false;
	}
	return true;
}

/*
 * A library's headers as mmap() in a task of @elf_class reads them
 * (elfsig_read_headers()). A read is of the file's own bytes and within
 * the reader's checks; a refusal is one of the reasons it names and
 * leaves no headers. Differential: headers libelfsig read are read the
 * same by the reader of their class and refused by the other.
 */
static void check_headers(struct file *file, const u8 *data, size_t size,
			  int elf_class, const struct lib_view *lib)
{
	static struct elfsig_wide unset;
	bool is32 = elf_class == ELFCLASS32;
	size_t ehsize = is32 ? sizeof(struct elf32_hdr) : sizeof(struct elfhdr);
	size_t phsize = is32 ? sizeof(struct elf32_phdr) : sizeof(struct elf_phdr);
	struct elfsig_wide *w = &unset;
	struct elf_phdr *phdrs;
	struct elfhdr ehdr;
	u64 pht;
	int ret;

	ret = elfsig_read_headers(file, elf_class, &w);
	if (ret) {
		if (w || (ret != -ENOEXEC && ret != -EIO && ret != -EINVAL))
			abort();
		if (lib->hdr_class == elf_class)
			abort();	/* headers libelfsig could read */
		n_hdrs_refused++;
		n_hdrs_short += ret == -EIO;
		n_hdrs_unreadable += ret == -EINVAL;
		return;
	}
	if (!w || w == &unset)
		abort();
	pht = (u64)w->ehdr.e_phnum * phsize;
	if (w->ehdr.e_ident[EI_CLASS] != elf_class ||
	    w->ehdr.e_phentsize != phsize || !w->ehdr.e_phnum ||
	    pht > ELFSIG_MAX_PHT_SIZE || size < ehsize ||
	    w->ehdr.e_phoff > size || pht > size - w->ehdr.e_phoff)
		abort();	/* outside the checks, or past the file */
	phdrs = file_headers(data, is32, w->ehdr.e_phoff, w->ehdr.e_phnum,
			     &ehdr);
	if (!phdrs || memcmp(&ehdr, &w->ehdr, sizeof(ehdr)) ||
	    memcmp(phdrs, w->phdrs, w->ehdr.e_phnum * sizeof(*phdrs)))
		abort();	/* not the file's bytes */
	free(phdrs);
	if (lib->hdr_class && lib->hdr_class != elf_class)
		abort();	/* libelfsig read it as the other class */
	if (lib->hdr_class == elf_class) {
		if (!lib_same_headers(lib, w))
			abort();
		n_hdrs_lib++;
	}
	if (is32)
		n_hdrs32++;
	else
		n_hdrs64++;
	free(w);
}

/*
 * What the exec path read (binfmt_elf's checks are stricter), the reader
 * of the same class reads the same.
 */
static void check_headers_exec(struct file *file, const struct elfhdr *ehdr,
			       const struct elf_phdr *phdrs)
{
	struct elfsig_wide *w;

	if (elfsig_read_headers(file, ehdr->e_ident[EI_CLASS], &w) ||
	    memcmp(&w->ehdr, ehdr, sizeof(*ehdr)) ||
	    memcmp(w->phdrs, phdrs, ehdr->e_phnum * sizeof(*phdrs)))
		abort();
	free(w);
	n_hdrs_exec++;
}

/*
 * The ELFSIG note, read by the kernel's parser from the file itself (the
 * verified copy has the same offsets). Differential: where libelfsig
 * parsed the file too, the two must call the same notes malformed and
 * find the same flags.
 */
static void check_notes(struct file *file, const struct elfhdr *ehdr,
			const struct elf_phdr *phdrs, const struct lib_view *lib)
{
	u32 flags = 0xdead;
	int ret;

	ret = elfsig_note_flags(file, ehdr, phdrs, &flags);
	if (ret && ret != -EBADMSG && ret != -EIO)
		abort();	/* nothing else can fail here */
	if (ret && flags)
		abort();	/* no flags from malformed notes */
	n_notes++;
	n_notes_bad += ret == -EBADMSG;
	if (!lib->parsed)
		return;
	if (ret != lib->note_ret || (!ret && flags != lib->note_flags))
		abort();
	n_notes_agree++;
}

/*
 * The program header table, with binfmt_elf's checks (load_elf_binary()
 * and elf_read_phdrs()): an executable or shared object, entries of the
 * class's size, 1 to 64 KiB of them. Return: the table, or NULL.
 */
static void *read_phdrs(struct file *file, unsigned int type,
			unsigned int phentsize, unsigned int phnum, u64 phoff,
			size_t entsize)
{
	u64 phtsize = (u64)phnum * entsize;
	void *p;

	if ((type != ET_EXEC && type != ET_DYN) || phentsize != entsize ||
	    phtsize == 0 || phtsize > 65536)
		return NULL;
	p = malloc(phtsize);
	if (p && elfsig_read(file, p, phtsize, phoff)) {
		free(p);
		p = NULL;
	}
	return p;
}

/*
 * An ELF32 file's headers as the compat ELF loader reads them (its
 * elf_read_phdrs() checks), widened to the native types by the kernel's
 * own elfsig_widen_headers(). Return: the program headers, or NULL when
 * binfmt_elf would not get to elfsig.
 */
static struct elf_phdr *read_elf32(struct file *file, struct elfhdr *ehdr)
{
	struct elf32_hdr e32;
	struct elf32_phdr *p32;
	struct elf_phdr *phdrs;

	if (elfsig_read(file, &e32, sizeof(e32), 0))
		return NULL;
	p32 = read_phdrs(file, e32.e_type, e32.e_phentsize, e32.e_phnum,
			 e32.e_phoff, sizeof(*p32));
	phdrs = p32 ? malloc(e32.e_phnum * sizeof(*phdrs)) : NULL;
	if (phdrs)
		elfsig_widen_headers(ehdr, phdrs, &e32, p32);
	free(p32);
	return phdrs;
}

static void check_kernel(struct file *file, struct lib_view *lib)
{
	struct elfhdr ehdr = { 0 };
	struct elf_phdr *phdrs = NULL;
	struct elfsig_section sec = { 0 };
	const char *why = NULL;
	enum hash_algo algo = HASH_ALGO__LAST;
	u8 *der = NULL;
	int found = -1, shape = -1;

	/* What binfmt_elf (or compat_binfmt_elf) checks before elfsig runs. */
	if (elfsig_read(file, &ehdr, EI_NIDENT, 0) ||
	    memcmp(ehdr.e_ident, ELFMAG, SELFMAG))
		goto out;
	if (ehdr.e_ident[EI_CLASS] == ELFCLASS32) {
		phdrs = read_elf32(file, &ehdr);
		if (!phdrs)
			goto out;
	} else {
		if (elfsig_read(file, &ehdr, sizeof(ehdr), 0) ||
		    ehdr.e_ident[EI_CLASS] != ELFCLASS64)
			goto out;
		phdrs = read_phdrs(file, ehdr.e_type, ehdr.e_phentsize,
				   ehdr.e_phnum, ehdr.e_phoff, sizeof(*phdrs));
		if (!phdrs)
			goto out;
	}

	check_headers_exec(file, &ehdr, phdrs);
	if (elfsig_check_image(file, &ehdr, phdrs, &why))
		goto out;
	check_notes(file, &ehdr, phdrs, lib);
	found = elfsig_find_section(file, &ehdr, phdrs, &sec, &why);
	if (found == 1) {
		if (sec.size == 0 || sec.size > ELFSIG_MAX_SIG_SIZE)
			abort();	/* the parser promised a bounded section */
		der = malloc(sec.size);
		if (!der || elfsig_read(file, der, sec.size, sec.offset))
			abort();	/* and one inside the file */
		shape = elfsig_pkcs7_hash_algo(der, sec.size, &algo);
		check_signer(der, sec.size, shape, algo);
	}
out:
	/*
	 * Differential: a file libelfsig calls signed and well-formed must be
	 * signed, at the same place and with the same hash, for the kernel.
	 */
	if (lib->signed_ok &&
	    (found != 1 || shape != 0 || (u64)sec.offset != lib->offset ||
	     sec.size != lib->size || (int)algo != lib->hash))
		abort();
	n_agree += lib->signed_ok;
	if (lib->signed_ok && ehdr.e_ident[EI_CLASS] == ELFCLASS32)
		n_agree32++;
	if (found == 1 && shape == 0)
		n_signed++;
	else if (found == 0)
		n_unsigned++;
	else
		n_refused++;
	free(der);
	free(phdrs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lib_view lib = { 0 };
	struct file file;
	size_t done = 0;
	int fd;

	fd = memfd_create("kfuzz", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);

		if (n <= 0)
			goto out;
		done += (size_t)n;
	}
	kfuzz_lib_view(fd, &lib);
	file.fd = fd;
	file.inode.i_size = size;
	check_headers(&file, data, size, ELFCLASS64, &lib);
	check_headers(&file, data, size, ELFCLASS32, &lib);
	check_kernel(&file, &lib);
	free(lib.phdrs);
out:
	close(fd);
	return 0;
}
