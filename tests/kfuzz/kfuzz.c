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
 * does for the compat ELF loader (compat_binfmt_elf).
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>

#include "elfsig_private.h"	/* the kernel's, from fs/elfsig/ */

/* libelfsig internals, declared by hand: the kernel's headers and
 * libelfsig's cannot share a translation unit. */
struct lib_view {
	int signed_ok;		/* 1: well-formed and signed, PKCS#7 shape ok */
	uint64_t offset, size;
	int hash;
	int parsed;		/* 1: a little-endian file libelfsig parsed */
	int note_ret;		/* its ELFSIG note: 0 or a negative errno */
	uint32_t note_flags;	/* the flags the kernel must apply */
};
int kfuzz_lib_view(int fd, struct lib_view *v);

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

void fuzz_report(void)
{
	printf("kernel parser: %lu signed, %lu unsigned, %lu refused; "
	       "%lu signed files agreed with libelfsig, %lu of them ELF32\n",
	       n_signed, n_unsigned, n_refused, n_agree, n_agree32);
	printf("kernel note parser: %lu files read, %lu malformed; "
	       "%lu agreed with libelfsig\n",
	       n_notes, n_notes_bad, n_notes_agree);
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
	check_kernel(&file, &lib);
out:
	close(fd);
	return 0;
}
