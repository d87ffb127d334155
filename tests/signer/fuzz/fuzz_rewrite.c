// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_rewrite.c - the section writer: re-sign (with a fixed blob) and
 * remove, on arbitrary files; every output must parse again.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

/* tmpfs: the writer fsyncs, which on a disk would cap the rate at ~1k/s */
static char dir[] = "/dev/shm/elfsig-fuzz-XXXXXX";

static int fixed_sig(void *ctx, const uint8_t *msg, size_t msglen,
		     uint8_t **der, size_t *len)
{
	/* Not a valid PKCS#7: the writer must not care. */
	*der = malloc(64);
	if (!*der)
		return -12;
	memset(*der, 0x30, 64);
	*len = 64;
	return 0;
}

static void check_output(const char *path)
{
	struct elfsig_elf elf;

	if (elfsig_elf_open(&elf, path, path, ELFSIG_PARSE_ALL) != 0)
		abort();	/* the writer produced a file it cannot read */
	elfsig_elf_release(&elf);
	close(elf.fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char in[64], out[64];
	FILE *f;

	fuzz_quiet();
	if (dir[sizeof(dir) - 2] == 'X' && !mkdtemp(dir))
		return 0;
	snprintf(in, sizeof(in), "%s/in", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	f = fopen(in, "wb");
	if (!f)
		return 0;
	if (fwrite(data, 1, size, f) != size) {
		fclose(f);
		return 0;
	}
	fclose(f);
	unlink(out);
	if (elfsig_rewrite(in, out, ELFSIG_HASH_SHA256, fixed_sig, NULL,
			   ELFSIG_ALLOW_INTERP) == 0) {
		check_output(out);
		if (elfsig_rewrite(out, in, 0, NULL, NULL, 0) == 0)
			check_output(in);
	}
	unlink(out);
	unlink(in);
	return 0;
}
