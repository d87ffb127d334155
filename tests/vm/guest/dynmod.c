// SPDX-License-Identifier: GPL-2.0-only
/*
 * dynmod: a small shared library for the verified dynamic process cases:
 * dlopen()ed by dynprobe, or LD_PRELOADed. Its constructor says it ran.
 */
#include <stdio.h>

__attribute__((constructor)) static void dynmod_loaded(void)
{
	puts("dynmod: loaded");
}

int elfsig_mod(void)
{
	return 42;
}
