// SPDX-License-Identifier: GPL-2.0-only
/* elfsig-attest.c - the platform team's verifier: a table of subcommands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "cmd.h"

const char *prog = "elfsig-attest";

static const struct common_cmd cmds[] = {
	{ "ak", cmd_ak, "create (or reuse) a persistent attestation key" },
	{ "quote", cmd_quote, "quote a PCR with a nonce" },
	{ "verify", cmd_verify, "verify a quote and the kernel's log: what .elfsig trusted" },
	{ "log", cmd_log, "print the kernel's log (checked, not verified)" },
};

static const struct common_prog tool = {
	.name = "elfsig-attest",
	.intro = "Attest what the kernel's .elfsig keyring trusted: a TPM quote of the\n"
		 "measurement PCR and the kernel's measurement log, checked together.\n",
	.outro = "'elfsig-attest COMMAND --help' lists its options.\n"
		 "Exit status: 0 trusted (and allowed), 1 failure, 2 usage, 3 TPM not\n"
		 "reachable, 5 malformed input, 6 quote not valid, 7 log does not replay\n"
		 "to the quote, 8 a key not in the allow list, 9 keyring not locked (or a\n"
		 "key after the lock).\n",
	COMMON_PROG_CMDS(cmds, EXIT_OK, EXIT_USAGE),
};

int main(int argc, char **argv)
{
	attest_set_error_callback(common_stderr_error, (void *)prog);
	common_set_error_callback(common_stderr_error, (void *)prog);
	elfsig_tpm_set_error_callback(common_stderr_error, (void *)prog);
	common_tss_quiet();
	return common_prog_main(&tool, argc, argv);
}
