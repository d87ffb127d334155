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

#include "kl_measure.h"

int kl_measure_open_log(struct kl_measure *m, const char *path)
{
	char *dcopy = strdup(path);
	struct stat st;
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
			O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0644);
	if (m->logfd < 0) {
		err = -errno;
		kl_err("%s: cannot open event log: %s", path, strerror(errno));
		return err;
	}
	/* Never a FIFO a reader could stall the boot on, nor a device. */
	if (fstat(m->logfd, &st) || !S_ISREG(st.st_mode) ||
	    fcntl(m->logfd, F_SETFL, O_APPEND)) {
		kl_err("%s: the event log is not a regular file", path);
		close(m->logfd);
		m->logfd = -1;
		return -EINVAL;
	}
	return 0;
}

/* Every bank a TPM may have, in event log order: a bank left unextended
 * could be set to anything by whoever comes later, and a verifier may
 * quote any bank. */
static const char *const bank_names[] = {
	"sha256",	/* first: the one that must be there */
	"sha1", "sha384", "sha512",
};

bool kl_kernel_measures(void)
{
	return access(KL_KERNEL_LOG, F_OK) == 0;
}

int kl_measure_event(struct kl_measure *m, const char *event)
{
	uint16_t banks[ARRAY_SIZE(bank_names)];
	struct elfsig_tpm_event_digests ev;
	char hex[2 * ELFSIG_TPM_MAX_DIGEST + 1], *line;
	unsigned int i;
	int n, err;

	/* The kernel's log is the whole story of its PCR: never add to it,
	 * whichever PCR the policy names. */
	if (m->kernel_log)
		return 0;
	if (!m->tpm)
		return -ENODEV;
	for (i = 0; i < ARRAY_SIZE(bank_names); i++)
		banks[i] = elfsig_tpm_bank_from_name(bank_names[i]);
	/* One TPM2_PCR_Extend for every allocated bank; the TPM layer skips
	 * the banks the TPM does not have. SHA-256 must be among them. */
	err = elfsig_tpm_pcr_extend_event(m->tpm, m->pcr, banks,
					  ARRAY_SIZE(banks), event,
					  strlen(event), &ev);
	if (!err && ev.d[0].bank != banks[0]) {
		kl_err("PCR %u has no sha256 bank", m->pcr);
		err = -ENOENT;
	}
	if (err) {
		kl_err("cannot extend PCR %u: %s", m->pcr, strerror(-err));
		return err;
	}
	for (i = 0; m->logfd >= 0 && i < ev.count; i++) {
		common_hex(ev.d[i].digest, ev.d[i].size, hex);
		n = asprintf(&line, "%u %s:%s %s\n", m->pcr,
			     elfsig_tpm_bank_name(ev.d[i].bank), hex, event);
		if (n < 0)
			return -ENOMEM;
		if (write(m->logfd, line, (size_t)n) != n) {
			err = errno ? -errno : -EIO;
			kl_err("event log: write failed: %s", strerror(-err));
			free(line);
			return err;
		}
		free(line);
	}
	m->events++;
	return 0;
}

void kl_measure_close(struct kl_measure *m)
{
	if (m->logfd >= 0) {
		fsync(m->logfd);
		close(m->logfd);
	}
	m->logfd = -1;
}
