// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * der.c - the outer shape format v1 allows a signature, checked on the
 * DER bytes, as the kernel checks it before its PKCS#7 parser runs.
 *
 * OpenSSL parses far more than format v1 allows (certificates, CRLs,
 * signed and unsigned attributes, several digest algorithms); the kernel
 * refuses all of those, so `signelf verify` and `attach` must too.
 *
 *   ContentInfo ::= SEQUENCE { signedData OID, [0] EXPLICIT SEQUENCE {
 *       version INTEGER,
 *       digestAlgorithms SET { exactly one AlgorithmIdentifier },
 *       encapContentInfo SEQUENCE { id-data OID }      -- detached
 *       -- no [0] certificates, no [1] crls
 *       signerInfos SET { exactly one SEQUENCE {
 *           version INTEGER, sid (SEQUENCE | [0] IMPLICIT OCTET STRING),
 *           digestAlgorithm (the same as above),
 *           -- no [0] signedAttrs
 *           signatureAlgorithm SEQUENCE, signature OCTET STRING (non-empty)
 *           -- no [1] unsignedAttrs
 *       } } } }
 */
#include <errno.h>
#include <string.h>

#include "lib_private.h"

struct der {
	const uint8_t *p;
	size_t len;
};

enum {
	T_INTEGER = 0x02, T_OCTET = 0x04, T_NULL = 0x05, T_OID = 0x06,
	T_SEQ = 0x30, T_SET = 0x31, T_CTX0 = 0xa0, T_CTX1 = 0xa1,
	T_CTX0_PRIM = 0x80,
};

/* Split off the next TLV (definite length, up to 4 length bytes). */
static bool next(struct der *d, uint8_t *tag, struct der *val)
{
	size_t n, hdr = 2, i;

	if (d->len < 2 || (d->p[0] & 0x1f) == 0x1f)
		return false;
	*tag = d->p[0];
	n = d->p[1];
	if (n & 0x80) {
		size_t k = n & 0x7f;

		if (k == 0 || k > 4 || d->len - 2 < k)
			return false;
		for (n = 0, i = 0; i < k; i++)
			n = n << 8 | d->p[2 + i];
		hdr += k;
	}
	if (n > d->len - hdr)
		return false;
	val->p = d->p + hdr;
	val->len = n;
	d->p += hdr + n;
	d->len -= hdr + n;
	return true;
}

static bool expect(struct der *d, uint8_t want, struct der *val)
{
	uint8_t tag;

	return next(d, &tag, val) && tag == want;
}

static bool peek_is(const struct der *d, uint8_t tag)
{
	return d->len > 0 && d->p[0] == tag;
}

static bool is_oid(const struct der *v, const uint8_t *oid, size_t n)
{
	return v->len == n && memcmp(v->p, oid, n) == 0;
}

/* One AlgorithmIdentifier with absent or NULL parameters; its full
 * encoding is returned for comparison, its OID in @oid. */
struct algid {
	struct der whole, oid;
};

static bool algorithm(struct der *d, struct algid *a)
{
	struct der ai, params;
	const uint8_t *start = d->p;

	if (!expect(d, T_SEQ, &ai) || !expect(&ai, T_OID, &a->oid))
		return false;
	if (ai.len && (!expect(&ai, T_NULL, &params) || params.len || ai.len))
		return false;
	a->whole.p = start;
	a->whole.len = (size_t)(d->p - start);
	return true;
}

/* The hash of format v1 whose OID is @oid, or 0. */
static enum elfsig_hash hash_of(const struct der *oid)
{
	size_t i;

	for (i = 0; i < elfsig_n_hash_algs; i++)
		if (is_oid(oid, (const uint8_t *)elfsig_hash_algs[i].oid,
			   elfsig_hash_algs[i].oid_len))
			return elfsig_hash_algs[i].hash;
	return 0;
}

int elfsig_pkcs7_shape(const uint8_t *bytes, size_t len, const char *name)
{
	static const uint8_t signed_data[] = {
		0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02 };
	static const uint8_t data[] = {
		0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01 };
	struct der d = { bytes, len }, ci, v, sd, set, eci, si, sig, sigoid;
	struct der sigalg;
	struct algid listed, used;
	enum elfsig_hash hash;
	uint8_t tag;

	if (!expect(&d, T_SEQ, &ci) || d.len || !expect(&ci, T_OID, &v) ||
	    !is_oid(&v, signed_data, sizeof(signed_data)) ||
	    !expect(&ci, T_CTX0, &v) || ci.len || !expect(&v, T_SEQ, &sd) || v.len)
		goto malformed;
	if (!expect(&sd, T_INTEGER, &v) || !expect(&sd, T_SET, &set) ||
	    !algorithm(&set, &listed))
		goto malformed;
	if (set.len) {
		elfsig_err("%s: signature lists more than one digest algorithm", name);
		return -EBADMSG;
	}
	if (!expect(&sd, T_SEQ, &eci) || !expect(&eci, T_OID, &v) ||
	    !is_oid(&v, data, sizeof(data)))
		goto malformed;
	if (eci.len) {
		elfsig_err("%s: signature embeds its content (must be detached)", name);
		return -EBADMSG;
	}
	if (peek_is(&sd, T_CTX0) || peek_is(&sd, T_CTX1)) {
		elfsig_err("%s: signature carries certificates or CRLs (format v1 has none)",
			   name);
		return -EBADMSG;
	}
	if (!expect(&sd, T_SET, &set) || sd.len || !expect(&set, T_SEQ, &si))
		goto malformed;
	if (set.len) {
		elfsig_err("%s: signature must have exactly one signer", name);
		return -EBADMSG;
	}
	if (!expect(&si, T_INTEGER, &v) || !next(&si, &tag, &v) ||
	    (tag != T_SEQ && tag != T_CTX0_PRIM) || !algorithm(&si, &used))
		goto malformed;
	if (peek_is(&si, T_CTX0)) {
		elfsig_err("%s: signature has signed attributes (format v1 has none)",
			   name);
		return -EBADMSG;
	}
	if (!expect(&si, T_SEQ, &sigalg) || !expect(&sigalg, T_OID, &sigoid) ||
	    !expect(&si, T_OCTET, &sig) || !sig.len)
		goto malformed;
	if (si.len) {
		elfsig_err("%s: signature has unsigned attributes (format v1 has none)",
			   name);
		return -EBADMSG;
	}
	if (listed.whole.len != used.whole.len ||
	    memcmp(listed.whole.p, used.whole.p, used.whole.len) != 0) {
		elfsig_err("%s: signer's digest algorithm is not the one listed", name);
		return -EBADMSG;
	}
	hash = hash_of(&used.oid);
	if (!hash) {
		elfsig_err("%s: signature digest algorithm is not %s", name,
			   elfsig_hash_names());
		return -EBADMSG;
	}
	/* @sigalg is left holding the signature algorithm's parameters. */
	return elfsig_sigalg_check(sigoid.p, sigoid.len, sigalg.p, sigalg.len, hash,
				   sig.p, sig.len, name);
malformed:
	elfsig_err("%s: signature is not a format v1 PKCS#7 SignedData", name);
	return -EBADMSG;
}
