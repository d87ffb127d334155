/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd.h - elfsig-enroll: shared options, helpers and the subcommands. */
#ifndef ELFSIG_ENROLL_CMD_H
#define ELFSIG_ENROLL_CMD_H

#include <stdbool.h>

#include "kl.h"

#define PROG "elfsig-enroll"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

struct opts {
	struct kl_enroll_opts e;
	const char *pcrs;
	unsigned int measure_pcr;
	bool pcrs_set;		/* given on the command line: change them */
	bool measure_set;
	bool force;
};

extern const char usage_text[];
int usage_err(const char *why);
int parse_opts(struct opts *o, int argc, char **argv);
/* Enrol the certificate files @paths into @pol, printing each. */
int add_certs(struct kl_policy *pol, int n, char **paths);
/* Remove keys given as certificate files or sha256:HEX. */
int remove_keys(struct kl_policy *pol, int n, char **args);
/* Apply --pcrs/--measure-pcr if given, seal and write @pol
 * (kl_enroll_commit), print the outcome. */
int commit(struct kl_policy *pol, const struct opts *o);

int cmd_create(struct opts *o, int argc, char **argv);
int cmd_add(struct opts *o, int argc, char **argv);
int cmd_remove(struct opts *o, int argc, char **argv);
int cmd_reseal(struct opts *o, int argc, char **argv);
int cmd_show(struct opts *o, int argc, char **argv);
int cmd_check(struct opts *o, int argc, char **argv);

#endif
