// SPDX-License-Identifier: GPL-2.0-only
/*
 * benchloop - time fork+exec+exit of two binaries, interleaved.
 *   benchloop N A B   prints per-binary median and mean in microseconds
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static double run(const char *path)
{
	double t0 = now_us();
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		execl(path, path, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "benchloop: %s failed\n", path);
		exit(1);
	}
	return now_us() - t0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double summary(const char *name, double *t, int n)
{
	double sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += t[i];
	qsort(t, n, sizeof(*t), cmp);
	printf("BENCH %s runs=%d median_us=%.0f mean_us=%.0f p10_us=%.0f p90_us=%.0f\n",
	       name, n, t[n / 2], sum / n, t[n / 10], t[n * 9 / 10]);
	return t[n / 2];
}

int main(int argc, char **argv)
{
	int n = argc > 3 ? atoi(argv[1]) : 0, i;
	double *a, *b, ma, mb;

	if (n <= 0)
		return fprintf(stderr, "usage: benchloop N A B\n"), 2;
	a = calloc(n, sizeof(*a));
	b = calloc(n, sizeof(*b));
	if (!a || !b)
		return 1;
	run(argv[2]);	/* warm the page cache */
	run(argv[3]);
	for (i = 0; i < n; i++) {
		a[i] = run(argv[2]);
		b[i] = run(argv[3]);
	}
	ma = summary(argv[2], a, n);
	mb = summary(argv[3], b, n);
	printf("BENCH ratio_median=%.3f (%s / %s)\n", ma / mb, argv[2], argv[3]);
	return 0;
}
