// SPDX-License-Identifier: GPL-2.0-only
/*
 * eventlog.c - predict PCR values from the firmware's TCG event log (the
 * crypto-agile format of the TCG PC Client Platform Firmware Profile, as
 * /sys/kernel/security/tpm0/binary_bios_measurements holds it), with some
 * measured components replaced by their successors: the state a machine
 * will be in after an update, for a signed PCR policy (docs/keyloader.md).
 *
 * The log is untrusted input: every length is checked against what is
 * left, counts are bounded, and a log that does not parse predicts nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#include "kl_measure.h"

#define EV_NO_ACTION		3
#define SPEC_ID			"Spec ID Event03"	/* and its NUL */
#define STARTUP_LOCALITY	"StartupLocality"	/* and its NUL */
#define MAX_ALGS		8
#define MAX_EVENTS		100000
#define ALG_SHA256		0x000b

struct reader {
	const uint8_t *p;
	size_t left;
	const char *name;
	unsigned long event;	/* for messages: 0 is the header */
};

static int take(struct reader *r, size_t n, const uint8_t **out)
{
	if (n > r->left) {
		kl_err("%s: event %lu: truncated (%zu bytes needed, %zu left)",
		       r->name, r->event, n, r->left);
		return -EBADMSG;
	}
	*out = r->p;
	r->p += n;
	r->left -= n;
	return 0;
}

static int take_u32(struct reader *r, uint32_t *v)
{
	const uint8_t *p;
	int err = take(r, 4, &p);

	if (!err)
		*v = (uint32_t)p[0] | (uint32_t)p[1] << 8 |
		     (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	return err;
}

static int take_u16(struct reader *r, uint16_t *v)
{
	const uint8_t *p;
	int err = take(r, 2, &p);

	if (!err)
		*v = (uint16_t)(p[0] | p[1] << 8);
	return err;
}

struct log_algs {
	unsigned int n;
	uint16_t id[MAX_ALGS];
	uint16_t size[MAX_ALGS];
};

/* The first event: SHA-1 layout, EV_NO_ACTION, the Spec ID event that
 * lists the digest algorithms every later event carries. */
static int parse_header(struct reader *r, struct log_algs *algs)
{
	const uint8_t *digest, *ev;
	uint32_t pcr, type, size, n, i;
	struct reader e;
	int err;

	if ((err = take_u32(r, &pcr)) || (err = take_u32(r, &type)) ||
	    (err = take(r, 20, &digest)) || (err = take_u32(r, &size)) ||
	    (err = take(r, size, &ev)))
		return err;
	e = (struct reader){ ev, size, r->name, 0 };
	if (type != EV_NO_ACTION || size < sizeof(SPEC_ID) + 12 ||
	    memcmp(ev, SPEC_ID, sizeof(SPEC_ID))) {
		kl_err("%s: not a crypto-agile TCG event log (no \"%s\" event first)",
		       r->name, SPEC_ID);
		return -EBADMSG;
	}
	/* signature, platformClass, versions, errata, uintnSize */
	if ((err = take(&e, sizeof(SPEC_ID) + 8, &ev)) ||
	    (err = take_u32(&e, &n)))
		return err;
	if (n == 0 || n > MAX_ALGS) {
		kl_err("%s: %u digest algorithms in the log (1..%d)", r->name, n,
		       MAX_ALGS);
		return -EBADMSG;
	}
	algs->n = n;
	for (i = 0; i < n; i++)
		if ((err = take_u16(&e, &algs->id[i])) ||
		    (err = take_u16(&e, &algs->size[i])))
			return err;
	for (i = 0; i < n; i++) {
		size_t want = elfsig_tpm_bank_size(algs->id[i]);

		if ((want && want != algs->size[i]) || !algs->size[i] ||
		    algs->size[i] > ELFSIG_TPM_MAX_DIGEST) {
			kl_err("%s: digest algorithm 0x%04x with %u-byte digests",
			       r->name, algs->id[i], algs->size[i]);
			return -EBADMSG;
		}
	}
	return 0;
}

static void extend(uint8_t pcr[KL_FP_LEN], const uint8_t digest[KL_FP_LEN])
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();

	if (md && EVP_DigestInit_ex(md, EVP_sha256(), NULL) &&
	    EVP_DigestUpdate(md, pcr, KL_FP_LEN) &&
	    EVP_DigestUpdate(md, digest, KL_FP_LEN))
		EVP_DigestFinal_ex(md, pcr, NULL);
	EVP_MD_CTX_free(md);
}

/* One TCG_PCR_EVENT2: its PCR, type, SHA-256 digest and event data. */
static int parse_event(struct reader *r, const struct log_algs *algs,
		       uint32_t *pcr, uint32_t *type, const uint8_t **sha256,
		       const uint8_t **data, uint32_t *data_len)
{
	uint32_t count, i, j;
	const uint8_t *d;
	uint16_t alg;
	int err;

	*sha256 = NULL;
	if ((err = take_u32(r, pcr)) || (err = take_u32(r, type)) ||
	    (err = take_u32(r, &count)))
		return err;
	if (*pcr >= ELFSIG_TPM_MAX_PCRS || count > MAX_ALGS) {
		kl_err("%s: event %lu: PCR %u, %u digests", r->name, r->event,
		       *pcr, count);
		return -EBADMSG;
	}
	for (i = 0; i < count; i++) {
		if ((err = take_u16(r, &alg)))
			return err;
		for (j = 0; j < algs->n && algs->id[j] != alg; j++)
			;
		if (j == algs->n) {
			kl_err("%s: event %lu: digest algorithm 0x%04x not in the log's header",
			       r->name, r->event, alg);
			return -EBADMSG;
		}
		if ((err = take(r, algs->size[j], &d)))
			return err;
		if (alg == ALG_SHA256)
			*sha256 = d;
	}
	if ((err = take_u32(r, data_len)) || (err = take(r, *data_len, data)))
		return err;
	return 0;
}

int kl_eventlog_replay(const uint8_t *buf, size_t len, const char *name,
		       struct kl_eventlog_replace *rep, size_t nrep,
		       const struct elfsig_tpm_pcrsel *sel,
		       struct elfsig_tpm_pcr_values *vals)
{
	uint8_t pcrs[ELFSIG_TPM_MAX_PCRS][KL_FP_LEN];
	struct reader r = { buf, len, name, 0 };
	uint32_t extended = 0;
	struct log_algs algs;
	size_t i;
	int err;

	for (i = 0; i < nrep; i++)
		rep[i].hits = 0;
	if (sel->bank != ALG_SHA256) {
		kl_err("%s: the prediction covers the sha256 bank only", name);
		return -EINVAL;
	}
	memset(pcrs, 0, sizeof(pcrs));
	err = parse_header(&r, &algs);
	while (!err && r.left) {
		const uint8_t *sha256, *data;
		uint32_t pcr, type, data_len;
		uint8_t d[KL_FP_LEN];

		if (++r.event > MAX_EVENTS) {
			kl_err("%s: more than %d events", name, MAX_EVENTS);
			return -EBADMSG;
		}
		err = parse_event(&r, &algs, &pcr, &type, &sha256, &data,
				  &data_len);
		if (err)
			break;
		if (type == EV_NO_ACTION) {
			/* The locality the firmware started in is PCR 0's
			 * initial value; no other no-action event counts. */
			if (pcr == 0 && data_len == sizeof(STARTUP_LOCALITY) + 1 &&
			    !memcmp(data, STARTUP_LOCALITY, sizeof(STARTUP_LOCALITY)) &&
			    !(extended & 1))
				pcrs[0][KL_FP_LEN - 1] = data[sizeof(STARTUP_LOCALITY)];
			continue;
		}
		if (!sha256) {
			kl_err("%s: event %lu has no sha256 digest", name, r.event);
			return -EBADMSG;
		}
		memcpy(d, sha256, KL_FP_LEN);
		for (i = 0; i < nrep; i++) {
			if (!memcmp(d, rep[i].from, KL_FP_LEN)) {
				memcpy(d, rep[i].to, KL_FP_LEN);
				rep[i].hits++;
				break;
			}
		}
		extend(pcrs[pcr], d);
		extended |= 1u << pcr;
	}
	if (err)
		return err;
	memset(vals, 0, sizeof(*vals));
	vals->sel = *sel;
	vals->digest_size = KL_FP_LEN;
	for (i = 0; i < ELFSIG_TPM_MAX_PCRS; i++)
		if (sel->mask & (1u << i))
			memcpy(vals->value[i], pcrs[i], KL_FP_LEN);
	return 0;
}
