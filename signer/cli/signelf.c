// SPDX-License-Identifier: GPL-2.0-only
/*
 * signelf.c - sign, verify and inspect ELF executables (format v1).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "cmd.h"

static const struct common_cmd commands[] = {
	{ "sign", cmd_sign, "sign ELF files with a key and its certificate" },
	{ "verify", cmd_verify, "check signatures exactly as the kernel will" },
	{ "show", cmd_show, "describe a file's signature" },
	{ "digest", cmd_digest, "print the image digest, or the message to sign" },
	{ "attach", cmd_attach, "store a detached PKCS#7 signature made elsewhere" },
	{ "remove", cmd_remove, "delete the signature section" },
	{ "sign-deb", cmd_sign_deb, "sign every ELF file of Debian packages" },
};

static const struct common_prog signelf = {
	.name = "signelf",
	.intro = "Sign, verify and inspect ELF executables for the elfsig kernel verifier.\n",
	.outro = "  -h, --help     show this help (or 'signelf COMMAND --help')\n"
		 "\nExit status: 0 success/valid, 1 bad signature or no trusted key,\n"
		 "2 unsigned, 3 not ELF or malformed, 4 usage error, 5 other error.\n",
	COMMON_PROG_CMDS(commands, EXIT_VALID, EXIT_USAGE),
};

int main(int argc, char **argv)
{
	cmd_init_errors();
	opterr = 0;	/* subcommands report bad options in one line */
	return common_prog_main(&signelf, argc, argv);
}
