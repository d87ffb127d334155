// SPDX-License-Identifier: GPL-2.0-only
/* log.c - the kernel's measurement log: parse, check digests, replay,
 * and what the records say (docs/attestation.md). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "attest.h"
#include "cert.h"
#include "error.h"

/* d-ng of a SHA-256 digest: the algorithm's name, ':', NUL, the digest. */
static const char dng_prefix[] = "sha256:";	/* + its NUL: 8 bytes */
#define DNG_LEN (sizeof(dng_prefix) + ATTEST_SHA256_LEN)

/* The modes, loosest first: a later mode record may only go up. */
static const char *const modes[] = { "off", "permissive", "enforce", "require" };

/* A cursor over untrusted bytes: every take is checked against the end. */
struct cur {
	const uint8_t *p;
	size_t left;
};

static bool take(struct cur *c, size_t n, const uint8_t **out)
{
	if (n > c->left)
		return false;
	*out = c->p;
	c->p += n;
	c->left -= n;
	return true;
}

/* The log is in the kernel's native byte order: little-endian on x86. */
static bool take_u32(struct cur *c, uint32_t *v)
{
	const uint8_t *b;

	if (!take(c, 4, &b))
		return false;
	*v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	     (uint32_t)b[3] << 24;
	return true;
}

/* One template field: u32 length, then that many bytes. */
static int take_field(struct cur *c, const char *what, size_t i,
		      const char *field, uint32_t max, const uint8_t **data,
		      uint32_t *len)
{
	if (!take_u32(c, len)) {
		attest_err("%s: record %zu: template data ends inside the %s field's length",
			   what, i, field);
		return -EBADMSG;
	}
	if (*len > max || !take(c, *len, data)) {
		attest_err("%s: record %zu: %s field length %u runs past the template data (%zu bytes left%s)",
			   what, i, field, *len, c->left,
			   *len > max ? ", or past the contract's bound" : "");
		return -EBADMSG;
	}
	return 0;
}

/* Names end up in messages: printable ASCII only, no NUL. */
static bool printable(const uint8_t *p, size_t n)
{
	for (; n; n--, p++)
		if (*p < 0x20 || *p > 0x7e)
			return false;
	return true;
}

/* The three fields of ima-buf's template data, which must fill it. */
static int parse_fields(const uint8_t *tdata, uint32_t tlen, const char *what,
			size_t i, struct attest_record *r)
{
	struct cur c = { tdata, tlen };
	const uint8_t *dng, *name;
	uint32_t dlen, nlen;
	int ret;

	ret = take_field(&c, what, i, "d-ng", DNG_LEN, &dng, &dlen);
	if (!ret)
		ret = take_field(&c, what, i, "n-ng", ATTEST_MAX_NAME + 1,
				 &name, &nlen);
	if (!ret)
		ret = take_field(&c, what, i, "buf", ATTEST_MAX_BUF, &r->buf,
				 &r->buf_len);
	if (ret)
		return ret;
	if (c.left) {
		attest_err("%s: record %zu: %zu bytes after the three fields of the template data",
			   what, i, c.left);
		return -EBADMSG;
	}
	if (dlen != DNG_LEN || memcmp(dng, dng_prefix, sizeof(dng_prefix))) {
		attest_err("%s: record %zu: d-ng field is not \"sha256:\" and a 32-byte digest",
			   what, i);
		return -EBADMSG;
	}
	if (nlen < 2 || name[nlen - 1] != '\0' || !printable(name, nlen - 1)) {
		attest_err("%s: record %zu: n-ng field is not one NUL-terminated printable name",
			   what, i);
		return -EBADMSG;
	}
	r->digest = dng + sizeof(dng_prefix);
	r->name = (const char *)name;
	return 0;
}

static int parse_record(struct cur *c, const char *what, size_t i,
			struct attest_record *r)
{
	const uint8_t *tname;
	uint32_t tnlen;
	size_t at = c->left;

	if (!take_u32(c, &r->pcr) || !take(c, ATTEST_SHA1_LEN, &r->sha1) ||
	    !take_u32(c, &tnlen)) {
		attest_err("%s: record %zu: the log ends inside the record header (%zu bytes left)",
			   what, i, at);
		return -EBADMSG;
	}
	if (tnlen > ATTEST_MAX_NAME || !take(c, tnlen, &tname)) {
		attest_err("%s: record %zu: template name length %u runs past the end of the log (%zu bytes left)",
			   what, i, tnlen, c->left);
		return -EBADMSG;
	}
	if (tnlen != sizeof(ATTEST_TEMPLATE) - 1 ||
	    memcmp(tname, ATTEST_TEMPLATE, tnlen)) {
		attest_err("%s: record %zu: template name is not \"" ATTEST_TEMPLATE "\" (length %u)",
			   what, i, tnlen);
		return -EBADMSG;
	}
	if (!take_u32(c, &r->tdata_len)) {
		attest_err("%s: record %zu: the log ends inside the template data length",
			   what, i);
		return -EBADMSG;
	}
	if (!take(c, r->tdata_len, &r->tdata)) {
		attest_err("%s: record %zu: template data length %u runs past the end of the log (%zu bytes left)",
			   what, i, r->tdata_len, c->left);
		return -EBADMSG;
	}
	return parse_fields(r->tdata, r->tdata_len, what, i, r);
}

int attest_log_parse(const uint8_t *img, size_t len, const char *what,
		     struct attest_log *log)
{
	struct cur c = { img, len };
	size_t cap = 0;
	int ret;

	memset(log, 0, sizeof(*log));
	if (len > ATTEST_MAX_LOG) {
		attest_err("%s: larger than %u bytes", what, ATTEST_MAX_LOG);
		return -EBADMSG;
	}
	while (c.left) {
		if (log->n == ATTEST_MAX_RECORDS) {
			attest_err("%s: more than %d records", what,
				   ATTEST_MAX_RECORDS);
			ret = -EBADMSG;
			goto fail;
		}
		if (log->n == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			struct attest_record *n;

			n = reallocarray(log->rec, ncap, sizeof(*n));
			if (!n) {
				ret = -ENOMEM;
				goto fail;
			}
			log->rec = n;
			cap = ncap;
		}
		memset(&log->rec[log->n], 0, sizeof(log->rec[0]));
		ret = parse_record(&c, what, log->n, &log->rec[log->n]);
		if (ret)
			goto fail;
		log->n++;
	}
	if (!log->n) {
		attest_err("%s: empty log (not even the elfsig-init record)", what);
		return -EBADMSG;
	}
	return 0;
fail:
	attest_log_free(log);
	return ret;
}

void attest_log_free(struct attest_log *log)
{
	free(log->rec);
	memset(log, 0, sizeof(*log));
}

/*
 * IMA's template digest for templates other than "ima"
 * (ima_calc_field_array_hash): each field's u32 length, in the kernel's
 * byte order, then its bytes: exactly the template data as logged.
 */
static bool template_digest(const char *md, const struct attest_record *r,
			    uint8_t *out)
{
	unsigned int n = 0;

	return EVP_Digest(r->tdata, r->tdata_len, out, &n,
			  EVP_get_digestbyname(md), NULL) == 1;
}

int attest_log_replay(const struct attest_log *log, unsigned int pcr,
		      const char *what, uint8_t value[ATTEST_SHA256_LEN])
{
	uint8_t acc[2 * ATTEST_SHA256_LEN], sha1[ATTEST_SHA1_LEN];
	uint8_t fp[ATTEST_SHA256_LEN];
	size_t i;

	memset(acc, 0, sizeof(acc));
	for (i = 0; i < log->n; i++) {
		const struct attest_record *r = &log->rec[i];

		if (r->pcr != pcr) {
			attest_err("%s: record %zu (%s) is for PCR %u, not PCR %u: this log holds PCR %u's events only",
				   what, i, r->name, r->pcr, pcr, pcr);
			return -EBADE;
		}
		SHA256(r->buf, r->buf_len, fp);
		if (CRYPTO_memcmp(fp, r->digest, sizeof(fp))) {
			attest_err("%s: record %zu (%s): the d-ng digest is not the SHA-256 of its data",
				   what, i, r->name);
			return -EBADE;
		}
		if (!template_digest("sha1", r, sha1) ||
		    !template_digest("sha256", r, acc + ATTEST_SHA256_LEN)) {
			attest_err_ssl("%s: record %zu: cannot hash", what, i);
			return -ENOMEM;
		}
		if (CRYPTO_memcmp(sha1, r->sha1, sizeof(sha1))) {
			attest_err("%s: record %zu (%s): the template digest is not the SHA-1 of its template data",
				   what, i, r->name);
			return -EBADE;
		}
		/* PCR_new = H(PCR_old || template digest) */
		SHA256(acc, sizeof(acc), acc);
	}
	memcpy(value, acc, ATTEST_SHA256_LEN);
	return 0;
}

/* A text event's data, exactly: @buf equals the NUL-terminated @text. */
static bool buf_is(const struct attest_record *r, const char *text)
{
	return r->buf_len == strlen(text) && !memcmp(r->buf, text, r->buf_len);
}

const char *attest_mode_name(int rank)
{
	return rank >= 0 && rank < (int)(sizeof(modes) / sizeof(modes[0])) ?
	       modes[rank] : "?";
}

int attest_mode_rank(const char *name)
{
	size_t i;

	for (i = 0; name && i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(name, modes[i]))
			return (int)i;
	return -1;
}

static int mode_index(const struct attest_record *r)
{
	char text[32];
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		snprintf(text, sizeof(text), "mode=%s", modes[i]);
		if (buf_is(r, text))
			return (int)i;
	}
	return -1;
}

/* "keys=N", N decimal without leading zeros, at most 10 digits. */
static bool lock_count(const struct attest_record *r, unsigned long *n)
{
	char text[32];
	size_t d;

	if (r->buf_len < 6 || r->buf_len > 15 || memcmp(r->buf, "keys=", 5))
		return false;
	d = r->buf_len - 5;
	memcpy(text, r->buf + 5, d);
	text[d] = '\0';
	if (strspn(text, "0123456789") != d || (text[0] == '0' && d > 1))
		return false;
	*n = strtoul(text, NULL, 10);
	return *n <= UINT32_MAX;
}

/* The last value of attribute @nid in @name, as the kernel's
 * x509_extract_name_segment() keeps it: the raw content octets. */
static const ASN1_STRING *name_part(const X509_NAME *name, int nid)
{
	const ASN1_STRING *v = NULL;
	int i;

	for (i = 0; i < X509_NAME_entry_count(name); i++) {
		const X509_NAME_ENTRY *e = X509_NAME_get_entry(name, i);

		if (OBJ_obj2nid(X509_NAME_ENTRY_get_object(e)) == nid)
			v = X509_NAME_ENTRY_get_data(e);
	}
	return v;
}

/* The content octets of @a: the bytes and their number. */
static const uint8_t *octets(const ASN1_STRING *a, size_t *n)
{
	*n = a ? (size_t)ASN1_STRING_length(a) : 0;
	return a ? ASN1_STRING_get0_data(a) : NULL;
}

/*
 * The description the kernel gives an X.509 key added without one (as
 * the loader and "keyctl padd asymmetric ''" add): x509_fabricate_name()
 * of the subject (CN, or O and CN as "O: CN" unless CN starts with O or
 * with O's first 7 bytes, or O, or the e-mail address), ": ", then the
 * subject key identifier, or else the serial number's content octets, in
 * lower-case hex (x509_key_preparse()). A name is taken up to a NUL in
 * it (the kernel's would end there too). Return: malloc'ed, or NULL.
 */
static char *kernel_description(const uint8_t *der, size_t len)
{
	const uint8_t *p = der, *cn, *o, *name, *id;
	const ASN1_OCTET_STRING *skid;
	size_t ncn, no, nname = 0, nid, k, at;
	unsigned char *serial = NULL;
	const X509_NAME *subject;
	bool combined = false;
	X509 *x;
	char *d = NULL;

	x = d2i_X509(NULL, &p, (long)len);
	if (!x)
		return NULL;
	subject = X509_get_subject_name(x);
	cn = octets(name_part(subject, NID_commonName), &ncn);
	o = octets(name_part(subject, NID_organizationName), &no);
	/* An empty attribute counts as none, as the kernel's sizes do. */
	if (ncn && no)
		combined = !(ncn >= no && !memcmp(cn, o, no)) &&
			   !(ncn >= 7 && no >= 7 && !memcmp(cn, o, 7));
	if (ncn)
		name = cn, nname = ncn;
	else if (no)
		name = o, nname = no;
	else
		name = octets(name_part(subject, NID_pkcs9_emailAddress), &nname);
	skid = X509_get0_subject_key_id(x);
	if (skid) {
		id = ASN1_STRING_get0_data(skid);
		nid = (size_t)ASN1_STRING_length(skid);
	} else {
		/* The INTEGER's DER: tag, a short length, the content. */
		int n = i2d_ASN1_INTEGER(X509_get0_serialNumber(x), &serial);

		if (n < 2 || serial[1] & 0x80)
			goto out;
		id = serial + 2;
		nid = (size_t)n - 2;
	}
	d = malloc(no + 2 + nname + 2 + 2 * nid + 1);
	if (!d)
		goto out;
	if (combined)
		sprintf(d, "%.*s: %.*s", (int)no, (const char *)o, (int)ncn,
			(const char *)cn);
	else
		sprintf(d, "%.*s", (int)nname, name ? (const char *)name : "");
	at = strlen(d);
	at += (size_t)sprintf(d + at, ": ");
	for (k = 0; k < nid; k++)
		at += (size_t)sprintf(d + at, "%02x", id[k]);
out:
	OPENSSL_free(serial);
	X509_free(x);
	return d;
}

/* Another admission of a certificate already listed: the same key. */
static struct attest_key *listed(struct attest_summary *s, const uint8_t *fp)
{
	size_t i;

	for (i = 0; i < s->nkeys; i++)
		if (!s->keys[i].after_lock &&
		    !memcmp(s->keys[i].fp, fp, ATTEST_SHA256_LEN))
			return &s->keys[i];
	return NULL;
}

/* Record @i admitted @k: the other keys with its description are gone. */
static void replaces(struct attest_summary *s, const struct attest_key *k,
		     size_t i)
{
	size_t j;

	for (j = 0; j < s->nkeys; j++) {
		struct attest_key *o = &s->keys[j];

		if (o == k || o->after_lock || o->replaced_by ||
		    !k->description || !o->description ||
		    strcmp(o->description, k->description))
			continue;
		o->replaced_by = i;
		s->replaced++;
	}
}

static int add_key(struct attest_summary *s, const struct attest_record *r,
		   size_t i, const char *what)
{
	struct common_cert cert = { 0 };
	struct attest_key *k;
	char name[512];
	int ret;

	snprintf(name, sizeof(name), "%s: record %zu", what, i);
	ret = common_cert_parse(r->buf, r->buf_len, name, &cert);
	if (!ret && (cert.der_len != r->buf_len ||
		     memcmp(cert.der, r->buf, r->buf_len))) {
		attest_err("%s: the data is not a DER certificate", name);
		ret = -EBADMSG;
	}
	if (ret)
		goto out;
	k = s->locked ? NULL : listed(s, cert.fp);
	if (k) {
		/* The same certificate again: it replaces itself. */
		if (k->replaced_by) {
			k->replaced_by = 0;
			s->replaced--;
		}
	} else {
		k = reallocarray(s->keys, s->nkeys + 1, sizeof(*k));
		if (!k) {
			ret = -ENOMEM;
			goto out;
		}
		s->keys = k;
		k += s->nkeys++;
		memset(k, 0, sizeof(*k));
		k->record = i;
		memcpy(k->fp, cert.fp, sizeof(k->fp));
		k->subject = cert.subject;
		cert.subject = NULL;
		k->description = kernel_description(r->buf, r->buf_len);
		k->after_lock = s->locked;
	}
	k->admissions++;
	k->last_record = i;
	if (s->locked) {
		s->keys_after_lock++;
	} else {
		s->admissions++;
		replaces(s, k, i);
	}
out:
	common_cert_clear(&cert);
	return ret;
}

int attest_log_summarize(const struct attest_log *log, unsigned int pcr,
			 const char *what, struct attest_summary *s)
{
	char init[64];
	int mode = -1, m, ret = 0;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->pcr = pcr;
	s->records = log->n;
	snprintf(init, sizeof(init), ATTEST_INIT_FMT, pcr);
	for (i = 0; i < log->n && !ret; i++) {
		const struct attest_record *r = &log->rec[i];

		if (!strcmp(r->name, ATTEST_EV_INIT)) {
			if (i != 0) {
				attest_err("%s: record %zu: a second elfsig-init (the log starts only once per boot)",
					   what, i);
				ret = -EBADE;
			} else if (!buf_is(r, init)) {
				attest_err("%s: record 0: elfsig-init data is not \"%s\"",
					   what, init);
				ret = -EBADMSG;
			}
			continue;
		}
		if (i == 0) {
			attest_err("%s: record 0 is %s, not elfsig-init", what,
				   r->name);
			ret = -EBADMSG;
		} else if (!strcmp(r->name, ATTEST_EV_KEY)) {
			ret = add_key(s, r, i, what);
		} else if (!strcmp(r->name, ATTEST_EV_MODE)) {
			m = mode_index(r);
			if (m < 0) {
				attest_err("%s: record %zu: elfsig-mode data is not mode=off|permissive|enforce|require",
					   what, i);
				ret = -EBADMSG;
			} else if (m < mode) {
				attest_err("%s: record %zu: the mode goes from %s to %s, but modes only tighten",
					   what, i, modes[mode], modes[m]);
				ret = -EBADE;
			}
			mode = m;
			s->mode_record = i;
		} else if (!strcmp(r->name, ATTEST_EV_LOCK)) {
			if (s->locked) {
				attest_err("%s: record %zu: a second elfsig-lock (the first is record %zu)",
					   what, i, s->lock_record);
				ret = -EBADE;
			} else if (!lock_count(r, &s->lock_keys)) {
				attest_err("%s: record %zu: elfsig-lock data is not keys=N",
					   what, i);
				ret = -EBADMSG;
			} else if (s->lock_keys != s->admissions) {
				attest_err("%s: record %zu: the lock counts %lu key admissions, but the log has %zu .elfsig records before it",
					   what, i, s->lock_keys, s->admissions);
				ret = -EBADE;
			}
			s->locked = true;
			s->lock_record = i;
		} else {
			attest_err("%s: record %zu: unknown event \"%.64s\"", what,
				   i, r->name);
			ret = -EBADMSG;
		}
	}
	s->mode = mode >= 0 ? modes[mode] : NULL;
	if (ret)
		attest_summary_free(s);
	return ret;
}

void attest_summary_free(struct attest_summary *s)
{
	size_t i;

	for (i = 0; i < s->nkeys; i++) {
		free(s->keys[i].subject);
		free(s->keys[i].description);
	}
	free(s->keys);
	memset(s, 0, sizeof(*s));
}

int attest_log_check(const uint8_t *img, size_t len, const char *what,
		     unsigned int pcr, const struct attest_quote *q,
		     uint8_t value[ATTEST_SHA256_LEN], struct attest_summary *s)
{
	struct attest_log log;
	int ret;

	memset(s, 0, sizeof(*s));
	ret = attest_log_parse(img, len, what, &log);
	if (ret)
		return ret;
	ret = attest_log_replay(&log, pcr, what, value);
	if (!ret && q)
		ret = attest_quote_matches(q, value, what);
	if (!ret)
		ret = attest_log_summarize(&log, pcr, what, s);
	attest_log_free(&log);
	return ret;
}
