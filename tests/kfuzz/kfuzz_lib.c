// SPDX-License-Identifier: GPL-2.0-only
/*
 * kfuzz_lib.c - libelfsig's verdict on a file, for the differential check
 * in kfuzz.c (a separate translation unit: the two header sets clash):
 * its headers, its ELFSIG note and its signature.
 */
#include <elf.h>
#include <stdlib.h>

#include "lib_private.h"

#include "kfuzz_view.h"

/*
 * The ELF header and program headers alone (libelfsig's first parse
 * level), whatever the section table: what mmap() reads of a library.
 */
static void lib_headers(int fd, struct lib_view *v)
{
	struct elfsig_elf elf;
	unsigned int i;

	if (elfsig_elf_parse_fd(&elf, fd, "kfuzz", ELFSIG_PARSE_SEGMENTS))
		return;
	v->phdrs = elf.big_endian ? NULL : calloc(elf.phnum, sizeof(*v->phdrs));
	if (v->phdrs) {
		v->hdr_class = elf.is64 ? ELFCLASS64 : ELFCLASS32;
		v->type = elf.type;
		v->ehsize = elf.ehsize;
		v->phentsize = elf.phentsize;
		v->phnum = elf.phnum;
		v->phoff = elf.phoff;
		v->shoff = elf.shoff;
		for (i = 0; i < elf.phnum; i++)
			v->phdrs[i] = (struct lib_phdr) {
				.type = elf.phdrs[i].type,
				.flags = elf.phdrs[i].flags,
				.offset = elf.phdrs[i].offset,
				.vaddr = elf.phdrs[i].vaddr,
				.filesz = elf.phdrs[i].filesz,
				.memsz = elf.phdrs[i].memsz,
				.align = elf.phdrs[i].align,
			};
	}
	elfsig_elf_release(&elf);
}

int kfuzz_lib_view(int fd, struct lib_view *v)
{
	struct elfsig_pkcs7_view view;
	struct elfsig_elf elf;
	uint8_t *der;
	size_t len;

	elfsig_set_error_callback(NULL, NULL);
	lib_headers(fd, v);
	if (elfsig_elf_parse_fd(&elf, fd, "kfuzz", ELFSIG_PARSE_ALL))
		return 0;
	/*
	 * The kernel parser reads native little-endian files: ELF64, and
	 * ELF32 ones widened for the compat loader.
	 */
	if (!elf.big_endian) {
		enum elfsig_note_state state;
		uint32_t flags;

		v->parsed = 1;
		v->note_ret = elfsig_elf_flags(&elf, &state, &flags);
		/* A note outside every PT_LOAD is not signed: ignored. */
		v->note_flags = state == ELFSIG_NOTE_COVERED ? flags : 0;
	}
	if (!elf.big_endian &&
	    elfsig_elf_read_signature(&elf, &der, &len) == 0) {
		if (elfsig_pkcs7_check(der, len, "kfuzz", &view) == 0) {
			v->signed_ok = 1;
			v->offset = elf.shdrs[elf.sig_index].offset;
			v->size = len;
			v->hash = view.hash;
		}
		free(der);
	}
	elfsig_elf_release(&elf);
	return 0;
}
