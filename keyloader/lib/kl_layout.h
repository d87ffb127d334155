/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kl_layout.h - the enrolment directory's files, in one table
 * (kl_layout.def) that elfsig-keyloader, elfsig-enroll and the initramfs
 * hooks share.
 */
#ifndef ELFSIG_KL_LAYOUT_H
#define ELFSIG_KL_LAYOUT_H

#include <limits.h>

enum kl_layout_kind {
	KL_LAYOUT_REQUIRED,	/* an enrolment has it */
	KL_LAYOUT_OPTIONAL,	/* a file an enrolment may have */
	KL_LAYOUT_SIG,		/* the previous entry's detached signature */
	KL_LAYOUT_DIR,		/* a directory of files */
};

enum kl_file {
#define KL_LAYOUT(id, name, kind) KL_FILE_##id,
#include "kl_layout.def"
#undef KL_LAYOUT
	KL_NFILES
};

struct kl_layout_file {
	const char *name;		/* under the enrolment directory */
	enum kl_layout_kind kind;
};

extern const struct kl_layout_file kl_layout[KL_NFILES];

/**
 * kl_default_paths() - set every path not given to @dir/FILE
 * @dir:   the enrolment directory
 * @paths: per file of the layout, the program's path for it, or NULL
 *         for a file the program has no path for; the unset ones are set,
 *         pointing into @bufs (a SIG file: the path before it, with ".sig")
 * @bufs:  one buffer per file
 * Return: 0, or -ENAMETOOLONG with a message.
 */
int kl_default_paths(const char *dir, const char **paths[KL_NFILES],
		     char bufs[KL_NFILES][PATH_MAX]);

#endif /* ELFSIG_KL_LAYOUT_H */
