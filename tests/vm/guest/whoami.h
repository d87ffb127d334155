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
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef KEXEC_FILE_UNLOAD
#define KEXEC_FILE_UNLOAD	0x00000001
#endif

static int do_whoami(void)
{
#ifdef SYS_kexec_file_load
	long rc = syscall(SYS_kexec_file_load, -1, -1, 0UL, NULL,
			  (unsigned long)KEXEC_FILE_UNLOAD);
#else
	/*
	 * i386 has no kexec_file_load: no segments unloads with kexec_load,
	 * which a compat task must call with the kernel's architecture
	 * (KEXEC_ARCH_X86_64: the guest kernel is x86-64).
	 */
	long rc = syscall(SYS_kexec_load, 0UL, 0UL, NULL, 62UL << 16);
#endif

	if (rc == 0 || errno == EPERM)
		puts(rc == 0 ? "verified" : "unverified");
	else
		printf("unknown (%s)\n", strerror(errno));
	return 0;
}

#endif
