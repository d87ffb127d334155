// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench - payload of about 2 MiB (musl static): exits at once for
 * vm-exec.sh; with an argument, reads every page of its image and sleeps
 * until killed, for vm-memory.sh.
 */
#include <unistd.h>

#define PAD (2000 << 10)
static const volatile unsigned char pad[PAD] = { 1, [PAD - 1] = 1 };

int main(int argc, char **argv)
{
	unsigned int sum = 0;
	long i;

	(void)argv;
	if (argc > 1) {
		for (i = 0; i < PAD; i += 4096)
			sum += pad[i];
		for (;;)
			pause();
	}
	return pad[0] - pad[PAD - 1] + (int)sum;
}
