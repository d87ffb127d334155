// SPDX-License-Identifier: GPL-2.0-only
/* hello - the smallest static test binary; signed, tampered, dynamic copies. */
#include <stdio.h>

int main(void)
{
	puts("hello");
	return 0;
}
