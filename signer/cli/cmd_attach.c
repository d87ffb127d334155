// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_attach.c - signelf attach: store a detached PKCS#7 made elsewhere.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

#include "cmd.h"

static const char usage[] =
"Usage: signelf attach --signature SIG [OPTION]... FILE\n"
"Store SIG, a detached DER PKCS#7 over the message of 'signelf digest\n"
"--message', as FILE's signature. SIG must parse and name one signer;\n"
"check the result with 'signelf verify'.\n"
"\n"
"  -s, --signature SIG   the DER PKCS#7 signature (at most 64 KiB)\n"
"  -o, --output OUT      write to OUT instead of replacing FILE\n"
"      --allow-interp    no effect (kept for compatibility)\n"
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
	uint8_t *der = NULL;
	size_t len = 0;
	int c, ret;

	while ((c = getopt_long(argc, argv, ":s:o:h", opts, NULL)) != -1) {
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
			return bad_option("attach", c, argv);
		}
	}
	if (!sig)
		return usage_error("attach", "--signature is required");
	if (argc - optind != 1)
		return usage_error("attach", "exactly one FILE is required");

	if (refuse_same_file("attach", output, sig))
		return EXIT_USAGE;
	ret = elfsig_read_file(sig, ELFSIG_MAX_SIG_SIZE, &der, &len);
	if (ret)
		return exit_code(ret);
	ret = elfsig_attach_file(argv[optind], output, der, len, flags);
	free(der);
	return exit_code(ret);
}
