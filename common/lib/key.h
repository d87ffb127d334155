/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * key.h - private keys through OpenSSL's OSSL_STORE (a file, a TPM handle,
 * a PKCS#11 URI), for signelf (through libelfsig's elfsig_key_*) and
 * elfsig-enroll (the enrolment authority's key). Messages go through
 * common's error callback (common_set_error_callback()).
 */
#ifndef ELFSIG_COMMON_KEY_H
#define ELFSIG_COMMON_KEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common.h"

struct common_key;
struct evp_pkey_st;

struct common_key_opts {
	const char *key;	 /* OSSL_STORE name: path, handle:..., pkcs11:... */
	const char *const *providers; /* extra OpenSSL providers, NULL-ended */
	const char *tcti;	 /* TCTI for the tpm2 provider, or NULL */
	const char *key_pass;	 /* the key's password or TPM auth value
				  * (may be ""), or NULL: prompt on a
				  * terminal, fail without one */
};

/**
 * common_key_load() - load a private key of a type format v1 allows
 * @opts: the key name, providers, TCTI and password
 * @out:  out, the key (free with common_key_free())
 * Return: 0 and *@out set, or a negative errno (with one message).
 */
int common_key_load(const struct common_key_opts *opts,
		    struct common_key **out) COMMON_INTERNAL;

/** common_key_free() - free a key and unload its providers (NULL is fine). */
void common_key_free(struct common_key *key) COMMON_INTERNAL;

/**
 * common_key_sign_digest() - sign a precomputed digest
 * @key:       from common_key_load()
 * @hash:      the digest's algorithm ("sha256"...), or NULL for an unknown one
 * @hash_size: its digest size
 * @digest:    the digest
 * @len:       its size (must be @hash_size)
 * @sig:       out, the signature (malloc'ed): RSA PKCS#1 v1.5, or a DER
 *             ECDSA-Sig-Value
 * @siglen:    out, its size
 * Return: 0 or a negative errno.
 */
int common_key_sign_digest(const struct common_key *key, const char *hash,
			   size_t hash_size, const uint8_t *digest, size_t len,
			   uint8_t **sig, size_t *siglen) COMMON_INTERNAL;

/**
 * common_key_public_der() - the key's public half, a DER SubjectPublicKeyInfo
 * @key: from common_key_load()
 * @der: out, malloc'ed
 * @len: out, its size
 * Return: 0 or a negative errno.
 */
int common_key_public_der(const struct common_key *key, uint8_t **der,
			  size_t *len) COMMON_INTERNAL;

/* The loaded key, for CMS and certificate checks. */
struct evp_pkey_st *common_key_pkey(const struct common_key *key) COMMON_INTERNAL;
/* The key's name for messages (a PKCS#11 URI's PIN hidden). */
const char *common_key_name(const struct common_key *key) COMMON_INTERNAL;

/*
 * common_key_check() - 0, or -EKEYREJECTED (and a message naming @name)
 * for a key outside format v1's table (uapi/linux/elfsig.h).
 */
int common_key_check(struct evp_pkey_st *key, const char *name) COMMON_INTERNAL;
/* "RSA-2048, ..., ECDSA P-384": the key types common_key_check() allows. */
const char *common_key_names(void) COMMON_INTERNAL;
/* Is @sig_len the size of an RSA signature by a key of the table? */
bool common_key_rsa_sig_ok(size_t sig_len) COMMON_INTERNAL;
/* The largest ECDSA field of the table, in bytes. */
size_t common_key_ecdsa_max_field(void) COMMON_INTERNAL;

struct ui_method_st;
struct engine_st;
/*
 * engine.c: load the private key of the PKCS#11 URI @uri through libp11's
 * engine ("pkcs11"); @shown names it in messages (no PIN in it), @pin is
 * the PIN given, or NULL (then pin-value in @uri, or @ui with @ui_data,
 * which sets *@pin_asked when it is asked). Return: 0 with *@pkey and
 * *@engine (for common_engine_release()), -ENOPKG (no message) when no
 * such engine is installed, or another negative errno with one message.
 */
int common_engine_load(const char *uri, const char *shown, const char *pin,
		       struct ui_method_st *ui, void *ui_data, const bool *pin_asked,
		       struct evp_pkey_st **pkey,
		       struct engine_st **engine) COMMON_INTERNAL;
void common_engine_release(struct engine_st *engine) COMMON_INTERNAL;

#endif /* ELFSIG_COMMON_KEY_H */
