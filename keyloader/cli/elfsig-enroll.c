// SPDX-License-Identifier: GPL-2.0-only
/*
 * elfsig-enroll.c - elfsig-enroll: the subcommand table (one cmd_*.c each).
 *
 *   create CERT...   new policy with these certificates
 *   add CERT...      enrol more certificates
 *   remove KEY...    drop certificates (file or sha256:HEX)
 *   sign-pcr-policy  approve a PCR state (current, --pcr-values, predicted)
 *   predict          PCR values from the TCG event log, a component replaced
 *   reseal           seal the enrolment again with this TPM
 *   migrate          a version 1 enrolment becomes a signed one
 *   show             list the enrolled keys
 *   check            would the loader accept the enrolment now?
 *   counter          bind this machine's rollback counter (define it)
 *   epoch            show the machine's epoch, or raise it
 *   resign           sign the policy and every PCR policy again under a
 *                    new generation (revokes the older files)
 *   pcrsig           opt in to systemd's .pcrsig PCR policies of one key
 *
 * The policy is signed by the enrolment authority; the sealed object opens
 * under the PCR policies it signs. Every command that changes something
 * writes all its files atomically, together.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

static const struct {
	const char *name;
	int (*fn)(struct opts *o, int argc, char **argv);
} commands[] = {
	{ "create", cmd_create },
	{ "add", cmd_add },
	{ "remove", cmd_remove },
	{ "sign-pcr-policy", cmd_sign_pcr_policy },
	{ "predict", cmd_predict },
	{ "reseal", cmd_reseal },
	{ "migrate", cmd_migrate },
	{ "show", cmd_show },
	{ "check", cmd_check },
	{ "counter", cmd_counter },
	{ "epoch", cmd_epoch },
	{ "resign", cmd_resign },
	{ "pcrsig", cmd_pcrsig },
};

/* What the library's enrolment writers did: one line each, on stdout. */
static void note_stdout(const char *msg, void *ctx)
{
	printf("%s\n", msg);
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	size_t i;

	kl_set_error_callback(common_stderr_error, (void *)PROG);
	kl_set_note_callback(note_stdout, NULL);
	elfsig_tpm_set_error_callback(common_stderr_error, (void *)PROG);
	/* certificates and the authority key */
	common_set_error_callback(common_stderr_error, (void *)PROG);
	/* (An NV index not defined yet is expected, not worth a TSS line.) */
	common_tss_quiet();
	if (argc < 2)
		return usage_err("no command given");
	if (common_is_version_request(argc, argv)) {
		common_print_version(PROG);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(usage_text, stdout);
		return EXIT_OK;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		if (parse_opts(&o, argc - 1, argv + 1))
			return EXIT_USAGE;
		return commands[i].fn(&o, argc - 1 - optind, argv + 1 + optind);
	}
	fprintf(stderr, "%s: unknown command '%s'\n", PROG, argv[1]);
	return usage_err(NULL);
}
