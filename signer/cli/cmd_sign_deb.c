// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_sign_deb.c - signelf sign-deb: sign every ELF file of Debian
 * packages, with one loaded key.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"

static const char usage[] =
"Usage: signelf sign-deb --key KEY --cert CERT [OPTION]... PKG.deb...\n"
"Sign every ELF executable and library in each Debian package's data, in\n"
"place (atomically) or to --output, and update DEBIAN/md5sums to match;\n"
"everything else in the package is kept. A package without an ELF file is\n"
"written unchanged.\n"
"\n"
"  -k, --key KEY         private key (as for 'signelf sign')\n"
"  -c, --cert CERT       the key's X.509 certificate (PEM or DER)\n"
"  -a, --hash HASH       sha256 (default), sha384 or sha512\n"
"  -o, --output OUT      write the signed package to OUT (one PKG only)\n"
"      --keyid           identify the signer by subject key identifier\n"
"      --provider NAME   load an extra OpenSSL provider (repeatable)\n"
"      --tcti TCTI       TPM connection for TPM keys\n"
"  -p, --key-pass SPEC   the key's password (as for 'signelf sign')\n"
"  -q, --quiet           no line per package\n"
"  -h, --help            show this help\n";

#define MAX_PROVIDERS 8

int cmd_sign_deb(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "key", required_argument, NULL, 'k' },
		{ "cert", required_argument, NULL, 'c' },
		{ "hash", required_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		{ "keyid", no_argument, NULL, 'K' },
		{ "provider", required_argument, NULL, 'P' },
		{ "tcti", required_argument, NULL, 'T' },
		{ "key-pass", required_argument, NULL, 'p' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *providers[MAX_PROVIDERS + 1] = { NULL };
	struct elfsig_signer_opts so = { .providers = providers };
	struct elfsig_signer *signer = NULL;
	const char *output = NULL, *pass_spec = getenv("ELFSIG_KEY_PASS");
	bool quiet = false;
	int nprov = 0, c, i, ret, status = EXIT_VALID;

	while ((c = getopt_long(argc, argv, ":k:c:a:o:p:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'k': so.key = optarg; break;
		case 'c': so.cert = optarg; break;
		case 'a':
			if (elfsig_hash_from_name(optarg, &so.hash))
				return EXIT_USAGE;
			break;
		case 'o': output = optarg; break;
		case 'K': so.flags |= ELFSIG_USE_KEYID; break;
		case 'P':
			if (nprov >= MAX_PROVIDERS)
				return usage_error("sign-deb", "at most %d --provider options",
						   MAX_PROVIDERS);
			providers[nprov++] = optarg;
			break;
		case 'T': so.tcti = optarg; break;
		case 'p': pass_spec = optarg; break;
		case 'q': quiet = true; break;
		case 'h':
			fputs(usage, stdout);
			return EXIT_VALID;
		default:
			return bad_option("sign-deb", c, argv);
		}
	}
	if (!so.key || !so.cert)
		return usage_error("sign-deb", "--key and --cert are required");
	if (optind >= argc)
		return usage_error("sign-deb", "no PKG.deb given");
	if (output && argc - optind != 1)
		return usage_error("sign-deb", "--output takes exactly one PKG");
	ret = load_signer("sign-deb", &so, output, pass_spec, &signer);
	if (ret)
		return ret;
	for (i = optind; i < argc; i++) {
		struct elfsig_deb_stats st;

		ret = elfsig_sign_deb(signer, argv[i], output, &st);
		status = worse(status, exit_code(ret));
		if (!ret && !quiet)
			printf("%s: %zu ELF file%s signed, %zu md5sums line%s updated%s\n",
			       output ? output : argv[i], st.signed_files,
			       st.signed_files == 1 ? "" : "s", st.md5sums_updated,
			       st.md5sums_updated == 1 ? "" : "s",
			       st.signed_files ? "" : " (unchanged)");
	}
	elfsig_signer_free(signer);
	return status;
}
