// SPDX-License-Identifier: LGPL-2.1-or-later
/* sealed_file.c - the versioned sealed-object file format (docs/tpm.md). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <tss2/tss2_mu.h>

#include "common.h"
#include "tpm_private.h"

#define SEALED_MAGIC		"ELFSIGSO"
#define SEALED_MAGIC_LEN	8
#define SEALED_VERSION_1	1	/* no SRK name: elfsig before the pin */
#define SEALED_VERSION_2	2	/* the SRK's name follows the values */
#define SEALED_VERSION		3	/* PolicyAuthorize: authority, policyRef */
#define SEALED_HDR_LEN		12	/* magic, be16 version, be16 flags */
#define SEALED_F_VALUES		0x0001	/* the sealed PCR values follow */
#define SEALED_F_PCRS		0x0002	/* version 3: PolicyPCR after
					 * PolicyAuthorize, selection and
					 * values follow the policyRef */

void elfsig_tpm_sealed_free(struct elfsig_tpm_sealed *s)
{
	free(s);
}

const struct elfsig_tpm_pcrsel *
elfsig_tpm_sealed_pcrsel(const struct elfsig_tpm_sealed *s)
{
	return &s->sel;
}

size_t elfsig_tpm_sealed_srk_name(const struct elfsig_tpm_sealed *s,
				  const uint8_t **name)
{
	*name = s->srk_name_len ? s->srk_name : NULL;
	return s->srk_name_len;
}

static uint16_t get_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

/* Only a PCR-policy data object is accepted: anything that would open
 * without the policy, or is a key, is not what we sealed. */
static int check_public(const TPM2B_PUBLIC *pub)
{
	const TPMT_PUBLIC *p = &pub->publicArea;
	const TPMA_OBJECT needed = TPMA_OBJECT_FIXEDTPM |
				   TPMA_OBJECT_FIXEDPARENT;

	if (p->type != TPM2_ALG_KEYEDHASH) {
		tpm_err("sealed object: public area is not a sealed data object (type 0x%04x)",
			p->type);
		return -EBADMSG;
	}
	if ((p->objectAttributes & needed) != needed ||
	    (p->objectAttributes & TPMA_OBJECT_SIGN_ENCRYPT) ||
	    (p->objectAttributes & TPMA_OBJECT_DECRYPT) ||
	    (p->objectAttributes & TPMA_OBJECT_RESTRICTED)) {
		tpm_err("sealed object: unexpected object attributes 0x%08x",
			p->objectAttributes);
		return -EBADMSG;
	}
	if (p->objectAttributes & TPMA_OBJECT_USERWITHAUTH) {
		tpm_err("sealed object: refused, it can be opened without the PCR policy (userWithAuth set)");
		return -EBADMSG;
	}
	if (p->nameAlg != TPM2_ALG_SHA256 || p->authPolicy.size != 32) {
		tpm_err("sealed object: policy must be a SHA-256 policy digest");
		return -EBADMSG;
	}
	return 0;
}

/* A TPM2B_NAME: nameAlg (a hash we know) || digest; @what for messages
 * ("storage root key", "authority key"). */
static int parse_name(const uint8_t *buf, size_t len, size_t *off,
		      const char *what, uint8_t *name, size_t *name_len)
{
	size_t n;

	if (len - *off < 2) {
		tpm_err("sealed object: truncated before the %s's name", what);
		return -EBADMSG;
	}
	n = get_be16(buf + *off);
	if (n > len - *off - 2) {
		tpm_err("sealed object: %s name size %zu exceeds the %zu bytes left",
			what, n, len - *off - 2);
		return -EBADMSG;
	}
	if (n < 2 || n > ELFSIG_TPM_MAX_NAME ||
	    n != 2 + elfsig_tpm_bank_size(get_be16(buf + *off + 2))) {
		tpm_err("sealed object: malformed %s name (%zu bytes)", what, n);
		return -EBADMSG;
	}
	memcpy(name, buf + *off + 2, n);
	*name_len = n;
	*off += 2 + n;
	return 0;
}

/* Version 3: the authority key's name and the policyRef; the public
 * area's authPolicy must be PolicyAuthorize over exactly those. */
static int parse_authority(const uint8_t *buf, size_t len, size_t *off,
			   struct elfsig_tpm_sealed *s)
{
	size_t n;
	int ret;

	ret = parse_name(buf, len, off, "authority key", s->auth_name,
			 &s->auth_name_len);
	if (ret)
		return ret;
	if (s->auth_name_len != 2 + ELFSIG_TPM_POLICY_SIZE ||
	    get_be16(s->auth_name) != TPM2_ALG_SHA256) {
		tpm_err("sealed object: the authority key's name is not a SHA-256 name");
		return -EBADMSG;
	}
	if (len - *off < 2) {
		tpm_err("sealed object: truncated before the policy reference");
		return -EBADMSG;
	}
	n = get_be16(buf + *off);
	if (n > ELFSIG_TPM_MAX_POLICY_REF || n > len - *off - 2) {
		tpm_err("sealed object: policy reference size %zu (at most %d, %zu bytes left)",
			n, ELFSIG_TPM_MAX_POLICY_REF, len - *off - 2);
		return -EBADMSG;
	}
	memcpy(s->ref, buf + *off + 2, n);
	s->ref_len = n;
	*off += 2 + n;
	s->authorized = true;
	return 0;
}

static int check_authorize_policy(const struct elfsig_tpm_sealed *s)
{
	uint8_t want[ELFSIG_TPM_POLICY_SIZE];
	int ret;

	ret = tpm_authorized_policy(s, want);
	if (ret)
		return ret;
	if (memcmp(want, s->pub.publicArea.authPolicy.buffer, sizeof(want))) {
		tpm_err(s->sel.mask ?
			"sealed object: its policy is not PolicyAuthorize by the authority key it names and PolicyPCR of the values it records" :
			"sealed object: its policy is not PolicyAuthorize by the authority key it names");
		return -EBADMSG;
	}
	return 0;
}

/* A TPM2B at @buf[*off]: its size field must fit what remains, and the
 * unmarshalled structure must consume exactly that size. */
static int check_tpm2b(const uint8_t *buf, size_t len, size_t off,
		       const char *what, size_t *size)
{
	size_t n;

	if (len - off < 2) {
		tpm_err("sealed object: truncated before the %s", what);
		return -EBADMSG;
	}
	n = get_be16(buf + off);
	if (n > len - off - 2) {
		tpm_err("sealed object: %s size %zu exceeds the %zu bytes left",
			what, n, len - off - 2);
		return -EBADMSG;
	}
	*size = n;
	return 0;
}

static int parse_public(const uint8_t *buf, size_t len, size_t *off,
			TPM2B_PUBLIC *pub)
{
	size_t n, start = *off;
	int ret = check_tpm2b(buf, len, *off, "public area", &n);

	if (ret)
		return ret;
	if (n == 0 ||
	    Tss2_MU_TPM2B_PUBLIC_Unmarshal(buf, len, off, pub) ||
	    *off != start + 2 + n) {
		tpm_err("sealed object: malformed public area");
		return -EBADMSG;
	}
	return check_public(pub);
}

static int parse_private(const uint8_t *buf, size_t len, size_t *off,
			 TPM2B_PRIVATE *priv)
{
	size_t n, start = *off;
	int ret = check_tpm2b(buf, len, *off, "private area", &n);

	if (ret)
		return ret;
	if (n == 0 || n > sizeof(priv->buffer) ||
	    Tss2_MU_TPM2B_PRIVATE_Unmarshal(buf, len, off, priv) ||
	    *off != start + 2 + n) {
		tpm_err("sealed object: malformed private area (size %zu)", n);
		return -EBADMSG;
	}
	return 0;
}

/* Versions 1 and 2: the PCR selection and, with the flag, its values. */
static int parse_pcrs(const uint8_t *buf, size_t len, size_t *off,
		      uint16_t flags, struct elfsig_tpm_sealed *s)
{
	TPML_PCR_SELECTION tpml;

	if (len - *off < 4 || get_be16(buf + *off) != 0 ||
	    get_be16(buf + *off + 2) != 1) {
		tpm_err("sealed object: PCR selection must name exactly one bank");
		return -EBADMSG;
	}
	if (Tss2_MU_TPML_PCR_SELECTION_Unmarshal(buf, len, off, &tpml) ||
	    tpm_pcrsel_from_tpml(&tpml, &s->sel)) {
		tpm_err("sealed object: malformed PCR selection");
		return -EBADMSG;
	}
	if (flags & SEALED_F_VALUES) {
		size_t dsize = elfsig_tpm_bank_size(s->sel.bank);
		size_t need = dsize * tpm_popcount(s->sel.mask);
		unsigned int i;

		if (len - *off < need) {
			tpm_err("sealed object: truncated in the PCR values (%zu bytes needed, %zu left)",
				need, len - *off);
			return -EBADMSG;
		}
		s->has_values = true;
		s->values.sel = s->sel;
		s->values.digest_size = dsize;
		for (i = 0; i < ELFSIG_TPM_MAX_PCRS; i++) {
			if (!(s->sel.mask & (1u << i)))
				continue;
			memcpy(s->values.value[i], buf + *off, dsize);
			*off += dsize;
		}
	}
	return 0;
}

int elfsig_tpm_sealed_parse(const uint8_t *buf, size_t len,
			    struct elfsig_tpm_sealed **out)
{
	struct elfsig_tpm_sealed *s;
	uint16_t version, flags;
	size_t off = SEALED_HDR_LEN;
	int ret;

	*out = NULL;
	if (len < SEALED_HDR_LEN) {
		tpm_err("sealed object: truncated (%zu bytes, the header alone is %d)",
			len, SEALED_HDR_LEN);
		return -EBADMSG;
	}
	if (memcmp(buf, SEALED_MAGIC, SEALED_MAGIC_LEN)) {
		tpm_err("sealed object: bad magic, not an elfsig sealed-object file");
		return -EBADMSG;
	}
	version = get_be16(buf + 8);
	flags = get_be16(buf + 10);
	if (version != SEALED_VERSION && version != SEALED_VERSION_2 &&
	    version != SEALED_VERSION_1) {
		tpm_err("sealed object: unsupported format version %u (this is version %d)",
			version, SEALED_VERSION);
		return -EBADMSG;
	}
	if (flags & ~(version == SEALED_VERSION ? SEALED_F_PCRS : SEALED_F_VALUES)) {
		tpm_err("sealed object: unknown flags 0x%04x", flags);
		return -EBADMSG;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;

	if (version == SEALED_VERSION) {
		ret = parse_authority(buf, len, &off, s);
		/* The object's own PCRs, always with their values (its
		 * authPolicy is computed from them). */
		if (!ret && (flags & SEALED_F_PCRS)) {
			ret = parse_pcrs(buf, len, &off, SEALED_F_VALUES, s);
			if (!ret && !s->sel.mask) {
				tpm_err("sealed object: the PCRs flag with no PCR selected");
				ret = -EBADMSG;
			}
		}
		if (ret)
			goto fail;
	} else {
		ret = parse_pcrs(buf, len, &off, flags, s);
		if (ret)
			goto fail;
	}
	if (version != SEALED_VERSION_1) {
		ret = parse_name(buf, len, &off, "storage root key", s->srk_name,
				 &s->srk_name_len);
		if (ret)
			goto fail;
	}
	ret = parse_public(buf, len, &off, &s->pub);
	if (ret)
		goto fail;
	ret = parse_private(buf, len, &off, &s->priv);
	if (!ret && s->authorized)
		ret = check_authorize_policy(s);
	if (ret)
		goto fail;
	if (off != len) {
		tpm_err("sealed object: %zu unexpected bytes after the private area",
			len - off);
		ret = -EBADMSG;
		goto fail;
	}
	*out = s;
	return 0;
fail:
	free(s);
	return ret;
}

int elfsig_tpm_sealed_serialize(const struct elfsig_tpm_sealed *s,
				uint8_t **bufp, size_t *lenp)
{
	size_t cap = ELFSIG_TPM_MAX_SEALED_FILE, off = SEALED_HDR_LEN;
	TPML_PCR_SELECTION tpml;
	uint8_t *buf;
	unsigned int i;

	*bufp = NULL;
	buf = calloc(1, cap);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, SEALED_MAGIC, SEALED_MAGIC_LEN);
	/* An object without the SRK's name (imported from tpm2-tools, or
	 * read from a version 1 file) is written as version 1, unchanged. */
	put_be16(buf + 8, s->authorized ? SEALED_VERSION :
		 s->srk_name_len ? SEALED_VERSION_2 : SEALED_VERSION_1);
	put_be16(buf + 10, s->authorized ? (s->sel.mask ? SEALED_F_PCRS : 0) :
			   s->has_values ? SEALED_F_VALUES : 0);
	if (s->authorized) {
		put_be16(buf + off, (uint16_t)s->auth_name_len);
		memcpy(buf + off + 2, s->auth_name, s->auth_name_len);
		off += 2 + s->auth_name_len;
		put_be16(buf + off, (uint16_t)s->ref_len);
		memcpy(buf + off + 2, s->ref, s->ref_len);
		off += 2 + s->ref_len;
	}
	if (!s->authorized || s->sel.mask) {
		tpm_pcrsel_to_tpml(&s->sel, &tpml);
		if (Tss2_MU_TPML_PCR_SELECTION_Marshal(&tpml, buf, cap, &off))
			goto fail;
	}
	if (s->has_values) {
		size_t dsize = elfsig_tpm_bank_size(s->sel.bank);

		for (i = 0; i < ELFSIG_TPM_MAX_PCRS; i++) {
			if (!(s->sel.mask & (1u << i)))
				continue;
			if (cap - off < dsize)
				goto fail;
			memcpy(buf + off, s->values.value[i], dsize);
			off += dsize;
		}
	}
	if (s->srk_name_len) {
		if (cap - off < 2 + s->srk_name_len)
			goto fail;
		put_be16(buf + off, (uint16_t)s->srk_name_len);
		memcpy(buf + off + 2, s->srk_name, s->srk_name_len);
		off += 2 + s->srk_name_len;
	}
	if (Tss2_MU_TPM2B_PUBLIC_Marshal(&s->pub, buf, cap, &off) ||
	    Tss2_MU_TPM2B_PRIVATE_Marshal(&s->priv, buf, cap, &off))
		goto fail;
	*bufp = buf;
	*lenp = off;
	return 0;
fail:
	free(buf);
	tpm_err("sealed object: does not fit in %zu bytes", cap);
	return -EOVERFLOW;
}

int elfsig_tpm_sealed_read_file(const char *path,
				struct elfsig_tpm_sealed **out)
{
	uint8_t *buf;
	size_t len = 0;
	int fd, ret;

	*out = NULL;
	fd = common_open_input(AT_FDCWD, path, true, tpm_err);
	if (fd < 0)
		return fd;
	/* Read one byte past the limit to detect oversized files, whatever
	 * fstat says (pipes, /proc files). */
	buf = malloc(ELFSIG_TPM_MAX_SEALED_FILE + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	ret = common_read_upto(fd, buf, ELFSIG_TPM_MAX_SEALED_FILE + 1, &len);
	if (ret) {
		tpm_err("%s: %s", path, strerror(-ret));
		goto out;
	}
	if (len > ELFSIG_TPM_MAX_SEALED_FILE) {
		tpm_err("%s: sealed object: file larger than %d bytes",
			path, ELFSIG_TPM_MAX_SEALED_FILE);
		ret = -EBADMSG;
		goto out;
	}
	ret = elfsig_tpm_sealed_parse(buf, len, out);
out:
	free(buf);
	close(fd);
	return ret;
}

int elfsig_tpm_sealed_write_file(const struct elfsig_tpm_sealed *s,
				 const char *path)
{
	uint8_t *buf;
	size_t len;
	int ret;

	ret = elfsig_tpm_sealed_serialize(s, &buf, &len);
	if (ret)
		return ret;
	ret = common_write_atomic(path, buf, len, 0600, tpm_err);
	free(buf);
	return ret;
}

int elfsig_tpm_sealed_from_tss(const struct elfsig_tpm_pcrsel *sel,
			       const uint8_t *pub, size_t publen,
			       const uint8_t *priv, size_t privlen,
			       struct elfsig_tpm_sealed **out)
{
	struct elfsig_tpm_sealed *s;
	size_t off = 0;
	int ret;

	*out = NULL;
	if (!elfsig_tpm_bank_size(sel->bank) || !sel->mask ||
	    sel->mask >> ELFSIG_TPM_MAX_PCRS) {
		tpm_err("sealed object: invalid PCR selection");
		return -EINVAL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->sel = *sel;
	ret = parse_public(pub, publen, &off, &s->pub);
	if (!ret && off != publen) {
		tpm_err("sealed object: trailing bytes after the public area");
		ret = -EBADMSG;
	}
	off = 0;
	if (!ret)
		ret = parse_private(priv, privlen, &off, &s->priv);
	if (!ret && off != privlen) {
		tpm_err("sealed object: trailing bytes after the private area");
		ret = -EBADMSG;
	}
	if (ret) {
		free(s);
		return ret;
	}
	*out = s;
	return 0;
}

int elfsig_tpm_sealed_to_tss(const struct elfsig_tpm_sealed *s,
			     uint8_t **pub, size_t *publen,
			     uint8_t **priv, size_t *privlen)
{
	/* A marshalled TPM2B is never larger than the structure itself. */
	const size_t pubcap = sizeof(TPM2B_PUBLIC), privcap = sizeof(TPM2B_PRIVATE);

	*publen = *privlen = 0;
	*pub = calloc(pubcap, 1);
	*priv = calloc(privcap, 1);
	if (!*pub || !*priv ||
	    Tss2_MU_TPM2B_PUBLIC_Marshal(&s->pub, *pub, pubcap, publen) ||
	    Tss2_MU_TPM2B_PRIVATE_Marshal(&s->priv, *priv, privcap, privlen)) {
		free(*pub);
		free(*priv);
		*pub = *priv = NULL;
		tpm_err("sealed object: cannot marshal");
		return -ENOMEM;
	}
	return 0;
}
