// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe - static multi-tool for elfsig's QEMU tests: exec with a precise
 * outcome, ptrace / /proc/PID/mem / process_vm_* / kexec probes, run as
 * another user, dump the kernel log, power off.
 *
 * Probes print one word and exit 0 when the operation succeeded, 1 when it
 * was refused with EPERM/EACCES, 2 on any other error.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/ptrace.h>
#include <sys/reboot.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

/* Is this process verified? Only a verified one may use kexec once
 * fs.elfsig.kexec_verified_only is set; unloading nothing is harmless. */
static int do_whoami(void)
{
	long rc = syscall(SYS_kexec_file_load, -1, -1, 0UL, NULL,
			  (unsigned long)KEXEC_FILE_UNLOAD);

	puts(rc == 0 ? "verified" : errno == EPERM ? "unverified" : "unknown");
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

static int usage(void)
{
	fputs("usage: probe exec|traceme-exec PATH [ARG...] | attach|seize|memread|memwrite|vmread|vmwrite|getfd PID\n"
	      "       | kexec-load | kexec-file | whoami | run-as UID PATH [ARG...] | sleep SEC\n"
	      "       | memlock | shoff | dmesg | poweroff\n", stderr);
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
	if (!strcmp(cmd, "dmesg"))
		return do_dmesg();
	if (!strcmp(cmd, "poweroff")) {
		sync();
		reboot(RB_POWER_OFF);
		return 2;
	}
	return usage();
}
