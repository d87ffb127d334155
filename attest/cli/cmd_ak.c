// SPDX-License-Identifier: GPL-2.0-only
/* cmd_ak.c - elfsig-attest ak: a persistent attestation key, its public
 * part as PEM. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

static const char usage[] =
	"ak --handle H --pub FILE [--type ecc|rsa]\n"
	"       [--tcti TCTI] [--srk-handle H] [--srk-name HEX] [--timeout SECONDS]";

int cmd_ak(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "handle", required_argument, NULL, 'H' },
		{ "pub", required_argument, NULL, 'p' },
		{ "type", required_argument, NULL, 't' },
		TOOL_TPM_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct tool_tpm_opts common = { 0 };
	struct common_getopt g = TOOL_GETOPT(usage, longopts, &common);
	enum elfsig_tpm_keytype type = 0;
	struct elfsig_tpm *tpm;
	const char *pub = NULL;
	uint32_t handle = 0;
	int opt, ret, created = 0;

	while ((opt = common_getopt(&g, argc, argv)) > 0) {
		switch (opt) {
		case 'H':
			if (tool_parse_u32(optarg, &handle) || (handle >> 24) != 0x81)
				return tool_usage_err(usage, "--handle %s: a persistent handle like 0x81010001",
						      optarg);
			break;
		case 'p':
			pub = optarg;
			break;
		case 't':
			if (!strcmp(optarg, "ecc"))
				type = ELFSIG_TPM_KEY_ECC_P256;
			else if (!strcmp(optarg, "rsa"))
				type = ELFSIG_TPM_KEY_RSA2048;
			else
				return tool_usage_err(usage, "--type %s: ecc or rsa", optarg);
			break;
		}
	}
	if (opt < 0)
		return g.status;
	if (!handle || !pub)
		return tool_usage_err(usage, "--handle and --pub are required");
	ret = attest_tpm_open(&common, "no attestation key can be made", &tpm);
	if (ret)
		return tool_exit_code(ret);
	ret = elfsig_tpm_ak(tpm, type, handle, pub, &created);
	elfsig_tpm_close(tpm);
	if (!ret)
		printf("attestation key 0x%08x %s, public key in %s\n", handle,
		       created ? "created" : "already there, reused", pub);
	return tool_exit_code(ret);
}
