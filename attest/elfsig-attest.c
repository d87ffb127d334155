// SPDX-License-Identifier: GPL-2.0-only
/* elfsig-attest.c - the platform team's verifier: a table of subcommands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attest_cmd.h"
#include "kl.h"

const char *prog = "elfsig-attest";

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} cmds[] = {
	{ "ak", cmd_ak, "create (or reuse) a persistent attestation key" },
	{ "quote", cmd_quote, "quote a PCR with a nonce" },
	{ "verify", cmd_verify, "verify a quote and the kernel's log: what .elfsig trusted" },
	{ "log", cmd_log, "print the kernel's log (checked, not verified)" },
};

static void lib_error(const char *msg, void *ctx)
{
	fprintf(stderr, "%s: %s\n", prog, msg);
}

static int usage(FILE *f, int code)
{
	size_t i;

	fprintf(f, "Usage: %s COMMAND [OPTION]...\n"
		"Attest what the kernel's .elfsig keyring trusted: a TPM quote of the\n"
		"measurement PCR and the kernel's measurement log, checked together.\n\nCommands:\n",
		prog);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-7s %s\n", cmds[i].name, cmds[i].help);
	fprintf(f, "\n'%s COMMAND --help' lists its options.\n"
		"Exit status: 0 trusted (and allowed), 1 failure, 2 usage, 3 TPM not\n"
		"reachable, 5 malformed input, 6 quote not valid, 7 log does not replay\n"
		"to the quote, 8 a key not in the allow list, 9 keyring not locked (or a\n"
		"key after the lock).\n", prog);
	return code;
}

int main(int argc, char **argv)
{
	size_t i;

	setenv("TSS2_LOG", "all+none", 0);
	elfsig_tpm_set_error_callback(lib_error, NULL);
	kl_set_error_callback(lib_error, NULL);
	if (argc < 2)
		return usage(stderr, EXIT_USAGE);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return usage(stdout, EXIT_OK);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "%s: unknown command '%s'\n", prog, argv[1]);
	return usage(stderr, EXIT_USAGE);
}
