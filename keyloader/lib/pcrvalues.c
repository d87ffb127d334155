// SPDX-License-Identifier: GPL-2.0-only
/* pcrvalues.c - expected PCR values from a file, to enrol a future state. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kl.h"

#define MAX_LINE 256

int kl_pcr_values_parse(const uint8_t *buf, size_t len, const char *name,
			const struct elfsig_tpm_pcrsel *sel,
			struct elfsig_tpm_pcr_values *vals)
{
	const char *bank = elfsig_tpm_bank_name(sel->bank);
	size_t dsize = elfsig_tpm_bank_size(sel->bank);
	size_t pos = 0, lineno = 0, blen;
	uint32_t seen = 0;

	if (!bank || !dsize || dsize > ELFSIG_TPM_MAX_DIGEST)
		return -EINVAL;
	blen = strlen(bank);
	memset(vals, 0, sizeof(*vals));
	vals->sel = *sel;
	vals->digest_size = dsize;
	while (pos < len) {
		const uint8_t *nl = memchr(buf + pos, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - (buf + pos)) : len - pos;
		char line[MAX_LINE + 1], *p, *eq, *end;
		unsigned long idx;

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
		p = line + strspn(line, " \t");
		end = p + strlen(p);
		while (end > p && (end[-1] == ' ' || end[-1] == '\t' ||
				   end[-1] == '\r'))
			*--end = '\0';
		if (!*p || *p == '#')
			continue;
		/* "bank:index=hex" */
		eq = strchr(p, '=');
		if (!eq || strncmp(p, bank, blen) || p[blen] != ':') {
			if (eq && strchr(p, ':') && strchr(p, ':') < eq)
				continue;	/* another bank */
			kl_err("%s:%zu: expected \"%s:INDEX=HEX\"", name, lineno,
			       bank);
			return -EBADMSG;
		}
		*eq = '\0';
		errno = 0;
		idx = strtoul(p + blen + 1, &end, 10);
		if (errno || end == p + blen + 1 || *end ||
		    idx >= ELFSIG_TPM_MAX_PCRS) {
			kl_err("%s:%zu: bad PCR index", name, lineno);
			return -EBADMSG;
		}
		if (!(sel->mask & (1u << idx)))
			continue;
		if (seen & (1u << idx)) {
			kl_err("%s:%zu: PCR %lu given twice", name, lineno, idx);
			return -EBADMSG;
		}
		if (!strncmp(eq + 1, "0x", 2))
			eq += 2;
		if (kl_unhex(eq + 1, strlen(eq + 1), vals->value[idx], dsize)) {
			kl_err("%s:%zu: PCR %lu: expected %zu hex bytes", name,
			       lineno, idx, dsize);
			return -EBADMSG;
		}
		seen |= 1u << idx;
	}
	if (seen != sel->mask) {
		kl_err("%s: missing values for some selected %s PCRs", name,
		       bank);
		return -EBADMSG;
	}
	return 0;
}
