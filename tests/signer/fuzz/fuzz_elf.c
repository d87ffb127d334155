// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_elf.c - the ELF reader, the image digest and the ELFSIG note
 * parser on arbitrary bytes.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elfsig_elf elf;
	int fd;

	fuzz_quiet();
	fd = fuzz_memfd(data, size);
	if (fd < 0)
		return 0;
	if (elfsig_elf_parse_fd(&elf, fd, "fuzz", ELFSIG_PARSE_SEGMENTS) == 0) {
		uint8_t digest[ELFSIG_MAX_DIGEST];
		enum elfsig_note_state note;
		uint32_t flags;
		size_t dlen;

		(void)elfsig_elf_digest(&elf, ELFSIG_HASH_SHA256, digest, &dlen);
		(void)elfsig_elf_flags(&elf, &note, &flags);
		elfsig_elf_release(&elf);
	}
	close(fd);
	return 0;
}
