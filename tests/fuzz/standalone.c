// SPDX-License-Identifier: GPL-2.0-only
/*
 * standalone.c - run a fuzz harness over files, without libFuzzer: how
 * `make check` replays the seed corpus and every regression input with the
 * ordinary (and the sanitizer) build.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"

static int run_file(const char *path)
{
	struct stat st;
	uint8_t *buf;
	FILE *f;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	f = fopen(path, "rb");
	if (!f)
		return 1;
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!buf || fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
		fclose(f);
		free(buf);
		return 1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)st.st_size);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int i, n = 0, bad = 0;

	for (i = 1; i < argc; i++) {
		struct dirent **list;
		int k, m = scandir(argv[i], &list, NULL, alphasort);

		if (m < 0) {
			bad += run_file(argv[i]);
			n++;
			continue;
		}
		for (k = 0; k < m; k++) {
			char *p;

			if (list[k]->d_name[0] != '.' &&
			    asprintf(&p, "%s/%s", argv[i], list[k]->d_name) >= 0) {
				bad += run_file(p);
				n++;
				free(p);
			}
			free(list[k]);
		}
		free(list);
	}
	printf("%d inputs, %d unreadable\n", n, bad);
	if (fuzz_report)
		fuzz_report();
	return bad != 0;
}
