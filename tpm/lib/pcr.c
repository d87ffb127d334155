// SPDX-License-Identifier: LGPL-2.1-or-later
/* pcr.c - PCR selections ("sha256:0,2,4,7"), PCR read and extend. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>

#include "tpm_private.h"

static const struct {
	const char *name;
	uint16_t alg;
	size_t size;
} banks_known[] = {
	{ "sha1", TPM2_ALG_SHA1, 20 },
	{ "sha256", TPM2_ALG_SHA256, 32 },
	{ "sha384", TPM2_ALG_SHA384, 48 },
	{ "sha512", TPM2_ALG_SHA512, 64 },
};

uint16_t elfsig_tpm_bank_from_name(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(banks_known); i++)
		if (!strcmp(name, banks_known[i].name))
			return banks_known[i].alg;
	return 0;
}

const char *elfsig_tpm_bank_name(uint16_t bank)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(banks_known); i++)
		if (banks_known[i].alg == bank)
			return banks_known[i].name;
	return NULL;
}

size_t elfsig_tpm_bank_size(uint16_t bank)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(banks_known); i++)
		if (banks_known[i].alg == bank)
			return banks_known[i].size;
	return 0;
}

/* OpenSSL's name for a TPM hash algorithm: the same spelling. */
const char *tpm_md_name(uint16_t alg)
{
	return elfsig_tpm_bank_name(alg);
}

unsigned int tpm_popcount(uint32_t mask)
{
	return (unsigned int)__builtin_popcount(mask);
}

static int parse_index(const char *s, char **end, unsigned int *out)
{
	unsigned long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoul(s, end, 10);
	if (errno || v >= ELFSIG_TPM_MAX_PCRS)
		return -1;
	*out = (unsigned int)v;
	return 0;
}

int elfsig_tpm_pcrsel_parse(const char *s, struct elfsig_tpm_pcrsel *sel)
{
	const char *colon = strchr(s, ':');
	char bank[16];
	const char *p;
	uint32_t mask = 0;

	if (!colon || (size_t)(colon - s) >= sizeof(bank)) {
		tpm_err("PCR selection '%s': expected BANK:INDICES, e.g. sha256:0,2,4,7",
			s);
		return -EBADMSG;
	}
	memcpy(bank, s, colon - s);
	bank[colon - s] = '\0';
	sel->bank = elfsig_tpm_bank_from_name(bank);
	if (!sel->bank) {
		tpm_err("PCR selection '%s': unknown bank '%s' (sha1, sha256, sha384, sha512)",
			s, bank);
		return -EBADMSG;
	}
	for (p = colon + 1;;) {
		unsigned int lo, hi, i;
		char *end;

		if (parse_index(p, &end, &lo))
			goto bad;
		hi = lo;
		if (*end == '-' && parse_index(end + 1, &end, &hi))
			goto bad;
		if (hi < lo)
			goto bad;
		for (i = lo; i <= hi; i++)
			mask |= 1u << i;
		if (*end == '\0')
			break;
		if (*end != ',')
			goto bad;
		p = end + 1;
	}
	sel->mask = mask;
	return 0;
bad:
	tpm_err("PCR selection '%s': indices must be 0..23, comma-separated (ranges like 0-7)",
		s);
	return -EBADMSG;
}

int elfsig_tpm_pcrsel_format(const struct elfsig_tpm_pcrsel *sel, char *buf,
			     size_t len)
{
	const char *name = elfsig_tpm_bank_name(sel->bank);
	size_t used;
	unsigned int i;
	int n;

	n = snprintf(buf, len, "%s:", name ? name : "?");
	if (n < 0 || (size_t)n >= len)
		return -ENOSPC;
	used = n;
	for (i = 0; i < ELFSIG_TPM_MAX_PCRS; i++) {
		if (!(sel->mask & (1u << i)))
			continue;
		n = snprintf(buf + used, len - used, "%s%u",
			     buf[used - 1] == ':' ? "" : ",", i);
		if (n < 0 || (size_t)n >= len - used)
			return -ENOSPC;
		used += n;
	}
	return 0;
}

void tpm_pcrsel_to_tpml(const struct elfsig_tpm_pcrsel *sel,
			TPML_PCR_SELECTION *tpml)
{
	unsigned int i;

	memset(tpml, 0, sizeof(*tpml));
	tpml->count = 1;
	tpml->pcrSelections[0].hash = sel->bank;
	tpml->pcrSelections[0].sizeofSelect = 3;
	for (i = 0; i < ELFSIG_TPM_MAX_PCRS; i++)
		if (sel->mask & (1u << i))
			tpml->pcrSelections[0].pcrSelect[i / 8] |= 1u << (i % 8);
}

/* The inverse, for what comes from a file: one bank, PCRs 0..23, at
 * least one selected. Return: 0 or -EBADMSG (no message). */
int tpm_pcrsel_from_tpml(const TPML_PCR_SELECTION *tpml,
			 struct elfsig_tpm_pcrsel *sel)
{
	const TPMS_PCR_SELECTION *s = &tpml->pcrSelections[0];
	unsigned int i;

	if (tpml->count != 1 || s->sizeofSelect != 3 ||
	    !elfsig_tpm_bank_size(s->hash))
		return -EBADMSG;
	sel->bank = s->hash;
	sel->mask = 0;
	for (i = 0; i < ELFSIG_TPM_MAX_PCRS; i++)
		if (s->pcrSelect[i / 8] & (1u << (i % 8)))
			sel->mask |= 1u << i;
	return sel->mask ? 0 : -EBADMSG;
}

/**
 * tpm_pcr_digest() - the pcrDigest of TPM2_PolicyPCR: the hash, with the
 * session's algorithm, of the selected PCR values in ascending order
 * Return: 0 or a negative errno.
 */
int tpm_pcr_digest(const struct elfsig_tpm_pcr_values *values,
		   uint16_t hash_alg, TPM2B_DIGEST *out)
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	unsigned int i, n = 0;
	int ok;

	if (!md)
		return -ENOMEM;
	ok = EVP_DigestInit_ex(md, EVP_get_digestbyname(tpm_md_name(hash_alg)),
			       NULL);
	for (i = 0; ok && i < ELFSIG_TPM_MAX_PCRS; i++)
		if (values->sel.mask & (1u << i))
			ok = EVP_DigestUpdate(md, values->value[i],
					      values->digest_size);
	if (ok)
		ok = EVP_DigestFinal_ex(md, out->buffer, &n);
	EVP_MD_CTX_free(md);
	if (!ok || n > sizeof(out->buffer)) {
		tpm_err("computing the PCR digest failed");
		return -EIO;
	}
	out->size = (UINT16)n;
	return 0;
}

static int tpm_pcr_read_once(struct elfsig_tpm *t, const TPML_PCR_SELECTION *in,
			     TPML_PCR_SELECTION **sel_out,
			     TPML_DIGEST **values)
{
	TSS2_RC rc;

	rc = Esys_PCR_Read(t->esys, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE,
			   in, NULL, sel_out, values);
	return tpm_rc_fail(rc, "reading PCRs");
}

int elfsig_tpm_pcr_read(struct elfsig_tpm *t,
			const struct elfsig_tpm_pcrsel *sel,
			struct elfsig_tpm_pcr_values *out)
{
	size_t dsize = elfsig_tpm_bank_size(sel->bank);
	uint32_t left = sel->mask;

	if (!dsize || !sel->mask || sel->mask >> ELFSIG_TPM_MAX_PCRS) {
		tpm_err("reading PCRs: invalid selection");
		return -EINVAL;
	}
	memset(out, 0, sizeof(*out));
	out->sel = *sel;
	out->digest_size = dsize;
	/* The TPM answers at most 8 digests per PCR_Read. */
	while (left) {
		struct elfsig_tpm_pcrsel rest = { sel->bank, left };
		TPML_PCR_SELECTION in, *got = NULL;
		TPML_DIGEST *vals = NULL;
		struct elfsig_tpm_pcrsel gsel;
		unsigned int i, k = 0;
		int ret;

		tpm_pcrsel_to_tpml(&rest, &in);
		ret = tpm_pcr_read_once(t, &in, &got, &vals);
		if (ret)
			return ret;
		ret = -EIO;
		if (got->count == 0 ||
		    tpm_pcrsel_from_tpml(got, &gsel) || gsel.bank != sel->bank ||
		    (gsel.mask & ~left) || tpm_popcount(gsel.mask) != vals->count)
			goto bad;
		for (i = 0; i < ELFSIG_TPM_MAX_PCRS; i++) {
			if (!(gsel.mask & (1u << i)))
				continue;
			if (vals->digests[k].size != dsize)
				goto bad;
			memcpy(out->value[i], vals->digests[k].buffer, dsize);
			k++;
		}
		left &= ~gsel.mask;
		ret = 0;
bad:
		Esys_Free(got);
		Esys_Free(vals);
		if (ret) {
			char buf[128];

			elfsig_tpm_pcrsel_format(&rest, buf, sizeof(buf));
			tpm_err("reading PCRs %s: the TPM did not return them (bank not allocated?)",
				buf);
			return ret;
		}
	}
	return 0;
}

static int tpm_pcr_extend(struct elfsig_tpm *t, unsigned int index,
			  const TPML_DIGEST_VALUES *digests)
{
	TSS2_RC rc;

	rc = Esys_PCR_Extend(t->esys, ESYS_TR_PCR0 + index, ESYS_TR_PASSWORD,
			     ESYS_TR_NONE, ESYS_TR_NONE, digests);
	return tpm_rc_fail(rc, "extending a PCR");
}

int elfsig_tpm_pcr_extend(struct elfsig_tpm *t, unsigned int index,
			  uint16_t bank, const uint8_t *digest, size_t size)
{
	TPML_DIGEST_VALUES d;

	if (index >= ELFSIG_TPM_MAX_PCRS || !elfsig_tpm_bank_size(bank) ||
	    size != elfsig_tpm_bank_size(bank)) {
		tpm_err("extending PCR %u: invalid index, bank or digest size",
			index);
		return -EINVAL;
	}
	memset(&d, 0, sizeof(d));
	d.count = 1;
	d.digests[0].hashAlg = bank;
	memcpy((uint8_t *)&d.digests[0].digest, digest, size);
	return tpm_pcr_extend(t, index, &d);
}

/* H_bank(@data) into @md (ELFSIG_TPM_MAX_DIGEST bytes). */
static int hash_event(unsigned int index, uint16_t bank, const void *data,
		      size_t len, uint8_t *md, unsigned int *n)
{
	const char *name = tpm_md_name(bank);

	if (!name || !EVP_Digest(data, len, md, n, EVP_get_digestbyname(name),
				 NULL) || *n > ELFSIG_TPM_MAX_DIGEST) {
		tpm_err("extending PCR %u: cannot hash the event with bank %s",
			index, name ? name : "?");
		return -EINVAL;
	}
	return 0;
}

int elfsig_tpm_pcr_extend_data(struct elfsig_tpm *t, unsigned int index,
			       uint16_t bank, const void *data, size_t len)
{
	uint8_t md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;
	int ret = hash_event(index, bank, data, len, md, &n);

	return ret ? ret : elfsig_tpm_pcr_extend(t, index, bank, md, n);
}

/* The PCR banks the TPM has allocated, asked once per connection. */
static int tpm_pcr_allocation(struct elfsig_tpm *t)
{
	TPMS_CAPABILITY_DATA *cap = NULL;
	TPMI_YES_NO more;
	TSS2_RC rc;

	if (t->pcr_alloc_known)
		return 0;
	rc = Esys_GetCapability(t->esys, ESYS_TR_NONE, ESYS_TR_NONE,
				ESYS_TR_NONE, TPM2_CAP_PCRS, 0, 1, &more, &cap);
	if (rc != TSS2_RC_SUCCESS)
		return tpm_rc_fail(rc, "reading the allocated PCR banks");
	if (cap->capability != TPM2_CAP_PCRS ||
	    cap->data.assignedPCR.count > TPM2_NUM_PCR_BANKS) {
		Esys_Free(cap);
		tpm_err("reading the allocated PCR banks: malformed answer");
		return -EIO;
	}
	t->pcr_alloc = cap->data.assignedPCR;
	t->pcr_alloc_known = true;
	Esys_Free(cap);
	return 0;
}

static bool bank_allocated(const struct elfsig_tpm *t, uint16_t bank,
			   unsigned int index)
{
	const TPMS_PCR_SELECTION *s;
	UINT32 i;

	for (i = 0; i < t->pcr_alloc.count; i++) {
		s = &t->pcr_alloc.pcrSelections[i];
		if (s->hash == bank)
			return index / 8 < s->sizeofSelect &&
			       index / 8 < sizeof(s->pcrSelect) &&
			       (s->pcrSelect[index / 8] & (1u << (index % 8)));
	}
	return false;
}

int elfsig_tpm_pcr_extend_event(struct elfsig_tpm *t, unsigned int index,
				const uint16_t *banks, size_t nbanks,
				const void *data, size_t len,
				struct elfsig_tpm_event_digests *out)
{
	TPML_DIGEST_VALUES d;
	uint32_t seen = 0;
	size_t i;
	int ret;

	memset(out, 0, sizeof(*out));
	memset(&d, 0, sizeof(d));
	if (index >= ELFSIG_TPM_MAX_PCRS || !nbanks ||
	    nbanks > ELFSIG_TPM_MAX_BANKS) {
		tpm_err("extending PCR %u: invalid index or number of banks",
			index);
		return -EINVAL;
	}
	for (i = 0; i < nbanks; i++) {
		size_t k;

		for (k = 0; k < ARRAY_SIZE(banks_known) &&
			    banks_known[k].alg != banks[i]; k++)
			;
		if (k == ARRAY_SIZE(banks_known) || (seen & (1u << k))) {
			tpm_err("extending PCR %u: unknown or repeated bank 0x%04x",
				index, banks[i]);
			return -EINVAL;
		}
		seen |= 1u << k;
	}
	ret = tpm_pcr_allocation(t);
	if (ret)
		return ret;
	for (i = 0; i < nbanks; i++) {
		unsigned int n = 0;

		if (!bank_allocated(t, banks[i], index))
			continue;
		ret = hash_event(index, banks[i], data, len,
				 out->d[out->count].digest, &n);
		if (ret)
			goto fail;
		out->d[out->count].bank = banks[i];
		out->d[out->count].size = n;
		d.digests[d.count].hashAlg = banks[i];
		memcpy((uint8_t *)&d.digests[d.count].digest,
		       out->d[out->count].digest, n);
		d.count++;
		out->count++;
	}
	if (!d.count) {
		tpm_err("extending PCR %u: the TPM has none of the requested banks allocated",
			index);
		return -ENOENT;
	}
	/* One TPM2_PCR_Extend: its TPML_DIGEST_VALUES carries every bank. */
	ret = tpm_pcr_extend(t, index, &d);
	if (!ret)
		return 0;
fail:
	memset(out, 0, sizeof(*out));
	return ret;
}
