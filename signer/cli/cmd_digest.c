// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_digest.c - signelf digest: the image digest, or the exact message an
 * external signer (HSM, signing service) must sign.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"

static const char usage[] =
"Usage: signelf digest [--hash HASH] FILE...\n"
"       signelf digest [--hash HASH] --message OUT FILE\n"
"Print each FILE's image digest in hex, then its name. With --message,\n"
"also write the exact bytes to sign (struct elfsig_message) to OUT, for an\n"
"external signer; store its detached DER PKCS#7 with 'signelf attach'.\n"
"OUT is replaced atomically; it may not be FILE, nor anything but a\n"
"regular file.\n"
"\n"
"  -a, --hash HASH     sha256 (default), sha384 or sha512\n"
"  -m, --message OUT   write the message to sign to OUT ('-': stdout,\n"
"                      and the digest is not printed)\n"
"  -h, --help          show this help\n";

int cmd_digest(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "hash", required_argument, NULL, 'a' },
		{ "message", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum elfsig_hash hash = ELFSIG_HASH_SHA256;
	unsigned char digest[ELFSIG_MAX_DIGEST], msg[ELFSIG_MAX_MESSAGE];
	const char *message = NULL;
	size_t dlen, mlen;
	int c, i, ret, status = EXIT_VALID;

	while ((c = getopt_long(argc, argv, ":a:m:h", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			if (elfsig_hash_from_name(optarg, &hash))
				return EXIT_USAGE;
			break;
		case 'm':
			message = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return EXIT_VALID;
		default:
			return bad_option("digest", c, argv);
		}
	}
	if (optind >= argc)
		return usage_error("digest", "no FILE given");
	if (message && argc - optind != 1)
		return usage_error("digest", "--message takes exactly one FILE");
	if (message && strcmp(message, "-") &&
	    refuse_same_file("digest", message, argv[optind]))
		return EXIT_USAGE;

	for (i = optind; i < argc; i++) {
		ret = elfsig_image_digest(argv[i], hash, digest, &dlen);
		if (!ret && message)
			ret = elfsig_build_message(hash, digest, dlen, msg, &mlen);
		if (ret) {
			status = worse(status, exit_code(ret));
			continue;
		}
		if (message && !strcmp(message, "-")) {
			if (fwrite(msg, 1, mlen, stdout) != mlen || fflush(stdout) != 0) {
				cmd_error("standard output: write failed");
				return EXIT_FAILURE_IO;
			}
			return EXIT_VALID;
		}
		if (message) {
			ret = elfsig_write_file(message, msg, mlen);
			if (ret)
				return exit_code(ret);
		}
		print_hex(stdout, digest, dlen);
		printf("  ");
		print_name(stdout, argv[i]);
		printf("\n");
	}
	return status;
}
