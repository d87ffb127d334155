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
		COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct common_opts common = { 0 };
	uint8_t name[ELFSIG_TPM_MAX_NAME];
	struct elfsig_tpm *tpm;
	size_t len;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		ret = common_opt(&common, opt, optarg);
		if (ret < 0)
			return EXIT_USAGE;
		if (ret)
			continue;
		if (opt == 'h') {
			printf("usage: %s %s\n", prog, usage);
			return EXIT_OK;
		}
		return usage_err(usage, NULL);
	}
	if (optind != argc)
		return usage_err(usage, "unexpected argument '%s'", argv[optind]);
	ret = tpm_open(&common, &tpm);
	if (ret)
		return exit_code(ret);
	ret = elfsig_tpm_srk_name(tpm, name, &len);
	elfsig_tpm_close(tpm);
	if (ret)
		return exit_code(ret);
	print_hex(name, len);
	printf("\n");
	return EXIT_OK;
}
