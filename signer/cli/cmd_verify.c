// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_verify.c - signelf verify: check files exactly as the kernel will.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>

#include "cmd.h"

static const char usage[] =
"Usage: signelf verify (--cert CERT... | --certdir DIR) [OPTION]... FILE...\n"
"Check each FILE's signature against the trusted certificates, as the\n"
"kernel checks it against the .elfsig keyring.\n"
"\n"
"  -c, --cert CERT     trust the certificate(s) in CERT, PEM or DER\n"
"                      (repeatable)\n"
"  -d, --certdir DIR   trust every *.pem, *.crt, *.cer, *.der in DIR\n"
"  -q, --quiet         print nothing; the exit status tells\n"
"  -j, --json          one JSON object per file on standard output\n"
"  -h, --help          show this help\n"
"\n"
"Exit status: 0 all valid, 1 bad signature or no trusted key,\n"
"2 unsigned, 3 not ELF or malformed, 4 usage, 5 other error;\n"
"with several files, the largest.\n";

static void print_json(const char *file, int ret, const struct elfsig_info *info)
{
	printf("{");
	json_name(stdout, "file", file);
	printf(",\"status\":\"%s\",\"exit\":%d", status_name(ret), exit_code(ret));
	if (info->digest_size) {
		printf(",\"hash\":\"%s\",\"digest\":\"", elfsig_hash_name(info->hash));
		print_hex(stdout, info->digest, info->digest_size);
		printf("\",\"issuer\":");
		common_json_string(stdout, info->issuer);
		printf(",\"serial\":");
		common_json_string(stdout, info->serial);
		printf(",\"skid\":");
		common_json_string(stdout, info->skid);
	}
	if (info->signer_subject[0]) {
		printf(",\"signer\":");
		common_json_string(stdout, info->signer_subject);
	}
	if (ret) {
		printf(",\"error\":");
		common_json_escaped(stdout, cmd_last_error());
	}
	printf("}\n");
}

int cmd_verify(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cert", required_argument, NULL, 'c' },
		{ "certdir", required_argument, NULL, 'd' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct elfsig_trust *trust = NULL;
	bool quiet = false, json = false, have_trust = false;
	int c, i, ret, status = EXIT_VALID;

	if (elfsig_trust_new(&trust))
		return EXIT_FAILURE_IO;
	while ((c = getopt_long(argc, argv, ":c:d:qjh", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (elfsig_trust_add_file(trust, optarg))
				goto fail_trust;
			have_trust = true;
			break;
		case 'd':
			if (elfsig_trust_add_dir(trust, optarg))
				goto fail_trust;
			have_trust = true;
			break;
		case 'q':
			quiet = true;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			fputs(usage, stdout);
			elfsig_trust_free(trust);
			return EXIT_VALID;
		default:
			elfsig_trust_free(trust);
			return bad_option("verify", c, argv);
		}
	}
	if (!have_trust || optind >= argc) {
		elfsig_trust_free(trust);
		return usage_error("verify", "%s", !have_trust ?
				   "--cert or --certdir is required" : "no FILE given");
	}
	cmd_quiet(quiet || json);
	for (i = optind; i < argc; i++) {
		struct elfsig_info info = { 0 };

		cmd_clear_error();
		ret = elfsig_verify_file(trust, argv[i], &info);
		status = worse(status, exit_code(ret));
		if (json)
			print_json(argv[i], ret, &info);
		else if (!quiet && ret == 0) {
			print_name(stdout, argv[i]);
			printf(": valid (%s, signed by ", elfsig_hash_name(info.hash));
			print_name(stdout, info.signer_subject);
			printf(")\n");
		}
	}
	elfsig_trust_free(trust);
	return status;

fail_trust:
	elfsig_trust_free(trust);
	return EXIT_FAILURE_IO;
}
