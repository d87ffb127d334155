// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_attach.c - signelf attach: store a detached PKCS#7 made elsewhere.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"

static const char usage[] =
"Usage: signelf attach --signature SIG [OPTION]... FILE\n"
"Store SIG, a detached DER PKCS#7 over the message of 'signelf digest\n"
"--message', as FILE's signature. SIG must parse and name one signer;\n"
"check the result with 'signelf verify'.\n"
"\n"
"  -s, --signature SIG   the DER PKCS#7 signature (at most 64 KiB)\n"
"  -o, --output OUT      write to OUT instead of replacing FILE\n"
"      --allow-interp    accept a file with PT_INTERP\n"
"  -h, --help            show this help\n";

int cmd_attach(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "signature", required_argument, NULL, 's' },
		{ "output", required_argument, NULL, 'o' },
		{ "allow-interp", no_argument, NULL, 'I' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *sig = NULL, *output = NULL;
	unsigned int flags = 0;
	unsigned char *der = NULL;
	size_t len = 0;
	FILE *f;
	int c, ret;

	while ((c = getopt_long(argc, argv, "s:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			sig = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'I':
			flags |= ELFSIG_ALLOW_INTERP;
			break;
		case 'h':
			fputs(usage, stdout);
			return EXIT_VALID;
		default:
			return usage_error("attach", "invalid option \'%s\'", argv[optind - 1]);
		}
	}
	if (!sig)
		return usage_error("attach", "--signature is required");
	if (argc - optind != 1)
		return usage_error("attach", "exactly one FILE is required");

	f = fopen(sig, "rb");
	if (!f) {
		cmd_error("%s: %m", sig);
		return EXIT_FAILURE_IO;
	}
	der = malloc(ELFSIG_MAX_SIG_SIZE + 1);
	if (der)
		len = fread(der, 1, ELFSIG_MAX_SIG_SIZE + 1, f);
	if (!der || ferror(f)) {
		cmd_error("%s: read failed", sig);
		fclose(f);
		free(der);
		return EXIT_FAILURE_IO;
	}
	fclose(f);
	if (len == 0 || len > ELFSIG_MAX_SIG_SIZE) {
		cmd_error("%s: a signature must be 1 to %u bytes", sig,
			  ELFSIG_MAX_SIG_SIZE);
		free(der);
		return EXIT_MALFORMED;
	}
	ret = elfsig_attach_file(argv[optind], output, der, len, flags);
	free(der);
	return exit_code(ret);
}
