// SPDX-License-Identifier: GPL-2.0-only
/*
 * kfuzz.c - the kernel's own parser (fs/elfsig/parse.c of the patched
 * source, compiled unmodified against tests/kfuzz/include) on arbitrary
 * files, and differentially against libelfsig: whatever the signer
 * accepts as a signed file, the kernel must find the same signature in.
 *
 * The harness reads the ELF header and program headers as binfmt_elf does
 * (elf_read_phdrs' checks), then calls elfsig_check_image(),
 * elfsig_find_section() and elfsig_pkcs7_hash_algo().
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
static unsigned long n_signed, n_unsigned, n_refused, n_agree;

void fuzz_report(void)
{
	printf("kernel parser: %lu signed, %lu unsigned, %lu refused; "
	       "%lu signed files agreed with libelfsig\n",
	       n_signed, n_unsigned, n_refused, n_agree);
}

static void check_kernel(struct file *file, struct lib_view *lib)
{
	struct elfhdr ehdr;
	struct elf_phdr *phdrs = NULL;
	struct elfsig_section sec = { 0 };
	const char *why = NULL;
	enum hash_algo algo = HASH_ALGO__LAST;
	u8 *der = NULL;
	int found = -1, shape = -1;
	u64 phtsize;

	/* What binfmt_elf checks before any elfsig code runs. */
	if (elfsig_read(file, &ehdr, sizeof(ehdr), 0) ||
	    memcmp(ehdr.e_ident, ELFMAG, SELFMAG) ||
	    ehdr.e_ident[EI_CLASS] != ELFCLASS64 ||
	    (ehdr.e_type != ET_EXEC && ehdr.e_type != ET_DYN) ||
	    ehdr.e_phentsize != sizeof(struct elf_phdr))
		goto out;
	phtsize = (u64)ehdr.e_phnum * sizeof(struct elf_phdr);
	if (phtsize == 0 || phtsize > 65536)
		goto out;
	phdrs = malloc(phtsize);
	if (!phdrs || elfsig_read(file, phdrs, phtsize, ehdr.e_phoff))
		goto out;

	if (elfsig_check_image(file, &ehdr, phdrs, &why))
		goto out;
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
