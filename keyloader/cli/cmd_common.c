// SPDX-License-Identifier: GPL-2.0-only
/* cmd_common.c - elfsig-enroll: usage, option parsing, shared helpers. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "key.h"

#include "cmd.h"
#include "kl_counter.h"

const char usage_text[] =
"usage: " PROG " COMMAND [options] [ARGS]\n"
"Enrol certificates for elfsig-keyloader: a policy signed by the enrolment\n"
"authority, a TPM object bound to the PCR policies the authority signs.\n"
"\n"
"Commands:\n"
"  create CERT...   write a new enrolment with these certificates (PEM or\n"
"                   DER): authority.pem, policy + policy.sig, policy.sealed,\n"
"                   a signed PCR policy for the current (or given) PCR state\n"
"  add CERT...      enrol more certificates (signs the policy again)\n"
"  remove KEY...    remove certificates, given as files or sha256:HEX\n"
"  sign-pcr-policy  sign a PCR policy: the current PCR state, the values of\n"
"                   --pcr-values, or a state predicted with --event-log\n"
"                   (e.g. after a firmware or kernel update)\n"
"  predict          print the PCR values --event-log predicts (with\n"
"                   --replace-digest), as --pcr-values reads them\n"
"  reseal           seal the enrolment again with this TPM (after a TPM\n"
"                   clear); needs no authority key\n"
"  migrate          turn an older enrolment into a current one; a version 1\n"
"                   enrolment (policy sealed to one PCR state) proves no\n"
"                   creator: its keys are listed and each must be\n"
"                   confirmed with --expect-key (a re-enrolment decision)\n"
"  show             list the enrolled keys\n"
"  check            verify the policy's signature and that the TPM unseals\n"
"                   the enrolment under an installed PCR policy (as the\n"
"                   loader would)\n"
"  counter          bind this machine's rollback counter: define the TPM\n"
"                   counter (or reuse it) and write counter + counter.sig,\n"
"                   at the policy's generation (or --generation)\n"
"  epoch            show the machine's epoch (counter - base): files of an\n"
"                   older generation are refused; --bump or --generation N\n"
"                   raises it (revokes now); needs no authority key\n"
"  resign           sign the policy and every PCR policy again under\n"
"                   --generation N (default: one more): the older files are\n"
"                   revoked on each machine's first boot with these\n"
"  pcrsig enable|disable|seal  opt in to systemd's signed PCR policies\n"
"                   (.pcrsig, systemd-measure sign) of the key --public-key\n"
"                   for --pcrs (default sha256:11): the authority signs the\n"
"                   policy with the opt-in, this TPM gets pcrsig.sealed;\n"
"                   seal: that object again (no authority key); disable:\n"
"                   the policy without it (outside rollback protection)\n"
"\n"
"Options:\n"
"  -d, --dir DIR          enrolment directory (default /etc/elfsig): the\n"
"                         defaults below are DIR/policy, DIR/policy.sig,\n"
"                         DIR/policy.sealed, DIR/authority.pem, DIR/pcr-policies\n"
"  -p, --policy FILE      policy file\n"
"      --signature FILE   the policy's signature (default POLICY.sig)\n"
"  -s, --sealed FILE      sealed object\n"
"      --authority FILE   the authority's public key (PEM)\n"
"      --pcr-policies DIR signed PCR policies\n"
"      --counter FILE     the rollback counter binding (default DIR/counter;\n"
"                         its signature FILE.sig)\n"
"      --nv-index H       the rollback counter's NV index (default 0x0100e15f)\n"
"      --generation N     create, migrate, counter, resign, sign-pcr-policy,\n"
"                         epoch: the generation (create: default 0)\n"
"      --bump             epoch: raise the epoch by one\n"
"  -K, --authority-key KEY  the authority's private key: a file,\n"
"                         handle:0x81..., a TSS2 key file or a pkcs11: URI\n"
"                         (create, add, remove, sign-pcr-policy, migrate)\n"
"  -o, --out FILE         sign-pcr-policy: write here (default\n"
"                         PCR-POLICIES/<digest>.pcrpol)\n"
"      --pcrs SEL         PCRs the PCR policies cover (default " KL_DEFAULT_PCRS "\n"
"                         for create; with add, remove: change them)\n"
"      --measure-pcr N    PCR the loader extends (default 13 for create;\n"
"                         with add, remove: change it)\n"
"      --pcr-values FILE  sign these values (\"sha256:N=HEX\" lines, as\n"
"                         printed by elfsig-tpm pcrread, or tpm2_pcrread\n"
"                         output) instead of the current ones\n"
"      --event-log FILE   predict the PCR values by replaying this TCG event\n"
"                         log (binary_bios_measurements)...\n"
"      --replace-digest OLD=NEW  ...with the component measured as sha256 OLD\n"
"                         replaced by one measured as NEW (repeatable)\n"
"  -T, --tcti TCTI        TPM (default $TPM2TOOLS_TCTI, else device:/dev/tpmrm0)\n"
"      --srk-handle H     persistent SRK handle (default: derive the SRK)\n"
"      --platform-ca FILE create, add: refuse a certificate not issued by\n"
"                         one of these CA certificates (a PEM bundle or DER;\n"
"                         repeatable), as a kernel with\n"
"                         CONFIG_ELFSIG_TRUSTED_KEYS trusting them would\n"
"      --srk-name HEX     sign-pcr-policy without the machine's policy: the\n"
"                         machine (its SRK name, from elfsig-tpm srkname\n"
"                         there), with --pcrs and --generation\n"
"      --public-key PEM   pcrsig: the systemd key (.pcrpkey)\n"
"      --expect-key FPR   migrate: a key (sha256:HEX, as show prints it) the\n"
"                         operator confirms; repeat for each: a version 1\n"
"                         enrolment migrates only if these are exactly its keys\n"
"      --json             show, check: one JSON object on stdout\n"
"  -f, --force            create: replace an existing policy; counter,\n"
"                         create, migrate: may lower the machine's epoch\n"
"  -h, --help             this help\n"
"  -V, --version          print the version (alone)\n";

int usage_err(const char *why)
{
	if (why)
		fprintf(stderr, "%s: %s\n", PROG, why);
	fprintf(stderr, "Try '%s --help'.\n", PROG);
	return EXIT_USAGE;
}

/* Every path not given: @o->dir/FILE (the signature: POLICY.sig). */
static int default_paths(struct opts *o)
{
	struct kl_enroll_opts *e = &o->e;
	const char **paths[KL_NFILES] = {
		[KL_FILE_POLICY] = &e->policy_path,
		[KL_FILE_SEALED] = &e->sealed_path,
		[KL_FILE_POLICY_SIG] = &e->sig_path,
		[KL_FILE_AUTHORITY] = &e->authority_path,
		[KL_FILE_COUNTER] = &e->counter_path,
		[KL_FILE_PCRSIG_KEY] = &o->pcrsig_key_path,
		[KL_FILE_PCRSIG_SEALED] = &o->pcrsig_sealed,
		[KL_FILE_PCRPOL_DIR] = &e->pcrpol_dir,
		[KL_FILE_PCRSIG_DIR] = &o->pcrsig_dir,
	};

	if (kl_default_paths(o->dir, paths, o->defaults))
		return EXIT_USAGE;
	if ((size_t)snprintf(o->counter_sig, sizeof(o->counter_sig), "%s.sig",
			     e->counter_path) >= sizeof(o->counter_sig))
		return usage_err("--counter: path too long");
	e->counter_sig_path = o->counter_sig;
	return 0;
}

/* "OLD=NEW", each 64 hex digits, optionally "sha256:" first. */
static int parse_replace(const char *arg, struct kl_enroll_opts *e)
{
	struct kl_eventlog_replace *r = &e->replace[e->nreplace];
	const char *eq = strchr(arg, '='), *from = arg, *to = eq ? eq + 1 : "";
	size_t flen = eq ? (size_t)(eq - arg) : 0;

	if (e->nreplace >= KL_MAX_REPLACE)
		return usage_err("--replace-digest: at most 16");
	if (flen > 7 && !strncmp(from, "sha256:", 7)) {
		from += 7;
		flen -= 7;
	}
	if (!strncmp(to, "sha256:", 7))
		to += 7;
	if (!eq || common_unhex(from, flen, r->from, KL_FP_LEN) ||
	    common_unhex(to, strlen(to), r->to, KL_FP_LEN))
		return usage_err("--replace-digest: expected OLD=NEW, two SHA-256 digests in hex");
	e->nreplace++;
	return 0;
}

int parse_opts(struct opts *o, int argc, char **argv)
{
	enum { OPT_PCRS = 256, OPT_MEASURE, OPT_VALUES, OPT_SRK, OPT_SIG,
	       OPT_AUTH, OPT_PCRPOL, OPT_EVLOG, OPT_REPLACE, OPT_PLATFORM_CA,
	       OPT_COUNTER, OPT_NV, OPT_GEN, OPT_BUMP, OPT_PUBKEY,
	       OPT_EXPECT, OPT_SRK_NAME, OPT_JSON };
	static const struct option longopts[] = {
		{ "dir",	 required_argument, NULL, 'd' },
		{ "policy",	 required_argument, NULL, 'p' },
		{ "signature",	 required_argument, NULL, OPT_SIG },
		{ "sealed",	 required_argument, NULL, 's' },
		{ "authority",	 required_argument, NULL, OPT_AUTH },
		{ "pcr-policies", required_argument, NULL, OPT_PCRPOL },
		{ "authority-key", required_argument, NULL, 'K' },
		{ "out",	 required_argument, NULL, 'o' },
		{ "pcrs",	 required_argument, NULL, OPT_PCRS },
		{ "measure-pcr", required_argument, NULL, OPT_MEASURE },
		{ "pcr-values",	 required_argument, NULL, OPT_VALUES },
		{ "event-log",	 required_argument, NULL, OPT_EVLOG },
		{ "replace-digest", required_argument, NULL, OPT_REPLACE },
		{ "tcti",	 required_argument, NULL, 'T' },
		{ "srk-handle",	 required_argument, NULL, OPT_SRK },
		{ "platform-ca", required_argument, NULL, OPT_PLATFORM_CA },
		{ "counter",	 required_argument, NULL, OPT_COUNTER },
		{ "nv-index",	 required_argument, NULL, OPT_NV },
		{ "generation",	 required_argument, NULL, OPT_GEN },
		{ "bump",	 no_argument,	    NULL, OPT_BUMP },
		{ "public-key",	 required_argument, NULL, OPT_PUBKEY },
		{ "expect-key",	 required_argument, NULL, OPT_EXPECT },
		{ "srk-name",	 required_argument, NULL, OPT_SRK_NAME },
		{ "json",	 no_argument,	    NULL, OPT_JSON },
		{ "force",	 no_argument,	    NULL, 'f' },
		{ "help",	 no_argument,	    NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned long v;
	char *end;
	int opt;

	o->dir = "/etc/elfsig";
	o->pcrs = KL_DEFAULT_PCRS;
	o->measure_pcr = KL_DEFAULT_MEASURE_PCR;
	o->e.nv_index = KL_DEFAULT_NV_INDEX;
	while ((opt = getopt_long(argc, argv, "d:p:s:K:o:T:fh", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'd': o->dir = optarg; break;
		case 'p': o->e.policy_path = optarg; break;
		case 's': o->e.sealed_path = optarg; break;
		case OPT_SIG: o->e.sig_path = optarg; break;
		case OPT_AUTH: o->e.authority_path = optarg; break;
		case OPT_PCRPOL: o->e.pcrpol_dir = optarg; break;
		case 'K': o->authority_key = optarg; break;
		case 'o': o->e.out = optarg; break;
		case 'T': o->e.tcti = optarg; break;
		case 'f': o->force = true; break;
		case OPT_PCRS:
			o->pcrs = optarg;
			o->pcrs_set = true;
			break;
		case OPT_VALUES: o->e.pcr_values = optarg; break;
		case OPT_COUNTER: o->e.counter_path = optarg; break;
		case OPT_BUMP: o->bump = true; break;
		case OPT_JSON: o->json = true; break;
		case OPT_PUBKEY: o->public_key = optarg; break;
		case OPT_EXPECT: {
			uint8_t fp[KL_FP_LEN];

			if (parse_fingerprint(optarg, fp))
				return usage_err("--expect-key: expected sha256:<64 hex digits>");
			if (o->nexpect_key >= KL_MAX_KEYS)
				return usage_err("--expect-key: at most 4096");
			o->expect_key[o->nexpect_key++] = optarg;
			break;
		}
		case OPT_SRK_NAME:
			if (kl_parse_srk_name(optarg, o->srk_name,
					      &o->srk_name_len))
				return usage_err("--srk-name: expected the machine's SRK name, 68 hex digits (elfsig-tpm srkname on it)");
			break;
		case OPT_GEN:
			if (kl_parse_generation(optarg, &o->generation))
				return usage_err("--generation: expected 0..1000000000");
			o->generation_set = true;
			break;
		case OPT_NV:
			errno = 0;
			v = strtoul(optarg, &end, 0);
			if (errno || *end || v < 0x01000000UL || v > 0x01ffffffUL)
				return usage_err("--nv-index: expected an NV index 0x01xxxxxx");
			o->e.nv_index = (uint32_t)v;
			break;
		case OPT_EVLOG: o->e.event_log = optarg; break;
		case OPT_REPLACE:
			if (parse_replace(optarg, &o->e))
				return EXIT_USAGE;
			break;
		case OPT_PLATFORM_CA:
			if (o->nplatform_ca >= ENROLL_MAX_PLATFORM_CA)
				return usage_err("--platform-ca: at most 16 files (a PEM bundle holds many)");
			o->platform_ca[o->nplatform_ca++] = optarg;
			break;
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
	if (o->e.pcr_values && o->e.event_log)
		return usage_err("--pcr-values and --event-log: give one");
	if (o->e.nreplace && !o->e.event_log)
		return usage_err("--replace-digest needs --event-log");
	if (o->bump && (strcmp(argv[0], "epoch") || o->generation_set))
		return usage_err("--bump: only with epoch, without --generation");
	if (o->nexpect_key && strcmp(argv[0], "migrate"))
		return usage_err("--expect-key: only with migrate");
	if (o->json && strcmp(argv[0], "show") && strcmp(argv[0], "check"))
		return usage_err("--json: only with show and check");
	if (o->srk_name_len && strcmp(argv[0], "sign-pcr-policy"))
		return usage_err("--srk-name: only with sign-pcr-policy");
	if (o->public_key && strcmp(argv[0], "pcrsig"))
		return usage_err("--public-key: only with pcrsig");
	if (o->nplatform_ca && strcmp(argv[0], "create") &&
	    strcmp(argv[0], "add"))
		return usage_err("--platform-ca: only with create and add");
	return default_paths(o);
}

int add_certs(struct kl_policy *pol, int n, char **paths)
{
	char hex[2 * KL_FP_LEN + 1];
	int i, err;

	for (i = 0; i < n; i++) {
		struct common_cert c = { 0 };

		if (kl_cert_load(AT_FDCWD, paths[i], &c)) {
			common_cert_clear(&c);
			return -EBADMSG;
		}
		err = kl_policy_add(pol, c.fp, c.subject);
		common_hex(c.fp, KL_FP_LEN, hex);
		if (err == 1)
			printf("already enrolled: sha256:%s %s\n", hex, c.subject);
		else if (!err)
			printf("adding sha256:%s %s\n", hex, c.subject);
		common_cert_clear(&c);
		if (err < 0)
			return err;
	}
	return 0;
}

int check_platform_ca(const struct opts *o, int n, char **paths)
{
	struct kl_platform_cas cas = { 0 };
	int i, ret = EXIT_OK;
	size_t j;

	if (!o->nplatform_ca)
		return EXIT_OK;
	for (j = 0; j < o->nplatform_ca; j++)
		if (kl_platform_ca_load(o->platform_ca[j], &cas)) {
			kl_platform_cas_free(&cas);
			return EXIT_FAIL;
		}
	/* Every certificate is checked: one line for each that fails. */
	for (i = 0; i < n; i++) {
		struct common_cert c = { 0 };

		if (kl_cert_load(AT_FDCWD, paths[i], &c) ||
		    kl_platform_ca_check(&cas, &c))
			ret = EXIT_FAIL;
		common_cert_clear(&c);
	}
	kl_platform_cas_free(&cas);
	return ret;
}

int parse_fingerprint(const char *arg, uint8_t fp[KL_FP_LEN])
{
	if (!strncmp(arg, "sha256:", 7))
		arg += 7;
	return common_unhex(arg, strlen(arg), fp, KL_FP_LEN) ? -EINVAL : 0;
}

int arg_fingerprint(const char *arg, uint8_t fp[KL_FP_LEN])
{
	struct common_cert c = { 0 };
	int err;

	if (!strncmp(arg, "sha256:", 7)) {
		if (!parse_fingerprint(arg, fp))
			return 0;
		fprintf(stderr, "%s: %s: expected sha256:<64 hex digits>\n",
			PROG, arg);
		return -EINVAL;
	}
	err = kl_cert_load(AT_FDCWD, arg, &c) ? -EBADMSG : 0;
	if (!err)
		memcpy(fp, c.fp, KL_FP_LEN);
	common_cert_clear(&c);
	return err;
}

int remove_keys(struct kl_policy *pol, int n, char **args)
{
	char hex[2 * KL_FP_LEN + 1];
	uint8_t fp[KL_FP_LEN];
	int i, err;

	for (i = 0; i < n; i++) {
		err = arg_fingerprint(args[i], fp);
		if (err)
			return err;
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

static int sign_digest(void *ctx, const uint8_t digest[KL_FP_LEN],
		       uint8_t **sig, size_t *sig_len)
{
	return common_key_sign_digest(ctx, "sha256", KL_FP_LEN, digest,
				      KL_FP_LEN, sig, sig_len);
}

int signer_load(const struct opts *o, const char *cmd, struct kl_signer *s)
{
	struct common_key_opts kopts = {
		.key = o->authority_key, .tcti = o->e.tcti,
		.key_pass = getenv("ELFSIG_KEY_PASS"),
	};
	struct common_key *key = NULL;
	uint8_t *der = NULL;
	size_t len = 0;
	char why[96];

	memset(s, 0, sizeof(*s));
	if (!o->authority_key) {
		snprintf(why, sizeof(why),
			 "%s: --authority-key KEY is required (the enrolment authority signs)",
			 cmd);
		return usage_err(why);
	}
	if (common_key_load(&kopts, &key) ||
	    common_key_public_der(key, &der, &len) ||
	    kl_authority_from_der(der, len, o->authority_key, &s->auth)) {
		free(der);
		common_key_free(key);
		return EXIT_FAIL;
	}
	free(der);
	s->sign = sign_digest;
	s->ctx = key;
	return 0;
}

void signer_free(struct kl_signer *s)
{
	common_key_free(s->ctx);
	kl_authority_free(&s->auth);
	memset(s, 0, sizeof(*s));
}

int load_verified(const struct opts *o, const struct kl_signer *s,
		  struct kl_policy *pol, struct kl_authority *a)
{
	if (kl_enroll_load(&o->e, pol, a))
		return EXIT_FAIL;
	if (s && memcmp(s->auth.fp, a->fp, KL_FP_LEN)) {
		fprintf(stderr, "%s: %s is not the enrolment authority of %s (%s)\n",
			PROG, o->authority_key, o->e.policy_path,
			o->e.authority_path);
		kl_policy_free(pol);
		kl_authority_free(a);
		return EXIT_FAIL;
	}
	return 0;
}

int apply_pcr_opts(struct kl_policy *pol, const struct opts *o)
{
	if (o->pcrs_set && elfsig_tpm_pcrsel_parse(o->pcrs, &pol->sel))
		return EXIT_USAGE;
	if (o->measure_set)
		pol->measure_pcr = o->measure_pcr;
	if (kl_policy_check_pcrs(&pol->sel, pol->measure_pcr))
		return EXIT_USAGE;
	return 0;
}

int need_policy(const struct opts *o, const char *cmd, const char *instead)
{
	if (!access(o->e.policy_path, F_OK) || errno != ENOENT)
		return 0;
	fprintf(stderr, "%s: %s: no machine's policy at %s: give a copy of the machine's enrolment directory (--dir) or %s\n",
		PROG, cmd, o->e.policy_path, instead);
	return EXIT_FAIL;
}

int edit_policy(struct opts *o, const char *cmd, int argc, char **argv,
		int (*edit)(struct kl_policy *pol, int n, char **args))
{
	struct kl_authority a;
	struct kl_policy pol;
	struct kl_signer s;
	int ret;

	ret = signer_load(o, cmd, &s);
	if (ret)
		return ret;
	/* Never from a policy the authority did not sign as it is. */
	ret = load_verified(o, &s, &pol, &a);
	if (!ret)
		ret = apply_pcr_opts(&pol, o);
	if (!ret)
		ret = edit(&pol, argc, argv) ? EXIT_FAIL :
		      kl_enroll_write_policy(&o->e, &pol, &s, o->pcrs_set) ?
		      EXIT_FAIL : EXIT_OK;
	kl_policy_free(&pol);
	kl_authority_free(&a);
	signer_free(&s);
	return ret;
}
