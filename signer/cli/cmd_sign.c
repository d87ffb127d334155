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
"       signelf sign --key KEY --cert CERT [OPTION]... --tree DIR\n"
"Sign ELF executables and shared libraries in place (atomically), one\n"
"file to --output, or every executable and library below DIR.\n"
"\n"
"  -k, --key KEY         private key: a PEM/DER file, a TPM key\n"
"                        (handle:0x81000001 or a TSS2 PRIVATE KEY file),\n"
"                        a pkcs11: URI, or any other OSSL_STORE name\n"
"  -c, --cert CERT       the key's X.509 certificate (PEM or DER)\n"
"  -a, --hash HASH       sha256 (default), sha384 or sha512\n"
"  -o, --output OUT      write the signed file to OUT (one FILE only)\n"
"      --keyid           identify the signer by subject key identifier\n"
"                        instead of issuer and serial number\n"
"  -t, --tree DIR        sign every ELF executable and library below DIR\n"
"                        (not following symbolic links), with one key load\n"
"      --force           with --tree: sign again files that already carry a\n"
"                        valid signature by this key and hash\n"
"      --cross-filesystems  with --tree: descend into other file systems\n"
"      --allow-interp    no effect (dynamic executables are signed like any\n"
"                        other file); kept for compatibility\n"
"      --provider NAME   load an extra OpenSSL provider (repeatable)\n"
"      --tcti TCTI       TPM connection for TPM keys (default: $TPM2TOOLS_TCTI,\n"
"                        then the tpm2 provider's default)\n"
"  -p, --key-pass SPEC   the key's password or TPM auth value, as OpenSSL's\n"
"                        -passin: pass:STR, env:VAR, file:PATH, fd:N, stdin\n"
"                        (default: $ELFSIG_KEY_PASS; without either, ask\n"
"                        on a terminal, or fail)\n"
"  -h, --help            show this help\n";

/* One summary line: signed N, skipped M (by reason), failed K. */
static int sign_tree(const struct elfsig_signer *signer, const char *dir,
		     unsigned int flags)
{
	struct elfsig_tree_stats st;
	const char *sep = " (";
	size_t skipped = 0, i;
	int ret;

	ret = elfsig_sign_tree(signer, dir, flags, &st);
	{
		const struct { size_t n; const char *what; } why[] = {
			{ st.hard_links, "hard links to a signed file" },
			{ st.already_signed, "already signed by this key" },
			{ st.not_elf, "not ELF" },
			{ st.not_loadable, "ELF but no executable or library" },
			{ st.not_regular, "not regular files" },
			{ st.other_fs, "directories on other file systems" },
		};

		for (i = 0; i < sizeof(why) / sizeof(why[0]); i++)
			skipped += why[i].n;
		print_name(stdout, dir);
		printf(": signed %zu, skipped %zu", st.signed_files, skipped);
		for (i = 0; i < sizeof(why) / sizeof(why[0]); i++) {
			if (!why[i].n)
				continue;
			printf("%s%zu %s", sep, why[i].n, why[i].what);
			sep = ", ";
		}
		printf("%s, failed %zu\n", skipped ? ")" : "", st.failed);
	}
	return ret ? exit_code(ret) : EXIT_VALID;
}

int cmd_sign(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "key", required_argument, NULL, 'k' },
		{ "cert", required_argument, NULL, 'c' },
		{ "hash", required_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		{ "keyid", no_argument, NULL, 'K' },
		{ "allow-interp", no_argument, NULL, 'I' },
		{ "tree", required_argument, NULL, 't' },
		{ "force", no_argument, NULL, 'F' },
		{ "cross-filesystems", no_argument, NULL, 'X' },
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
	const char *tree = NULL;
	unsigned int flags = 0, tree_flags = 0;
	int nprov = 0, c, ret, status = EXIT_VALID;

	while ((c = getopt_long(argc, argv, ":k:c:a:o:p:t:h", opts, NULL)) != -1) {
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
		case 'I':	/* no effect: kept for compatibility */
			break;
		case 't':
			tree = optarg;
			break;
		case 'F':
			tree_flags |= ELFSIG_TREE_FORCE;
			break;
		case 'X':
			tree_flags |= ELFSIG_TREE_CROSS_FS;
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
	if (tree && (optind < argc || output))
		return usage_error("sign", "--tree takes no FILE and no --output");
	if (!tree && tree_flags)
		return usage_error("sign", "--force and --cross-filesystems go with --tree");
	if (!tree && optind >= argc)
		return usage_error("sign", "no FILE given");
	if (output && argc - optind != 1)
		return usage_error("sign", "--output takes exactly one FILE");
	ret = load_signer("sign", &so, output, pass_spec, &signer);
	if (ret)
		return ret;
	if (tree) {
		status = sign_tree(signer, tree, tree_flags);
	} else if (output) {
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
