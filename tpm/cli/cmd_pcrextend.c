// SPDX-License-Identifier: GPL-2.0-only
/* cmd_pcrextend.c - elfsig-tpm pcrextend: a digest, or hashed event data
 * (into one bank, or into every allocated bank with one command). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"

static const char usage[] =
	"pcrextend --pcr N ([--bank sha256] --digest HEX | [--bank sha256 | --all-banks] --data STRING)\n"
	"       [--tcti TCTI] [--srk-handle H] [--srk-name HEX] [--timeout SECONDS]";

/* Every bank the TPM has allocated, one TPM2_PCR_Extend; prints
 * "bank:hex" for each bank extended. */
static int extend_all(struct elfsig_tpm *tpm, uint32_t index, const char *data)
{
	static const char *const names[] = { "sha1", "sha256", "sha384", "sha512" };
	uint16_t banks[ELFSIG_TPM_MAX_BANKS];
	struct elfsig_tpm_event_digests ev;
	unsigned int i;
	int ret;

	for (i = 0; i < ELFSIG_TPM_MAX_BANKS; i++)
		banks[i] = elfsig_tpm_bank_from_name(names[i]);
	ret = elfsig_tpm_pcr_extend_event(tpm, index, banks, ELFSIG_TPM_MAX_BANKS,
					  data, strlen(data), &ev);
	for (i = 0; !ret && i < ev.count; i++) {
		printf("%s:", elfsig_tpm_bank_name(ev.d[i].bank));
		tool_print_hex(ev.d[i].digest, ev.d[i].size);
		printf("\n");
	}
	return ret;
}

int cmd_pcrextend(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pcr", required_argument, NULL, 'p' },
		{ "bank", required_argument, NULL, 'b' },
		{ "digest", required_argument, NULL, 'd' },
		{ "data", required_argument, NULL, 'D' },
		{ "all-banks", no_argument, NULL, 'A' },
		TOOL_TPM_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct tool_tpm_opts common = { 0 };
	struct common_getopt g = TOOL_GETOPT(usage, longopts, &common);
	struct elfsig_tpm *tpm;
	const char *digest = NULL, *data = NULL;
	uint8_t md[ELFSIG_TPM_MAX_DIGEST];
	uint16_t bank = elfsig_tpm_bank_from_name("sha256");
	uint32_t index = ELFSIG_TPM_MAX_PCRS;
	size_t len = 0;
	bool all = false, bank_set = false;
	int opt, ret;

	while ((opt = common_getopt(&g, argc, argv)) > 0) {
		switch (opt) {
		case 'p':
			if (tool_parse_u32(optarg, &index) ||
			    index >= ELFSIG_TPM_MAX_PCRS)
				return tool_usage_err(usage, "--pcr %s: 0..23", optarg);
			break;
		case 'b':
			bank = elfsig_tpm_bank_from_name(optarg);
			if (!bank)
				return tool_usage_err(usage, "--bank %s: sha1, sha256, sha384 or sha512",
						      optarg);
			bank_set = true;
			break;
		case 'A':
			all = true;
			break;
		case 'd':
			digest = optarg;
			break;
		case 'D':
			data = optarg;
			break;
		}
	}
	if (opt < 0)
		return g.status;
	if (index >= ELFSIG_TPM_MAX_PCRS || !digest == !data)
		return tool_usage_err(usage, "--pcr and one of --digest, --data are required");
	if (all && (digest || bank_set))
		return tool_usage_err(usage, "--all-banks goes with --data, without --bank");
	if (digest && (tool_parse_hex(digest, md, sizeof(md), &len) ||
		       len != elfsig_tpm_bank_size(bank)))
		return tool_usage_err(usage, "--digest: %zu hex bytes for bank %s",
				      elfsig_tpm_bank_size(bank),
				      elfsig_tpm_bank_name(bank));
	ret = tool_tpm_open(&common, &tpm);
	if (ret)
		return tool_exit_code(ret);
	if (all)
		ret = extend_all(tpm, index, data);
	else if (digest)
		ret = elfsig_tpm_pcr_extend(tpm, index, bank, md, len);
	else
		ret = elfsig_tpm_pcr_extend_data(tpm, index, bank, data,
						 strlen(data));
	elfsig_tpm_close(tpm);
	return tool_exit_code(ret);
}
