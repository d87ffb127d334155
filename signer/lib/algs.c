// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * algs.c - the algorithms format v1 allows, in one table.
 *
 * Hashes: SHA-256, SHA-384, SHA-512 (the image hash is the PKCS#7 digest
 * algorithm). Keys: RSA with PKCS#1 v1.5 padding, 2048, 3072 or 4096 bits;
 * ECDSA on P-256 or P-384. Everything else is refused by `sign` (the key),
 * `attach` (the signature's algorithm and size) and `verify` (the signature
 * and the trusted certificate's key), so that what signelf accepts the
 * kernel accepts: the kernel's PKCS#7 parser knows no RSA-PSS, its RSA no
 * key over 4096 bits (docs/format.md, section 3).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/objects.h>
#include <openssl/x509.h>

#include "key.h"
#include "lib_private.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The tables are the kernel's <linux/elfsig.h> (a verbatim copy in
 * include/elfsig/uapi/), so that what signelf accepts the kernel accepts.
 */
const struct elfsig_hash_alg elfsig_hash_algs[] = ELFSIG_HASH_ALGS;
const size_t elfsig_n_hash_algs = N(elfsig_hash_algs);

int elfsig_hash_nid(const struct elfsig_hash_alg *h)
{
	return OBJ_txt2nid(h->name);
}

/* rsaEncryption: 1.2.840.113549.1.1.1 */
static const uint8_t oid_rsa[] = {
	0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01 };

const struct elfsig_hash_alg *elfsig_hash_alg(enum elfsig_hash hash)
{
	size_t i;

	for (i = 0; i < N(elfsig_hash_algs); i++)
		if (elfsig_hash_algs[i].hash == hash)
			return &elfsig_hash_algs[i];
	return NULL;
}

const struct elfsig_hash_alg *elfsig_hash_alg_by_nid(int nid)
{
	size_t i;

	for (i = 0; i < N(elfsig_hash_algs); i++)
		if (elfsig_hash_nid(&elfsig_hash_algs[i]) == nid)
			return &elfsig_hash_algs[i];
	return NULL;
}

const char *elfsig_hash_names(void)
{
	static char list[64];
	size_t i, n = 0;

	if (list[0])
		return list;
	for (i = 0; i < N(elfsig_hash_algs); i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s",
				      i == 0 ? "" : i + 1 == N(elfsig_hash_algs) ?
				      " or " : ", ", elfsig_hash_algs[i].name);
	return list;
}

int elfsig_hash_from_name(const char *name, enum elfsig_hash *hash)
{
	size_t i;

	for (i = 0; i < N(elfsig_hash_algs); i++) {
		if (strcasecmp(name, elfsig_hash_algs[i].name) == 0) {
			*hash = elfsig_hash_algs[i].hash;
			return 0;
		}
	}
	elfsig_err("unknown hash algorithm '%s' (use %s)", name,
		   elfsig_hash_names());
	return -EINVAL;
}

const char *elfsig_hash_name(enum elfsig_hash hash)
{
	const struct elfsig_hash_alg *h = elfsig_hash_alg(hash);

	return h ? h->name : NULL;
}

size_t elfsig_hash_size(enum elfsig_hash hash)
{
	const struct elfsig_hash_alg *h = elfsig_hash_alg(hash);

	return h ? h->size : 0;
}

/*
 * The key of @cert, as the kernel's X.509 parser will see it: an EC key
 * must name its curve by OID (the kernel's x509_cert_parser refuses
 * explicit curve parameters, RFC 5480 section 2.1.1), then be in the table.
 */
int elfsig_cert_check(X509 *cert, const char *name)
{
	X509_PUBKEY *pub = X509_get_X509_PUBKEY(cert);
	EVP_PKEY *key = X509_get0_pubkey(cert);
	ASN1_OBJECT *alg = NULL;
	const void *pval = NULL;
	X509_ALGOR *pa = NULL;
	int ptype = V_ASN1_UNDEF;

	if (!pub || !key || !X509_PUBKEY_get0_param(&alg, NULL, NULL, &pa, pub)) {
		elfsig_err_ssl("%s: unreadable public key", name);
		return -EKEYREJECTED;
	}
	if (EVP_PKEY_is_a(key, "EC")) {
		X509_ALGOR_get0(NULL, &ptype, &pval, pa);
		if (ptype != V_ASN1_OBJECT) {
			elfsig_err("%s: the EC key has explicit curve parameters, not a named curve; the kernel accepts only named curves (make the key with `openssl ecparam -param_enc named_curve`)",
				   name);
			return -EKEYREJECTED;
		}
	}
	return common_key_check(key, name);
}

/*
 * Step over the tag @tag and a short or one-byte long form length at *@p;
 * Return: the content length (at least 1, inside *@left), or 0.
 */
static size_t der_header(const uint8_t **p, size_t *left, uint8_t tag)
{
	size_t n, hdr = 2;

	if (*left < 2 || (*p)[0] != tag)
		return 0;
	n = (*p)[1];
	if (n == 0x81) {
		if (*left < 3)
			return 0;
		n = (*p)[2];
		hdr = 3;
	} else if (n & 0x80) {
		return 0;
	}
	if (n == 0 || n > *left - hdr)
		return 0;
	*p += hdr;
	*left -= hdr;
	return n;
}

/* Length of the INTEGER at *@p, stepped over; 0 if malformed. */
static size_t der_integer_len(const uint8_t **p, size_t *left)
{
	size_t n = der_header(p, left, 0x02);

	*p += n;
	*left -= n;
	return n;
}


int elfsig_sigalg_check(const uint8_t *oid, size_t oid_len,
			const uint8_t *params, size_t params_len,
			enum elfsig_hash hash, const uint8_t *sig,
			size_t sig_len, const char *name)
{
	static const uint8_t der_null[] = { 0x05, 0x00 };
	const struct elfsig_hash_alg *h = elfsig_hash_alg(hash);
	size_t i;

	if (!h)
		return -EBADMSG;
	if (oid_len == sizeof(oid_rsa) && !memcmp(oid, oid_rsa, oid_len) &&
	    (params_len == 0 || (params_len == sizeof(der_null) &&
				 !memcmp(params, der_null, params_len)))) {
		if (common_key_rsa_sig_ok(sig_len))
			return 0;
		elfsig_err("%s: an RSA signature of %zu bytes is not allowed by format v1 (allowed: %s)",
			   name, sig_len, common_key_names());
		return -EKEYREJECTED;
	}
	if (oid_len == h->ecdsa_oid_len &&
	    !memcmp(oid, h->ecdsa_oid, oid_len) && params_len == 0) {
		const uint8_t *p = sig;
		size_t left = sig_len, seq, r, s;

		/* Ecdsa-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER } */
		seq = der_header(&p, &left, 0x30);
		if (!seq || seq != left) {
			elfsig_err("%s: the ECDSA signature value is malformed", name);
			return -EBADMSG;
		}
		r = der_integer_len(&p, &left);
		s = r ? der_integer_len(&p, &left) : 0;
		if (!r || !s || left) {
			elfsig_err("%s: the ECDSA signature value is malformed", name);
			return -EBADMSG;
		}
		/* An INTEGER of the field's size, plus a sign byte. */
		if (r > common_key_ecdsa_max_field() + 1 ||
		    s > common_key_ecdsa_max_field() + 1) {
			elfsig_err("%s: the ECDSA signature is from a curve larger than format v1 allows (allowed: %s)",
				   name, common_key_names());
			return -EKEYREJECTED;
		}
		return 0;
	}
	for (i = 0; i < N(elfsig_hash_algs); i++) {
		if (oid_len == elfsig_hash_algs[i].ecdsa_oid_len &&
		    !memcmp(oid, elfsig_hash_algs[i].ecdsa_oid, oid_len)) {
			elfsig_err("%s: the signature algorithm ecdsa-with-%s does not match the digest algorithm %s",
				   name, OBJ_nid2sn(elfsig_hash_nid(&elfsig_hash_algs[i])),
				   h->name);
			return -EKEYREJECTED;
		}
	}
	elfsig_err("%s: the signature algorithm is not allowed by format v1 (allowed: rsaEncryption with PKCS#1 v1.5 padding, or ecdsa-with-SHA*; keys: %s)",
		   name, common_key_names());
	return -EKEYREJECTED;
}
