// SPDX-License-Identifier: GPL-2.0-only
/* layout.c - the enrolment directory's files (kl_layout.def), default paths. */
#include <errno.h>
#include <stdio.h>

#include "kl_layout.h"
#include "kl_util.h"

const struct kl_layout_file kl_layout[KL_NFILES] = {
#define KL_LAYOUT(id, name_, kind_) [KL_FILE_##id] = { name_, kind_ },
#include "kl_layout.def"
#undef KL_LAYOUT
};

int kl_default_paths(const char *dir, const char **paths[KL_NFILES],
		     char bufs[KL_NFILES][PATH_MAX])
{
	size_t i;
	int len;

	for (i = 0; i < KL_NFILES; i++) {
		if (!paths[i] || *paths[i])
			continue;
		if (kl_layout[i].kind == KL_LAYOUT_SIG && i > 0 && paths[i - 1])
			len = snprintf(bufs[i], PATH_MAX, "%s.sig", *paths[i - 1]);
		else
			len = snprintf(bufs[i], PATH_MAX, "%s/%s", dir,
				       kl_layout[i].name);
		if (len < 0 || len >= PATH_MAX) {
			kl_err("%s: path too long", dir);
			return -ENAMETOOLONG;
		}
		*paths[i] = bufs[i];
	}
	return 0;
}
