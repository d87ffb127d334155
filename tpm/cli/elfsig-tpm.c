// SPDX-License-Identifier: GPL-2.0-only
/* elfsig-tpm.c - the TPM tool: a table of subcommands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "cmd.h"

const char *prog = "elfsig-tpm";

static const struct common_cmd cmds[] = {
	{ "keygen", cmd_keygen, "create a TPM-resident signing key (+ cert/CSR)" },
	{ "seal", cmd_seal, "seal a secret under a PCR policy" },
	{ "unseal", cmd_unseal, "unseal a secret" },
	{ "pcrread", cmd_pcrread, "print PCR values" },
	{ "pcrextend", cmd_pcrextend, "extend a PCR" },
	{ "evict", cmd_evict, "remove a persistent object" },
	{ "srkname", cmd_srkname, "print the storage root key's name (to pin it)" },
};

#define STR_(x) #x
#define STR(x) STR_(x)

static const struct common_prog tool = {
	.name = "elfsig-tpm",
	.intro = "The TPM side of elfsig: signing keys that never leave the TPM, secrets\n"
		 "sealed under a PCR policy, PCR read and extend.\n",
	.outro = "'elfsig-tpm COMMAND --help' lists its options. Every command takes\n"
		 "  --tcti TCTI        the TPM (else $TPM2TOOLS_TCTI, else "
		 ELFSIG_TPM_DEFAULT_TCTI ")\n"
		 "  --srk-handle H     a persistent storage root key instead of the primary\n"
		 "  --srk-name HEX     refuse a storage root key with another name\n"
		 "  --timeout SECONDS  give up on a TPM that does not answer (default "
		 STR(TOOL_TPM_TIMEOUT) ")\n"
		 "Exit status: 0 ok, 1 failure, 2 usage, 3 TPM not reachable,\n"
		 "4 PCR policy not satisfied, 5 malformed input file.\n",
	COMMON_PROG_CMDS(cmds, EXIT_OK, EXIT_USAGE),
};

int main(int argc, char **argv)
{
	common_tss_quiet();
	elfsig_tpm_set_error_callback(common_stderr_error, (void *)prog);
	return common_prog_main(&tool, argc, argv);
}
