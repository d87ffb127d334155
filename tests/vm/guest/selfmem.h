/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * selfmem for the guest probes (probe.c, dynprobe.c): write through
 * /proc/self/mem into the process's own code, as a signed dd or tee
 * would. With CONFIG_PROC_MEM_ALWAYS_FORCE the write is a FOLL_FORCE
 * get_user_pages(), which copies on write into a read-only mapping; in a
 * verified process none may reach a mapping that is or may become
 * executable. The byte written is the byte read, so a write that works
 * changes nothing the process runs.
 */
#ifndef ELFSIG_GUEST_SELFMEM_H
#define ELFSIG_GUEST_SELFMEM_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/*
 * Print "WHAT: ok" and return 0 when the write worked; else the error,
 * and 1 when it was refused (EIO: mem_rw() reports the -EFAULT of
 * get_user_pages(); EPERM, EACCES), 2 otherwise.
 */
static int selfmem_write(const char *what, unsigned long addr)
{
	unsigned char b;
	int fd, ok, err;

	fd = open("/proc/self/mem", O_RDWR);
	ok = fd >= 0 && pread(fd, &b, 1, (off_t)addr) == 1 &&
	     pwrite(fd, &b, 1, (off_t)addr) == 1;
	err = errno;
	if (fd >= 0)
		close(fd);
	if (ok) {
		printf("%s: ok\n", what);
		return 0;
	}
	printf("%s: %s\n", what, strerror(err));
	return err == EIO || err == EPERM || err == EACCES ? 1 : 2;
}

#endif /* ELFSIG_GUEST_SELFMEM_H */
