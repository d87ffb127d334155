// SPDX-License-Identifier: GPL-2.0-only
/*
 * hello32 - a static i386 binary for the compat ELF loader (built with
 * gcc -m32 where the host can). It prints e_shoff of its own ELF header
 * as it is in memory: 0 when the process runs from the kernel's verified
 * copy (N(ehdr) zeroes it), the file's value when mapped from the file.
 */
#include <elf.h>
#include <stdio.h>

extern const Elf32_Ehdr __ehdr_start;

int main(void)
{
	printf("hello32 shoff %lu\n", (unsigned long)__ehdr_start.e_shoff);
	return 0;
}
