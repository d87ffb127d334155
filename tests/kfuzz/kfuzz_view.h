/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kfuzz_view.h - what libelfsig says of a file, as the kernel-parser
 * harness compares it: kfuzz_lib.c (built against libelfsig) fills it,
 * kfuzz.c (built against the kernel's parse.c and its shims) reads it.
 * Plain C types only, so both sides include it.
 */
#ifndef KFUZZ_VIEW_H
#define KFUZZ_VIEW_H

#include <stdint.h>

struct lib_phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, filesz, memsz, align;
};

struct lib_view {
	int signed_ok;		/* 1: well-formed and signed, PKCS#7 shape ok */
	uint64_t offset, size;
	int hash;
	int parsed;		/* 1: a little-endian file libelfsig parsed */
	int note_ret;		/* its ELFSIG note: 0 or a negative errno */
	uint32_t note_flags;	/* the flags the kernel must apply */
	/* The headers of a little-endian file, class 0 if not read. */
	int hdr_class;		/* ELFCLASS32 or ELFCLASS64 */
	uint16_t type, ehsize, phentsize, phnum;
	uint64_t phoff, shoff;
	struct lib_phdr *phdrs;	/* phnum of them: free() */
};
int kfuzz_lib_view(int fd, struct lib_view *v);

#endif /* KFUZZ_VIEW_H */
