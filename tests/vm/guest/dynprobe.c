// SPDX-License-Identifier: GPL-2.0-only
/*
 * dynprobe: a glibc-linked (dynamic) probe for the verified dynamic
 * process cases of tests/vm/guest/cases.sh. Each command prints one line
 * and exits 0 when the operation worked, 1 when it was refused with
 * EPERM/EACCES, 2 on any other error.
 *
 * Built several times (make vm-prereqs): dynprobe; dynprobe-jit, which
 * carries the ELFSIG note with ELFSIG_FLAG_ANON_EXEC (-DELFSIG_JIT);
 * dynprobe-bignote, whose ANON_EXEC note ends a PT_NOTE of over 4096
 * bytes (-DELFSIG_BIGNOTE); dynprobe-xs, linked -z execstack; dynprobe32,
 * the i386 build, where the host can make one.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <link.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "selfmem.h"
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

#ifdef ELFSIG_BIGNOTE
/*
 * A note of another owner with a 5000-byte descriptor, then the ELFSIG
 * note: the PT_NOTE is over 4096 bytes, its flags note at the end.
 */
__asm__(".pushsection .note.elfsig,\"a\",@note\n"
	".balign 4\n"
	".long 4\n"		/* namesz: "BIG\0" */
	".long 5000\n"		/* descsz */
	".long 0x1234\n"	/* a type of its own */
	".asciz \"BIG\"\n"
	".fill 5000, 1, 0x5a\n"
	".long 7\n"
	".long 4\n"
	".long 1\n"
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

/*
 * Map FILE's first executable ("text") or non-executable ("data")
 * PT_LOAD with PROT_EXEC, at its page-rounded offsets, as ld.so would if
 * the headers it read() said that segment is code; check that the bytes
 * mapped are the file's.
 */
static void *map_seg(const char *path, const char *kind, int prot, size_t *lenp)
{
	int text = !strcmp(kind, "text");
	long pg = sysconf(_SC_PAGESIZE);
	ElfW(Ehdr) eh;
	ElfW(Phdr) ph;
	unsigned char *p, *buf;
	off_t off;
	size_t len;
	int fd, i;

	fd = open(path, O_RDONLY);
	if (fd < 0 || pread(fd, &eh, sizeof(eh), 0) != sizeof(eh))
		return NULL;
	for (i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + i * sizeof(ph)) != sizeof(ph))
			return NULL;
		if (ph.p_type == PT_LOAD && ph.p_filesz && !(ph.p_flags & PF_X) == !text)
			break;
	}
	if (i == eh.e_phnum) {
		errno = ENOENT;
		return NULL;
	}
	off = ph.p_offset & ~(pg - 1);
	len = ((ph.p_offset + ph.p_filesz + pg - 1) & ~(pg - 1)) - off;
	p = mmap(NULL, len, prot, MAP_PRIVATE, fd, off);
	if (p == MAP_FAILED)
		return NULL;
	buf = malloc(ph.p_filesz);
	if (!buf || pread(fd, buf, ph.p_filesz, ph.p_offset) != (ssize_t)ph.p_filesz ||
	    memcmp(p + (ph.p_offset - off), buf, ph.p_filesz)) {
		errno = EBADMSG;	/* not the file's bytes */
		return NULL;
	}
	free(buf);
	close(fd);
	*lenp = len;
	return p;
}

static int do_map_seg(const char *path, const char *kind)
{
	size_t len;

	return verdict("map-seg", map_seg(path, kind, PROT_READ | PROT_EXEC, &len) != NULL);
}

/* Grow an executable mapping of FILE's text over the bytes that follow. */
static int do_mremap_grow(const char *path)
{
	size_t len;
	void *p = map_seg(path, "text", PROT_READ | PROT_EXEC, &len), *q;

	if (!p)
		return verdict("mremap-grow: map", 0);
	q = mremap(p, len, len + 4 * sysconf(_SC_PAGESIZE), MREMAP_MAYMOVE);
	if (q == MAP_FAILED && errno == EFAULT) {
		puts("mremap-grow: refused");
		return 1;
	}
	return verdict("mremap-grow", q != MAP_FAILED);
}

/* exec PROG with the READ_IMPLIES_EXEC personality, as setarch -X does */
static int do_rie_exec(char **argv)
{
	if (personality(READ_IMPLIES_EXEC) == -1)
		return verdict("rie-exec", 0);
	execv(argv[0], argv);
	return verdict("rie-exec", 0);
}

/*
 * Set READ_IMPLIES_EXEC, then grow the heap with brk(): under that
 * personality the new heap would be writable and executable.
 */
static int do_rie_brk(void)
{
	void *p;

	fflush(stdout);	/* stdio's buffer exists before the personality */
	if (personality(READ_IMPLIES_EXEC) == -1)
		return verdict("rie-brk", 0);
	p = sbrk(4 * sysconf(_SC_PAGESIZE));
	if (p == (void *)-1) {
		personality(PER_LINUX);
		puts("rie-brk: refused");
		return 1;
	}
	personality(PER_LINUX);
	return verdict("rie-brk", 1);
}

/* Write through /proc/self/mem into own text, the vDSO, or libc's text. */
static int do_selfmem(const char *what)
{
	unsigned long vdso = getauxval(AT_SYSINFO_EHDR);

	if (!strcmp(what, "text"))
		return selfmem_write("selfmem-text", (unsigned long)do_selfmem);
	if (!strcmp(what, "vdso") && vdso)
		return selfmem_write("selfmem-vdso", vdso);
	if (!strcmp(what, "lib"))
		return selfmem_write("selfmem-lib",
				     (unsigned long)dlsym(RTLD_DEFAULT, "write"));
	errno = EINVAL;
	return verdict("selfmem", 0);
}

/*
 * Write, then execute. cow-text: FILE's text mapped executable, made
 * read-only, a "ret" written over its first byte through /proc/self/mem,
 * made executable again and called. cow-data: the same text mapped
 * read-only (not executable) from the start. In a verified process the
 * first fails at the write, the second at the mprotect().
 */
static int do_cow(const char *path, int was_exec)
{
	const char *what = was_exec ? "cow-text" : "cow-data";
	size_t len;
	unsigned char *p;
	int fd, ok;

	p = map_seg(path, "text", was_exec ? PROT_READ | PROT_EXEC : PROT_READ, &len);
	if (!p || (was_exec && mprotect(p, len, PROT_READ)))
		return verdict(what, 0);
	fd = open("/proc/self/mem", O_RDWR);
	ok = fd >= 0 && pwrite(fd, ret_insn, sizeof(ret_insn), (off_t)(unsigned long)p) ==
		sizeof(ret_insn);
	if (!ok) {
		printf("%s: write: %s\n", what, strerror(errno));
		return 1;
	}
	close(fd);
	if (mprotect(p, len, PROT_READ | PROT_EXEC)) {
		printf("%s: mprotect: %s\n", what, strerror(errno));
		return 1;
	}
	((void (*)(void))p)();
	return verdict(what, 1);
}

/*
 * The vDSO made writable, written (the byte it holds), and made
 * executable again: its bytes are then no longer the kernel's. The whole
 * mapping: a special mapping cannot be split.
 */
static int do_vdso_rw(void)
{
	unsigned long a = 0, b = 0, s, e;
	char line[256];
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "[vdso]") && sscanf(line, "%lx-%lx", &s, &e) == 2)
			a = s, b = e;
	if (f)
		fclose(f);
	if (!a) {
		errno = ENOENT;
		return verdict("vdso-rw", 0);
	}
	if (mprotect((void *)a, b - a, PROT_READ | PROT_WRITE))
		return verdict("vdso-rw: mprotect(PROT_WRITE)", 0);
	*(volatile unsigned char *)a = *(volatile unsigned char *)a;
	return verdict("vdso-rw", !mprotect((void *)a, b - a, PROT_READ | PROT_EXEC));
}

/*
 * Set READ_IMPLIES_EXEC after exec, then map FILE's first segment that is
 * not executable (read-only data) PROT_READ: the personality makes
 * mmap() add PROT_EXEC. "ok" only if the mapping really is executable.
 */
static int do_rie_map(const char *path)
{
	char line[256], want[32];
	size_t len;
	void *p;
	FILE *f;
	int x = 0;

	if (personality(READ_IMPLIES_EXEC) == -1)
		return verdict("rie-map", 0);
	p = map_seg(path, "data", PROT_READ, &len);
	personality(PER_LINUX);
	if (!p)
		return verdict("rie-map", 0);
	snprintf(want, sizeof(want), "%lx-", (unsigned long)p);
	f = fopen("/proc/self/maps", "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, want, strlen(want)))
			x = strchr(line, ' ')[3] == 'x';
	if (f)
		fclose(f);
	if (!x) {
		puts("rie-map: mapped, not executable");
		return 2;
	}
	return verdict("rie-map", 1);
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
	if (!strcmp(cmd, "map-seg") && argc > 3)
		return do_map_seg(argv[2], argv[3]);
	if (!strcmp(cmd, "mremap-grow") && argc > 2)
		return do_mremap_grow(argv[2]);
	if (!strcmp(cmd, "rie-brk"))
		return do_rie_brk();
	if (!strcmp(cmd, "rie-exec") && argc > 2)
		return do_rie_exec(argv + 2);
	if (!strcmp(cmd, "selfmem") && argc > 2)
		return do_selfmem(argv[2]);
	if (!strcmp(cmd, "cow-text") && argc > 2)
		return do_cow(argv[2], 1);
	if (!strcmp(cmd, "cow-data") && argc > 2)
		return do_cow(argv[2], 0);
	if (!strcmp(cmd, "vdso-rw"))
		return do_vdso_rw();
	if (!strcmp(cmd, "rie-map") && argc > 2)
		return do_rie_map(argv[2]);
	if (!strcmp(cmd, "whoami"))
		return do_whoami();
	if (!strcmp(cmd, "sleep") && argc > 2) {
		sleep(atoi(argv[2]));
		return 0;
	}
	fputs("usage: dynprobe hello | anon-exec | wx | mprotect | memfd-exec\n"
	      "       | map-exec FILE | dlopen FILE | map-seg FILE text|data\n"
	      "       | mremap-grow FILE | rie-exec PROG [ARG...] | rie-brk | whoami\n"
	      "       | selfmem text|vdso|lib | cow-text FILE | cow-data FILE | vdso-rw\n"
	      "       | rie-map FILE | sleep SEC\n",
	      stderr);
	return 2;
}
