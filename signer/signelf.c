// SPDX-License-Identifier: GPL-2.0-only
/*
 * signelf.c - sign, verify and inspect ELF executables (format v1).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"

#ifndef ELFSIG_VERSION
#define ELFSIG_VERSION "0.1"
#endif

static const struct signelf_cmd commands[] = {
	{ "sign", cmd_sign, "sign ELF files with a key and its certificate" },
	{ "verify", cmd_verify, "check signatures exactly as the kernel will" },
	{ "show", cmd_show, "describe a file's signature" },
	{ "digest", cmd_digest, "print the image digest, or the message to sign" },
	{ "attach", cmd_attach, "store a detached PKCS#7 signature made elsewhere" },
	{ "remove", cmd_remove, "delete the signature section" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: signelf COMMAND [OPTION]... FILE...\n\n"
		"Commands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "  %-8s %s\n", "help", "show this help, or a command's ('signelf help sign')");
	fprintf(f, "\n"
		"  -h, --help     show this help (or 'signelf COMMAND --help')\n"
		"  -V, --version  show the version\n"
		"\nExit status: 0 success/valid, 1 bad signature or no trusted key,\n"
		"2 unsigned, 3 not ELF or malformed, 4 usage error, 5 other error.\n");
}

int main(int argc, char **argv)
{
	size_t i;

	cmd_init_errors();
	opterr = 0;	/* subcommands report bad options in one line */
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    (!strcmp(argv[1], "help") && argc == 2)) {
		usage(stdout);
		return EXIT_VALID;
	}
	if (!strcmp(argv[1], "help")) {
		/* "signelf help CMD" is "signelf CMD --help". */
		char *args[] = { argv[2], "--help", NULL };

		if (argc > 3) {
			fprintf(stderr, "signelf: help takes one COMMAND (see 'signelf --help')\n");
			return EXIT_USAGE;
		}
		for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			if (!strcmp(argv[2], commands[i].name))
				return commands[i].run(2, args);
		fprintf(stderr, "signelf: unknown command '%s' (see 'signelf --help')\n",
			argv[2]);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("signelf %s (elfsig format v1)\n", ELFSIG_VERSION);
		return EXIT_VALID;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "signelf: unknown command '%s' (see 'signelf --help')\n",
		argv[1]);
	return EXIT_USAGE;
}
