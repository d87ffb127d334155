// SPDX-License-Identifier: GPL-2.0-only
/* cmd_log.c - elfsig-attest log: the kernel's log checked and printed,
 * with the PCR value it replays to (evidence only with a quote). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "attest.h"
#include "attest_cmd.h"

static const char usage[] = "log --log FILE [--pcr 13] [--json]";

int cmd_log(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "log", required_argument, NULL, 'l' },
		{ "pcr", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct attest_summary sum;
	uint8_t value[ATTEST_SHA256_LEN], *img = NULL;
	unsigned int pcr = ATTEST_DEFAULT_PCR;
	const char *path = NULL;
	bool json = false;
	size_t len = 0;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'l':
			path = optarg;
			break;
		case 'p':
			if (parse_pcr(optarg, &pcr))
				return EXIT_USAGE;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			printf("usage: %s %s\n", prog, usage);
			return EXIT_OK;
		default:
			return usage_err(usage, NULL);
		}
	}
	if (optind != argc)
		return usage_err(usage, "unexpected argument '%s'", argv[optind]);
	if (!path)
		return usage_err(usage, "--log is required");
	ret = read_input(path, ATTEST_MAX_LOG, &img, &len);
	if (!ret)
		ret = attest_log_check(img, len, path, pcr, NULL, value, &sum);
	if (!ret) {
		attest_report(stdout, &sum, NULL, value, NULL, 0, json);
		attest_summary_free(&sum);
	}
	free(img);
	return attest_exit_code(ret);
}
