// SPDX-License-Identifier: GPL-2.0-only
/* cmd_common.c - elfsig-enroll: usage, option parsing, shared helpers. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

const char usage_text[] =
"usage: " PROG " COMMAND [options] [ARGS]\n"
"Enrol certificates for elfsig-keyloader and seal the policy to the TPM.\n"
"\n"
"Commands:\n"
"  create CERT...   write a new policy with these certificates (PEM or DER)\n"
"  add CERT...      enrol more certificates\n"
"  remove KEY...    remove certificates, given as files or sha256:HEX\n"
"  reseal           seal the policy again (new PCR state, e.g. after a\n"
"                   firmware update)\n"
"  show             list the enrolled keys\n"
"  check            verify that the policy matches the sealed digest and\n"
"                   unseals in the current PCR state (as the loader would)\n"
"\n"
"Options:\n"
"  -p, --policy FILE      policy file (default /etc/elfsig/policy)\n"
"  -s, --sealed FILE      sealed digest (default /etc/elfsig/policy.sealed)\n"
"      --pcrs SEL         PCRs to seal to (default " KL_DEFAULT_PCRS " for\n"
"                         create; with add, remove, reseal: change them)\n"
"      --measure-pcr N    PCR the loader extends (default 13 for create;\n"
"                         with add, remove, reseal: change it)\n"
"      --pcr-values FILE  seal to these values (\"sha256:N=HEX\" lines, as\n"
"                         printed by elfsig-tpm pcrread, or tpm2_pcrread\n"
"                         output) instead of the current ones\n"
"  -T, --tcti TCTI        TPM (default $TPM2TOOLS_TCTI, else device:/dev/tpmrm0)\n"
"      --srk-handle H     persistent SRK handle (default: derive the SRK)\n"
"  -f, --force            create: replace an existing policy\n"
"  -h, --help             this help\n";

int usage_err(const char *why)
{
	if (why)
		fprintf(stderr, "%s: %s\n", PROG, why);
	fprintf(stderr, "Try '%s --help'.\n", PROG);
	return EXIT_USAGE;
}

int parse_opts(struct opts *o, int argc, char **argv)
{
	enum { OPT_PCRS = 256, OPT_MEASURE, OPT_VALUES, OPT_SRK };
	static const struct option longopts[] = {
		{ "policy",	 required_argument, NULL, 'p' },
		{ "sealed",	 required_argument, NULL, 's' },
		{ "pcrs",	 required_argument, NULL, OPT_PCRS },
		{ "measure-pcr", required_argument, NULL, OPT_MEASURE },
		{ "pcr-values",	 required_argument, NULL, OPT_VALUES },
		{ "tcti",	 required_argument, NULL, 'T' },
		{ "srk-handle",	 required_argument, NULL, OPT_SRK },
		{ "force",	 no_argument,	    NULL, 'f' },
		{ "help",	 no_argument,	    NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned long v;
	char *end;
	int opt;

	o->e.policy_path = "/etc/elfsig/policy";
	o->e.sealed_path = "/etc/elfsig/policy.sealed";
	o->pcrs = KL_DEFAULT_PCRS;
	o->measure_pcr = KL_DEFAULT_MEASURE_PCR;
	while ((opt = getopt_long(argc, argv, "p:s:T:fh", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'p': o->e.policy_path = optarg; break;
		case 's': o->e.sealed_path = optarg; break;
		case 'T': o->e.tcti = optarg; break;
		case 'f': o->force = true; break;
		case OPT_PCRS:
			o->pcrs = optarg;
			o->pcrs_set = true;
			break;
		case OPT_VALUES: o->e.pcr_values = optarg; break;
		case OPT_MEASURE:
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || *end || end == optarg ||
			    v >= ELFSIG_TPM_MAX_PCRS)
				return usage_err("--measure-pcr: expected 0..23");
			o->measure_pcr = (unsigned int)v;
			o->measure_set = true;
			break;
		case OPT_SRK:
			errno = 0;
			v = strtoul(optarg, &end, 0);
			if (errno || *end || v < 0x81000000UL || v > 0x81ffffffUL)
				return usage_err("--srk-handle: expected 0x81xxxxxx");
			o->e.srk_handle = (uint32_t)v;
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(EXIT_OK);
		default:
			return usage_err(NULL);
		}
	}
	return 0;
}

int add_certs(struct kl_policy *pol, int n, char **paths)
{
	char hex[2 * KL_FP_LEN + 1];
	int i, err;

	for (i = 0; i < n; i++) {
		struct kl_cert c = { 0 };

		if (kl_cert_load(AT_FDCWD, paths[i], &c)) {
			kl_cert_clear(&c);
			return -EBADMSG;
		}
		err = kl_policy_add(pol, c.fp, c.subject);
		common_hex(c.fp, KL_FP_LEN, hex);
		if (err == 1)
			printf("already enrolled: sha256:%s %s\n", hex, c.subject);
		else if (!err)
			printf("adding sha256:%s %s\n", hex, c.subject);
		kl_cert_clear(&c);
		if (err < 0)
			return err;
	}
	return 0;
}

int remove_keys(struct kl_policy *pol, int n, char **args)
{
	char hex[2 * KL_FP_LEN + 1];
	uint8_t fp[KL_FP_LEN];
	int i;

	for (i = 0; i < n; i++) {
		if (!strncmp(args[i], "sha256:", 7)) {
			if (common_unhex(args[i] + 7, strlen(args[i] + 7), fp,
				     KL_FP_LEN)) {
				fprintf(stderr, "%s: %s: expected sha256:<64 hex digits>\n",
					PROG, args[i]);
				return -EINVAL;
			}
		} else {
			struct kl_cert c = { 0 };

			if (kl_cert_load(AT_FDCWD, args[i], &c)) {
				kl_cert_clear(&c);
				return -EBADMSG;
			}
			memcpy(fp, c.fp, KL_FP_LEN);
			kl_cert_clear(&c);
		}
		common_hex(fp, KL_FP_LEN, hex);
		if (kl_policy_remove(pol, fp)) {
			fprintf(stderr, "%s: sha256:%s is not enrolled\n", PROG,
				hex);
			return -ENOENT;
		}
		printf("removing sha256:%s\n", hex);
	}
	return 0;
}

int commit(struct kl_policy *pol, const struct opts *o)
{
	char sel[128] = "?";

	if (o->pcrs_set && elfsig_tpm_pcrsel_parse(o->pcrs, &pol->sel))
		return EXIT_USAGE;
	if (o->measure_set)
		pol->measure_pcr = o->measure_pcr;
	if (kl_enroll_commit(pol, &o->e))
		return EXIT_FAIL;
	elfsig_tpm_pcrsel_format(&pol->sel, sel, sizeof(sel));
	printf("%s: %zu key%s; digest sealed to %s (%s values) in %s\n",
	       o->e.policy_path, pol->nkeys, pol->nkeys == 1 ? "" : "s", sel,
	       o->e.pcr_values ? o->e.pcr_values : "current", o->e.sealed_path);
	return EXIT_OK;
}
