// SPDX-License-Identifier: GPL-2.0-only
/*
 * common_read.c - unit test of common_read_upto(), the bounded read the
 * keyloader's, the TPM library's and elfsig-tpm's file readers share: it
 * gathers short reads from a pipe, stops at @cap, survives a signal in
 * the middle of a read and reports a read error. Prints the project's
 * PASS/FAIL lines.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

static int failed;

/*
 * A pipe whose writer sends @n bytes ('a', 'b', ...) in @chunks writes,
 * @delay_us apart, then closes it. Returns the read end.
 */
static int feeder(size_t n, unsigned int chunks, unsigned int delay_us)
{
	int p[2];
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		char buf[256];
		size_t i, off = 0;

		close(p[0]);
		for (i = 0; i < n && i < sizeof(buf); i++)
			buf[i] = (char)('a' + i % 26);
		for (i = 0; i < chunks; i++) {
			size_t len = n / chunks + (i == chunks - 1 ? n % chunks : 0);

			usleep(delay_us);
			if (write(p[1], buf + off, len) != (ssize_t)len)
				_exit(1);
			off += len;
		}
		_exit(0);
	}
	close(p[1]);
	return p[0];
}

static void reap(void)
{
	while (wait(NULL) > 0)
		;
}

static int pattern_ok(const char *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (buf[i] != (char)('a' + i % 26))
			return 0;
	return 1;
}

static void on_alarm(int sig)
{
	(void)sig;
}

static void one(const char *name, size_t n, unsigned int chunks,
		unsigned int delay_us, size_t cap, size_t want)
{
	char buf[256];
	size_t got = 99;
	int fd = feeder(n, chunks, delay_us), ret;

	if (fd < 0) {
		printf("FAIL: %s: pipe/fork: %s\n", name, strerror(errno));
		failed++;
		return;
	}
	ret = common_read_upto(fd, buf, cap, &got);
	close(fd);
	reap();
	if (ret || got != want || !pattern_ok(buf, got)) {
		printf("FAIL: %s: returned %d, read %zu bytes, want 0 and %zu\n",
		       name, ret, got, want);
		failed++;
		return;
	}
	printf("PASS: %s\n", name);
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */
	struct itimerval it = { .it_value = { .tv_usec = 20000 } };
	char buf[16];
	size_t got = 99;
	int ret;

	setvbuf(stdout, NULL, _IONBF, 0);
	one("read_upto: short reads from a pipe gathered to EOF", 100, 5, 2000, 200, 100);
	one("read_upto: stops at cap, the rest left unread", 100, 1, 0, 40, 40);
	one("read_upto: exactly cap bytes", 64, 4, 1000, 64, 64);
	one("read_upto: an empty pipe reads 0 bytes", 0, 0, 0, 16, 0);

	/* A signal lands while the read waits: it must go on, not fail. */
	if (sigaction(SIGALRM, &sa, NULL) || setitimer(ITIMER_REAL, &it, NULL)) {
		printf("FAIL: read_upto: interrupted: cannot arm a timer\n");
		failed++;
	} else {
		one("read_upto: a signal in the middle of a read (EINTR) is retried",
		    52, 2, 100000, 200, 52);
	}

	ret = common_read_upto(-1, buf, sizeof(buf), &got);
	if (ret == -EBADF && got == 0)
		printf("PASS: read_upto: a read error is returned as -errno\n");
	else {
		printf("FAIL: read_upto: bad fd: returned %d, read %zu\n", ret, got);
		failed++;
	}
	return 0;
}
