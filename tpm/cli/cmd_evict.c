// SPDX-License-Identifier: GPL-2.0-only
/* cmd_evict.c - elfsig-tpm evict: remove a persistent key. */
#include <stdio.h>

#include "cmd.h"

static const char usage[] =
	"evict --handle 0x81000001\n"
	"       [--tcti TCTI] [--srk-handle H] [--srk-name HEX] [--timeout SECONDS]";

int cmd_evict(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "handle", required_argument, NULL, 'H' },
		TOOL_TPM_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct tool_tpm_opts common = { 0 };
	struct common_getopt g = TOOL_GETOPT(usage, longopts, &common);
	struct elfsig_tpm *tpm;
	uint32_t handle = 0;
	int opt, ret;

	g.operands = true;	/* checked below, with its own line */
	while ((opt = common_getopt(&g, argc, argv)) > 0) {
		switch (opt) {
		case 'H':
			if (tool_parse_u32(optarg, &handle))
				return tool_usage_err(usage, "--handle %s: not a handle",
						      optarg);
			break;
		}
	}
	if (opt < 0)
		return g.status;
	if (optind != argc || !handle)
		return tool_usage_err(usage, "--handle is required");
	ret = tool_tpm_open(&common, &tpm);
	if (ret)
		return tool_exit_code(ret);
	ret = elfsig_tpm_evict(tpm, handle);
	elfsig_tpm_close(tpm);
	return tool_exit_code(ret);
}
