// SPDX-License-Identifier: GPL-2.0-only
/* cmd_srkname.c - elfsig-tpm srkname: the SRK's TPM name, to pin it. */
#include <stdio.h>

#include "cmd.h"

static const char usage[] =
	"srkname\n"
	"       [--tcti TCTI] [--srk-handle H] [--srk-name HEX] [--timeout SECONDS]";

int cmd_srkname(int argc, char **argv)
{
	static const struct option longopts[] = {
		TOOL_TPM_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct tool_tpm_opts common = { 0 };
	struct common_getopt g = TOOL_GETOPT(usage, longopts, &common);
	uint8_t name[ELFSIG_TPM_MAX_NAME];
	struct elfsig_tpm *tpm;
	size_t len;
	int opt, ret;

	opt = common_getopt(&g, argc, argv);
	if (opt)
		return opt < 0 ? g.status : tool_usage_err(usage, NULL);
	ret = tool_tpm_open(&common, &tpm);
	if (ret)
		return tool_exit_code(ret);
	ret = elfsig_tpm_srk_name(tpm, name, &len);
	elfsig_tpm_close(tpm);
	if (ret)
		return tool_exit_code(ret);
	tool_print_hex(name, len);
	printf("\n");
	return EXIT_OK;
}
