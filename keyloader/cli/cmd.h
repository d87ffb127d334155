/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd.h - elfsig-enroll: shared options, helpers and the subcommands. */
#ifndef ELFSIG_ENROLL_CMD_H
#define ELFSIG_ENROLL_CMD_H

#include <limits.h>
#include <stdbool.h>

#include "kl_cert.h"
#include "kl_enroll.h"
#include "kl_layout.h"

#define PROG "elfsig-enroll"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

#define ENROLL_MAX_PLATFORM_CA	16	/* --platform-ca files */

struct opts {
	struct kl_enroll_opts e;
	const char *dir;		/* --dir: where the default paths are */
	const char *authority_key;	/* the authority's private key name */
	const char *pcrs;
	unsigned int measure_pcr;
	bool pcrs_set;		/* given on the command line: change them */
	bool measure_set;
	bool force;
	bool json;		/* show, check: one JSON object on stdout */
	uint32_t generation;	/* --generation */
	bool generation_set;
	bool bump;		/* epoch --bump */
	const char *public_key;		/* pcrsig: --public-key */
	/* sign-pcr-policy --srk-name: the machine, without its policy */
	uint8_t srk_name[ELFSIG_TPM_MAX_NAME];
	size_t srk_name_len;
	const char *pcrsig_key_path;	/* DIR/pcrsig-key.pem */
	const char *pcrsig_sealed;	/* DIR/pcrsig.sealed */
	const char *pcrsig_dir;		/* DIR/pcrsig: .pcrsig files */
	char defaults[KL_NFILES][PATH_MAX];	/* the paths under --dir */
	char counter_sig[PATH_MAX];
	/* --platform-ca: create and add refuse a certificate none of these
	 * issued, as the kernel's CONFIG_ELFSIG_TRUSTED_KEYS would. */
	const char *platform_ca[ENROLL_MAX_PLATFORM_CA];
	size_t nplatform_ca;
	/* migrate --expect-key: the keys the operator confirms, as given
	 * (sha256:HEX, checked by parse_opts) */
	const char *expect_key[KL_MAX_KEYS];
	size_t nexpect_key;
};

extern const char usage_text[];
int usage_err(const char *why);
int parse_opts(struct opts *o, int argc, char **argv);
/* Enrol the certificate files @paths into @pol, printing each. */
int add_certs(struct kl_policy *pol, int n, char **paths);
/* With --platform-ca: every one of the certificate files @paths issued by
 * a platform CA, or one line each that says why not. Return: 0 or
 * EXIT_FAIL. */
int check_platform_ca(const struct opts *o, int n, char **paths);
/* A fingerprint given as sha256:HEX (or bare HEX). Return: 0 or -EINVAL
 * (no message). */
int parse_fingerprint(const char *arg, uint8_t fp[KL_FP_LEN]);
/* The key @arg names: a certificate file or sha256:HEX. Return: 0 or a
 * negative errno after one line (only when it cannot be read, after
 * remove_keys() has read it). */
int arg_fingerprint(const char *arg, uint8_t fp[KL_FP_LEN]);
/* Remove keys given as certificate files or sha256:HEX. */
int remove_keys(struct kl_policy *pol, int n, char **args);

/* The authority's signer, from --authority-key (required: a usage error
 * naming @cmd without it); free with signer_free(). */
int signer_load(const struct opts *o, const char *cmd, struct kl_signer *s);
void signer_free(struct kl_signer *s);
/* The enrolled policy, verified against the authority's signature, and,
 * with @s, a check that @s is that authority. */
int load_verified(const struct opts *o, const struct kl_signer *s,
		  struct kl_policy *pol, struct kl_authority *a);
/* Apply --pcrs/--measure-pcr if given. Return: 0 or EXIT_USAGE. */
int apply_pcr_opts(struct kl_policy *pol, const struct opts *o);
/* add, remove: the verified policy, edited by @edit (--pcrs and
 * --measure-pcr applied), signed again with --authority-key. */
int edit_policy(struct opts *o, const char *cmd, int argc, char **argv,
		int (*edit)(struct kl_policy *pol, int n, char **args));

/* On a host without the machine's files: 0 when the policy is there (or
 * unreadable for another reason, said later), else one line naming what
 * @cmd needs, @instead of it, and EXIT_FAIL. */
int need_policy(const struct opts *o, const char *cmd, const char *instead);

int cmd_create(struct opts *o, int argc, char **argv);
int cmd_add(struct opts *o, int argc, char **argv);
int cmd_remove(struct opts *o, int argc, char **argv);
int cmd_reseal(struct opts *o, int argc, char **argv);
int cmd_sign_pcr_policy(struct opts *o, int argc, char **argv);
int cmd_migrate(struct opts *o, int argc, char **argv);
int cmd_predict(struct opts *o, int argc, char **argv);
int cmd_show(struct opts *o, int argc, char **argv);
int cmd_check(struct opts *o, int argc, char **argv);
int cmd_counter(struct opts *o, int argc, char **argv);
int cmd_epoch(struct opts *o, int argc, char **argv);
int cmd_resign(struct opts *o, int argc, char **argv);
int cmd_pcrsig(struct opts *o, int argc, char **argv);

#endif
