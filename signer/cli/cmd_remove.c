// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_remove.c - signelf remove: delete the signature section.
 */
#include <getopt.h>
#include <stdio.h>

#include "cmd.h"

static const char usage[] =
"Usage: signelf remove [--output OUT] FILE...\n"
"Delete the .signature section of each FILE, in place (atomically) or to\n"
"OUT. A file without a signature is an error (exit status 2).\n"
"\n"
"  -o, --output OUT   write the result to OUT (one FILE only)\n"
"  -h, --help         show this help\n";

int cmd_remove(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL;
	int c, i, status = EXIT_VALID;

	while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return EXIT_VALID;
		default:
			return bad_option("remove", c, argv);
		}
	}
	if (optind >= argc)
		return usage_error("remove", "no FILE given");
	if (output && argc - optind != 1)
		return usage_error("remove", "--output takes exactly one FILE");
	for (i = optind; i < argc; i++)
		status = worse(status, exit_code(elfsig_remove_file(argv[i], output)));
	return status;
}
