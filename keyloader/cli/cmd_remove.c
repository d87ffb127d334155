// SPDX-License-Identifier: GPL-2.0-only
/* cmd_remove.c - elfsig-enroll remove: remove enrolled certificates, sign again. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"

/* Does the certificate @c carry one of the @n keys @fps? */
static bool removed(const struct common_cert *c, int n, const uint8_t *fps)
{
	int i;

	for (i = 0; i < n; i++)
		if (!memcmp(fps + (size_t)i * KL_FP_LEN, c->fp, KL_FP_LEN))
			return true;
	return false;
}

/* The removed keys' certificates in DIR/certs: the loader would load
 * nothing from them and report "partial" on every boot. They move to
 * DIR/certs.removed once the policy is signed (kept, not deleted, for
 * whoever enrols them again); a rename is atomic: each file is in one
 * place or the other. Read before the authority's key is loaded (its
 * providers go with it). */
struct aside {
	char certs[PATH_MAX], dir[PATH_MAX];
	struct common_cert *cs;
	size_t n;
	bool *move;
};

static int aside_find(struct aside *m, const struct opts *o, int n,
		      char **args)
{
	uint8_t *fps;
	size_t i;
	int k, ret = EXIT_FAIL;

	if ((size_t)snprintf(m->certs, sizeof(m->certs), "%s/certs", o->dir) >= sizeof(m->certs) ||
	    (size_t)snprintf(m->dir, sizeof(m->dir), "%s/certs.removed", o->dir) >= sizeof(m->dir)) {
		fprintf(stderr, "%s: %s: path too long\n", PROG, o->dir);
		return EXIT_FAIL;
	}
	/* A signing host holds no certs/: nothing to move. */
	if (access(m->certs, F_OK) && errno == ENOENT)
		return EXIT_OK;
	fps = calloc((size_t)n, KL_FP_LEN);
	if (!fps) {
		fprintf(stderr, "%s: %s\n", PROG, strerror(ENOMEM));
		return EXIT_FAIL;
	}
	for (k = 0; k < n; k++)
		if (arg_fingerprint(args[k], fps + (size_t)k * KL_FP_LEN))
			goto out;
	if (kl_certdir_load(m->certs, &m->cs, &m->n))
		goto out;
	m->move = calloc(m->n ? m->n : 1, sizeof(*m->move));
	if (!m->move) {
		fprintf(stderr, "%s: %s\n", PROG, strerror(ENOMEM));
		goto out;
	}
	for (i = 0; i < m->n; i++)
		m->move[i] = !m->cs[i].error && removed(&m->cs[i], n, fps);
	ret = EXIT_OK;
out:
	free(fps);
	return ret;
}

static int aside_move(const struct aside *m)
{
	char from[PATH_MAX], to[PATH_MAX];
	int ret = EXIT_OK;
	size_t i;

	for (i = 0; i < m->n; i++) {
		if (!m->move[i])
			continue;
		errno = 0;
		if ((size_t)snprintf(from, sizeof(from), "%s/%s", m->certs, m->cs[i].name) >= sizeof(from) ||
		    (size_t)snprintf(to, sizeof(to), "%s/%s", m->dir, m->cs[i].name) >= sizeof(to) ||
		    (mkdir(m->dir, 0755) && errno != EEXIST) || rename(from, to)) {
			fprintf(stderr, "%s: %s: not moved to %s/ (%s): the loader reports it until it goes\n",
				PROG, from, m->dir, strerror(errno ? errno : ENAMETOOLONG));
			ret = EXIT_FAIL;
			continue;
		}
		printf("%s: moved to %s/\n", from, m->dir);
	}
	return ret;
}

int cmd_remove(struct opts *o, int argc, char **argv)
{
	struct aside m = { 0 };
	int ret;

	if (argc < 1)
		return usage_err("remove: no key given");
	ret = aside_find(&m, o, argc, argv);
	if (!ret)
		ret = edit_policy(o, "remove", argc, argv, remove_keys);
	if (!ret)
		ret = aside_move(&m);
	kl_certs_free(m.cs, m.n);
	free(m.move);
	return ret;
}
