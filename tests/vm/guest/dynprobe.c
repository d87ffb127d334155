// SPDX-License-Identifier: GPL-2.0-only
/*
 * dynprobe: a glibc-linked (dynamic) probe for the verified dynamic
 * process cases of tests/vm/guest/cases.sh. Each command prints one line
 * and exits 0 when the operation worked, 1 when it was refused with
 * EPERM/EACCES, 2 on any other error.
 *
 * Built twice (make vm-prereqs): dynprobe, and dynprobe-jit, which
 * carries the ELFSIG note with ELFSIG_FLAG_ANON_EXEC (-DELFSIG_JIT).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "whoami.h"

#ifdef ELFSIG_JIT
/* The ELFSIG note (docs/format.md): name "ELFSIG", type 1, flags 1. */
__asm__(".pushsection .note.elfsig,\"a\",@note\n"
	".balign 4\n"
	".long 7\n"		/* namesz: "ELFSIG\0" */
	".long 4\n"		/* descsz */
	".long 1\n"		/* ELFSIG_NOTE_FLAGS */
	".asciz \"ELFSIG\"\n"
	".balign 4\n"
	".long 1\n"		/* ELFSIG_FLAG_ANON_EXEC */
	".popsection\n");
#endif

static int verdict(const char *what, int ok)
{
	int err = errno;	/* printf() may change errno */

	if (ok) {
		printf("%s: ok\n", what);
		return 0;
	}
	printf("%s: %s\n", what, strerror(err));
	return err == EPERM || err == EACCES ? 1 : 2;
}

/* ret; the smallest code that runs when the page really is executable */
static const unsigned char ret_insn[] = { 0xc3 };

static int run_page(void *p)
{
	memcpy(p, ret_insn, sizeof(ret_insn));
	return 0;
}

static int do_anon_exec(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return verdict("anon-exec", p != MAP_FAILED);
}

static int do_wx(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p != MAP_FAILED) {
		run_page(p);
		((void (*)(void))p)();
	}
	return verdict("wx", p != MAP_FAILED);
}

static int do_mprotect(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int rc;

	if (p == MAP_FAILED)
		return verdict("mprotect", 0);
	run_page(p);
	rc = mprotect(p, 4096, PROT_READ | PROT_EXEC);
	if (!rc)
		((void (*)(void))p)();
	return verdict("mprotect", !rc);
}

static int do_memfd_exec(void)
{
	int fd = memfd_create("elfsig-exec", 0);
	void *p;

	if (fd < 0 || write(fd, ret_insn, sizeof(ret_insn)) != sizeof(ret_insn) ||
	    ftruncate(fd, 4096))
		return verdict("memfd-exec", 0);
	p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (p != MAP_FAILED)
		((void (*)(void))p)();
	return verdict("memfd-exec", p != MAP_FAILED);
}

/* mmap FILE with PROT_EXEC, as a loader would */
static int do_map_exec(const char *path)
{
	int fd = open(path, O_RDONLY);
	void *p;

	if (fd < 0)
		return verdict("map-exec", 0);
	p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	return verdict("map-exec", p != MAP_FAILED);
}

static int do_dlopen(const char *path)
{
	void *h = dlopen(path, RTLD_NOW);
	int (*f)(void);

	if (!h) {
		printf("dlopen: %s\n", dlerror());
		return 1;
	}
	f = (int (*)(void))dlsym(h, "elfsig_mod");
	if (!f) {
		printf("dlopen: no elfsig_mod\n");
		return 2;
	}
	printf("dlopen: ok %d\n", f());
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "hello";

	if (!strcmp(cmd, "hello")) {
		puts("dynprobe: hello");
		return 0;
	}
	if (!strcmp(cmd, "anon-exec"))
		return do_anon_exec();
	if (!strcmp(cmd, "wx"))
		return do_wx();
	if (!strcmp(cmd, "mprotect"))
		return do_mprotect();
	if (!strcmp(cmd, "memfd-exec"))
		return do_memfd_exec();
	if (!strcmp(cmd, "map-exec") && argc > 2)
		return do_map_exec(argv[2]);
	if (!strcmp(cmd, "dlopen") && argc > 2)
		return do_dlopen(argv[2]);
	if (!strcmp(cmd, "whoami"))
		return do_whoami();
	if (!strcmp(cmd, "sleep") && argc > 2) {
		sleep(atoi(argv[2]));
		return 0;
	}
	fputs("usage: dynprobe hello | anon-exec | wx | mprotect | memfd-exec\n"
	      "       | map-exec FILE | dlopen FILE | whoami | sleep SEC\n", stderr);
	return 2;
}
