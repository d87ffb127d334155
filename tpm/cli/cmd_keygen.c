// SPDX-License-Identifier: GPL-2.0-only
/* cmd_keygen.c - elfsig-tpm keygen: a TPM signing key and its certificate. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

static const char usage[] =
	"keygen [--type ecc|rsa] (--handle 0x81000001 | --out key.tss2.pem)\n"
	"       [--subject /CN=... (--cert cert.pem | --csr req.csr) [--days N]]\n"
	"       [--tcti TCTI] [--srk-handle H] [--srk-name HEX] [--timeout SECONDS]";

static void print_attrs(uint32_t handle, uint32_t a)
{
	static const struct { uint32_t bit; const char *name; } names[] = {
		{ ELFSIG_TPM_ATTR_FIXEDTPM, "fixedtpm" },
		{ ELFSIG_TPM_ATTR_FIXEDPARENT, "fixedparent" },
		{ ELFSIG_TPM_ATTR_SENSITIVEDATAORIGIN, "sensitivedataorigin" },
		{ ELFSIG_TPM_ATTR_USERWITHAUTH, "userwithauth" },
		{ ELFSIG_TPM_ATTR_SIGN, "sign" },
	};
	const char *sep = "";
	size_t i;

	printf("0x%08x: attributes 0x%08x ", handle, a);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (a & names[i].bit) {
			printf("%s%s", sep, names[i].name);
			sep = "|";
		}
	printf("\n");
}

int cmd_keygen(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "type", required_argument, NULL, 't' },
		{ "handle", required_argument, NULL, 'H' },
		{ "out", required_argument, NULL, 'o' },
		{ "subject", required_argument, NULL, 's' },
		{ "cert", required_argument, NULL, 'c' },
		{ "csr", required_argument, NULL, 'r' },
		{ "days", required_argument, NULL, 'd' },
		TOOL_TPM_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct tool_tpm_opts common = { 0 };
	struct common_getopt g = TOOL_GETOPT(usage, longopts, &common);
	struct elfsig_tpm_cert_opts cert = { 0 };
	enum elfsig_tpm_keytype type = ELFSIG_TPM_KEY_ECC_P256;
	struct elfsig_tpm *tpm;
	uint32_t handle = 0, attrs, days = 0;
	const char *out = NULL;
	char keyname[32];
	int opt, ret;

	while ((opt = common_getopt(&g, argc, argv)) > 0) {
		switch (opt) {
		case 't':
			if (!strcmp(optarg, "rsa") || !strcmp(optarg, "rsa2048"))
				type = ELFSIG_TPM_KEY_RSA2048;
			else if (!strcmp(optarg, "ecc") ||
				 !strcmp(optarg, "ecc256") ||
				 !strcmp(optarg, "p256"))
				type = ELFSIG_TPM_KEY_ECC_P256;
			else
				return tool_usage_err(usage, "--type %s: rsa or ecc",
						      optarg);
			break;
		case 'H':
			if (tool_parse_u32(optarg, &handle) || !handle)
				return tool_usage_err(usage, "--handle %s: not a handle",
						      optarg);
			break;
		case 'o':
			out = optarg;
			break;
		case 's':
			cert.subject = optarg;
			break;
		case 'c':
			cert.cert = optarg;
			break;
		case 'r':
			cert.csr = optarg;
			break;
		case 'd':
			if (tool_parse_u32(optarg, &days) || !days)
				return tool_usage_err(usage, "--days %s: a positive number",
						      optarg);
			break;
		}
	}
	if (opt < 0)
		return g.status;
	if (!handle && !out)
		return tool_usage_err(usage, "give --handle, --out or both");
	if ((cert.cert || cert.csr) != !!cert.subject)
		return tool_usage_err(usage, "--subject goes with --cert and/or --csr");

	ret = tool_tpm_open(&common, &tpm);
	if (ret)
		return tool_exit_code(ret);
	ret = elfsig_tpm_keygen(tpm, type, handle, out);
	if (!ret && handle) {
		ret = elfsig_tpm_key_attributes(tpm, handle, &attrs);
		if (!ret)
			print_attrs(handle, attrs);
	}
	/* swtpm serves one client at a time: let the provider in. */
	elfsig_tpm_close(tpm);
	if (ret)
		return tool_exit_code(ret);
	if (out)
		printf("%s: TSS2 PRIVATE KEY (TPM-wrapped, usable only in this TPM)\n",
		       out);
	if (!cert.subject)
		return EXIT_OK;
	if (handle) {
		snprintf(keyname, sizeof(keyname), "handle:0x%08x", handle);
		cert.key = keyname;
	} else {
		cert.key = out;
	}
	cert.tcti = common.tcti;
	cert.days = days;
	tool_tpm_watchdog(&common);
	ret = elfsig_tpm_make_cert(&cert);
	if (!ret && cert.cert)
		printf("%s: self-signed certificate\n", cert.cert);
	if (!ret && cert.csr)
		printf("%s: certificate request\n", cert.csr);
	return tool_exit_code(ret);
}
