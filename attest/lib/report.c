// SPDX-License-Identifier: GPL-2.0-only
/* report.c - allow lists, the verdict, and the report of what .elfsig
 * trusted (text or JSON). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/crypto.h>

#include "attest.h"
#include "error.h"

#define FP_PREFIX "sha256:"

/* "sha256:" and exactly 64 hex digits, nothing else. */
static bool parse_fp(const char *s, size_t len, uint8_t fp[ATTEST_SHA256_LEN])
{
	size_t plen = sizeof(FP_PREFIX) - 1;

	return len > plen && !memcmp(s, FP_PREFIX, plen) &&
	       common_unhex(s + plen, len - plen, fp, ATTEST_SHA256_LEN) == 0;
}

int attest_allow_parse(const uint8_t *buf, size_t len, const char *what,
		       struct attest_allow *allow)
{
	const char *p = (const char *)buf, *end = p + len;
	size_t line = 0;

	memset(allow, 0, sizeof(*allow));
	if (len > ATTEST_MAX_ALLOW_FILE || memchr(buf, '\0', len)) {
		attest_err("%s: not a text file of at most %u bytes", what,
			   ATTEST_MAX_ALLOW_FILE);
		return -EBADMSG;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end, *s = p;
		uint8_t (*n)[ATTEST_SHA256_LEN];

		line++;
		p = nl ? nl + 1 : end;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			e--;
		if (s == e || *s == '#')
			continue;
		if (allow->n == ATTEST_MAX_ALLOW) {
			attest_err("%s:%zu: more than %d fingerprints", what, line,
				   ATTEST_MAX_ALLOW);
			goto bad;
		}
		n = reallocarray(allow->fp, allow->n + 1, sizeof(*n));
		if (!n) {
			attest_allow_free(allow);
			return -ENOMEM;
		}
		allow->fp = n;
		if (!parse_fp(s, (size_t)(e - s), allow->fp[allow->n])) {
			attest_err("%s:%zu: expected sha256:<64 hex digits> (a key fingerprint, as in the enrolment policy)",
				   what, line);
			goto bad;
		}
		allow->n++;
	}
	return 0;
bad:
	attest_allow_free(allow);
	return -EBADMSG;
}

void attest_allow_free(struct attest_allow *allow)
{
	free(allow->fp);
	memset(allow, 0, sizeof(*allow));
}

bool attest_allowed(const struct attest_allow *allow,
		    const uint8_t fp[ATTEST_SHA256_LEN])
{
	size_t i;

	for (i = 0; i < allow->n; i++)
		if (!memcmp(allow->fp[i], fp, ATTEST_SHA256_LEN))
			return true;
	return false;
}

static void fp_hex(const uint8_t fp[ATTEST_SHA256_LEN],
		   char out[2 * ATTEST_SHA256_LEN + 1])
{
	common_hex(fp, ATTEST_SHA256_LEN, out);
}

int attest_verdict(const struct attest_summary *s,
		   const struct attest_allow *allow, int min_mode)
{
	char hex[2 * ATTEST_SHA256_LEN + 1];
	size_t i;

	for (i = 0; i < s->nkeys; i++) {
		if (!s->keys[i].after_lock)
			continue;
		fp_hex(s->keys[i].fp, hex);
		attest_err("record %zu: key " FP_PREFIX "%s (%s) admitted after the lock (record %zu): the keyring did not stay locked",
			   s->keys[i].record, hex, s->keys[i].subject,
			   s->lock_record);
		return -ENOLCK;
	}
	if (!s->locked) {
		attest_err("the keyring was never locked: no elfsig-lock record in %zu records (keys could still be added)",
			   s->records);
		return -ENOLCK;
	}
	for (i = 0; allow && i < s->nkeys; i++) {
		if (attest_allowed(allow, s->keys[i].fp))
			continue;
		fp_hex(s->keys[i].fp, hex);
		attest_err("record %zu: key " FP_PREFIX "%s (%s) is not in the allow list",
			   s->keys[i].record, hex, s->keys[i].subject);
		return -ENOKEY;
	}
	/* A boot in a looser mode than required ran unsigned or failing
	 * programs: the keys were right, the machine is not what it must be. */
	if (min_mode >= 0 && attest_mode_rank(s->mode) < min_mode) {
		if (s->mode)
			attest_err("record %zu: mode %s, looser than the required %s",
				   s->mode_record, s->mode,
				   attest_mode_name(min_mode));
		else
			attest_err("no elfsig-mode record in %zu records: the mode is unknown, %s is required",
				   s->records, attest_mode_name(min_mode));
		return -EPERM;
	}
	return 0;
}

/* A JSON string: the subject is escaped ASCII already (RFC 2253 with
 * ESC_MSB), but quotes, backslashes and control bytes still need care. */
static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c > 0x7e)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static const char *verdict_name(int result, const struct attest_quote *q)
{
	if (!q)
		return "unverified";
	switch (result) {
	case 0:
		return "trusted";
	case -ENOLCK:
		return "not-locked";
	case -ENOKEY:
		return "foreign-key";
	case -EPERM:
		return "mode-too-loose";
	default:
		return "refused";
	}
}

static void report_json(FILE *f, const struct attest_summary *s,
			const struct attest_quote *q, const char *value,
			const struct attest_allow *allow, int result)
{
	char hex[2 * ATTEST_SHA256_LEN + 1];
	size_t i;

	fprintf(f, "{\"verdict\":\"%s\",\"verified\":%s,\"pcr\":%u,\"bank\":\"sha256\",\"pcr_value\":\"%s\",\"records\":%zu,",
		verdict_name(result, q), q ? "true" : "false", s->pcr, value,
		s->records);
	if (q) {
		unsigned int k;

		fprintf(f, "\"quote\":{\"signature\":\"%s\",\"clock_ms\":%llu,\"pcrs\":{",
			q->sig_alg, (unsigned long long)q->clock);
		/* Every quoted PCR; the others' values when they were given. */
		for (k = 0; k < q->npcrs; k++) {
			fprintf(f, "%s\"%u\":", k ? "," : "", q->pcrs[k]);
			if (q->pcrs[k] == q->pcr) {
				fprintf(f, "\"%s\"", value);
			} else {
				fp_hex(q->values[k], hex);
				fprintf(f, "\"%s\"", hex);
			}
		}
		fputs("}},", f);
	}
	fputs("\"keys\":[", f);
	for (i = 0; i < s->nkeys; i++) {
		fp_hex(s->keys[i].fp, hex);
		fprintf(f, "%s{\"record\":%zu,\"fingerprint\":\"" FP_PREFIX "%s\",\"subject\":",
			i ? "," : "", s->keys[i].record, hex);
		json_str(f, s->keys[i].subject);
		fputs(",\"description\":", f);
		if (s->keys[i].description)
			json_str(f, s->keys[i].description);
		else
			fputs("null", f);
		fprintf(f, ",\"admissions\":%zu,\"last_record\":%zu,\"replaced_by\":",
			s->keys[i].admissions, s->keys[i].last_record);
		if (s->keys[i].replaced_by)
			fprintf(f, "%zu", s->keys[i].replaced_by);
		else
			fputs("null", f);
		fprintf(f, ",\"after_lock\":%s", s->keys[i].after_lock ? "true" : "false");
		if (allow)
			fprintf(f, ",\"allowed\":%s",
				attest_allowed(allow, s->keys[i].fp) ? "true" : "false");
		fputc('}', f);
	}
	fputs("],\"mode\":", f);
	if (s->mode)
		json_str(f, s->mode);
	else
		fputs("null", f);
	fprintf(f, ",\"locked\":%s", s->locked ? "true" : "false");
	if (s->locked)
		fprintf(f, ",\"lock_record\":%zu,\"lock_keys\":%lu",
			s->lock_record, s->lock_keys);
	fprintf(f, ",\"admissions\":%zu,\"replaced\":%zu", s->admissions,
		s->replaced);
	fputs("}\n", f);
}

/*
 * keys=N counts admissions (.elfsig records before the lock), not keys:
 * when a certificate was added again or replaced, say what N stands for.
 */
static const char *lock_note(const struct attest_summary *s, char *buf,
			     size_t size)
{
	size_t i, certs = 0;

	for (i = 0; i < s->nkeys; i++)
		certs += !s->keys[i].after_lock;
	if (certs == s->lock_keys && !s->replaced)
		return "";
	snprintf(buf, size,
		 " (key admissions: %zu certificate%s, %zu of them replaced)",
		 certs, certs == 1 ? "" : "s", s->replaced);
	return buf;
}

void attest_report(FILE *f, const struct attest_summary *s,
		   const struct attest_quote *q,
		   const uint8_t value[ATTEST_SHA256_LEN],
		   const struct attest_allow *allow, int result, bool json)
{
	char hex[2 * ATTEST_SHA256_LEN + 1], pcr[2 * ATTEST_SHA256_LEN + 1];
	char note[96];
	size_t i;

	fp_hex(value, pcr);
	if (json) {
		report_json(f, s, q, pcr, allow, result);
		return;
	}
	if (q) {
		char list[128];
		unsigned int k;

		attest_quote_pcr_list(q, list, sizeof(list));
		fprintf(f, "quote: valid %s signature over %s, nonce matches; TPM clock %llu ms\n",
			q->sig_alg, list, (unsigned long long)q->clock);
		for (k = 0; k < q->npcrs; k++) {
			if (q->pcrs[k] == q->pcr)
				continue;
			fp_hex(q->values[k], hex);
			fprintf(f, "pcr: sha256:%u %s (quoted)\n", q->pcrs[k], hex);
		}
	}
	fprintf(f, "log: %zu records replay to PCR %u sha256 %s%s\n",
		s->records, s->pcr, pcr,
		q ? " (the quoted value)" : " (not verified: no quote)");
	for (i = 0; i < s->nkeys; i++) {
		const struct attest_key *k = &s->keys[i];
		char again[96] = "", replaced[64] = "";

		fp_hex(k->fp, hex);
		if (k->admissions > 1)
			snprintf(again, sizeof(again),
				 ", added again: %zu admissions, the last at record %zu, one key",
				 k->admissions, k->last_record);
		if (k->replaced_by)
			snprintf(replaced, sizeof(replaced),
				 " REPLACED by record %zu", k->replaced_by);
		fprintf(f, "key: " FP_PREFIX "%s %s (record %zu%s)%s%s%s\n", hex,
			k->subject, k->record, again,
			k->after_lock ? " AFTER THE LOCK" : "", replaced,
			allow && !attest_allowed(allow, k->fp) ?
			" NOT ALLOWED" : "");
	}
	if (!s->nkeys)
		fputs("key: none\n", f);
	if (s->mode)
		fprintf(f, "mode: %s (record %zu)\n", s->mode, s->mode_record);
	else
		fputs("mode: not recorded\n", f);
	if (s->locked)
		fprintf(f, "lock: locked at record %zu, keys=%lu%s\n",
			s->lock_record, s->lock_keys,
			lock_note(s, note, sizeof(note)));
	else
		fputs("lock: NOT LOCKED\n", f);
	fprintf(f, "verdict: %s\n", verdict_name(result, q));
}
