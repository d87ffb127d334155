// SPDX-License-Identifier: GPL-2.0-only
/*
 * use-libelfsig.c - a program of libelfsig's public header alone: prints
 * the SHA-256 image digest's size of argv[1] (tests/signer/test-api.sh,
 * tests/packaging/install.sh, tests/packaging/packages.sh).
 */
#include <elfsig.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	unsigned char d[ELFSIG_MAX_DIGEST];
	size_t n;

	if (argc < 2 || elfsig_image_digest(argv[1], ELFSIG_HASH_SHA256, d, &n))
		return 1;
	printf("%zu\n", n);
	return 0;
}
