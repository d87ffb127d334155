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
	{ "srkname", cmd_srkname, "print the storage root key's name (to pin it)" },
};

static void lib_error(const char *msg, void *ctx)
{
	fprintf(stderr, "%s: %s\n", prog, msg);
}

static int usage(FILE *f, int code)
{
	size_t i;

	fprintf(f, "Usage: %s COMMAND [OPTION]...\n"
		"The TPM side of elfsig: signing keys that never leave the TPM, secrets\n"
		"sealed under a PCR policy, PCR read and extend.\n\nCommands:\n",
		prog);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-10s %s\n", cmds[i].name, cmds[i].help);
	fprintf(f, "\n'%s COMMAND --help' lists its options. Every command takes\n"
		"  --tcti TCTI        the TPM (else $TPM2TOOLS_TCTI, else %s)\n"
		"  --srk-handle H     a persistent storage root key instead of the primary\n"
		"  --srk-name HEX     refuse a storage root key with another name\n"
		"  --timeout SECONDS  give up on a TPM that does not answer (default %d)\n"
		"Exit status: 0 ok, 1 failure, 2 usage, 3 TPM not reachable,\n"
		"4 PCR policy not satisfied, 5 malformed input file.\n",
		prog, ELFSIG_TPM_DEFAULT_TCTI, DEFAULT_TPM_TIMEOUT);
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
