// SPDX-License-Identifier: GPL-2.0-only
/*
 * key-lifetime.c - a key loaded and freed leaves the process able to
 * hash: elfsig_key_load() makes OpenSSL's default provider explicit (any
 * explicitly loaded provider stops the implicit one), and freeing the key
 * must not take that provider away from the rest of the process, or
 * every later digest fails (tests/signer/test-api.sh).
 *
 *   key-lifetime KEY FILE [first]: FILE's SHA-256 image digest after
 *   KEY was loaded and freed, and OpenSSL's own SHA-256 after it, with
 *   the digest also taken before the key when "first" is given (then
 *   OpenSSL has activated its default provider on its own); exit 0 if
 *   every digest works, the two image digests agree and OpenSSL's is
 *   right.
 */
#include <elfsig.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	static const unsigned char abc[SHA256_DIGEST_LENGTH] = {
		0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40,
		0xde, 0x5d, 0xae, 0x22, 0x23, 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17,
		0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad,
	};
	unsigned char d1[ELFSIG_MAX_DIGEST], d2[ELFSIG_MAX_DIGEST];
	unsigned char md[SHA256_DIGEST_LENGTH] = { 0 };
	struct elfsig_key_opts o = { 0 };
	struct elfsig_key *key;
	size_t n1, n2;

	if (argc < 3)
		return 2;
	if (argc > 3 && elfsig_image_digest(argv[2], ELFSIG_HASH_SHA256, d1, &n1)) {
		fprintf(stderr, "digest before the key: failed\n");
		return 1;
	}
	o.key = argv[1];
	o.key_pass = "";
	if (elfsig_key_load(&o, &key)) {
		fprintf(stderr, "cannot load %s\n", argv[1]);
		return 1;
	}
	elfsig_key_free(key);
	if (elfsig_image_digest(argv[2], ELFSIG_HASH_SHA256, d2, &n2)) {
		fprintf(stderr, "digest after the key was freed: failed\n");
		return 1;
	}
	if (argc > 3 && (n1 != n2 || memcmp(d1, d2, n1))) {
		fprintf(stderr, "digest after the key was freed: differs\n");
		return 1;
	}
	if (!SHA256((const unsigned char *)"abc", 3, md) || memcmp(md, abc, sizeof(md))) {
		fprintf(stderr, "OpenSSL's SHA-256 after the key was freed: wrong\n");
		return 1;
	}
	return 0;
}
