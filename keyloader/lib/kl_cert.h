/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kl_cert.h - enrolled certificate files and directories, and the platform
 * CA check (would the kernel admit this certificate?).
 */
#ifndef ELFSIG_KL_CERT_H
#define ELFSIG_KL_CERT_H

#include <stddef.h>

#include "cert.h"
#include "kl_util.h"

#define KL_MAX_KEYS		4096		/* enrolled keys, certificate files */
#define KL_CERT_MAX_SIZE	(64 * 1024)	/* larger certificate files are refused */

/** kl_cert_load() - kl_read_file() + common_cert_parse(); @name kept. */
int kl_cert_load(int dirfd, const char *path, struct common_cert *cert);

/**
 * kl_certdir_load() - every regular, non-hidden file of @dir, by name
 * @dir:   the directory
 * @certs: out, the files, in name order
 * @n:     out, how many
 *
 * Each file is read once. A file that is not a certificate is still
 * returned, with ->error set (the caller reports and skips it).
 * Return: 0 and *@certs (free with kl_certs_free), or a negative errno
 * when the directory cannot be read or holds more than KL_MAX_KEYS files.
 */
int kl_certdir_load(const char *dir, struct common_cert **certs, size_t *n);
void kl_certs_free(struct common_cert *certs, size_t n);

#define KL_PLATFORM_CA_MAX	64	/* certificates, all files together */
struct x509_st;
struct kl_platform_ca {
	struct x509_st *x509;
	const char *file;	/* where it came from (not copied) */
};
struct kl_platform_cas {
	struct kl_platform_ca *ca;
	size_t n;
};
/**
 * kl_platform_ca_load() - append the platform CA certificates of @path
 * @path: a PEM bundle (every CERTIFICATE block) or one DER certificate;
 *        kept by reference in @cas
 * @cas:  in/out (start zeroed; free with kl_platform_cas_free())
 * Return: 0 or a negative errno (a file without a certificate: -EBADMSG).
 */
int kl_platform_ca_load(const char *path, struct kl_platform_cas *cas);
void kl_platform_cas_free(struct kl_platform_cas *cas);
/**
 * kl_platform_ca_check() - would a kernel with CONFIG_ELFSIG_TRUSTED_KEYS,
 * trusting exactly @cas, admit @cert into .elfsig?
 * @cas:  the platform CA certificates
 * @cert: the certificate (its name is used in the message)
 *
 * As the kernel: @cert is no CA and has digitalSignature key usage, its
 * authority key identifier names one of @cas, that one is a CA, and
 * @cert's signature verifies with its key. Direct issue only: the kernel
 * builds no chains.
 * Return: 0, or -EKEYREJECTED with one line saying why.
 */
int kl_platform_ca_check(const struct kl_platform_cas *cas,
			 const struct common_cert *cert);

#endif /* ELFSIG_KL_CERT_H */
