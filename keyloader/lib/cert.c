// SPDX-License-Identifier: GPL-2.0-only
/* cert.c - certificate files and directories (common/lib/cert.c parses). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "kl_cert.h"

#define KL_CERTDIR_MAX_BYTES	(16 * 1024 * 1024)	/* all files together */

int kl_cert_load(int dirfd, const char *path, struct common_cert *cert)
{
	uint8_t *buf;
	size_t len;
	int err;

	if (!path)
		return -EINVAL;
	if (!cert->name && !(cert->name = strdup(path)))
		return -ENOMEM;
	err = kl_read_file(dirfd, path, KL_CERT_MAX_SIZE, &buf, &len);
	if (!err) {
		err = common_cert_parse(buf, len, cert->name, cert);
		free(buf);
	}
	cert->error = err;
	return err;
}

void kl_certs_free(struct common_cert *certs, size_t n)
{
	size_t i;

	if (!certs)
		return;
	for (i = 0; i < n; i++)
		common_cert_clear(&certs[i]);
	free(certs);
}

int kl_certdir_load(const char *dir, struct common_cert **out, size_t *nout)
{
	struct common_cert *certs = NULL;
	char **names = NULL;
	size_t n = 0, ncerts = 0, i, total = 0;
	int dfd, err;

	*out = NULL;
	*nout = 0;
	err = kl_dir_list(dir, "certificate directory", KL_MAX_KEYS, &dfd,
			  &names, &n);
	if (err)
		return err;
	certs = calloc(n ? n : 1, sizeof(*certs));
	if (!certs) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		ncerts = i + 1;
		certs[i].name = names[i];
		names[i] = NULL;
		/* Per-file failures are recorded in ->error, not fatal. */
		kl_cert_load(dfd, certs[i].name, &certs[i]);
		total += certs[i].der_len;
		if (total > KL_CERTDIR_MAX_BYTES) {
			kl_err("%s: certificates larger than %d bytes together",
			       dir, KL_CERTDIR_MAX_BYTES);
			err = -E2BIG;
			goto out;
		}
	}
	*out = certs;
	*nout = n;
	certs = NULL;
out:
	if (certs)
		kl_certs_free(certs, ncerts);
	kl_names_free(names, n);
	close(dfd);
	return err;
}
