// SPDX-License-Identifier: GPL-2.0-only
/* cmd_unseal.c - elfsig-tpm unseal: a sealed file (or tpm2-tools pair). */
#include <stdio.h>
#include <string.h>
#include <openssl/crypto.h>

#include "cmd.h"

static const char usage[] =
	"unseal (--in SEALED | --tss PUB PRIV --pcrs sha256:0,7) [--out FILE|-]\n"
	"       [--tcti TCTI] [--srk-handle H] [--srk-name HEX] [--timeout SECONDS]";

/* tpm2-tools' -u/-r files: marshalled TPM2B_PUBLIC and TPM2B_PRIVATE. */
static int load_tss(const char *pubf, const char *privf, const char *pcrs,
		    struct elfsig_tpm_sealed **out)
{
	uint8_t pub[1024], priv[1024];
	size_t publen, privlen;
	struct elfsig_tpm_pcrsel sel;
	int ret;

	ret = elfsig_tpm_pcrsel_parse(pcrs, &sel);
	if (!ret)
		ret = tool_read_bounded(pubf, pub, sizeof(pub), &publen, false);
	if (!ret)
		ret = tool_read_bounded(privf, priv, sizeof(priv), &privlen, false);
	if (!ret)
		ret = elfsig_tpm_sealed_from_tss(&sel, pub, publen, priv,
						 privlen, out);
	return ret;
}

int cmd_unseal(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "in", required_argument, NULL, 'i' },
		{ "tss", required_argument, NULL, 'x' },
		{ "pcrs", required_argument, NULL, 'p' },
		{ "out", required_argument, NULL, 'o' },
		TOOL_TPM_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct tool_tpm_opts common = { 0 };
	struct common_getopt g = TOOL_GETOPT(usage, longopts, &common);
	struct elfsig_tpm_sealed *sealed = NULL;
	struct elfsig_tpm *tpm = NULL;
	const char *in = NULL, *out = "-", *pcrs = NULL;
	const char *tss_pub = NULL, *tss_priv = NULL;
	uint8_t secret[ELFSIG_TPM_MAX_SECRET];
	size_t len = 0;
	int opt, ret;

	while ((opt = common_getopt(&g, argc, argv)) > 0) {
		switch (opt) {
		case 'i':
			in = optarg;
			break;
		case 'x':
			if (optind >= argc)
				return tool_usage_err(usage, "--tss needs PUB and PRIV");
			tss_pub = optarg;
			tss_priv = argv[optind++];
			break;
		case 'p':
			pcrs = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		}
	}
	if (opt < 0)
		return g.status;
	if (!!in == !!tss_pub || (tss_pub && !pcrs) || (in && pcrs))
		return tool_usage_err(usage, "give --in, or --tss with --pcrs");

	ret = in ? elfsig_tpm_sealed_read_file(in, &sealed) :
		   load_tss(tss_pub, tss_priv, pcrs, &sealed);
	if (ret)
		goto out;
	ret = tool_tpm_open(&common, &tpm);
	if (!ret)
		ret = elfsig_tpm_unseal(tpm, sealed, secret, sizeof(secret),
					&len);
	if (!ret)
		ret = tool_write_file(out, secret, len);
out:
	OPENSSL_cleanse(secret, sizeof(secret));
	elfsig_tpm_sealed_free(sealed);
	elfsig_tpm_close(tpm);
	return tool_exit_code(ret);
}
