// SPDX-License-Identifier: GPL-2.0-only
/* cmd_pcrread.c - elfsig-tpm pcrread: one "bank:index=hex" line per PCR. */
#include <stdio.h>

#include "cmd.h"

static const char usage[] =
	"pcrread BANK:INDICES (e.g. sha256:0,7 or sha256:0-23)\n"
	"       [--tcti TCTI] [--srk-handle H] [--srk-name HEX] [--timeout SECONDS]";

int cmd_pcrread(int argc, char **argv)
{
	static const struct option longopts[] = {
		TOOL_TPM_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct tool_tpm_opts common = { 0 };
	struct common_getopt g = TOOL_GETOPT(usage, longopts, &common);
	struct elfsig_tpm_pcr_values vals;
	struct elfsig_tpm_pcrsel sel;
	struct elfsig_tpm *tpm;
	unsigned int i;
	int opt, ret;

	g.operands = true;	/* checked below, with its own line */
	opt = common_getopt(&g, argc, argv);
	if (opt)
		return opt < 0 ? g.status : tool_usage_err(usage, NULL);
	if (optind + 1 != argc)
		return tool_usage_err(usage, "one PCR selection expected");
	if (elfsig_tpm_pcrsel_parse(argv[optind], &sel))
		return EXIT_USAGE;
	ret = tool_tpm_open(&common, &tpm);
	if (ret)
		return tool_exit_code(ret);
	ret = elfsig_tpm_pcr_read(tpm, &sel, &vals);
	elfsig_tpm_close(tpm);
	if (ret)
		return tool_exit_code(ret);
	for (i = 0; i < ELFSIG_TPM_MAX_PCRS; i++) {
		if (!(sel.mask & (1u << i)))
			continue;
		printf("%s:%u=", elfsig_tpm_bank_name(sel.bank), i);
		tool_print_hex(vals.value[i], vals.digest_size);
		printf("\n");
	}
	return EXIT_OK;
}
