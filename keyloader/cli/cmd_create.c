// SPDX-License-Identifier: GPL-2.0-only
/* cmd_create.c - elfsig-enroll create: a new enrolment, signed and sealed. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"

/* The enrolment directory: a directory (never a symlink: the machine's
 * trust would live wherever it points), or missing and made (0755, as
 * /etc is); what create writes inside it is world-readable, as the loader
 * and `check` need, and never secret. */
static int enrolment_dir(const char *dir, bool make)
{
	struct stat st;

	if (!lstat(dir, &st)) {
		if (S_ISLNK(st.st_mode)) {
			fprintf(stderr, "%s: %s: is a symbolic link, not a directory: refused\n",
				PROG, dir);
			return EXIT_FAIL;
		}
		if (!S_ISDIR(st.st_mode)) {
			fprintf(stderr, "%s: %s: exists and is not a directory\n",
				PROG, dir);
			return EXIT_FAIL;
		}
		return 0;
	}
	if (errno != ENOENT) {
		fprintf(stderr, "%s: %s: %s\n", PROG, dir, strerror(errno));
		return EXIT_FAIL;
	}
	if (make && mkdir(dir, 0755)) {
		fprintf(stderr, "%s: %s: cannot create: %s\n", PROG, dir,
			strerror(errno));
		return EXIT_FAIL;
	}
	return 0;
}

/* Does create write anything under --dir (a path not given by itself)? */
static bool uses_dir(const struct opts *o)
{
	const char *paths[] = { o->e.policy_path,
				o->e.sealed_path, o->e.authority_path,
				o->e.pcrpol_dir, o->e.counter_path };
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(paths); i++)
		for (j = 0; j < ARRAY_SIZE(o->defaults); j++)
			if (paths[i] == o->defaults[j])
				return true;
	return false;
}

int cmd_create(struct opts *o, int argc, char **argv)
{
	struct kl_policy pol = { .version = KL_POLICY_VERSION };
	struct kl_signer s;
	struct stat st;
	int ret;

	if (argc < 1)
		return usage_err("create: no certificate given");
	if (uses_dir(o) && enrolment_dir(o->dir, false))
		return EXIT_FAIL;
	if (!o->force && !stat(o->e.policy_path, &st)) {
		fprintf(stderr, "%s: %s exists (use add/remove, or --force)\n",
			PROG, o->e.policy_path);
		return EXIT_FAIL;
	}
	if (elfsig_tpm_pcrsel_parse(o->pcrs, &pol.sel))
		return EXIT_USAGE;
	pol.measure_pcr = o->measure_pcr;
	pol.generation = o->generation;
	if (kl_policy_check_pcrs(&pol.sel, pol.measure_pcr))
		return EXIT_USAGE;
	/* Before anything is signed or sealed: the kernel would refuse it. */
	if (check_platform_ca(o, argc, argv))
		return EXIT_FAIL;
	ret = signer_load(o, "create", &s);
	if (ret)
		return ret;
	ret = EXIT_FAIL;
	/* Made only now, once the inputs are known good. */
	if (!add_certs(&pol, argc, argv) && 
	    (!uses_dir(o) || !enrolment_dir(o->dir, true)))
		ret = kl_enroll_write(&o->e, &pol, &s, o->force) ?
		      EXIT_FAIL : EXIT_OK;
	signer_free(&s);
	kl_policy_free(&pol);
	return ret;
}
