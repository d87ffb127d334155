// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_sign.c - signelf sign: sign one or many files with one loaded key.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"

#define MAX_PROVIDERS 8

static const char usage[] =
"Usage: signelf sign --key KEY --cert CERT [OPTION]... FILE...\n"
"Sign ELF executables in place (atomically), or one file to --output.\n"
"\n"
"  -k, --key KEY         private key: a PEM/DER file, a TPM key\n"
"                        (handle:0x81000001 or a TSS2 PRIVATE KEY file),\n"
"                        or any OSSL_STORE name such as a pkcs11: URI\n"
"  -c, --cert CERT       the key's X.509 certificate (PEM or DER)\n"
"  -a, --hash HASH       sha256 (default), sha384 or sha512\n"
"  -o, --output OUT      write the signed file to OUT (one FILE only)\n"
"      --keyid           identify the signer by subject key identifier\n"
"                        instead of issuer and serial number\n"
"      --allow-interp    sign even if the file has PT_INTERP (the kernel\n"
"                        refuses to run such a signed file)\n"
"      --provider NAME   load an extra OpenSSL provider (repeatable)\n"
"      --tcti TCTI       TPM connection for TPM keys (default: $TPM2TOOLS_TCTI,\n"
"                        then the tpm2 provider's default)\n"
"  -p, --key-pass SPEC   the key's password or TPM auth value, as OpenSSL's\n"
"                        -passin: pass:STR, env:VAR, file:PATH, fd:N, stdin\n"
"                        (default: $ELFSIG_KEY_PASS; without either, ask\n"
"                        on a terminal, or fail)\n"
"  -h, --help            show this help\n";

int cmd_sign(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "key", required_argument, NULL, 'k' },
		{ "cert", required_argument, NULL, 'c' },
		{ "hash", required_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		{ "keyid", no_argument, NULL, 'K' },
		{ "allow-interp", no_argument, NULL, 'I' },
		{ "provider", required_argument, NULL, 'P' },
		{ "tcti", required_argument, NULL, 'T' },
		{ "key-pass", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *providers[MAX_PROVIDERS + 1] = { NULL };
	struct elfsig_signer_opts so = { .providers = providers };
	struct elfsig_signer *signer = NULL;
	const char *output = NULL, *pass_spec = getenv("ELFSIG_KEY_PASS");
	char *pass = NULL;
	unsigned int flags = 0;
	int nprov = 0, c, ret, status = EXIT_VALID;

	while ((c = getopt_long(argc, argv, ":k:c:a:o:p:h", opts, NULL)) != -1) {
		switch (c) {
		case 'k':
			so.key = optarg;
			break;
		case 'c':
			so.cert = optarg;
			break;
		case 'a':
			if (elfsig_hash_from_name(optarg, &so.hash))
				return EXIT_USAGE;
			break;
		case 'o':
			output = optarg;
			break;
		case 'K':
			so.flags |= ELFSIG_USE_KEYID;
			break;
		case 'I':
			flags |= ELFSIG_ALLOW_INTERP;
			break;
		case 'P':
			if (nprov >= MAX_PROVIDERS)
				return usage_error("sign", "at most %d --provider options",
						   MAX_PROVIDERS);
			providers[nprov++] = optarg;
			break;
		case 'T':
			so.tcti = optarg;
			break;
		case 'p':
			pass_spec = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return EXIT_VALID;
		default:
			return bad_option("sign", c, argv);
		}
	}
	if (!so.key || !so.cert)
		return usage_error("sign", "--key and --cert are required");
	if (optind >= argc)
		return usage_error("sign", "no FILE given");
	if (output && argc - optind != 1)
		return usage_error("sign", "--output takes exactly one FILE");
	if (refuse_same_file("sign", output, so.key) ||
	    refuse_same_file("sign", output, so.cert))
		return EXIT_USAGE;
	if (pass_spec) {
		ret = read_pass(pass_spec, &pass);
		if (ret)
			return ret;
		so.key_pass = pass;
	}

	ret = elfsig_signer_load(&so, &signer);
	free_pass(pass);
	if (ret)
		return ret == -EINVAL ? EXIT_USAGE : EXIT_FAILURE_IO;
	if (output) {
		status = exit_code(elfsig_sign_file(signer, argv[optind], output, flags));
	} else {
		int *results = calloc((size_t)(argc - optind), sizeof(int));

		if (!results) {
			elfsig_signer_free(signer);
			return EXIT_FAILURE_IO;
		}
		elfsig_sign_files(signer, (const char *const *)argv + optind,
				  (size_t)(argc - optind), flags, results);
		for (int i = 0; i < argc - optind; i++)
			status = worse(status, exit_code(results[i]));
		free(results);
	}
	elfsig_signer_free(signer);
	return status;
}
