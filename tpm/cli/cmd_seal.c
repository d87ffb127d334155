// SPDX-License-Identifier: GPL-2.0-only
/* cmd_seal.c - elfsig-tpm seal: a secret under a PCR policy, to a file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/crypto.h>

#include "cmd.h"

static const char usage[] =
	"seal --pcrs sha256:0,7 --in SECRET|- --out SEALED\n"
	"       [--expect INDEX=HEX]... (seal to these values instead of the\n"
	"        current ones; PCRs not named keep their current value)\n"
	"       [--export-tss PUB PRIV] (also write tpm2-tools' -u/-r files)\n"
	"       [--tcti TCTI] [--srk-handle H] [--srk-name HEX] [--timeout SECONDS]";

/* "7=ab12..." into @vals; the index must be in the selection. */
static int parse_expect(const char *arg, struct elfsig_tpm_pcr_values *vals,
			uint32_t *given)
{
	const char *eq = strchr(arg, '=');
	char idx[4];
	uint32_t i;
	size_t len;

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(idx))
		return -1;
	memcpy(idx, arg, eq - arg);
	idx[eq - arg] = '\0';
	if (tool_parse_u32(idx, &i) || i >= ELFSIG_TPM_MAX_PCRS ||
	    !(vals->sel.mask & (1u << i)))
		return -1;
	if (tool_parse_hex(eq + 1, vals->value[i], ELFSIG_TPM_MAX_DIGEST, &len) ||
	    len != vals->digest_size)
		return -1;
	*given |= 1u << i;
	return 0;
}

int cmd_seal(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pcrs", required_argument, NULL, 'p' },
		{ "in", required_argument, NULL, 'i' },
		{ "out", required_argument, NULL, 'o' },
		{ "expect", required_argument, NULL, 'e' },
		{ "export-tss", required_argument, NULL, 'x' },
		TOOL_TPM_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct tool_tpm_opts common = { 0 };
	struct common_getopt g = TOOL_GETOPT(usage, longopts, &common);
	struct elfsig_tpm_pcr_values vals, cur;
	struct elfsig_tpm_sealed *sealed = NULL;
	struct elfsig_tpm *tpm = NULL;
	const char *pcrs = NULL, *in = NULL, *out = NULL;
	const char *expect[ELFSIG_TPM_MAX_PCRS];
	const char *tss_pub = NULL, *tss_priv = NULL;
	uint8_t secret[ELFSIG_TPM_MAX_SECRET];
	uint8_t *pub = NULL, *priv = NULL;
	size_t len = 0, publen, privlen, nexpect = 0, k;
	uint32_t given = 0;
	unsigned int i;
	int opt, ret;

	while ((opt = common_getopt(&g, argc, argv)) > 0) {
		switch (opt) {
		case 'p':
			pcrs = optarg;
			break;
		case 'i':
			in = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'e':
			if (nexpect == ELFSIG_TPM_MAX_PCRS)
				return tool_usage_err(usage, "too many --expect");
			expect[nexpect++] = optarg;
			break;
		case 'x':
			/* --export-tss PUB PRIV: two arguments. */
			if (optind >= argc)
				return tool_usage_err(usage, "--export-tss needs PUB and PRIV");
			tss_pub = optarg;
			tss_priv = argv[optind++];
			break;
		}
	}
	if (opt < 0)
		return g.status;
	if (!pcrs || !in || !out)
		return tool_usage_err(usage, "--pcrs, --in and --out are required");
	memset(&vals, 0, sizeof(vals));
	if (elfsig_tpm_pcrsel_parse(pcrs, &vals.sel))
		return EXIT_USAGE;
	vals.digest_size = elfsig_tpm_bank_size(vals.sel.bank);
	for (k = 0; k < nexpect; k++)
		if (parse_expect(expect[k], &vals, &given))
			return tool_usage_err(usage, "--expect %s: want INDEX=HEX with a selected PCR and a %zu-byte value",
					      expect[k], vals.digest_size);

	ret = tool_read_bounded(in, secret, sizeof(secret), &len, true);
	if (!ret && len == 0) {
		tool_err("%s: empty secret", in);
		ret = -EINVAL;
	}
	if (ret)
		goto out;
	ret = tool_tpm_open(&common, &tpm);
	if (ret)
		goto out;
	if (given != vals.sel.mask) {
		ret = elfsig_tpm_pcr_read(tpm, &vals.sel, &cur);
		if (ret)
			goto out;
		for (i = 0; i < ELFSIG_TPM_MAX_PCRS; i++)
			if ((vals.sel.mask & ~given) & (1u << i))
				memcpy(vals.value[i], cur.value[i],
				       vals.digest_size);
	}
	ret = elfsig_tpm_seal(tpm, &vals, secret, len, &sealed);
	if (ret)
		goto out;
	ret = elfsig_tpm_sealed_write_file(sealed, out);
	if (ret || !tss_pub)
		goto out;
	ret = elfsig_tpm_sealed_to_tss(sealed, &pub, &publen, &priv, &privlen);
	if (!ret)
		ret = tool_write_file(tss_pub, pub, publen);
	if (!ret)
		ret = tool_write_file(tss_priv, priv, privlen);
out:
	OPENSSL_cleanse(secret, sizeof(secret));
	free(pub);
	free(priv);
	elfsig_tpm_sealed_free(sealed);
	elfsig_tpm_close(tpm);
	return tool_exit_code(ret);
}
