// SPDX-License-Identifier: GPL-2.0-only
/* cmd_quote.c - elfsig-attest quote: TPM2_Quote of sha256:PCR with the
 * verifier's nonce, written as tpm2_quote -m / -s write it. */
#include <stdio.h>
#include <stdlib.h>

#include "attest.h"
#include "attest_cmd.h"

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
		COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct common_opts common = { 0 };
	struct elfsig_tpm_pcrsel sel;
	struct elfsig_tpm *tpm;
	uint8_t nonce[ATTEST_MAX_NONCE], *attest = NULL, *sig = NULL;
	size_t nlen = 0, alen = 0, slen = 0;
	const char *msg_path = NULL, *sig_path = NULL;
	unsigned int pcr = ATTEST_DEFAULT_PCR;
	uint32_t ak = 0;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		ret = common_opt(&common, opt, optarg);
		if (ret < 0)
			return EXIT_USAGE;
		if (ret)
			continue;
		switch (opt) {
		case 'a':
			if (parse_u32(optarg, &ak) || (ak >> 24) != 0x81)
				return usage_err(usage, "--ak-handle %s: a persistent handle like 0x81010001",
						 optarg);
			break;
		case 'n':
			if (parse_nonce(optarg, nonce, &nlen))
				return EXIT_USAGE;
			break;
		case 'p':
			if (parse_pcr(optarg, &pcr))
				return EXIT_USAGE;
			break;
		case 'm':
			msg_path = optarg;
			break;
		case 's':
			sig_path = optarg;
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
	if (!ak || !nlen || !msg_path || !sig_path)
		return usage_err(usage, "--ak-handle, --nonce, --msg and --sig are required");
	sel.bank = elfsig_tpm_bank_from_name("sha256");
	sel.mask = 1u << pcr;
	ret = tpm_open(&common, &tpm);
	if (ret)
		return exit_code(ret);
	ret = elfsig_tpm_quote(tpm, ak, nonce, nlen, &sel, &attest, &alen, &sig,
			       &slen);
	elfsig_tpm_close(tpm);
	if (!ret)
		ret = write_file(msg_path, attest, alen);
	if (!ret)
		ret = write_file(sig_path, sig, slen);
	free(attest);
	free(sig);
	return exit_code(ret);
}
