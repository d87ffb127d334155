// SPDX-License-Identifier: GPL-2.0-only
/* elfsig-tpm.c - the TPM tool: a table of subcommands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

const char *prog = "elfsig-tpm";

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} cmds[] = {
	{ "keygen", cmd_keygen, "create a TPM-resident signing key (+ cert/CSR)" },
	{ "seal", cmd_seal, "seal a secret under a PCR policy" },
	{ "unseal", cmd_unseal, "unseal a secret" },
	{ "pcrread", cmd_pcrread, "print PCR values" },
	{ "pcrextend", cmd_pcrextend, "extend a PCR" },
	{ "evict", cmd_evict, "remove a persistent object" },
};

static void lib_error(const char *msg, void *ctx)
{
	fprintf(stderr, "%s: %s\n", prog, msg);
}

static int usage(FILE *f, int code)
{
	size_t i;

	fprintf(f, "usage: %s COMMAND [OPTIONS]   (COMMAND --help for its options)\n\n",
		prog);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-10s %s\n", cmds[i].name, cmds[i].help);
	fprintf(f, "\nTCTI: --tcti, else $TPM2TOOLS_TCTI, else %s\n",
		ELFSIG_TPM_DEFAULT_TCTI);
	return code;
}

int main(int argc, char **argv)
{
	size_t i;

	/* tpm2-tss logs every failure to stderr on its own; our one line
	 * per failure says it better. TSS2_LOG set by the user wins. */
	setenv("TSS2_LOG", "all+none", 0);
	elfsig_tpm_set_error_callback(lib_error, NULL);
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
