// SPDX-License-Identifier: GPL-2.0-only
/* cert.c - certificates from PEM or DER file images: exact DER, fingerprint, subject. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/sha.h>
#include <openssl/x509.h>

#include "cert.h"

bool common_looks_like_pem(const uint8_t *buf, size_t len)
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
		common_err_ssl("%s: no PEM block", name);
		goto out;
	}
	if (strcmp(pem_name, PEM_STRING_X509) &&
	    strcmp(pem_name, PEM_STRING_X509_OLD)) {
		common_err("%s: PEM block is '%.40s', not a CERTIFICATE", name,
			   pem_name);
		goto out;
	}
	if (header && *header) {
		common_err("%s: PEM headers (encryption?) not allowed", name);
		goto out;
	}
	if (dlen <= 0) {
		common_err("%s: empty PEM block", name);
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
			common_err("%s: more than one PEM block (one certificate per file)",
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

void common_cert_clear(struct common_cert *cert)
{
	free(cert->name);
	free(cert->der);
	free(cert->subject);
	memset(cert, 0, sizeof(*cert));
}

int common_cert_parse(const uint8_t *buf, size_t len, const char *name,
		      struct common_cert *cert)
{
	const unsigned char *p;
	X509 *x = NULL;
	int err;

	free(cert->der);
	free(cert->subject);
	cert->der = NULL;
	cert->subject = NULL;
	if (len == 0) {
		common_err("%s: empty file", name);
		return -EBADMSG;
	}
	if (common_looks_like_pem(buf, len)) {
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
		common_err_ssl("%s: not an X.509 certificate", name);
		err = -EBADMSG;
		goto fail;
	}
	/* The kernel gets these exact bytes: nothing may trail the cert. */
	if ((size_t)(p - cert->der) != cert->der_len) {
		common_err("%s: %zu bytes after the certificate", name,
			   cert->der_len - (size_t)(p - cert->der));
		err = -EBADMSG;
		goto fail;
	}
	cert->subject = subject_line(x);
	if (!cert->subject) {
		err = -ENOMEM;
		goto fail;
	}
	SHA256(cert->der, cert->der_len, cert->fp);
	X509_free(x);
	return 0;
fail:
	X509_free(x);
	free(cert->der);
	cert->der = NULL;
	cert->der_len = 0;
	return err;
}
