/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * whoami for the guest probes (probe.c, dynprobe.c): is this process
 * verified? Only a verified one may use kexec once
 * fs.elfsig.kexec_verified_only is set; unloading nothing is harmless.
 */
#ifndef ELFSIG_GUEST_WHOAMI_H
#define ELFSIG_GUEST_WHOAMI_H

#include <errno.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef KEXEC_FILE_UNLOAD
#define KEXEC_FILE_UNLOAD	0x00000001
#endif

static int do_whoami(void)
{
	long rc = syscall(SYS_kexec_file_load, -1, -1, 0UL, NULL,
			  (unsigned long)KEXEC_FILE_UNLOAD);

	puts(rc == 0 ? "verified" : errno == EPERM ? "unverified" : "unknown");
	return 0;
}

#endif
