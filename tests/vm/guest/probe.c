// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe - static multi-tool for elfsig's QEMU tests: exec with a precise
 * outcome, ptrace / /proc/PID/mem / process_vm_* / process_madvise /
 * userfaultfd / kexec / perf probes, writes through /proc/self/mem, the
 * vDSO gadget for a signed dd, run as another user, dump the kernel log,
 * power off.
 *
 * Probes print one word and exit 0 when the operation succeeded, 1 when it
 * was refused with EPERM/EACCES, 2 on any other error.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/perf_event.h>
#include <linux/userfaultfd.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/reboot.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "selfmem.h"
#include "whoami.h"

#ifndef MADV_COLD
#define MADV_COLD 20
#endif
#ifndef USERFAULTFD_IOC_NEW
#define USERFAULTFD_IOC_NEW _IO(0xAA, 0x00)
#endif

#ifndef KEXEC_FILE_UNLOAD
#define KEXEC_FILE_UNLOAD 1
#endif

static int report(const char *what, long rc)
{
	if (rc >= 0) {
		printf("%s: ok\n", what);
		return 0;
	}
	printf("%s: %s\n", what, strerrorname_np(errno) ?: "?");
	return (errno == EPERM || errno == EACCES) ? 1 : 2;
}

/* The first (writable) mapping of PID, from /proc/PID/maps. */
static unsigned long first_map(pid_t pid, int writable)
{
	char path[64], perms[8];
	unsigned long a, b;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "r");
	if (!f)
		return 0x400000;
	while (fscanf(f, "%lx-%lx %7s%*[^\n]", &a, &b, perms) == 3) {
		if (!writable || perms[1] == 'w') {
			fclose(f);
			return a;
		}
	}
	fclose(f);
	return 0x400000;
}

static int do_attach(pid_t pid, int req)
{
	long rc = ptrace(req, pid, 0, 0);
	int st;

	if (rc == 0) {
		if (req == PTRACE_ATTACH)
			waitpid(pid, &st, __WALL);
		ptrace(PTRACE_DETACH, pid, 0, 0);
	}
	return report(req == PTRACE_ATTACH ? "attach" : "seize", rc);
}

static int do_mem(pid_t pid, int write)
{
	char path[64], buf[16];
	unsigned long a = first_map(pid, write);
	long rc;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	fd = open(path, write ? O_RDWR : O_RDONLY);
	if (fd < 0)
		return report(write ? "memwrite" : "memread", -1);
	rc = pread(fd, buf, sizeof(buf), a);
	if (rc >= 0 && write)
		rc = pwrite(fd, buf, sizeof(buf), a);
	close(fd);
	return report(write ? "memwrite" : "memread", rc);
}

static int do_vm(pid_t pid, int write)
{
	char buf[16] = "";
	struct iovec l = { buf, sizeof(buf) };
	struct iovec r = { (void *)first_map(pid, write), sizeof(buf) };
	long rc;

	rc = write ? process_vm_writev(pid, &l, 1, &r, 1, 0)
		   : process_vm_readv(pid, &l, 1, &r, 1, 0);
	return report(write ? "vmwrite" : "vmread", rc);
}

/* Take the target's stdin through pidfd_getfd() (PTRACE_MODE_ATTACH). */
static int do_getfd(pid_t pid)
{
	long pfd = syscall(SYS_pidfd_open, pid, 0), fd;

	if (pfd < 0)
		return report("getfd", -1);
	fd = syscall(SYS_pidfd_getfd, (int)pfd, 0, 0);
	if (fd >= 0)
		close(fd);
	close(pfd);
	return report("getfd", fd);
}

/* fork + exec PATH, print how it ended: exit N, signal N, exec-error E */
static int do_exec(char **argv, int traceme)
{
	int pfd[2], err = 0, st;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC))
		return 2;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		if (traceme && ptrace(PTRACE_TRACEME, 0, 0, 0))
			_exit(126);
		execv(argv[0], argv);
		err = errno;
		if (write(pfd[1], &err, sizeof(err)) < 0)
			_exit(126);
		_exit(127);
	}
	close(pfd[1]);
	if (read(pfd[0], &err, sizeof(err)) != sizeof(err))
		err = 0;
	close(pfd[0]);
	for (;;) {
		if (waitpid(pid, &st, 0) < 0)
			return 2;
		if (traceme && WIFSTOPPED(st)) {
			int sig = WSTOPSIG(st) == SIGTRAP ? 0 : WSTOPSIG(st);

			ptrace(PTRACE_CONT, pid, 0, sig);
			continue;
		}
		break;
	}
	if (err)
		printf("RESULT exec-error %s\n", strerrorname_np(err) ?: "?");
	else if (WIFSIGNALED(st))
		printf("RESULT signal %d\n", WTERMSIG(st));
	else
		printf("RESULT exit %d\n", WEXITSTATUS(st));
	return 0;
}

/*
 * e_shoff of this process's ELF header as it sits in memory. A verified
 * image runs from the kernel's copy, where the section table fields read
 * as zero (N(ehdr) zeroes them); mapped from the file, they do not.
 */
extern const Elf64_Ehdr __ehdr_start;	/* the tests are x86-64 only */

static int do_shoff(void)
{
	printf("shoff %llu\n", (unsigned long long)__ehdr_start.e_shoff);
	return 0;
}

static int do_dmesg(void)
{
	int n = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf;

	if (n <= 0 || !(buf = malloc(n)))
		return 2;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, n);
	if (n > 0)
		fwrite(buf, 1, n, stdout);
	return n > 0 ? 0 : 2;
}

/*
 * fake-image SRC DST BYTES: a sparse ELF whose one PT_LOAD declares BYTES
 * of file image (all holes) and whose .signature is SRC's: a signature by
 * the same signer over other bytes, so it can never verify, but only
 * copying and hashing the image can tell. What an attacker can make with
 * any signed binary in hand.
 *
 * fake-spread SRC DST N: the same with N PT_LOADs of one page each, 2 MiB
 * apart: 4 KiB each in the program headers, a 2 MiB folio each where
 * tmpfs makes huge pages.
 */
static int do_fake_image(const char *src, const char *dst, unsigned long long bytes,
			 int nload)
{
	static const char strtab[] = "\0.signature\0.shstrtab";
	Elf64_Ehdr eh, neh;
	Elf64_Phdr ph[64];
	Elf64_Shdr sh, nsh[3];
	unsigned long long at, sig_at = 0, sig_len = 0, tail;
	char name[16], *sig;
	int in, out, i, ok = 0;

	if (nload < 1 || nload > 64)
		return 2;

	in = open(src, O_RDONLY);
	if (in < 0 || pread(in, &eh, sizeof(eh), 0) != sizeof(eh) || !eh.e_shnum)
		return report("fake-image", -1);
	if (pread(in, &sh, sizeof(sh), eh.e_shoff + eh.e_shstrndx * sizeof(sh)) != sizeof(sh))
		return report("fake-image", -1);
	at = sh.sh_offset;
	for (i = 0; i < eh.e_shnum; i++) {
		if (pread(in, &sh, sizeof(sh), eh.e_shoff + i * sizeof(sh)) != sizeof(sh) ||
		    pread(in, name, sizeof(name), at + sh.sh_name) <= 0)
			return report("fake-image", -1);
		if (!strncmp(name, ".signature", sizeof(name))) {
			sig_at = sh.sh_offset;
			sig_len = sh.sh_size;
		}
	}
	sig = sig_len ? malloc(sig_len) : NULL;
	if (!sig || pread(in, sig, sig_len, sig_at) != (ssize_t)sig_len) {
		fprintf(stderr, "fake-image: no .signature in %s\n", src);
		return 2;
	}
	close(in);

	bytes = (bytes + 4095) & ~4095ULL;
	tail = bytes + sig_len + sizeof(strtab);
	tail = (tail + 7) & ~7ULL;
	neh = eh;
	neh.e_phoff = sizeof(neh);
	neh.e_phnum = nload;
	neh.e_phentsize = sizeof(ph[0]);
	neh.e_shoff = tail;
	neh.e_shnum = 3;
	neh.e_shentsize = sizeof(Elf64_Shdr);
	neh.e_shstrndx = 2;
	neh.e_entry = 0x400000 + sizeof(neh) + nload * sizeof(ph[0]);
	memset(ph, 0, sizeof(ph));
	for (i = 0; i < nload; i++) {
		unsigned long long stride = nload > 1 ? bytes / nload & ~4095ULL : 0;

		ph[i].p_type = PT_LOAD;
		ph[i].p_flags = PF_R | PF_X;
		ph[i].p_offset = i * stride;
		ph[i].p_vaddr = ph[i].p_paddr = 0x400000 + i * stride;
		ph[i].p_filesz = ph[i].p_memsz = nload > 1 ? 4096 : bytes;
		ph[i].p_align = 4096;
	}
	memset(nsh, 0, sizeof(nsh));
	nsh[1].sh_name = 1;
	nsh[1].sh_type = SHT_PROGBITS;
	nsh[1].sh_offset = bytes;
	nsh[1].sh_size = sig_len;
	nsh[2].sh_name = 12;
	nsh[2].sh_type = SHT_STRTAB;
	nsh[2].sh_offset = bytes + sig_len;
	nsh[2].sh_size = sizeof(strtab);

	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (out >= 0 &&
	    pwrite(out, &neh, sizeof(neh), 0) == sizeof(neh) &&
	    pwrite(out, ph, nload * sizeof(ph[0]), sizeof(neh)) == (ssize_t)(nload * sizeof(ph[0])) &&
	    pwrite(out, sig, sig_len, bytes) == (ssize_t)sig_len &&
	    pwrite(out, strtab, sizeof(strtab), bytes + sig_len) == sizeof(strtab) &&
	    pwrite(out, nsh, sizeof(nsh), tail) == sizeof(nsh))
		ok = 1;
	free(sig);
	if (out < 0 || close(out) || !ok)
		return report("fake-image", -1);
	return report("fake-image", 0);
}

/* hog MIB SEC: hold MIB of touched anonymous memory for SEC seconds. */
static int do_hog(unsigned long mib, unsigned int sec)
{
	char *p = malloc(mib << 20);

	if (!p)
		return report("hog", -1);
	memset(p, 1, mib << 20);
	printf("hog: ok\n");
	sleep(sec);
	return p[mib << 19] == 1 ? 0 : 2;
}

/*
 * hold-memfd SEC: a memfd with "orig" in it, as fd 3 and mapped shared,
 * working directory /tmp; prints "holding" and sleeps SEC seconds, then
 * prints what its memory holds ("memfd: orig", or what someone wrote).
 */
static int do_hold_memfd(unsigned int sec)
{
	int fd = memfd_create("elfsig-test", 0);
	char *p;

	if (fd < 0 || (fd != 3 && (dup2(fd, 3) < 0 || close(fd))) ||
	    ftruncate(3, 4096) || chdir("/tmp"))
		return report("hold-memfd", -1);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, 3, 0);
	if (p == MAP_FAILED)
		return report("hold-memfd", -1);
	memcpy(p, "orig", 5);
	printf("holding\n");
	sleep(sec);
	printf("memfd: %.4s\n", p);
	return 0;
}

/*
 * reopen PID fd|map_files|cwd|root: open PID's memfd (fd 3, or its shared
 * mapping in map_files) for writing and write "EVIL" into it, or open its
 * working or root directory.
 */
static int do_reopen(pid_t pid, const char *what)
{
	char path[128], line[256];
	unsigned long a, b;
	FILE *f;
	int fd;

	if (!strcmp(what, "cwd") || !strcmp(what, "root")) {
		snprintf(path, sizeof(path), "/proc/%d/%s", pid, what);
		fd = open(path, O_RDONLY | O_DIRECTORY);
		if (fd >= 0)
			close(fd);
		return report(what, fd);
	}
	if (!strcmp(what, "fd")) {
		snprintf(path, sizeof(path), "/proc/%d/fd/3", pid);
	} else {
		snprintf(path, sizeof(path), "/proc/%d/maps", pid);
		f = fopen(path, "r");
		if (!f)
			return report(what, -1);
		path[0] = 0;
		while (fgets(line, sizeof(line), f))
			if (strstr(line, "memfd:elfsig-test") &&
			    sscanf(line, "%lx-%lx", &a, &b) == 2)
				snprintf(path, sizeof(path), "/proc/%d/map_files/%lx-%lx",
					 pid, a, b);
		fclose(f);
		if (!path[0]) {
			printf("%s: no memfd mapping\n", what);
			return 2;
		}
	}
	fd = open(path, O_RDWR);
	if (fd < 0)
		return report(what, -1);
	if (pwrite(fd, "EVIL", 4, 0) != 4) {
		close(fd);
		return report(what, -1);
	}
	close(fd);
	return report(what, 0);
}

/*
 * madvise PID: process_madvise(MADV_COLD) of the first writable page of
 * PID (another process's, or the caller's own when PID is our pid).
 */
static int do_madvise(pid_t pid)
{
	struct iovec iov = { (void *)first_map(pid, 1), 4096 };
	int pfd = syscall(SYS_pidfd_open, pid, 0);
	long rc;

	if (pfd < 0)
		return report("madvise", -1);
	rc = syscall(SYS_process_madvise, pfd, &iov, 1, MADV_COLD, 0);
	close(pfd);
	return report("madvise", rc);
}

/*
 * uffd sys|dev: create a userfaultfd for our own memory (userfaultfd() or
 * /dev/userfaultfd), register an anonymous page on it and fill the page
 * through UFFDIO_COPY, as any holder of the descriptor could; checks the
 * page then holds what was copied.
 */
static int do_uffd(const char *how)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { 0 };
	struct uffdio_copy copy = { 0 };
	static char src[4096] __attribute__((aligned(4096))) = "UFFD";
	char *p;
	int fd, dev;

	if (!strcmp(how, "dev")) {
		dev = open("/dev/userfaultfd", O_RDWR | O_CLOEXEC);
		if (dev < 0) {
			printf("uffd: /dev/userfaultfd: %s\n", strerrorname_np(errno) ?: "?");
			return 2;
		}
		fd = ioctl(dev, USERFAULTFD_IOC_NEW, O_CLOEXEC);
		close(dev);
	} else {
		fd = syscall(SYS_userfaultfd, O_CLOEXEC);
	}
	if (fd < 0)
		return report("uffd", -1);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || ioctl(fd, UFFDIO_API, &api))
		goto fail;
	reg.range.start = (unsigned long)p;
	reg.range.len = 4096;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(fd, UFFDIO_REGISTER, &reg))
		goto fail;
	copy.dst = (unsigned long)p;
	copy.src = (unsigned long)src;
	copy.len = 4096;
	if (ioctl(fd, UFFDIO_COPY, &copy) || memcmp(p, "UFFD", 5)) {
		printf("uffd: UFFDIO_COPY failed (%s)\n", strerrorname_np(errno) ?: "?");
		close(fd);
		return 2;
	}
	close(fd);
	return report("uffd", 0);
fail:
	printf("uffd: setup failed (%s)\n", strerrorname_np(errno) ?: "?");
	close(fd);
	return 2;
}

/*
 * perf_event_open() of PID (0: this process), as a profiler samples a
 * task: its user registers and 4 KiB of its user stack at each sample.
 */
static long perf_open(struct perf_event_attr *a, pid_t pid, int cpu)
{
	return syscall(SYS_perf_event_open, a, pid, cpu, -1, 0UL);
}

/*
 * A software event that samples the user registers (AX..DI) and 256
 * bytes of the user stack of what it watches, as a profiler does.
 */
static void sampling_attr(struct perf_event_attr *a, unsigned long long config)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = config;
	a->sample_period = 1000000;
	a->sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	a->sample_regs_user = 0xff;
	a->sample_stack_user = 256;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
}

static int do_perf(pid_t pid)
{
	struct perf_event_attr a;
	long fd;

	sampling_attr(&a, PERF_COUNT_SW_TASK_CLOCK);
	fd = perf_open(&a, pid, -1);

	if (fd >= 0)
		close(fd);
	return report("perf", fd);
}

/*
 * A counting event opened on a child before it execs PROG (a spinner):
 * kept across the exec (it goes on counting the child's CPU time) or
 * removed at it (its count no longer moves).
 */
static int do_perf_exec(char **argv)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.disabled = 1,
		.enable_on_exec = 1,
	};
	unsigned long long c1 = 0, c2 = 0;
	int go[2], st, ok;
	long fd;
	char c = 0;
	pid_t pid;

	if (pipe(go))
		return 2;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	close(go[0]);
	fd = perf_open(&a, pid, -1);
	if (write(go[1], &c, 1) != 1 || fd < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		return report("perf-exec: open", fd < 0 ? -1 : 0);
	}
	usleep(500000);
	ok = read(fd, &c1, sizeof(c1)) == sizeof(c1);
	usleep(500000);
	ok = ok && read(fd, &c2, sizeof(c2)) == sizeof(c2);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	close(fd);
	if (!ok)
		return report("perf-exec: read", -1);
	if (c2 == c1) {
		printf("perf-exec: removed at exec (count %llu)\n", c1);
		return 1;
	}
	printf("perf-exec: kept (count %llu -> %llu)\n", c1, c2);
	return 0;
}

/* Burn CPU in user mode for SEC seconds (a target for perf-cpu). */
static int do_spin(unsigned int sec)
{
	time_t end = time(NULL) + sec;
	volatile unsigned long n = 0;

	while (time(NULL) < end)
		n++;
	return 0;
}

/*
 * A CPU-wide sampling event on CPU 0 for a second, as "perf record -a"
 * with --user-regs and a user stack dump: of the samples of PID, how
 * many carry its user registers and stack? Exit 0 if some do, 1 if
 * none does, 2 if there was no sample of PID.
 */
static int do_perf_cpu(pid_t pid)
{
	struct perf_event_attr a;
	long pg = sysconf(_SC_PAGESIZE), fd;
	size_t len = (1 + 64) * pg;
	struct perf_event_mmap_page *meta;
	unsigned long long head, tail, nsamp = 0, nuser = 0;
	unsigned char *data;

	sampling_attr(&a, PERF_COUNT_SW_CPU_CLOCK);
	fd = perf_open(&a, -1, 0);
	if (fd < 0)
		return report("perf-cpu", -1);
	meta = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (meta == MAP_FAILED)
		return report("perf-cpu: mmap", -1);
	sleep(1);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	data = (unsigned char *)meta + meta->data_offset;
	head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	for (tail = meta->data_tail; tail < head;) {
		struct perf_event_header h;
		unsigned char rec[4096];
		unsigned long long abi, size, off;
		size_t i;

		for (i = 0; i < sizeof(h); i++)
			((unsigned char *)&h)[i] = data[(tail + i) % meta->data_size];
		if (h.size < sizeof(h) || h.size > sizeof(rec))
			break;
		for (i = 0; i < h.size; i++)
			rec[i] = data[(tail + i) % meta->data_size];
		tail += h.size;
		if (h.type != PERF_RECORD_SAMPLE ||
		    *(uint32_t *)(rec + sizeof(h)) != (uint32_t)pid)
			continue;
		nsamp++;
		/* u32 pid, tid; u64 abi; u64 regs[8] if abi; u64 size ... */
		off = sizeof(h) + 8;
		memcpy(&abi, rec + off, 8);
		off += 8 + (abi ? 8 * 8 : 0);
		memcpy(&size, rec + off, 8);
		if (abi || size)
			nuser++;
	}
	printf("perf-cpu: %llu samples of %d, %llu with its user registers or stack\n",
	       nsamp, pid, nuser);
	return !nsamp ? 2 : nuser ? 0 : 1;
}

/* The vDSO's base, from the auxiliary vector. */
static unsigned long vdso_base(void)
{
	return getauxval(AT_SYSINFO_EHDR);
}

/*
 * The offset in the vDSO of its dynamic symbol NAME, or 0: the vDSO is
 * mapped whole, its section headers included, and linked at 0.
 */
static unsigned long vdso_sym(const char *name)
{
	const unsigned char *base = (const void *)vdso_base();
	const Elf64_Ehdr *eh = (const void *)base;
	const Elf64_Shdr *sh;
	const Elf64_Sym *sym;
	const char *str;
	unsigned int i, j;

	if (!base)
		return 0;
	sh = (const void *)(base + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != SHT_DYNSYM || sh[i].sh_link >= eh->e_shnum)
			continue;
		sym = (const void *)(base + sh[i].sh_offset);
		str = (const char *)base + sh[sh[i].sh_link].sh_offset;
		for (j = 0; j < sh[i].sh_size / sizeof(*sym); j++)
			if (!strcmp(str + sym[j].st_name, name))
				return sym[j].st_value;
	}
	return 0;
}

static int do_vdso_sym(const char *name)
{
	unsigned long off = vdso_sym(name);

	if (!off) {
		errno = ENOENT;
		return report("vdso-sym", -1);
	}
	printf("%lu\n", off);
	return 0;
}

/*
 * The gadget written over a vDSO function (x86-64): unload kexec with
 * kexec_file_load(-1, -1, 0, NULL, KEXEC_FILE_UNLOAD), which the kexec
 * gate allows only to a verified process, and exit 42 if it worked, 43
 * if it was refused.
 */
static const unsigned char kexec_gadget[] = {
	0xbf, 0xff, 0xff, 0xff, 0xff,		/* mov $-1, %edi */
	0xbe, 0xff, 0xff, 0xff, 0xff,		/* mov $-1, %esi */
	0x31, 0xd2,				/* xor %edx, %edx */
	0x45, 0x31, 0xd2,			/* xor %r10d, %r10d */
	0x41, 0xb8, 0x01, 0x00, 0x00, 0x00,	/* mov $1, %r8d */
	0xb8, 0x40, 0x01, 0x00, 0x00,		/* mov $320, %eax */
	0x0f, 0x05,				/* syscall */
	0x85, 0xc0,				/* test %eax, %eax */
	0xbf, 0x2a, 0x00, 0x00, 0x00,		/* mov $42, %edi */
	0xb9, 0x2b, 0x00, 0x00, 0x00,		/* mov $43, %ecx */
	0x0f, 0x45, 0xf9,			/* cmovne %ecx, %edi */
	0xb8, 0xe7, 0x00, 0x00, 0x00,		/* mov $231, %eax */
	0x0f, 0x05,				/* syscall: exit_group */
};

static int do_gadget(void)
{
	return fwrite(kexec_gadget, sizeof(kexec_gadget), 1, stdout) == 1 ? 0 : 2;
}

/* main's page: this program's own text */
int main(int argc, char **argv);

static int do_selfmem(const char *what)
{
	if (!strcmp(what, "text"))
		return selfmem_write("selfmem-text", (unsigned long)main);
	if (!strcmp(what, "vdso") && vdso_sym("__vdso_clock_gettime"))
		return selfmem_write("selfmem-vdso",
				     vdso_base() + vdso_sym("__vdso_clock_gettime"));
	return report("selfmem", -1);
}

static int usage(void)
{
	fputs("usage: probe exec|traceme-exec PATH [ARG...] | attach|seize|memread|memwrite|vmread|vmwrite|getfd PID\n"
	      "       | traceme | kexec-load | kexec-file | whoami | run-as UID PATH [ARG...] | sleep SEC\n"
	      "       | memlock | shoff | dmesg | poweroff\n"
	      "       | fake-image SIGNED OUT BYTES | fake-spread SIGNED OUT N | hog MIB SEC\n"
	      "       | hold-memfd SEC\n"
	      "       | reopen PID fd|map_files|cwd|root | madvise PID|self | uffd sys|dev\n"
	      "       | perf PID|self | perf-exec PATH [ARG...] | perf-cpu PID | spin SEC\n"
	      "       | selfmem text|vdso | vdso-sym NAME | gadget\n", stderr);
	return 2;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	pid_t pid = argc > 2 ? atoi(argv[2]) : 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(cmd, "exec") && argc > 2)
		return do_exec(argv + 2, 0);
	if (!strcmp(cmd, "traceme-exec") && argc > 2)
		return do_exec(argv + 2, 1);
	if (!strcmp(cmd, "attach") && pid)
		return do_attach(pid, PTRACE_ATTACH);
	if (!strcmp(cmd, "seize") && pid)
		return do_attach(pid, PTRACE_SEIZE);
	if (!strcmp(cmd, "memread") && pid)
		return do_mem(pid, 0);
	if (!strcmp(cmd, "memwrite") && pid)
		return do_mem(pid, 1);
	if (!strcmp(cmd, "vmread") && pid)
		return do_vm(pid, 0);
	if (!strcmp(cmd, "vmwrite") && pid)
		return do_vm(pid, 1);
	if (!strcmp(cmd, "getfd") && pid)
		return do_getfd(pid);
	if (!strcmp(cmd, "traceme"))	/* ask the parent to trace us */
		return report("traceme", ptrace(PTRACE_TRACEME, 0, 0, 0));
	if (!strcmp(cmd, "kexec-load"))	/* no segments: unload */
		return report("kexec-load", syscall(SYS_kexec_load, 0UL, 0UL, NULL, 0UL));
	if (!strcmp(cmd, "kexec-file"))
		return report("kexec-file", syscall(SYS_kexec_file_load, -1, -1, 0UL, NULL,
						    (unsigned long)KEXEC_FILE_UNLOAD));
	if (!strcmp(cmd, "whoami"))
		return do_whoami();
	if (!strcmp(cmd, "run-as") && argc > 3) {
		uid_t uid = atoi(argv[2]);

		if (setgroups(0, NULL) || setgid(uid) || setuid(uid))
			return report("run-as", -1);
		return do_exec(argv + 3, 0);
	}
	if (!strcmp(cmd, "sleep") && argc > 2) {
		sleep(atoi(argv[2]));
		return 0;
	}
	if (!strcmp(cmd, "memlock")) {
		struct rlimit r;

		getrlimit(RLIMIT_MEMLOCK, &r);
		printf("memlock: %llu\n", (unsigned long long)r.rlim_cur);
		return 0;
	}
	if (!strcmp(cmd, "shoff"))
		return do_shoff();
	if (!strcmp(cmd, "fake-image") && argc > 4)
		return do_fake_image(argv[2], argv[3], strtoull(argv[4], NULL, 0), 1);
	if (!strcmp(cmd, "fake-spread") && argc > 4)
		return do_fake_image(argv[2], argv[3], (unsigned long long)atoi(argv[4]) << 21,
				     atoi(argv[4]));
	if (!strcmp(cmd, "hold-memfd") && argc > 2)
		return do_hold_memfd(atoi(argv[2]));
	if (!strcmp(cmd, "reopen") && pid && argc > 3)
		return do_reopen(pid, argv[3]);
	if (!strcmp(cmd, "madvise") && argc > 2)
		return do_madvise(strcmp(argv[2], "self") ? pid : getpid());
	if (!strcmp(cmd, "uffd") && argc > 2)
		return do_uffd(argv[2]);
	if (!strcmp(cmd, "hog") && argc > 3)
		return do_hog(strtoul(argv[2], NULL, 0), atoi(argv[3]));
	if (!strcmp(cmd, "perf") && argc > 2)
		return do_perf(strcmp(argv[2], "self") ? pid : 0);
	if (!strcmp(cmd, "perf-exec") && argc > 2)
		return do_perf_exec(argv + 2);
	if (!strcmp(cmd, "perf-cpu") && pid)
		return do_perf_cpu(pid);
	if (!strcmp(cmd, "spin") && argc > 2)
		return do_spin(atoi(argv[2]));
	if (!strcmp(cmd, "selfmem") && argc > 2)
		return do_selfmem(argv[2]);
	if (!strcmp(cmd, "vdso-sym") && argc > 2)
		return do_vdso_sym(argv[2]);
	if (!strcmp(cmd, "gadget"))
		return do_gadget();
	if (!strcmp(cmd, "dmesg"))
		return do_dmesg();
	if (!strcmp(cmd, "poweroff")) {
		sync();
		reboot(RB_POWER_OFF);
		return 2;
	}
	return usage();
}
