// SPDX-License-Identifier: GPL-2.0-only
/* cmd_quote.c - elfsig-attest quote: TPM2_Quote of sha256:PCR with the
 * verifier's nonce, written as tpm2_quote -m / -s write it. */
#include <stdio.h>
#include <stdlib.h>

#include "attest.h"
#include "cmd.h"

static const char usage[] =
	"quote --ak-handle H --nonce HEX [--pcr 13] --msg FILE --sig FILE\n"
	"       [--tcti TCTI] [--timeout SECONDS]";

int cmd_quote(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "ak-handle", required_argument, NULL, 'a' },
		{ "nonce", required_argument, NULL, 'n' },
		{ "pcr", required_argument, NULL, 'p' },
		{ "msg", required_argument, NULL, 'm' },
		{ "sig", required_argument, NULL, 's' },
		TOOL_TPM_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct tool_tpm_opts common = { 0 };
	struct attest_opts a = ATTEST_OPTS_INIT(&common);
	struct common_getopt g = ATTEST_GETOPT(usage, longopts, &a);
	struct elfsig_tpm_pcrsel sel;
	struct elfsig_tpm *tpm;
	uint8_t *attest = NULL, *sig = NULL;
	size_t alen = 0, slen = 0;
	const char *msg_path = NULL, *sig_path = NULL;
	uint32_t ak = 0;
	int opt, ret;

	while ((opt = common_getopt(&g, argc, argv)) > 0) {
		switch (opt) {
		case 'a':
			if (tool_parse_u32(optarg, &ak) || (ak >> 24) != 0x81)
				return tool_usage_err(usage, "--ak-handle %s: a persistent handle like 0x81010001",
						      optarg);
			break;
		case 'm':
			msg_path = optarg;
			break;
		case 's':
			sig_path = optarg;
			break;
		}
	}
	if (opt < 0)
		return g.status;
	if (!ak || !a.nlen || !msg_path || !sig_path)
		return tool_usage_err(usage, "--ak-handle, --nonce, --msg and --sig are required");
	sel.bank = elfsig_tpm_bank_from_name("sha256");
	sel.mask = 1u << a.pcr;
	ret = attest_tpm_open(&common, "no quote can be made", &tpm);
	if (ret)
		return tool_exit_code(ret);
	ret = elfsig_tpm_quote(tpm, ak, a.nonce, a.nlen, &sel, &attest, &alen, &sig,
			       &slen);
	elfsig_tpm_close(tpm);
	if (!ret)
		ret = tool_write_file(msg_path, attest, alen);
	if (!ret)
		ret = tool_write_file(sig_path, sig, slen);
	free(attest);
	free(sig);
	return tool_exit_code(ret);
}
