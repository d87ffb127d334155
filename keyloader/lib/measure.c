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

#include <openssl/evp.h>

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

/* Every bank a TPM may have: a bank left unextended could be set to
 * anything by whoever comes later, and a verifier may quote any bank. */
static const struct {
	const char *name;
	const EVP_MD *(*md)(void);
} banks[] = {
	{ "sha256", EVP_sha256 },	/* first: the one that must work */
	{ "sha1", EVP_sha1 },
	{ "sha384", EVP_sha384 },
	{ "sha512", EVP_sha512 },
};

int kl_measure_event(struct kl_measure *m, const char *event)
{
	uint8_t digest[EVP_MAX_MD_SIZE];
	char hex[2 * EVP_MAX_MD_SIZE + 1], *line;
	size_t len = strlen(event), i;
	unsigned int dlen;
	int n, err;

	if (!m->tpm)
		return -ENODEV;
	for (i = 0; i < ARRAY_SIZE(banks); i++) {
		uint16_t bank = elfsig_tpm_bank_from_name(banks[i].name);

		if (m->banks_absent & (1u << i))
			continue;
		if (!EVP_Digest(event, len, digest, &dlen, banks[i].md(), NULL)) {
			kl_err_ssl("cannot hash an event with %s", banks[i].name);
			return -EINVAL;
		}
		/* A TPM ignores digests for banks it has not allocated; one
		 * that refuses them instead only loses that bank. SHA-256
		 * must work. */
		elfsig_tpm_set_error_callback(NULL, NULL);
		err = elfsig_tpm_pcr_extend(m->tpm, m->pcr, bank, digest, dlen);
		elfsig_tpm_set_error_callback(m->tpm_error_cb, NULL);
		if (err && i == 0) {
			kl_err("cannot extend PCR %u (sha256): %s", m->pcr,
			       strerror(-err));
			return err;
		}
		if (err) {
			m->banks_absent |= 1u << i;
			continue;
		}
		if (m->logfd < 0)
			continue;
		kl_hex(digest, dlen, hex);
		n = asprintf(&line, "%u %s:%s %s\n", m->pcr, banks[i].name, hex,
			     event);
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
