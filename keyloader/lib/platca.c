// SPDX-License-Identifier: GPL-2.0-only
/* platca.c - would the kernel's CONFIG_ELFSIG_TRUSTED_KEYS admit this certificate? */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "kl_cert.h"

/*
 * The kernel's check (fs/elfsig/keyring.c, elfsig_admit_vouched(), 6.12):
 * the certificate is not a CA and has digitalSignature key usage; then
 * restrict_link_by_digsig_builtin_and_secondary() finds the trusted key
 * named by the certificate's authority key identifier (issuer + serial,
 * and/or key identifier = the trusted certificate's subject key
 * identifier) and verifies the certificate's signature with it. Only
 * direct issue counts: the kernel builds no chains.
 */

#define KL_PLATFORM_CA_MAX_FILE	(1024 * 1024)

/* Append @x to @cas (taken: freed with @cas). */
static int ca_append(struct kl_platform_cas *cas, X509 *x, const char *path)
{
	struct kl_platform_ca *n;

	if (cas->n >= KL_PLATFORM_CA_MAX) {
		kl_err("%s: more than %d platform CA certificates", path,
		       KL_PLATFORM_CA_MAX);
		return -E2BIG;
	}
	n = realloc(cas->ca, (cas->n + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	cas->ca = n;
	n[cas->n].x509 = x;
	n[cas->n].file = path;
	cas->n++;
	return 0;
}

int kl_platform_ca_load(const char *path, struct kl_platform_cas *cas)
{
	const unsigned char *p;
	size_t len, before = cas->n;
	uint8_t *buf;
	X509 *x;
	BIO *bio;
	int err;

	err = kl_read_file(AT_FDCWD, path, KL_PLATFORM_CA_MAX_FILE, &buf, &len);
	if (err)
		return err;
	if (len > INT_MAX) {
		err = -EFBIG;
		goto out;
	}
	if (!common_looks_like_pem(buf, len)) {
		p = buf;
		x = d2i_X509(NULL, &p, (long)len);
		if (!x || (size_t)(p - buf) != len) {
			X509_free(x);
			kl_err_ssl("%s: not a certificate (PEM bundle or one DER certificate)",
				   path);
			err = -EBADMSG;
			goto out;
		}
		err = ca_append(cas, x, path);
		if (err)
			X509_free(x);
		goto out;
	}
	bio = BIO_new_mem_buf(buf, (int)len);
	if (!bio) {
		err = -ENOMEM;
		goto out;
	}
	/* Every CERTIFICATE block of the bundle; other blocks are skipped. */
	while ((x = PEM_read_bio_X509(bio, NULL, NULL, NULL))) {
		err = ca_append(cas, x, path);
		if (err) {
			X509_free(x);
			break;
		}
	}
	BIO_free(bio);
	if (!err && cas->n == before) {
		kl_err_ssl("%s: no certificate in it", path);
		err = -EBADMSG;
	} else {
		ERR_clear_error();	/* the end of the bundle */
	}
out:
	free(buf);
	return err;
}

void kl_platform_cas_free(struct kl_platform_cas *cas)
{
	size_t i;

	for (i = 0; i < cas->n; i++)
		X509_free(cas->ca[i].x509);
	free(cas->ca);
	memset(cas, 0, sizeof(*cas));
}

/* The AKID's issuer + serial name @ca (its own issuer and serial). */
static bool akid_names_issuer_serial(const AUTHORITY_KEYID *akid, X509 *ca)
{
	int i;

	if (ASN1_INTEGER_cmp(akid->serial, X509_get0_serialNumber(ca)))
		return false;
	for (i = 0; i < sk_GENERAL_NAME_num(akid->issuer); i++) {
		const GENERAL_NAME *gn = sk_GENERAL_NAME_value(akid->issuer, i);

		if (gn->type == GEN_DIRNAME &&
		    !X509_NAME_cmp(gn->d.directoryName, X509_get_issuer_name(ca)))
			return true;
	}
	return false;
}

/* As the kernel's find_asymmetric_key(): every identifier the AKID gives
 * must name the CA. */
static bool akid_matches(const AUTHORITY_KEYID *akid, X509 *ca)
{
	const ASN1_OCTET_STRING *skid = X509_get0_subject_key_id(ca);

	if (akid->keyid &&
	    (!skid || ASN1_OCTET_STRING_cmp(akid->keyid, skid)))
		return false;
	if (akid->issuer && akid->serial && !akid_names_issuer_serial(akid, ca))
		return false;
	return true;
}

static char *name_line(const X509_NAME *name, char *buf, size_t n)
{
	BIO *bio = BIO_new(BIO_s_mem());
	char *p;
	long len;

	snprintf(buf, n, "?");
	if (!bio)
		return buf;
	if (X509_NAME_print_ex(bio, name, 0,
			       XN_FLAG_RFC2253 | ASN1_STRFLGS_ESC_MSB) >= 0) {
		len = BIO_get_mem_data(bio, &p);
		if (len >= 0)
			snprintf(buf, n, "%.*s", (int)(len < INT_MAX ? len : INT_MAX), p);
	}
	BIO_free(bio);
	return buf;
}

/* Is @ca a CA the kernel would accept as a trusted key's certificate
 * that issues? basicConstraints CA:TRUE, and keyCertSign if it says. */
static bool is_ca(X509 *ca)
{
	uint32_t flags = X509_get_extension_flags(ca);

	if (!(flags & EXFLAG_CA))
		return false;
	if ((flags & EXFLAG_KUSAGE) && !(X509_get_key_usage(ca) & KU_KEY_CERT_SIGN))
		return false;
	return true;
}

static int check_x509(const struct kl_platform_cas *cas, X509 *x,
		      const char *name)
{
	static const char pre[] = "not vouched for by a platform CA";
	AUTHORITY_KEYID *akid;
	uint32_t flags = X509_get_extension_flags(x);
	char ca_name[256];
	size_t i;
	int err = -EKEYREJECTED, crit;
	EVP_PKEY *pub;

	if ((flags & EXFLAG_CA) ||
	    ((flags & EXFLAG_KUSAGE) && (X509_get_key_usage(x) & KU_KEY_CERT_SIGN))) {
		kl_err("%s: %s: a CA certificate; .elfsig takes release (digitalSignature) certificates",
		       name, pre);
		return err;
	}
	if (!(flags & EXFLAG_KUSAGE) || !(X509_get_key_usage(x) & KU_DIGITAL_SIGNATURE)) {
		kl_err("%s: %s: no digitalSignature key usage; .elfsig takes release (digitalSignature) certificates",
		       name, pre);
		return err;
	}
	akid = X509_get_ext_d2i(x, NID_authority_key_identifier, &crit, NULL);
	if (!akid || (!akid->keyid && !(akid->issuer && akid->serial))) {
		AUTHORITY_KEYID_free(akid);
		ERR_clear_error();
		kl_err("%s: %s: no authority key identifier, so the kernel cannot find its issuer",
		       name, pre);
		return err;
	}
	for (i = 0; i < cas->n; i++)
		if (akid_matches(akid, cas->ca[i].x509))
			break;
	AUTHORITY_KEYID_free(akid);
	if (i == cas->n) {
		bool self = !X509_NAME_cmp(X509_get_subject_name(x),
					   X509_get_issuer_name(x));

		kl_err("%s: %s: its authority key identifier matches none of the %zu platform CA certificate%s (%s %s)",
		       name, pre, cas->n, cas->n == 1 ? "" : "s",
		       self ? "self-signed:" : "issued by another CA:",
		       name_line(X509_get_issuer_name(x), ca_name,
				 sizeof(ca_name)));
		return err;
	}
	name_line(X509_get_subject_name(cas->ca[i].x509), ca_name,
		  sizeof(ca_name));
	if (!is_ca(cas->ca[i].x509)) {
		kl_err("%s: %s: its issuer %s (%s) is not a CA certificate (basicConstraints CA:TRUE, keyCertSign)",
		       name, pre, ca_name, cas->ca[i].file);
		return err;
	}
	pub = X509_get0_pubkey(cas->ca[i].x509);
	if (!pub || X509_verify(x, pub) != 1) {
		ERR_clear_error();
		kl_err("%s: %s: its signature does not verify with the key of %s (%s)",
		       name, pre, ca_name, cas->ca[i].file);
		return err;
	}
	return 0;
}

int kl_platform_ca_check(const struct kl_platform_cas *cas,
			 const struct common_cert *cert)
{
	const unsigned char *p = cert->der;
	X509 *x;
	int err;

	if (cert->der_len > LONG_MAX)
		return -EBADMSG;
	x = d2i_X509(NULL, &p, (long)cert->der_len);
	if (!x) {
		kl_err_ssl("%s: not an X.509 certificate", cert->name);
		return -EBADMSG;
	}
	err = check_x509(cas, x, cert->name);
	X509_free(x);
	return err;
}
