// SPDX-License-Identifier: GPL-2.0-only
/* cmd_log.c - elfsig-attest log: the kernel's log checked and printed,
 * with the PCR value it replays to (evidence only with a quote). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "attest.h"
#include "cmd.h"

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
	struct attest_opts a = ATTEST_OPTS_INIT(NULL);
	struct common_getopt g = ATTEST_GETOPT(usage, longopts, &a);
	struct attest_summary sum;
	uint8_t value[ATTEST_SHA256_LEN], *img = NULL;
	const char *path = NULL;
	bool json = false;
	size_t len = 0;
	int opt, ret;

	while ((opt = common_getopt(&g, argc, argv)) > 0) {
		switch (opt) {
		case 'l':
			path = optarg;
			break;
		case 'j':
			json = true;
			break;
		}
	}
	if (opt < 0)
		return g.status;
	if (!path)
		return tool_usage_err(usage, "--log is required");
	ret = read_input(path, ATTEST_MAX_LOG, &img, &len);
	if (!ret)
		ret = attest_log_check(img, len, path, a.pcr, NULL, value, &sum);
	if (!ret) {
		attest_report(stdout, &sum, NULL, value, NULL, 0, json);
		attest_summary_free(&sum);
	}
	free(img);
	return attest_exit_code(ret);
}
