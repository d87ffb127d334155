// SPDX-License-Identifier: GPL-2.0-only
/* policy.c - the enrolment policy file: strict parser and canonical writer. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kl_authority.h"
#include "kl_cert.h"

#define HEADER_WORD	"elfsig-policy"

static int parse_uint(const char *s, unsigned int max, unsigned int *out)
{
	unsigned long v = 0;

	if (!*s || strlen(s) > 3)
		return -EBADMSG;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EBADMSG;
		v = v * 10 + (unsigned long)(*s - '0');
	}
	if (v > max)
		return -EBADMSG;
	*out = (unsigned int)v;
	return 0;
}

int kl_parse_generation(const char *s, uint32_t *out)
{
	uint64_t v;

	if (kl_parse_u64(s, KL_GENERATION_MAX, &v))
		return -EBADMSG;
	*out = (uint32_t)v;
	return 0;
}

static int parse_fingerprint(const char *s, uint8_t fp[KL_FP_LEN])
{
	if (strncmp(s, "sha256:", 7))
		return -EBADMSG;
	return common_unhex(s + 7, strlen(s + 7), fp, KL_FP_LEN);
}

long kl_policy_find(const struct kl_policy *pol, const uint8_t fp[KL_FP_LEN])
{
	size_t i;

	for (i = 0; i < pol->nkeys; i++)
		if (!memcmp(pol->keys[i].fp, fp, KL_FP_LEN))
			return (long)i;
	return -1;
}

int kl_policy_add(struct kl_policy *pol, const uint8_t fp[KL_FP_LEN],
		  const char *subject)
{
	struct kl_policy_key *k;

	if (kl_policy_find(pol, fp) >= 0)
		return 1;
	if (pol->nkeys >= KL_MAX_KEYS) {
		kl_err("policy: more than %d keys", KL_MAX_KEYS);
		return -E2BIG;
	}
	k = realloc(pol->keys, (pol->nkeys + 1) * sizeof(*k));
	if (!k)
		return -ENOMEM;
	pol->keys = k;
	k = &pol->keys[pol->nkeys];
	memcpy(k->fp, fp, KL_FP_LEN);
	k->subject = NULL;
	if (subject && !(k->subject = strdup(subject)))
		return -ENOMEM;
	pol->nkeys++;
	return 0;
}

int kl_policy_remove(struct kl_policy *pol, const uint8_t fp[KL_FP_LEN])
{
	long i = kl_policy_find(pol, fp);

	if (i < 0)
		return -ENOENT;
	free(pol->keys[i].subject);
	memmove(&pol->keys[i], &pol->keys[i + 1],
		(pol->nkeys - (size_t)i - 1) * sizeof(pol->keys[0]));
	pol->nkeys--;
	return 0;
}

int kl_policy_check_pcrs(const struct elfsig_tpm_pcrsel *sel,
			 unsigned int measure_pcr)
{
	/*
	 * 16 and 23 can be reset from locality 0 (debug, application), 17..22
	 * belong to dynamic launch: a state sealed to them or a measurement
	 * extended into them proves nothing. 0..7 are the firmware's and 10
	 * is IMA's: the loader's events there would corrupt what their own
	 * event logs replay.
	 */
	if (sel->mask & ~KL_STATIC_PCRS) {
		kl_err("PCR selection includes PCR %d: only the static PCRs 0..15 can be sealed to (16 and 23 are resettable, 17..22 belong to dynamic launch)",
		       __builtin_ctz(sel->mask & ~KL_STATIC_PCRS));
		return -EINVAL;
	}
	if (measure_pcr > 15 || measure_pcr < 8 || measure_pcr == 10) {
		kl_err("measurement PCR %u: use one of 8, 9, 11..15 (0..7 are the firmware's, 10 is IMA's, 16..23 are resettable or belong to dynamic launch)",
		       measure_pcr);
		return -EINVAL;
	}
	if (sel->mask & (1u << measure_pcr)) {
		kl_err("measurement PCR %u is in the sealed selection: the loader would change the state it is sealed to",
		       measure_pcr);
		return -EINVAL;
	}
	if (!sel->mask) {
		kl_err("empty PCR selection");
		return -EINVAL;
	}
	return 0;
}

void kl_policy_free(struct kl_policy *pol)
{
	size_t i;

	if (!pol)
		return;
	for (i = 0; i < pol->nkeys; i++)
		free(pol->keys[i].subject);
	free(pol->keys);
	memset(pol, 0, sizeof(*pol));
}

#define bad(...) do { kl_err(__VA_ARGS__); err = -EBADMSG; goto fail; } while (0)

int kl_policy_parse(const uint8_t *buf, size_t len, const char *name,
		    struct kl_policy *pol)
{
	char line[KL_POLICY_MAX_LINE + 1];
	char comment[KL_POLICY_MAX_LINE + 1];
	bool have_header = false, have_pcrs = false, have_measure = false;
	bool have_comment = false, have_authority = false, have_gen = false;
	bool have_pcrsig_pcrs = false, have_srk = false;
	size_t pos = 0, lineno = 0;
	int err;

	memset(pol, 0, sizeof(*pol));
	if (len > KL_POLICY_MAX_SIZE) {
		kl_err("%s: larger than %d bytes", name, KL_POLICY_MAX_SIZE);
		return -EBADMSG;
	}
	while ((err = kl_text_line(buf, len, &pos, &lineno, name, line,
				   KL_POLICY_MAX_LINE)) > 0) {
		char *word, *value;

		if (line[0] == '#') {
			const char *t = line + 1;

			while (*t == ' ' || *t == '\t')
				t++;
			strcpy(comment, t);
			have_comment = true;
			continue;
		}
		kl_split_directive(line, &word, &value);
		if (!*word) {
			have_comment = false;
			continue;
		}
		if (!have_header) {
			if (strcmp(word, HEADER_WORD))
				bad("%s:%zu: expected \"%s %d\" before anything else",
				    name, lineno, HEADER_WORD, KL_POLICY_VERSION);
			/* Version 1 is read, for migration; the loader
			 * refuses it (kl_policy_check_signature). */
			if (parse_uint(value, 999, &pol->version) ||
			    pol->version < 1 || pol->version > KL_POLICY_VERSION)
				bad("%s:%zu: unsupported policy version '%s' (this is version %d)",
				    name, lineno, value, KL_POLICY_VERSION);
			have_header = true;
		} else if (!strcmp(word, "authority") && pol->version >= 2) {
			if (have_authority)
				bad("%s:%zu: second \"authority\" line", name,
				    lineno);
			if (parse_fingerprint(value, pol->authority))
				bad("%s:%zu: expected \"authority sha256:<64 hex digits>\"",
				    name, lineno);
			have_authority = true;
		} else if (!strcmp(word, "generation") && pol->version >= 3) {
			if (have_gen)
				bad("%s:%zu: second \"generation\" line", name,
				    lineno);
			if (kl_parse_generation(value, &pol->generation))
				bad("%s:%zu: expected \"generation N\" (0..%u)",
				    name, lineno, KL_GENERATION_MAX);
			have_gen = true;
		} else if (!strcmp(word, "srk") && pol->version >= 4) {
			if (have_srk)
				bad("%s:%zu: second \"srk\" line", name, lineno);
			if (kl_parse_srk_name(value, pol->srk_name,
					      &pol->srk_name_len))
				bad("%s:%zu: expected \"srk <the machine's TPM storage root key name, 68 hex digits>\"",
				    name, lineno);
			have_srk = true;
		} else if (!strcmp(word, "pcrs")) {
			if (have_pcrs)
				bad("%s:%zu: second \"pcrs\" line", name, lineno);
			if (elfsig_tpm_pcrsel_parse(value, &pol->sel) ||
			    !pol->sel.mask)
				bad("%s:%zu: bad PCR selection '%s'", name,
				    lineno, value);
			have_pcrs = true;
		} else if (!strcmp(word, "measure-pcr")) {
			if (have_measure)
				bad("%s:%zu: second \"measure-pcr\" line", name,
				    lineno);
			if (parse_uint(value, ELFSIG_TPM_MAX_PCRS - 1,
				       &pol->measure_pcr))
				bad("%s:%zu: bad PCR index '%s'", name, lineno,
				    value);
			have_measure = true;
		} else if (!strcmp(word, "pcrsig-key") && pol->version >= 3) {
			if (pol->pcrsig)
				bad("%s:%zu: second \"pcrsig-key\" line", name,
				    lineno);
			if (parse_fingerprint(value, pol->pcrsig_key))
				bad("%s:%zu: expected \"pcrsig-key sha256:<64 hex digits>\"",
				    name, lineno);
			pol->pcrsig = true;
		} else if (!strcmp(word, "pcrsig-pcrs") && pol->version >= 3) {
			if (have_pcrsig_pcrs)
				bad("%s:%zu: second \"pcrsig-pcrs\" line", name,
				    lineno);
			if (elfsig_tpm_pcrsel_parse(value, &pol->pcrsig_sel) ||
			    !pol->pcrsig_sel.mask ||
			    pol->pcrsig_sel.bank != 0x000b /* TPM2_ALG_SHA256 */ ||
			    (pol->pcrsig_sel.mask & ~KL_STATIC_PCRS))
				bad("%s:%zu: bad PCR selection '%s' (sha256, PCRs 0..15)",
				    name, lineno, value);
			have_pcrsig_pcrs = true;
		} else if (!strcmp(word, "key")) {
			uint8_t fp[KL_FP_LEN];

			if (parse_fingerprint(value, fp))
				bad("%s:%zu: expected \"key sha256:<64 hex digits>\"",
				    name, lineno);
			err = kl_policy_add(pol, fp,
					    have_comment ? comment : NULL);
			if (err == 1)
				bad("%s:%zu: key listed twice", name, lineno);
			if (err < 0)
				goto fail;
		} else {
			bad("%s:%zu: unknown directive '%.40s'", name, lineno,
			    word);
		}
		have_comment = false;
	}
	if (err < 0)
		goto fail;
	if (!have_header)
		bad("%s: not an elfsig policy (no \"%s\" line)", name,
		    HEADER_WORD);
	if (!have_pcrs || !have_measure ||
	    (pol->version >= 2 && !have_authority) ||
	    (pol->version >= 3 && !have_gen) ||
	    (pol->version >= 4 && !have_srk))
		bad("%s: missing \"%s\" line", name,
		    !have_pcrs ? "pcrs" : !have_measure ? "measure-pcr" :
		    !have_authority ? "authority" :
		    !have_gen ? "generation" : "srk");
	if (pol->pcrsig != have_pcrsig_pcrs)
		bad("%s: \"pcrsig-key\" and \"pcrsig-pcrs\" go together", name);
	if (kl_policy_check_pcrs(&pol->sel, pol->measure_pcr)) {
		err = -EBADMSG;
		goto fail;
	}
	if (pol->pcrsig && (pol->pcrsig_sel.mask & (1u << pol->measure_pcr)))
		bad("%s: measurement PCR %u is in the pcrsig selection", name,
		    pol->measure_pcr);
	return 0;
fail:
	kl_policy_free(pol);
	return err;
}

/* A subject made safe for one comment line. */
static void clean_subject(const char *in, char *out, size_t cap)
{
	size_t o = 0;

	for (; *in && o + 1 < cap; in++) {
		unsigned char c = (unsigned char)*in;

		out[o++] = (c < 0x20 || c >= 0x7f) ? '?' : (char)c;
	}
	out[o] = '\0';
}

int kl_policy_format(const struct kl_policy *pol, char **buf, size_t *len)
{
	char sel[128], hex[2 * KL_FP_LEN + 1], subj[256];
	char auth[2 * KL_FP_LEN + 1], srk[2 * ELFSIG_TPM_MAX_NAME + 1];
	char *p = NULL;
	size_t sz = 0, i;
	FILE *f;

	*buf = NULL;
	*len = 0;
	if (elfsig_tpm_pcrsel_format(&pol->sel, sel, sizeof(sel)))
		return -EINVAL;
	common_hex(pol->authority, KL_FP_LEN, auth);
	/* Never a policy that no machine could load. */
	if (pol->srk_name_len != 2 + KL_FP_LEN) {
		kl_err("policy: no machine (TPM storage root key name) to sign it for");
		return -EINVAL;
	}
	common_hex(pol->srk_name, pol->srk_name_len, srk);
	f = open_memstream(&p, &sz);
	if (!f)
		return -ENOMEM;
	fprintf(f,
		"# elfsig enrolment policy (docs/keyloader.md): elfsig-keyloader loads\n"
		"# only certificates whose SHA-256 fingerprint (of the DER) is listed\n"
		"# here, in a PCR state the authority signed a PCR policy for. The\n"
		"# file is signed by the enrolment authority (policy.sig): any edit,\n"
		"# comments included, makes the loader refuse every key until it is\n"
		"# signed again with elfsig-enroll. A machine whose rollback counter\n"
		"# is past this generation refuses the file (revoked); it is signed\n"
		"# for the one machine whose TPM storage root key is named by srk.\n"
		"%s %d\n"
		"authority sha256:%s\n"
		"generation %u\n"
		"srk %s\n"
		"pcrs %s\n"
		"measure-pcr %u\n",
		HEADER_WORD, KL_POLICY_VERSION, auth, pol->generation, srk, sel,
		pol->measure_pcr);
	if (pol->pcrsig) {
		common_hex(pol->pcrsig_key, KL_FP_LEN, hex);
		if (elfsig_tpm_pcrsel_format(&pol->pcrsig_sel, sel, sizeof(sel))) {
			fclose(f);
			free(p);
			return -EINVAL;
		}
		fprintf(f,
			"\n# Opt-in: PCR policies systemd-measure signed with this key\n"
			"# (SHA-256 of its DER public key) over exactly these PCRs open\n"
			"# the enrolment too (pcrsig.sealed), outside rollback protection.\n"
			"pcrsig-key sha256:%s\n"
			"pcrsig-pcrs %s\n", hex, sel);
	}
	for (i = 0; i < pol->nkeys; i++) {
		common_hex(pol->keys[i].fp, KL_FP_LEN, hex);
		fputc('\n', f);
		if (pol->keys[i].subject) {
			clean_subject(pol->keys[i].subject, subj, sizeof(subj));
			fprintf(f, "# %s\n", subj);
		}
		fprintf(f, "key sha256:%s\n", hex);
	}
	if (fclose(f)) {
		free(p);
		return -ENOMEM;
	}
	/* The loader refuses larger files: never write one. */
	if (sz > KL_POLICY_MAX_SIZE) {
		kl_err("policy: %zu bytes, more than the %d the loader reads",
		       sz, KL_POLICY_MAX_SIZE);
		free(p);
		return -E2BIG;
	}
	*buf = p;
	*len = sz;
	return 0;
}
