// SPDX-License-Identifier: GPL-2.0-only
/* measure.c - extend the measurement PCR, one event log line per event. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kl.h"

int kl_measure_open_log(struct kl_measure *m, const char *path)
{
	char *dcopy = strdup(path);
	int err;

	if (!dcopy)
		return -ENOMEM;
	/* One level, like /run/elfsig: /run is a fresh tmpfs at boot. */
	if (mkdir(dirname(dcopy), 0755) && errno != EEXIST) {
		err = -errno;
		kl_err("%s: cannot create directory: %s", dcopy,
		       strerror(errno));
		free(dcopy);
		return err;
	}
	free(dcopy);
	/* Append: the PCR accumulates every run, so does the log. */
	m->logfd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW |
			O_CLOEXEC | O_NOCTTY, 0644);
	if (m->logfd < 0) {
		err = -errno;
		kl_err("%s: cannot open event log: %s", path, strerror(errno));
		return err;
	}
	return 0;
}

int kl_measure_event(struct kl_measure *m, const char *event)
{
	uint8_t digest[KL_FP_LEN];
	char hex[2 * KL_FP_LEN + 1], *line = NULL;
	size_t len = strlen(event);
	int n, err;

	if (!m->tpm)
		return -ENODEV;
	kl_sha256(event, len, digest);
	err = elfsig_tpm_pcr_extend(m->tpm, m->pcr, m->bank, digest,
				    sizeof(digest));
	if (err)
		return err;
	m->events++;
	if (m->logfd < 0)
		return 0;
	kl_hex(digest, sizeof(digest), hex);
	n = asprintf(&line, "%u sha256:%s %s\n", m->pcr, hex, event);
	if (n < 0)
		return -ENOMEM;
	if (write(m->logfd, line, (size_t)n) != n) {
		err = errno ? -errno : -EIO;
		kl_err("event log: write failed: %s", strerror(-err));
	}
	free(line);
	return err;
}

void kl_measure_close(struct kl_measure *m)
{
	if (m->logfd >= 0) {
		fsync(m->logfd);
		close(m->logfd);
	}
	m->logfd = -1;
}
