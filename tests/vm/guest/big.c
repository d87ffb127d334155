// SPDX-License-Identifier: GPL-2.0-only
/*
 * big - a static binary with 64 MiB of read-only data, more than the
 * default RLIMIT_MEMLOCK (8 MiB): its signed copy must still run as a
 * non-root user although the kernel maps it locked.
 */
#include <stdio.h>

#define PAD (64 << 20)
static const volatile unsigned char pad[PAD] = { 1, [PAD - 1] = 2 };

int main(void)
{
	printf("big ok %d\n", pad[0] + pad[PAD - 1]);
	return 0;
}
