// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * elf.c - a strict, bounds-checked ELF reader for any class and byte order.
 *
 * Every offset and size comes from an untrusted file: each is checked against
 * the file size with overflow-safe arithmetic before anything is read, and no
 * allocation is larger than a fixed limit or the file itself.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib_private.h"

static uint16_t get16(const struct elfsig_elf *elf, const uint8_t *p)
{
	return elf->big_endian ? (uint16_t)(p[0] << 8 | p[1])
			       : (uint16_t)(p[1] << 8 | p[0]);
}

static uint32_t get32(const struct elfsig_elf *elf, const uint8_t *p)
{
	if (elf->big_endian)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		       (uint32_t)p[2] << 8 | p[3];
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[1] << 8 | p[0];
}

uint32_t elfsig_get32(const struct elfsig_elf *elf, const uint8_t *p)
{
	return get32(elf, p);
}

static uint64_t get64(const struct elfsig_elf *elf, const uint8_t *p)
{
	uint64_t hi = get32(elf, elf->big_endian ? p : p + 4);
	uint64_t lo = get32(elf, elf->big_endian ? p + 4 : p);

	return hi << 32 | lo;
}

/* An address-sized field: 4 bytes in ELF32, 8 in ELF64. */
static uint64_t getword(const struct elfsig_elf *elf, const uint8_t *p)
{
	return elf->is64 ? get64(elf, p) : get32(elf, p);
}

void elfsig_put_half(const struct elfsig_elf *elf, uint8_t *p, uint16_t v)
{
	if (elf->big_endian) {
		p[0] = (uint8_t)(v >> 8);
		p[1] = (uint8_t)v;
	} else {
		p[0] = (uint8_t)v;
		p[1] = (uint8_t)(v >> 8);
	}
}

static void put32(const struct elfsig_elf *elf, uint8_t *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		p[elf->big_endian ? 3 - i : i] = (uint8_t)(v >> (8 * i));
}

static void put64(const struct elfsig_elf *elf, uint8_t *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[elf->big_endian ? 7 - i : i] = (uint8_t)(v >> (8 * i));
}

void elfsig_put_off(const struct elfsig_elf *elf, uint8_t *p, uint64_t v)
{
	if (elf->is64)
		put64(elf, p, v);
	else
		put32(elf, p, (uint32_t)v);
}

/* Offsets of the header fields that differ between the classes. */
struct ehdr_layout {
	size_t size, phoff, shoff, ehsize, phentsize, phnum, shentsize, shnum,
	       shstrndx, phdr_size, shdr_size;
};

static const struct ehdr_layout layout32 = {
	.size = sizeof(Elf32_Ehdr),
	.phoff = offsetof(Elf32_Ehdr, e_phoff),
	.shoff = offsetof(Elf32_Ehdr, e_shoff),
	.ehsize = offsetof(Elf32_Ehdr, e_ehsize),
	.phentsize = offsetof(Elf32_Ehdr, e_phentsize),
	.phnum = offsetof(Elf32_Ehdr, e_phnum),
	.shentsize = offsetof(Elf32_Ehdr, e_shentsize),
	.shnum = offsetof(Elf32_Ehdr, e_shnum),
	.shstrndx = offsetof(Elf32_Ehdr, e_shstrndx),
	.phdr_size = sizeof(Elf32_Phdr),
	.shdr_size = sizeof(Elf32_Shdr),
};

static const struct ehdr_layout layout64 = {
	.size = sizeof(Elf64_Ehdr),
	.phoff = offsetof(Elf64_Ehdr, e_phoff),
	.shoff = offsetof(Elf64_Ehdr, e_shoff),
	.ehsize = offsetof(Elf64_Ehdr, e_ehsize),
	.phentsize = offsetof(Elf64_Ehdr, e_phentsize),
	.phnum = offsetof(Elf64_Ehdr, e_phnum),
	.shentsize = offsetof(Elf64_Ehdr, e_shentsize),
	.shnum = offsetof(Elf64_Ehdr, e_shnum),
	.shstrndx = offsetof(Elf64_Ehdr, e_shstrndx),
	.phdr_size = sizeof(Elf64_Phdr),
	.shdr_size = sizeof(Elf64_Shdr),
};

static const struct ehdr_layout *layout(const struct elfsig_elf *elf)
{
	return elf->is64 ? &layout64 : &layout32;
}

size_t elfsig_shdr_size(const struct elfsig_elf *elf)
{
	return layout(elf)->shdr_size;
}

static int parse_ehdr(struct elfsig_elf *elf)
{
	const struct ehdr_layout *l;
	const char *n = elf->name;
	uint8_t ident[EI_NIDENT];
	int ret;

	if (elf->size < EI_NIDENT) {
		elfsig_err("%s: not an ELF file (%llu bytes)", n,
			   (unsigned long long)elf->size);
		return -ENOEXEC;
	}
	ret = elfsig_pread_full(elf->fd, ident, EI_NIDENT, 0, n);
	if (ret)
		return ret;
	if (memcmp(ident, ELFMAG, SELFMAG) != 0) {
		elfsig_err("%s: not an ELF file", n);
		return -ENOEXEC;
	}
	if (ident[EI_CLASS] != ELFCLASS32 && ident[EI_CLASS] != ELFCLASS64) {
		elfsig_err("%s: unsupported ELF class %u", n, ident[EI_CLASS]);
		return -ENOEXEC;
	}
	if (ident[EI_DATA] != ELFDATA2LSB && ident[EI_DATA] != ELFDATA2MSB) {
		elfsig_err("%s: unsupported ELF byte order %u", n, ident[EI_DATA]);
		return -ENOEXEC;
	}
	if (ident[EI_VERSION] != EV_CURRENT) {
		elfsig_err("%s: unsupported ELF version %u", n, ident[EI_VERSION]);
		return -ENOEXEC;
	}
	elf->is64 = ident[EI_CLASS] == ELFCLASS64;
	elf->big_endian = ident[EI_DATA] == ELFDATA2MSB;
	l = layout(elf);

	if (elf->size < l->size) {
		elfsig_err("%s: ELF header truncated (%llu bytes)", n,
			   (unsigned long long)elf->size);
		return -EBADMSG;
	}
	ret = elfsig_pread_full(elf->fd, elf->ehdr, l->size, 0, n);
	if (ret)
		return ret;

	elf->type = get16(elf, elf->ehdr + offsetof(Elf32_Ehdr, e_type));
	if (elf->type != ET_EXEC && elf->type != ET_DYN) {
		elfsig_err("%s: not an executable (e_type %u)", n, elf->type);
		return -ENOEXEC;
	}
	elf->ehsize = get16(elf, elf->ehdr + l->ehsize);
	if (elf->ehsize != l->size) {
		elfsig_err("%s: e_ehsize %u is not the size of an ELF%d header",
			   n, elf->ehsize, elf->is64 ? 64 : 32);
		return -EBADMSG;
	}
	elf->phoff = getword(elf, elf->ehdr + l->phoff);
	elf->phentsize = get16(elf, elf->ehdr + l->phentsize);
	elf->phnum = get16(elf, elf->ehdr + l->phnum);
	elf->shoff = getword(elf, elf->ehdr + l->shoff);

	/* N(ehdr): the header as signed, without the section table fields. */
	memcpy(elf->nehdr, elf->ehdr, l->size);
	memset(elf->nehdr + l->shoff, 0, elf->is64 ? 8 : 4);
	memset(elf->nehdr + l->shentsize, 0, 2);
	memset(elf->nehdr + l->shnum, 0, 2);
	memset(elf->nehdr + l->shstrndx, 0, 2);
	return 0;
}

static int parse_phdrs(struct elfsig_elf *elf)
{
	const struct ehdr_layout *l = layout(elf);
	const char *n = elf->name;
	uint64_t pht_size;
	uint8_t *raw;
	unsigned int i;
	int ret;

	if (elf->phentsize != l->phdr_size) {
		elfsig_err("%s: e_phentsize %u is not the size of a program header",
			   n, elf->phentsize);
		return -EBADMSG;
	}
	if (elf->phnum == 0 || elf->phnum == PN_XNUM) {
		elfsig_err("%s: unsupported program header count %u", n, elf->phnum);
		return -EBADMSG;
	}
	pht_size = (uint64_t)elf->phnum * elf->phentsize;
	if (pht_size > ELFSIG_MAX_PHT_SIZE) {
		elfsig_err("%s: program header table of %llu bytes exceeds %u",
			   n, (unsigned long long)pht_size, ELFSIG_MAX_PHT_SIZE);
		return -EBADMSG;
	}
	if (!elfsig_range_ok(elf->phoff, pht_size, elf->size)) {
		elfsig_err("%s: program header table extends past end of file", n);
		return -EBADMSG;
	}
	if (elf->phoff < elf->ehsize) {
		elfsig_err("%s: program header table overlaps the ELF header", n);
		return -EBADMSG;
	}

	raw = malloc(pht_size);
	elf->phdrs = calloc(elf->phnum, sizeof(*elf->phdrs));
	if (!raw || !elf->phdrs) {
		free(raw);
		elfsig_err("%s: out of memory", n);
		return -ENOMEM;
	}
	ret = elfsig_pread_full(elf->fd, raw, pht_size, elf->phoff, n);
	if (ret)
		goto out;

	elf->load_end = elf->phoff + pht_size;
	for (i = 0; i < elf->phnum; i++) {
		const uint8_t *p = raw + (size_t)i * elf->phentsize;
		struct elfsig_phdr *ph = &elf->phdrs[i];

		ph->type = get32(elf, p);
		if (elf->is64) {
			ph->flags = get32(elf, p + offsetof(Elf64_Phdr, p_flags));
			ph->offset = get64(elf, p + offsetof(Elf64_Phdr, p_offset));
			ph->vaddr = get64(elf, p + offsetof(Elf64_Phdr, p_vaddr));
			ph->filesz = get64(elf, p + offsetof(Elf64_Phdr, p_filesz));
			ph->memsz = get64(elf, p + offsetof(Elf64_Phdr, p_memsz));
			ph->align = get64(elf, p + offsetof(Elf64_Phdr, p_align));
		} else {
			ph->flags = get32(elf, p + offsetof(Elf32_Phdr, p_flags));
			ph->offset = get32(elf, p + offsetof(Elf32_Phdr, p_offset));
			ph->vaddr = get32(elf, p + offsetof(Elf32_Phdr, p_vaddr));
			ph->filesz = get32(elf, p + offsetof(Elf32_Phdr, p_filesz));
			ph->memsz = get32(elf, p + offsetof(Elf32_Phdr, p_memsz));
			ph->align = get32(elf, p + offsetof(Elf32_Phdr, p_align));
		}
		if (ph->type == PT_INTERP)
			elf->has_interp = true;
		if (ph->type != PT_LOAD || ph->filesz == 0)
			continue;
		if (!elfsig_range_ok(ph->offset, ph->filesz, elf->size)) {
			elfsig_err("%s: program header %u extends past end of file",
				   n, i);
			ret = -EBADMSG;
			goto out;
		}
		if (ph->filesz > ph->memsz) {
			elfsig_err("%s: program header %u: p_filesz exceeds p_memsz",
				   n, i);
			ret = -EBADMSG;
			goto out;
		}
		if (ph->offset + ph->filesz > elf->load_end)
			elf->load_end = ph->offset + ph->filesz;
	}
out:
	free(raw);
	return ret;
}

static void decode_shdr(const struct elfsig_elf *elf, const uint8_t *p,
			struct elfsig_shdr *sh)
{
	sh->name = get32(elf, p);
	sh->type = get32(elf, p + 4);
	if (elf->is64) {
		sh->flags = get64(elf, p + offsetof(Elf64_Shdr, sh_flags));
		sh->addr = get64(elf, p + offsetof(Elf64_Shdr, sh_addr));
		sh->offset = get64(elf, p + offsetof(Elf64_Shdr, sh_offset));
		sh->size = get64(elf, p + offsetof(Elf64_Shdr, sh_size));
		sh->link = get32(elf, p + offsetof(Elf64_Shdr, sh_link));
		sh->info = get32(elf, p + offsetof(Elf64_Shdr, sh_info));
		sh->addralign = get64(elf, p + offsetof(Elf64_Shdr, sh_addralign));
		sh->entsize = get64(elf, p + offsetof(Elf64_Shdr, sh_entsize));
	} else {
		sh->flags = get32(elf, p + offsetof(Elf32_Shdr, sh_flags));
		sh->addr = get32(elf, p + offsetof(Elf32_Shdr, sh_addr));
		sh->offset = get32(elf, p + offsetof(Elf32_Shdr, sh_offset));
		sh->size = get32(elf, p + offsetof(Elf32_Shdr, sh_size));
		sh->link = get32(elf, p + offsetof(Elf32_Shdr, sh_link));
		sh->info = get32(elf, p + offsetof(Elf32_Shdr, sh_info));
		sh->addralign = get32(elf, p + offsetof(Elf32_Shdr, sh_addralign));
		sh->entsize = get32(elf, p + offsetof(Elf32_Shdr, sh_entsize));
	}
}

void elfsig_encode_shdr(const struct elfsig_elf *elf,
			const struct elfsig_shdr *sh, uint8_t *p)
{
	put32(elf, p, sh->name);
	put32(elf, p + 4, sh->type);
	if (elf->is64) {
		put64(elf, p + offsetof(Elf64_Shdr, sh_flags), sh->flags);
		put64(elf, p + offsetof(Elf64_Shdr, sh_addr), sh->addr);
		put64(elf, p + offsetof(Elf64_Shdr, sh_offset), sh->offset);
		put64(elf, p + offsetof(Elf64_Shdr, sh_size), sh->size);
		put32(elf, p + offsetof(Elf64_Shdr, sh_link), sh->link);
		put32(elf, p + offsetof(Elf64_Shdr, sh_info), sh->info);
		put64(elf, p + offsetof(Elf64_Shdr, sh_addralign), sh->addralign);
		put64(elf, p + offsetof(Elf64_Shdr, sh_entsize), sh->entsize);
	} else {
		put32(elf, p + offsetof(Elf32_Shdr, sh_flags), (uint32_t)sh->flags);
		put32(elf, p + offsetof(Elf32_Shdr, sh_addr), (uint32_t)sh->addr);
		put32(elf, p + offsetof(Elf32_Shdr, sh_offset), (uint32_t)sh->offset);
		put32(elf, p + offsetof(Elf32_Shdr, sh_size), (uint32_t)sh->size);
		put32(elf, p + offsetof(Elf32_Shdr, sh_link), sh->link);
		put32(elf, p + offsetof(Elf32_Shdr, sh_info), sh->info);
		put32(elf, p + offsetof(Elf32_Shdr, sh_addralign),
		      (uint32_t)sh->addralign);
		put32(elf, p + offsetof(Elf32_Shdr, sh_entsize), (uint32_t)sh->entsize);
	}
}

/* The section's name, or NULL (with a message) if it is not a valid string. */
static const char *section_name(const struct elfsig_elf *elf, unsigned int i)
{
	uint32_t off = elf->shdrs[i].name;

	if (off >= elf->shstrtab_size) {
		elfsig_err("%s: section %u: name offset %u is past the name table",
			   elf->name, i, off);
		return NULL;
	}
	if (!memchr(elf->shstrtab + off, '\0', elf->shstrtab_size - off)) {
		elfsig_err("%s: section %u: name is not NUL-terminated", elf->name, i);
		return NULL;
	}
	return elf->shstrtab + off;
}

/* The checks of format v1 on the .signature section (docs/format.md). */
static int check_signature_section(const struct elfsig_elf *elf, unsigned int i)
{
	const struct elfsig_shdr *sh = &elf->shdrs[i];
	uint64_t sht_size = (uint64_t)elf->shnum * elfsig_shdr_size(elf);
	const char *n = elf->name;
	unsigned int j;

	if (sh->type != SHT_PROGBITS || sh->flags != 0) {
		elfsig_err("%s: section %u (.signature) must be PROGBITS with no flags",
			   n, i);
		return -EBADMSG;
	}
	if (sh->size == 0 || sh->size > ELFSIG_MAX_SIG_SIZE) {
		elfsig_err("%s: .signature size %llu is not between 1 and %u bytes",
			   n, (unsigned long long)sh->size, ELFSIG_MAX_SIG_SIZE);
		return -EBADMSG;
	}
	if (!elfsig_range_ok(sh->offset, sh->size, elf->size)) {
		elfsig_err("%s: .signature extends past end of file", n);
		return -EBADMSG;
	}
	if (elfsig_ranges_overlap(sh->offset, sh->size, 0, elf->ehsize) ||
	    elfsig_ranges_overlap(sh->offset, sh->size, elf->phoff,
				  (uint64_t)elf->phnum * elf->phentsize) ||
	    elfsig_ranges_overlap(sh->offset, sh->size, elf->shoff, sht_size)) {
		elfsig_err("%s: .signature overlaps the ELF or section headers", n);
		return -EBADMSG;
	}
	for (j = 0; j < elf->phnum; j++) {
		const struct elfsig_phdr *ph = &elf->phdrs[j];

		if (ph->type == PT_LOAD &&
		    elfsig_ranges_overlap(sh->offset, sh->size, ph->offset,
					  ph->filesz)) {
			elfsig_err("%s: .signature lies inside loadable segment %u",
				   n, j);
			return -EBADMSG;
		}
	}
	for (j = 0; j < elf->shnum; j++) {
		const struct elfsig_shdr *o = &elf->shdrs[j];

		if (j != i && o->type != SHT_NOBITS && o->type != SHT_NULL &&
		    elfsig_ranges_overlap(sh->offset, sh->size, o->offset, o->size)) {
			elfsig_err("%s: .signature overlaps section %u", n, j);
			return -EBADMSG;
		}
	}
	return 0;
}

static int parse_sections(struct elfsig_elf *elf)
{
	const struct ehdr_layout *l = layout(elf);
	const char *n = elf->name;
	uint16_t shentsize = get16(elf, elf->ehdr + l->shentsize);
	uint64_t sht_size;
	const struct elfsig_shdr *strsh;
	uint8_t *raw;
	unsigned int i;
	int ret;

	elf->shnum = get16(elf, elf->ehdr + l->shnum);
	elf->shstrndx = get16(elf, elf->ehdr + l->shstrndx);
	elf->sig_index = -1;
	if (elf->shnum == 0) {
		if (elf->shoff != 0) {
			elfsig_err("%s: extended section numbering is not supported", n);
			return -EBADMSG;
		}
		return 0;
	}
	if (shentsize != l->shdr_size) {
		elfsig_err("%s: e_shentsize %u is not the size of a section header",
			   n, shentsize);
		return -EBADMSG;
	}
	if (elf->shnum >= ELFSIG_SHN_LORESERVE) {
		elfsig_err("%s: section count %u is in the reserved range", n,
			   elf->shnum);
		return -EBADMSG;
	}
	sht_size = (uint64_t)elf->shnum * shentsize;
	if (!elfsig_range_ok(elf->shoff, sht_size, elf->size)) {
		elfsig_err("%s: section header table extends past end of file", n);
		return -EBADMSG;
	}
	if (elf->shoff < elf->ehsize) {
		elfsig_err("%s: section header table overlaps the ELF header", n);
		return -EBADMSG;
	}
	if (elf->shstrndx == SHN_UNDEF || elf->shstrndx >= elf->shnum) {
		elfsig_err("%s: section name table index %u is invalid", n,
			   elf->shstrndx);
		return -EBADMSG;
	}

	raw = malloc(sht_size);
	elf->shdrs = calloc(elf->shnum, sizeof(*elf->shdrs));
	if (!raw || !elf->shdrs) {
		free(raw);
		elfsig_err("%s: out of memory", n);
		return -ENOMEM;
	}
	ret = elfsig_pread_full(elf->fd, raw, sht_size, elf->shoff, n);
	if (ret)
		goto out;
	for (i = 0; i < elf->shnum; i++)
		decode_shdr(elf, raw + (size_t)i * shentsize, &elf->shdrs[i]);

	for (i = 0; i < elf->shnum; i++) {
		const struct elfsig_shdr *sh = &elf->shdrs[i];

		if (sh->type != SHT_NOBITS && sh->type != SHT_NULL &&
		    !elfsig_range_ok(sh->offset, sh->size, elf->size)) {
			elfsig_err("%s: section %u extends past end of file", n, i);
			ret = -EBADMSG;
			goto out;
		}
	}

	strsh = &elf->shdrs[elf->shstrndx];
	if (strsh->type != SHT_STRTAB || strsh->size == 0) {
		elfsig_err("%s: section %u is not a valid section name table", n,
			   elf->shstrndx);
		ret = -EBADMSG;
		goto out;
	}
	if (strsh->size > ELFSIG_MAX_SHSTRTAB) {
		elfsig_err("%s: section name table of %llu bytes is too large", n,
			   (unsigned long long)strsh->size);
		ret = -EBADMSG;
		goto out;
	}
	elf->shstrtab_size = strsh->size;
	elf->shstrtab = malloc(strsh->size + 1);
	if (!elf->shstrtab) {
		elfsig_err("%s: out of memory", n);
		ret = -ENOMEM;
		goto out;
	}
	ret = elfsig_pread_full(elf->fd, elf->shstrtab, strsh->size,
				strsh->offset, n);
	if (ret)
		goto out;
	elf->shstrtab[strsh->size] = '\0';

	for (i = 0; i < elf->shnum; i++) {
		const char *name;

		/*
		 * Every entry counts, the null section 0 too: the kernel looks
		 * at every name, so a ".signature" there is a second one.
		 */
		name = section_name(elf, i);
		if (!name) {
			ret = -EBADMSG;
			goto out;
		}
		if (strcmp(name, ELFSIG_SECTION_NAME) != 0)
			continue;
		if (elf->sig_index >= 0) {
			elfsig_err("%s: two .signature sections (%d and %u)", n,
				   elf->sig_index, i);
			ret = -EBADMSG;
			goto out;
		}
		elf->sig_index = (int)i;
	}
	if (elf->sig_index >= 0)
		ret = check_signature_section(elf, (unsigned int)elf->sig_index);
out:
	free(raw);
	return ret;
}

int elfsig_elf_parse_fd(struct elfsig_elf *elf, int fd, const char *name,
			enum elfsig_parse level)
{
	int ret;

	memset(elf, 0, sizeof(*elf));
	elf->fd = fd;
	elf->name = name;
	elf->sig_index = -1;
	if (fstat(fd, &elf->st) != 0) {
		ret = -errno;
		elfsig_err("%s: %s", name, strerror(errno));
		return ret;
	}
	if (!S_ISREG(elf->st.st_mode)) {
		elfsig_err("%s: not a regular file", name);
		return -ENOEXEC;
	}
	elf->size = (uint64_t)elf->st.st_size;

	ret = parse_ehdr(elf);
	if (!ret)
		ret = parse_phdrs(elf);
	if (!ret && level == ELFSIG_PARSE_ALL)
		ret = parse_sections(elf);
	if (ret) {
		elfsig_elf_release(elf);
		elf->fd = -1;
	}
	return ret;
}

int elfsig_elf_open(struct elfsig_elf *elf, const char *path, const char *name,
		    enum elfsig_parse level)
{
	struct stat st;
	int fd, ret;

	fd = elfsig_open_regular(path, name, &st, -ENOEXEC);
	if (fd < 0)
		return fd;
	ret = elfsig_elf_parse_fd(elf, fd, name, level);
	if (ret)
		close(fd);
	return ret;
}

void elfsig_elf_release(struct elfsig_elf *elf)
{
	free(elf->phdrs);
	free(elf->shdrs);
	free(elf->shstrtab);
	elf->phdrs = NULL;
	elf->shdrs = NULL;
	elf->shstrtab = NULL;
}

/* Read the .signature section's bytes (at most ELFSIG_MAX_SIG_SIZE). */
int elfsig_elf_read_signature(const struct elfsig_elf *elf, uint8_t **der,
			      size_t *len)
{
	const struct elfsig_shdr *sh;
	uint8_t *buf;
	int ret;

	if (elf->sig_index < 0) {
		elfsig_err("%s: not signed", elf->name);
		return -ENODATA;
	}
	sh = &elf->shdrs[elf->sig_index];
	buf = malloc(sh->size);	/* <= ELFSIG_MAX_SIG_SIZE, checked at parse */
	if (!buf) {
		elfsig_err("%s: out of memory", elf->name);
		return -ENOMEM;
	}
	ret = elfsig_pread_full(elf->fd, buf, sh->size, sh->offset, elf->name);
	if (ret) {
		free(buf);
		return ret;
	}
	*der = buf;
	*len = sh->size;
	return 0;
}
