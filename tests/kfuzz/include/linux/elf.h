/* SPDX-License-Identifier: GPL-2.0-only */
/* Shim: the native (64-bit) ELF types as <linux/elf.h> names them. */
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
_Static_assert(sizeof(struct elfhdr) == sizeof(Elf64_Ehdr), "ehdr layout");
_Static_assert(sizeof(struct elf_phdr) == sizeof(Elf64_Phdr), "phdr layout");
_Static_assert(sizeof(struct elf_shdr) == sizeof(Elf64_Shdr), "shdr layout");
#endif
