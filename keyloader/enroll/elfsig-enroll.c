// SPDX-License-Identifier: GPL-2.0-only
/*
 * elfsig-enroll.c - elfsig-enroll: the subcommand table (one cmd_*.c each).
 *
 *   create CERT...   new policy with these certificates
 *   add CERT...      enrol more certificates
 *   remove KEY...    drop certificates (file or sha256:HEX)
 *   reseal           seal the unchanged policy to a new PCR state
 *   show             list the enrolled keys
 *   check            does the TPM release this policy's digest now?
 *
 * Every command that changes something reseals, to the current PCR values
 * or to those of --pcr-values, and writes both files atomically.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"

static const struct {
	const char *name;
	int (*fn)(struct opts *o, int argc, char **argv);
} commands[] = {
	{ "create", cmd_create },
	{ "add", cmd_add },
	{ "remove", cmd_remove },
	{ "reseal", cmd_reseal },
	{ "show", cmd_show },
	{ "check", cmd_check },
};

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	size_t i;

	kl_set_error_callback(common_stderr_error, (void *)PROG);
	elfsig_tpm_set_error_callback(common_stderr_error, (void *)PROG);
	if (argc < 2)
		return usage_err("no command given");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(usage_text, stdout);
		return EXIT_OK;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		if (parse_opts(&o, argc - 1, argv + 1))
			return EXIT_USAGE;
		return commands[i].fn(&o, argc - 1 - optind, argv + 1 + optind);
	}
	fprintf(stderr, "%s: unknown command '%s'\n", PROG, argv[1]);
	return usage_err(NULL);
}
