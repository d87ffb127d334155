// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_sections.c - the section table, the .signature finder and the
 * PKCS#7 checks, as `signelf show` and `verify` run them.
 */
#include <stdlib.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elfsig_pkcs7_view view;
	struct elfsig_elf elf;
	uint8_t *der;
	size_t len;
	int fd;

	fuzz_quiet();
	fd = fuzz_memfd(data, size);
	if (fd < 0)
		return 0;
	if (elfsig_elf_parse_fd(&elf, fd, "fuzz", ELFSIG_PARSE_ALL) == 0) {
		if (elfsig_elf_read_signature(&elf, &der, &len) == 0) {
			(void)elfsig_pkcs7_check(der, len, "fuzz", &view);
			free(der);
		}
		elfsig_elf_release(&elf);
	}
	close(fd);
	return 0;
}
