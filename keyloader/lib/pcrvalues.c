// SPDX-License-Identifier: GPL-2.0-only
/* pcrvalues.c - expected PCR values from a file, to enrol a future state. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kl_pcrpolicy.h"

#define MAX_LINE 256

/* One value: "INDEX" and "HEX" (optionally 0x) for @sel's bank. */
static int take_value(const char *name, size_t lineno, const char *idxs,
		      const char *hexs, const struct elfsig_tpm_pcrsel *sel,
		      struct elfsig_tpm_pcr_values *vals, uint32_t *seen)
{
	unsigned long idx;
	char *end;

	errno = 0;
	idx = strtoul(idxs, &end, 10);
	if (errno || end == idxs || *end || idx >= ELFSIG_TPM_MAX_PCRS) {
		kl_err("%s:%zu: bad PCR index", name, lineno);
		return -EBADMSG;
	}
	if (!(sel->mask & (1u << idx)))
		return 0;
	if (*seen & (1u << idx)) {
		kl_err("%s:%zu: PCR %lu given twice", name, lineno, idx);
		return -EBADMSG;
	}
	if (!strncmp(hexs, "0x", 2) || !strncmp(hexs, "0X", 2))
		hexs += 2;
	if (common_unhex(hexs, strlen(hexs), vals->value[idx], vals->digest_size)) {
		kl_err("%s:%zu: PCR %lu: expected %zu hex bytes", name, lineno,
		       idx, vals->digest_size);
		return -EBADMSG;
	}
	*seen |= 1u << idx;
	return 0;
}

static char *trim(char *p)
{
	char *end;

	p += strspn(p, " \t");
	end = p + strlen(p);
	while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	return p;
}

/*
 * Two formats, mixed freely:
 *   sha256:0=HEX            (elfsig-tpm pcrread)
 *   sha256:                 (tpm2_pcrread: a bank line, then
 *     0 : 0xHEX              "INDEX : 0xHEX" lines under it)
 * Other banks are skipped; '#' starts a comment line.
 */
int kl_pcr_values_parse(const uint8_t *buf, size_t len, const char *name,
			const struct elfsig_tpm_pcrsel *sel,
			struct elfsig_tpm_pcr_values *vals)
{
	const char *bank = elfsig_tpm_bank_name(sel->bank);
	size_t dsize = elfsig_tpm_bank_size(sel->bank);
	size_t pos = 0, lineno = 0, blen;
	bool in_bank = false, any_bank = false;
	uint32_t seen = 0;
	int err;

	if (!bank || !dsize || dsize > ELFSIG_TPM_MAX_DIGEST)
		return -EINVAL;
	blen = strlen(bank);
	memset(vals, 0, sizeof(*vals));
	vals->sel = *sel;
	vals->digest_size = dsize;
	while (pos < len) {
		const uint8_t *nl = memchr(buf + pos, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - (buf + pos)) : len - pos;
		char line[MAX_LINE + 1], *p, *sep;

		lineno++;
		if (l > MAX_LINE) {
			kl_err("%s:%zu: line too long", name, lineno);
			return -EBADMSG;
		}
		memcpy(line, buf + pos, l);
		line[l] = '\0';
		pos += l + (nl ? 1 : 0);
		if (memchr(line, '\0', l)) {
			kl_err("%s:%zu: NUL byte", name, lineno);
			return -EBADMSG;
		}
		p = trim(line);
		if (!*p || *p == '#')
			continue;
		sep = strchr(p, '=');
		if (sep) {
			/* "bank:index=hex" */
			char *colon = strchr(p, ':');

			if (!colon || colon > sep) {
				kl_err("%s:%zu: expected \"%s:INDEX=HEX\"", name,
				       lineno, bank);
				return -EBADMSG;
			}
			*sep = '\0';
			*colon = '\0';
			if (strcmp(p, bank))
				continue;	/* another bank */
			err = take_value(name, lineno, trim(colon + 1),
					 trim(sep + 1), sel, vals, &seen);
		} else if (p[strlen(p) - 1] == ':' && !strchr(p, ' ')) {
			/* "bank:" */
			p[strlen(p) - 1] = '\0';
			in_bank = strlen(p) == blen && !strcmp(p, bank);
			any_bank = true;
			continue;
		} else if ((sep = strchr(p, ':')) && any_bank) {
			/* "index : 0xhex" under a bank line */
			if (!in_bank)
				continue;
			*sep = '\0';
			err = take_value(name, lineno, trim(p), trim(sep + 1),
					 sel, vals, &seen);
		} else {
			kl_err("%s:%zu: expected \"%s:INDEX=HEX\" or tpm2_pcrread output",
			       name, lineno, bank);
			return -EBADMSG;
		}
		if (err)
			return err;
	}
	if (seen != sel->mask) {
		kl_err("%s: missing values for some selected %s PCRs", name,
		       bank);
		return -EBADMSG;
	}
	return 0;
}
