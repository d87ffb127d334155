// SPDX-License-Identifier: GPL-2.0-only
/* cert.c - certificates from PEM or DER files: exact DER, fingerprint, subject. */
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

#include "kl.h"

#define KL_CERTDIR_MAX_BYTES	(16 * 1024 * 1024)	/* all files together */

bool kl_looks_like_pem(const uint8_t *buf, size_t len)
{
	static const char tag[] = "-----BEGIN ";

	return len >= sizeof(tag) - 1 && memmem(buf, len, tag, sizeof(tag) - 1);
}

/* The DER bytes of the single CERTIFICATE block of a PEM image. */
static int pem_to_der(const uint8_t *buf, size_t len, const char *name,
		      uint8_t **der, size_t *der_len)
{
	char *pem_name = NULL, *header = NULL;
	unsigned char *data = NULL;
	long dlen = 0;
	BIO *bio;
	int err = -EBADMSG;

	if (len > INT_MAX)
		return -EBADMSG;
	bio = BIO_new_mem_buf(buf, (int)len);
	if (!bio)
		return -ENOMEM;
	if (!PEM_read_bio(bio, &pem_name, &header, &data, &dlen)) {
		kl_err_ssl("%s: no PEM block", name);
		goto out;
	}
	if (strcmp(pem_name, PEM_STRING_X509) &&
	    strcmp(pem_name, PEM_STRING_X509_OLD)) {
		kl_err("%s: PEM block is '%.40s', not a CERTIFICATE", name,
		       pem_name);
		goto out;
	}
	if (header && *header) {
		kl_err("%s: PEM headers (encryption?) not allowed", name);
		goto out;
	}
	if (dlen <= 0) {
		kl_err("%s: empty PEM block", name);
		goto out;
	}
	/* One certificate per file: a second block would be silently ignored
	 * by a reader that stops at the first, so refuse it. */
	{
		char *n2 = NULL, *h2 = NULL;
		unsigned char *d2 = NULL;
		long l2 = 0;

		if (PEM_read_bio(bio, &n2, &h2, &d2, &l2)) {
			OPENSSL_free(n2);
			OPENSSL_free(h2);
			OPENSSL_free(d2);
			kl_err("%s: more than one PEM block (one certificate per file)",
			       name);
			goto out;
		}
		ERR_clear_error();
	}
	err = common_memdup_out(der, der_len, data, (size_t)dlen);
out:
	OPENSSL_free(pem_name);
	OPENSSL_free(header);
	OPENSSL_free(data);
	BIO_free(bio);
	return err;
}

static char *subject_line(X509 *x)
{
	BIO *bio = BIO_new(BIO_s_mem());
	char *p, *s = NULL;
	long n;

	if (!bio)
		return NULL;
	/* RFC 2253 with control and non-ASCII bytes escaped: one safe line. */
	if (X509_NAME_print_ex(bio, X509_get_subject_name(x), 0,
			       XN_FLAG_RFC2253 | ASN1_STRFLGS_ESC_MSB) >= 0) {
		n = BIO_get_mem_data(bio, &p);
		if (n >= 0 && n < 4096 && (s = malloc((size_t)n + 1))) {
			memcpy(s, p, (size_t)n);
			s[n] = '\0';
		}
	}
	BIO_free(bio);
	return s;
}

void kl_cert_clear(struct kl_cert *cert)
{
	free(cert->name);
	free(cert->der);
	free(cert->subject);
	memset(cert, 0, sizeof(*cert));
}

int kl_cert_parse(const uint8_t *buf, size_t len, const char *name,
		  struct kl_cert *cert)
{
	const unsigned char *p;
	X509 *x = NULL;
	int err;

	free(cert->der);
	free(cert->subject);
	cert->der = NULL;
	cert->subject = NULL;
	if (len == 0) {
		kl_err("%s: empty file", name);
		return -EBADMSG;
	}
	if (kl_looks_like_pem(buf, len)) {
		err = pem_to_der(buf, len, name, &cert->der, &cert->der_len);
		if (err)
			return err;
	} else {
		cert->der = malloc(len);
		if (!cert->der)
			return -ENOMEM;
		memcpy(cert->der, buf, len);
		cert->der_len = len;
	}
	if (cert->der_len > LONG_MAX) {
		err = -EBADMSG;
		goto fail;
	}
	p = cert->der;
	x = d2i_X509(NULL, &p, (long)cert->der_len);
	if (!x) {
		kl_err_ssl("%s: not an X.509 certificate", name);
		err = -EBADMSG;
		goto fail;
	}
	/* The kernel gets these exact bytes: nothing may trail the cert. */
	if ((size_t)(p - cert->der) != cert->der_len) {
		kl_err("%s: %zu bytes after the certificate", name,
		       cert->der_len - (size_t)(p - cert->der));
		err = -EBADMSG;
		goto fail;
	}
	cert->subject = subject_line(x);
	if (!cert->subject) {
		err = -ENOMEM;
		goto fail;
	}
	kl_sha256(cert->der, cert->der_len, cert->fp);
	X509_free(x);
	return 0;
fail:
	X509_free(x);
	free(cert->der);
	cert->der = NULL;
	cert->der_len = 0;
	return err;
}

int kl_cert_load(int dirfd, const char *path, struct kl_cert *cert)
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
		err = kl_cert_parse(buf, len, cert->name, cert);
		free(buf);
	}
	cert->error = err;
	return err;
}

void kl_certs_free(struct kl_cert *certs, size_t n)
{
	size_t i;

	if (!certs)
		return;
	for (i = 0; i < n; i++)
		kl_cert_clear(&certs[i]);
	free(certs);
}

int kl_certdir_load(const char *dir, struct kl_cert **out, size_t *nout)
{
	struct kl_cert *certs = NULL;
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
