// SPDX-License-Identifier: GPL-2.0-only
/* cmd_verify.c - elfsig-attest verify: the quote, the log replayed to it,
 * and what .elfsig trusted, against an allow list. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "attest.h"
#include "cmd.h"

static const char usage[] =
	"verify --ak-pub FILE --msg FILE --sig FILE --nonce HEX --log FILE\n"
	"       [--pcr 13] [--pcr-values FILE] [--allow FILE]\n"
	"       [--require-mode MODE] [--json]";

struct inputs {
	uint8_t *msg, *sig, *key, *log, *allow, *values;
	size_t mlen, slen, klen, llen, alen, vlen;
};

static int read_inputs(const char *const path[6], struct inputs *in)
{
	int ret;

	ret = read_input(path[0], ATTEST_MAX_QUOTE_FILE, &in->msg, &in->mlen);
	if (!ret)
		ret = read_input(path[1], ATTEST_MAX_QUOTE_FILE, &in->sig,
				 &in->slen);
	if (!ret)
		ret = read_input(path[2], ATTEST_MAX_KEY_FILE, &in->key,
				 &in->klen);
	if (!ret)
		ret = read_input(path[3], ATTEST_MAX_LOG, &in->log, &in->llen);
	if (!ret && path[4])
		ret = read_input(path[4], ATTEST_MAX_ALLOW_FILE, &in->allow,
				 &in->alen);
	if (!ret && path[5])
		ret = read_input(path[5], ATTEST_MAX_VALUES_FILE, &in->values,
				 &in->vlen);
	return ret;
}

int cmd_verify(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "ak-pub", required_argument, NULL, 'k' },
		{ "msg", required_argument, NULL, 'm' },
		{ "sig", required_argument, NULL, 's' },
		{ "nonce", required_argument, NULL, 'n' },
		{ "log", required_argument, NULL, 'l' },
		{ "pcr", required_argument, NULL, 'p' },
		{ "allow", required_argument, NULL, 'a' },
		{ "pcr-values", required_argument, NULL, 'v' },
		{ "require-mode", required_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct attest_opts a = ATTEST_OPTS_INIT(NULL);
	struct common_getopt g = ATTEST_GETOPT(usage, longopts, &a);
	/* message, signature, key, log, allow list, PCR values */
	const char *path[6] = { NULL, NULL, NULL, NULL, NULL, NULL };
	struct attest_allow allow = { 0 };
	struct attest_summary sum = { 0 };
	struct inputs in = { 0 };
	struct attest_quote q = { 0 };
	uint8_t value[ATTEST_SHA256_LEN];
	bool json = false;
	int opt, ret, min_mode = -1;
	int status = -1;	/* an exit status already */

	while ((opt = common_getopt(&g, argc, argv)) > 0) {
		switch (opt) {
		case 'm':
			path[0] = optarg;
			break;
		case 's':
			path[1] = optarg;
			break;
		case 'k':
			path[2] = optarg;
			break;
		case 'l':
			path[3] = optarg;
			break;
		case 'a':
			path[4] = optarg;
			break;
		case 'v':
			path[5] = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'r':
			min_mode = attest_mode_rank(optarg);
			if (min_mode < 0) {
				tool_err("--require-mode %s: off, permissive, enforce or require",
					optarg);
				return EXIT_USAGE;
			}
			break;
		}
	}
	if (opt < 0)
		return g.status;
	if (!path[0] || !path[1] || !path[2] || !path[3] || !a.nlen)
		return tool_usage_err(usage, "--ak-pub, --msg, --sig, --nonce and --log are required");
	ret = read_inputs(path, &in);
	if (!ret && path[4])
		ret = attest_allow_parse(in.allow, in.alen, path[4], &allow);
	if (!ret) {
		const char *names[3] = { path[0], path[1], path[2] };

		ret = attest_quote_verify(in.msg, in.mlen, in.sig, in.slen,
					  in.key, in.klen, names, a.nonce, a.nlen,
					  a.pcr, &q);
	}
	if (!ret && path[5])
		ret = attest_quote_values(&q, in.values, in.vlen, path[5]);
	if (!ret && q.npcrs > 1 && !path[5]) {
		char list[128];

		attest_quote_pcr_list(&q, list, sizeof(list));
		tool_err("%s: the quote covers %s: give their values with --pcr-values (tpm2_quote -o FILE -F values)",
			path[0], list);
		status = EXIT_USAGE;
		goto out;
	}
	if (!ret)
		ret = attest_log_check(in.log, in.llen, path[3], a.pcr, &q, value,
				       &sum);
	if (!ret) {
		/* What the log says is evidence now: report it, then the
		 * verdict's one line when it is not "trusted". */
		ret = attest_verdict(&sum, path[4] ? &allow : NULL, min_mode);
		attest_report(stdout, &sum, &q, value, path[4] ? &allow : NULL,
			      ret, json);
		attest_summary_free(&sum);
	}
out:
	attest_allow_free(&allow);
	free(in.values);
	free(in.msg);
	free(in.sig);
	free(in.key);
	free(in.log);
	free(in.allow);
	return status >= 0 ? status : attest_exit_code(ret);
}
