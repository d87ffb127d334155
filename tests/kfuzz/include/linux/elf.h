/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shim: the native (64-bit) ELF types and class as <linux/elf.h> names
 * them, and the ELF32 ones the parser widens a compat file's headers from.
 */
#ifndef KSHIM_LINUX_ELF_H
#define KSHIM_LINUX_ELF_H
#include <elf.h>
#include "../kshim.h"

struct elfhdr {
	unsigned char e_ident[EI_NIDENT];
	u16 e_type, e_machine;
	u32 e_version;
	u64 e_entry, e_phoff, e_shoff;
	u32 e_flags;
	u16 e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
};
struct elf_phdr {
	u32 p_type, p_flags;
	u64 p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align;
};
struct elf_shdr {
	u32 sh_name, sh_type;
	u64 sh_flags, sh_addr, sh_offset, sh_size;
	u32 sh_link, sh_info;
	u64 sh_addralign, sh_entsize;
};
/* The native class: the harness stands for a 64-bit kernel. */
#define ELF_CLASS ELFCLASS64
#define elf64_hdr elfhdr
#define elf64_phdr elf_phdr
#define elf64_shdr elf_shdr
struct elf32_hdr {
	unsigned char e_ident[EI_NIDENT];
	u16 e_type, e_machine;
	u32 e_version, e_entry, e_phoff, e_shoff, e_flags;
	u16 e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
};
struct elf32_phdr {
	u32 p_type, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_flags,
	    p_align;
};
struct elf32_shdr {
	u32 sh_name, sh_type, sh_flags, sh_addr, sh_offset, sh_size, sh_link,
	    sh_info, sh_addralign, sh_entsize;
};
_Static_assert(sizeof(struct elf32_hdr) == sizeof(Elf32_Ehdr), "ehdr32 layout");
_Static_assert(sizeof(struct elf32_phdr) == sizeof(Elf32_Phdr), "phdr32 layout");
_Static_assert(sizeof(struct elf32_shdr) == sizeof(Elf32_Shdr), "shdr32 layout");
_Static_assert(sizeof(struct elfhdr) == sizeof(Elf64_Ehdr), "ehdr layout");
_Static_assert(sizeof(struct elf_phdr) == sizeof(Elf64_Phdr), "phdr layout");
_Static_assert(sizeof(struct elf_shdr) == sizeof(Elf64_Shdr), "shdr layout");
#endif
