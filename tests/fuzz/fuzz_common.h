/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_common.h - shared by the libFuzzer harnesses: put the input in a
 * memfd so the library reads it through its real file paths.
 */
#ifndef ELFSIG_FUZZ_COMMON_H
#define ELFSIG_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib_private.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* Optional: a harness may print what it saw when replayed. */
void fuzz_report(void) __attribute__((weak));

static inline int fuzz_memfd(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);
	size_t done = 0;

	if (fd < 0)
		return -1;
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);

		if (n <= 0) {
			close(fd);
			return -1;
		}
		done += (size_t)n;
	}
	return fd;
}

static inline void fuzz_quiet(void)
{
	elfsig_set_error_callback(NULL, NULL);
}

#endif
