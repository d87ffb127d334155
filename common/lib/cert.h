/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cert.h - X.509 certificates from PEM or DER file images: the exact DER
 * bytes (what the kernel gets), the SHA-256 fingerprint, a printable
 * subject. For the keyloader, elfsig-enroll and elfsig-attest; messages go
 * through common's error callback (common_set_error_callback()).
 */
#ifndef ELFSIG_COMMON_CERT_H
#define ELFSIG_COMMON_CERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common.h"

#define COMMON_FP_LEN		32		/* SHA-256 fingerprint */

struct common_cert {
	char *name;		/* file name, for messages */
	uint8_t *der;		/* exactly the bytes given to the kernel */
	size_t der_len;
	uint8_t fp[COMMON_FP_LEN];	/* SHA-256 of der */
	char *subject;		/* printable one-line subject */
	int error;		/* 0, or why the file is not a certificate */
};

/**
 * common_cert_parse() - a certificate from a PEM or DER file image
 * @buf:  the file's bytes
 * @len:  how many
 * @name: for messages (kept in @cert)
 * @cert: out (clear with common_cert_clear())
 *
 * DER: the whole image must be one certificate. PEM: exactly one
 * CERTIFICATE block; its decoded bytes must be one certificate.
 * Return: 0, or -EBADMSG with a message.
 */
int common_cert_parse(const uint8_t *buf, size_t len, const char *name,
		      struct common_cert *cert) COMMON_INTERNAL;
/** common_looks_like_pem() - does @buf hold a PEM block ("-----BEGIN ")? */
bool common_looks_like_pem(const uint8_t *buf, size_t len) COMMON_INTERNAL;
/** common_cert_clear() - free what @cert holds, and zero it */
void common_cert_clear(struct common_cert *cert) COMMON_INTERNAL;

#endif /* ELFSIG_COMMON_CERT_H */
