// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_digest.c - signelf digest: the image digest, or the exact message an
 * external signer (HSM, signing service) must sign.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"

static const char usage[] =
"Usage: signelf digest [--hash HASH] [--message OUT] FILE\n"
"Print FILE's image digest in hex. With --message, also write the exact\n"
"bytes to sign (struct elfsig_message) to OUT, for an external signer;\n"
"store its detached DER PKCS#7 with 'signelf attach'.\n"
"\n"
"  -a, --hash HASH     sha256 (default), sha384 or sha512\n"
"  -m, --message OUT   write the message to sign to OUT ('-': stdout,\n"
"                      and the digest is not printed)\n"
"  -h, --help          show this help\n";

/* Write @len bytes to @path through a temporary file and a rename. */
static int write_file(const char *path, const unsigned char *buf, size_t len)
{
	char *tmp = NULL;
	FILE *f;
	int fd;

	if (asprintf(&tmp, "%s.XXXXXX", path) < 0)
		return -1;
	fd = mkstemp(tmp);
	if (fd < 0) {
		cmd_error("%s: %m", path);
		free(tmp);
		return -1;
	}
	f = fdopen(fd, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fflush(f) != 0 ||
	    fsync(fd) != 0 || fchmod(fd, 0644) != 0) {
		cmd_error("%s: write failed: %m", path);
		if (f)
			fclose(f);
		else
			close(fd);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	fclose(f);
	if (rename(tmp, path) != 0) {
		cmd_error("%s: %m", path);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

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
	int c, ret;

	while ((c = getopt_long(argc, argv, "a:m:h", opts, NULL)) != -1) {
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
			return usage_error("digest", "invalid option \'%s\'", argv[optind - 1]);
		}
	}
	if (argc - optind != 1)
		return usage_error("digest", "exactly one FILE is required");

	ret = elfsig_image_digest(argv[optind], hash, digest, &dlen);
	if (!ret)
		ret = elfsig_build_message(hash, digest, dlen, msg, &mlen);
	if (ret)
		return exit_code(ret);
	if (message && !strcmp(message, "-")) {
		if (fwrite(msg, 1, mlen, stdout) != mlen || fflush(stdout) != 0) {
			cmd_error("standard output: write failed");
			return EXIT_FAILURE_IO;
		}
		return EXIT_VALID;
	}
	if (message && write_file(message, msg, mlen))
		return EXIT_FAILURE_IO;
	print_hex(stdout, digest, dlen);
	printf("  %s\n", argv[optind]);
	return EXIT_VALID;
}
