// SPDX-License-Identifier: GPL-2.0-only
/*
 * authority.c - the enrolment authority's public key and the signatures it
 * makes over the enrolment policy (docs/keyloader.md, "Signed policy").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "kl_authority.h"

#define AUTHORITY_MAX_FILE	(16 * 1024)

void kl_authority_free(struct kl_authority *a)
{
	if (!a)
		return;
	EVP_PKEY_free(a->key);
	free(a->spki);
	memset(a, 0, sizeof(*a));
}

int kl_authority_from_der(const uint8_t *der, size_t len, const char *name,
			  struct kl_authority *a)
{
	const unsigned char *p = der;
	size_t tpm_name_len;
	int err;

	memset(a, 0, sizeof(*a));
	a->key = len && len <= AUTHORITY_MAX_FILE ?
		 d2i_PUBKEY(NULL, &p, (long)len) : NULL;
	if (!a->key || p != der + len) {
		kl_err_ssl("%s: not a public key", name);
		kl_authority_free(a);
		return -EBADMSG;
	}
	/* Only the key types the TPM can load for PolicyAuthorize and
	 * format v1 allows: the TPM layer knows them. */
	err = elfsig_tpm_authority_name(der, len, a->tpm_name, &tpm_name_len);
	if (err) {
		kl_err("%s: the enrolment authority must be an RSA 2048/3072/4096 or ECDSA P-256/P-384 key",
		       name);
		kl_authority_free(a);
		return err == -EKEYREJECTED ? -EKEYREJECTED : -EBADMSG;
	}
	a->spki = malloc(len);
	if (!a->spki) {
		kl_authority_free(a);
		return -ENOMEM;
	}
	memcpy(a->spki, der, len);
	a->spki_len = len;
	if (kl_sha256(der, len, a->fp)) {
		kl_authority_free(a);
		return -EIO;
	}
	return 0;
}

int kl_authority_load(const char *path, struct kl_authority *a)
{
	unsigned char *der = NULL;
	EVP_PKEY *key = NULL;
	uint8_t *buf;
	size_t len;
	BIO *b;
	int err, n;

	memset(a, 0, sizeof(*a));
	err = kl_read_file(AT_FDCWD, path, AUTHORITY_MAX_FILE, &buf, &len);
	if (err)
		return err;
	/* PEM "PUBLIC KEY", or DER SubjectPublicKeyInfo as it is. */
	if (len > 10 && !memcmp(buf, "-----BEGIN", 10)) {
		b = BIO_new_mem_buf(buf, (int)len);
		key = b ? PEM_read_bio_PUBKEY(b, NULL, NULL, NULL) : NULL;
		BIO_free(b);
		n = key ? i2d_PUBKEY(key, &der) : 0;
		EVP_PKEY_free(key);
		if (n <= 0) {
			kl_err_ssl("%s: not a PEM public key", path);
			free(buf);
			return -EBADMSG;
		}
		err = kl_authority_from_der(der, (size_t)n, path, a);
		OPENSSL_free(der);
	} else {
		err = kl_authority_from_der(buf, len, path, a);
	}
	free(buf);
	return err;
}

int kl_authority_pem(const struct kl_authority *a, char **pem, size_t *len)
{
	char *data = NULL;
	long n;
	BIO *b = BIO_new(BIO_s_mem());

	*pem = NULL;
	*len = 0;
	if (!b || !PEM_write_bio_PUBKEY(b, a->key) ||
	    (n = BIO_get_mem_data(b, &data)) <= 0 || !(*pem = malloc((size_t)n))) {
		BIO_free(b);
		kl_err_ssl("cannot encode the authority's public key");
		return -ENOMEM;
	}
	memcpy(*pem, data, (size_t)n);
	*len = (size_t)n;
	BIO_free(b);
	return 0;
}

int kl_authority_verify_digest(const struct kl_authority *a,
			       const uint8_t digest[KL_FP_LEN],
			       const uint8_t *sig, size_t sig_len)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(a->key, NULL);
	int ok;

	ok = ctx && EVP_PKEY_verify_init(ctx) > 0 &&
	     EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha256()) > 0 &&
	     (!EVP_PKEY_is_a(a->key, "RSA") ||
	      EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) > 0) &&
	     EVP_PKEY_verify(ctx, sig, sig_len, digest, KL_FP_LEN) == 1;
	EVP_PKEY_CTX_free(ctx);
	ERR_clear_error();
	return ok ? 0 : -EBADMSG;
}

int kl_policy_verify_bytes(const struct kl_policy *pol, const uint8_t *buf,
			   size_t len, const uint8_t *sig, size_t sig_len,
			   const struct kl_authority *a, const char *path)
{
	uint8_t digest[KL_FP_LEN];

	if (!a || !sig) {
		kl_err("%s: no enrolment authority or signature to check it with",
		       path);
		return -EINVAL;
	}
	if (memcmp(pol->authority, a->fp, KL_FP_LEN)) {
		kl_err("%s: names another enrolment authority than the configured one",
		       path);
		return -EBADE;
	}
	/* What `openssl dgst -sha256 -verify authority.pem` checks. */
	if (kl_sha256(buf, len, digest))
		return -EIO;
	if (kl_authority_verify_digest(a, digest, sig, sig_len)) {
		kl_err("%s: the signature does not verify with the enrolment authority's key (edited after signing, or signed by another key)",
		       path);
		return -EBADE;
	}
	return 0;
}

int kl_policy_check_signature(const struct kl_policy *pol, const uint8_t *buf,
			      size_t len, const uint8_t *sig, size_t sig_len,
			      const struct kl_authority *a, const char *path)
{
	if (pol->version < 2) {
		kl_err("%s: policy format version %u is sealed to one PCR state and not signed by an enrolment authority: refused, migrate it with elfsig-enroll migrate --authority-key KEY",
		       path, pol->version);
		return -EPROTO;
	}
	if (pol->version < 3) {
		kl_err("%s: policy format version %u has no generation (no rollback protection): refused, migrate it with elfsig-enroll migrate --authority-key KEY",
		       path, pol->version);
		return -EPROTO;
	}
	if (pol->version < KL_POLICY_VERSION) {
		kl_err("%s: policy format version %u is not bound to a machine (any machine of the authority would load it): refused, migrate it with elfsig-enroll migrate --authority-key KEY",
		       path, pol->version);
		return -EPROTO;
	}
	return kl_policy_verify_bytes(pol, buf, len, sig, sig_len, a, path);
}
