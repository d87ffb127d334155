// SPDX-License-Identifier: LGPL-2.1-or-later
/* cert.c - self-signed certificate and CSR for a TPM key, via the tpm2
 * OpenSSL provider (the key is used, never read). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include <openssl/rand.h>
#include <openssl/store.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "common.h"
#include "tpm_private.h"

#define TPM2OPENSSL_TCTI_ENV "TPM2OPENSSL_TCTI"

/* The PEM in memory BIO @mem replaces @path atomically (never a device). */
static int write_bio(BIO *mem, const char *path)
{
	char *data;
	long len = BIO_get_mem_data(mem, &data);

	if (len <= 0)
		return -EIO;
	return common_write_atomic(path, data, (size_t)len, 0644, tpm_err);
}

/* "/CN=x/O=y" into an X509_NAME. */
static X509_NAME *parse_subject(const char *subject)
{
	X509_NAME *name = X509_NAME_new();
	char *copy = strdup(subject), *save = NULL, *tok;
	int n = 0;

	if (!name || !copy || subject[0] != '/')
		goto bad;
	for (tok = strtok_r(copy, "/", &save); tok;
	     tok = strtok_r(NULL, "/", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq || eq == tok || !eq[1])
			goto bad;
		*eq = '\0';
		if (!X509_NAME_add_entry_by_txt(name, tok, MBSTRING_UTF8,
						(unsigned char *)eq + 1, -1,
						-1, 0))
			goto bad;
		n++;
	}
	if (!n)
		goto bad;
	free(copy);
	return name;
bad:
	ERR_clear_error();
	tpm_err("subject '%s': expected /TYPE=value/..., e.g. /CN=release key/O=example",
		subject);
	free(copy);
	X509_NAME_free(name);
	return NULL;
}

static EVP_PKEY *load_tpm_key(OSSL_LIB_CTX *libctx, const char *uri)
{
	OSSL_STORE_CTX *store;
	EVP_PKEY *pkey = NULL;

	store = OSSL_STORE_open_ex(uri, libctx, NULL, NULL, NULL, NULL, NULL,
				   NULL);
	if (!store) {
		tpm_err_ssl("%s", uri);
		return NULL;
	}
	OSSL_STORE_expect(store, OSSL_STORE_INFO_PKEY);
	while (!pkey && !OSSL_STORE_eof(store)) {
		OSSL_STORE_INFO *info = OSSL_STORE_load(store);

		if (!info)
			continue;
		if (OSSL_STORE_INFO_get_type(info) == OSSL_STORE_INFO_PKEY)
			pkey = OSSL_STORE_INFO_get1_PKEY(info);
		OSSL_STORE_INFO_free(info);
	}
	OSSL_STORE_close(store);
	if (!pkey)
		tpm_err_ssl("%s", uri);
	return pkey;
}

static int add_ext(X509 *cert, X509V3_CTX *ctx, int nid, const char *value)
{
	X509_EXTENSION *ext = X509V3_EXT_conf_nid(NULL, ctx, nid, value);
	int ok = ext && X509_add_ext(cert, ext, -1);

	X509_EXTENSION_free(ext);
	return ok;
}

static int sign_ctx(EVP_MD_CTX **md, OSSL_LIB_CTX *libctx, EVP_PKEY *pkey)
{
	*md = EVP_MD_CTX_new();
	return *md && EVP_DigestSignInit_ex(*md, NULL, "SHA256", libctx, NULL,
					    pkey, NULL) == 1;
}

static int make_cert(OSSL_LIB_CTX *libctx, EVP_PKEY *pkey, X509_NAME *name,
		     unsigned int days, const char *path)
{
	unsigned char serial[16];
	X509 *cert = X509_new_ex(libctx, NULL);
	EVP_MD_CTX *md = NULL;
	BIGNUM *bn = NULL;
	X509V3_CTX v3;
	BIO *out = NULL;
	int ret = -EIO;

	if (!cert || RAND_bytes(serial, sizeof(serial)) != 1)
		goto fail;
	serial[0] &= 0x7f;	/* positive, at most 20 octets */
	serial[0] |= 0x40;
	bn = BN_bin2bn(serial, sizeof(serial), NULL);
	if (!bn || !BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(cert)) ||
	    !X509_set_version(cert, X509_VERSION_3) ||
	    !X509_set_subject_name(cert, name) ||
	    !X509_set_issuer_name(cert, name) ||
	    !X509_gmtime_adj(X509_getm_notBefore(cert), 0) ||
	    !X509_time_adj_ex(X509_getm_notAfter(cert), (int)days, 0, NULL) ||
	    !X509_set_pubkey(cert, pkey))
		goto fail;
	X509V3_set_ctx(&v3, cert, cert, NULL, NULL, 0);
	if (!add_ext(cert, &v3, NID_basic_constraints, "critical,CA:FALSE") ||
	    !add_ext(cert, &v3, NID_key_usage, "critical,digitalSignature") ||
	    !add_ext(cert, &v3, NID_subject_key_identifier, "hash") ||
	    !add_ext(cert, &v3, NID_authority_key_identifier, "keyid:always"))
		goto fail;
	if (!sign_ctx(&md, libctx, pkey) || X509_sign_ctx(cert, md) <= 0)
		goto fail;
	/* The TPM signed what we asked: check it before anyone relies on it. */
	if (X509_verify(cert, pkey) != 1)
		goto fail;
	out = BIO_new(BIO_s_mem());
	if (!out || !PEM_write_bio_X509(out, cert)) {
		tpm_err_ssl("%s", path);
		goto out;
	}
	ret = write_bio(out, path);
	goto out;
fail:
	tpm_err_ssl("creating the certificate with the TPM key");
out:
	BIO_free(out);
	EVP_MD_CTX_free(md);
	BN_free(bn);
	X509_free(cert);
	return ret;
}

static int make_csr(OSSL_LIB_CTX *libctx, EVP_PKEY *pkey, X509_NAME *name,
		    const char *path)
{
	X509_REQ *req = X509_REQ_new_ex(libctx, NULL);
	STACK_OF(X509_EXTENSION) *exts = sk_X509_EXTENSION_new_null();
	X509_EXTENSION *ku = NULL;
	EVP_MD_CTX *md = NULL;
	BIO *out = NULL;
	int ret = -EIO;

	if (!req || !exts || !X509_REQ_set_version(req, X509_REQ_VERSION_1) ||
	    !X509_REQ_set_subject_name(req, name) ||
	    !X509_REQ_set_pubkey(req, pkey))
		goto fail;
	ku = X509V3_EXT_conf_nid(NULL, NULL, NID_key_usage,
				 "critical,digitalSignature");
	if (!ku || !sk_X509_EXTENSION_push(exts, ku))
		goto fail;
	ku = NULL;
	if (!X509_REQ_add_extensions(req, exts))
		goto fail;
	if (!sign_ctx(&md, libctx, pkey) || X509_REQ_sign_ctx(req, md) <= 0 ||
	    X509_REQ_verify(req, pkey) != 1)
		goto fail;
	out = BIO_new(BIO_s_mem());
	if (!out || !PEM_write_bio_X509_REQ(out, req)) {
		tpm_err_ssl("%s", path);
		goto out;
	}
	ret = write_bio(out, path);
	goto out;
fail:
	tpm_err_ssl("creating the certificate request with the TPM key");
out:
	BIO_free(out);
	X509_EXTENSION_free(ku);
	sk_X509_EXTENSION_pop_free(exts, X509_EXTENSION_free);
	EVP_MD_CTX_free(md);
	X509_REQ_free(req);
	return ret;
}

int elfsig_tpm_make_cert(const struct elfsig_tpm_cert_opts *opts)
{
	OSSL_PROVIDER *tpm2 = NULL, *dflt = NULL;
	OSSL_LIB_CTX *libctx;
	X509_NAME *name = NULL;
	EVP_PKEY *pkey = NULL;
	int ret = -EIO;

	if (!opts->key || !opts->subject || (!opts->cert && !opts->csr)) {
		tpm_err("certificate: need a key, a subject and an output");
		return -EINVAL;
	}
	if (opts->days > 36500) {
		tpm_err("certificate: validity of %u days is not sensible",
			opts->days);
		return -EINVAL;
	}
	name = parse_subject(opts->subject);
	if (!name)
		return -EINVAL;
	/* The provider takes its TCTI from the environment only. */
	if (setenv(TPM2OPENSSL_TCTI_ENV, elfsig_tpm_tcti(opts->tcti), 1)) {
		X509_NAME_free(name);
		return -errno;
	}
	libctx = OSSL_LIB_CTX_new();
	if (!libctx)
		goto out;
	tpm2 = OSSL_PROVIDER_load(libctx, "tpm2");
	dflt = OSSL_PROVIDER_load(libctx, "default");
	if (!tpm2 || !dflt) {
		tpm_err_ssl("loading OpenSSL's tpm2 provider (package tpm2-openssl)");
		ret = -ENOPKG;
		goto out;
	}
	pkey = load_tpm_key(libctx, opts->key);
	if (!pkey) {
		ret = -ENOENT;
		goto out;
	}
	ret = 0;
	if (opts->cert)
		ret = make_cert(libctx, pkey, name, opts->days ? opts->days :
				3650, opts->cert);
	if (!ret && opts->csr)
		ret = make_csr(libctx, pkey, name, opts->csr);
out:
	EVP_PKEY_free(pkey);
	X509_NAME_free(name);
	OSSL_PROVIDER_unload(tpm2);
	OSSL_PROVIDER_unload(dflt);
	OSSL_LIB_CTX_free(libctx);
	return ret;
}
