// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pkcs7.c - the PKCS#7 side of format v1: checking a signature blob,
 * verifying it as the kernel will, and describing it.
 *
 * A valid blob is one DER ContentInfo of type SignedData with detached
 * id-data content and exactly one SignerInfo whose digest algorithm is
 * SHA-256, SHA-384 or SHA-512 (which is also the image hash). Certificates
 * embedded in the blob are ignored: trust comes only from the caller's set,
 * as in the kernel only from the .elfsig keyring.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/bio.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "common.h"
#include "lib_private.h"

#define MAX_CERT_FILE	(1u << 20)

struct elfsig_trust {
	STACK_OF(X509) *certs;
};

/* Hex of @n bytes into @out, cut to what @outsz holds. */
static void hex(const uint8_t *p, size_t n, char *out, size_t outsz)
{
	if (outsz == 0)
		return;
	if (n > (outsz - 1) / 2)
		n = (outsz - 1) / 2;
	common_hex(p, n, out);
}

static void name_to_string(const X509_NAME *name, char *out, size_t outsz)
{
	BIO *b = BIO_new(BIO_s_mem());

	out[0] = '\0';
	if (!b)
		return;
	if (X509_NAME_print_ex(b, name, 0, XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB) >= 0) {
		int n = BIO_read(b, out, (int)outsz - 1);
		out[n > 0 ? n : 0] = '\0';
	}
	BIO_free(b);
}

/* Parse @der as exactly one ContentInfo; on success the caller frees *@out. */
static int parse_cms(const uint8_t *der, size_t len, const char *name,
		     CMS_ContentInfo **out)
{
	const unsigned char *p = der;
	unsigned char *reenc;
	CMS_ContentInfo *cms;
	int n, ret;

	*out = NULL;
	if (len > ELFSIG_MAX_SIG_SIZE) {
		elfsig_err("%s: signature of %zu bytes exceeds %u", name, len,
			   ELFSIG_MAX_SIG_SIZE);
		return -EBADMSG;
	}
	cms = d2i_CMS_ContentInfo(NULL, &p, (long)len);
	if (!cms) {
		elfsig_err_ssl("%s: signature is not valid DER PKCS#7", name);
		return -EBADMSG;
	}
	if (p != der + len) {
		elfsig_err("%s: %zu bytes of garbage after the PKCS#7 signature",
			   name, (size_t)(der + len - p));
		CMS_ContentInfo_free(cms);
		return -EBADMSG;
	}
	/* DER only: a BER variant of a valid blob is refused, not normalised. */
	reenc = NULL;
	n = i2d_CMS_ContentInfo(cms, &reenc);
	if (n <= 0 || (size_t)n != len || memcmp(reenc, der, len) != 0) {
		elfsig_err("%s: signature is not in canonical DER form", name);
		OPENSSL_free(reenc);
		CMS_ContentInfo_free(cms);
		return -EBADMSG;
	}
	OPENSSL_free(reenc);
	ERR_clear_error();
	ret = elfsig_pkcs7_shape(der, len, name);
	if (ret) {
		CMS_ContentInfo_free(cms);
		return ret;
	}
	*out = cms;
	return 0;
}

/* Structural checks of format v1; fills @view (may be NULL). */
static int check_cms(CMS_ContentInfo *cms, const char *name,
		     struct elfsig_pkcs7_view *view)
{
	STACK_OF(CMS_SignerInfo) *sis;
	CMS_SignerInfo *si;
	ASN1_OCTET_STRING *keyid = NULL;
	X509_NAME *issuer = NULL;
	ASN1_INTEGER *sno = NULL;
	X509_ALGOR *dig = NULL, *sig = NULL;
	const ASN1_OBJECT *obj;
	const struct elfsig_hash_alg *hash;

	if (OBJ_obj2nid(CMS_get0_type(cms)) != NID_pkcs7_signed) {
		elfsig_err("%s: signature is not PKCS#7 SignedData", name);
		return -EBADMSG;
	}
	if (CMS_is_detached(cms) != 1) {
		elfsig_err("%s: signature embeds its content (must be detached)", name);
		return -EBADMSG;
	}
	if (OBJ_obj2nid(CMS_get0_eContentType(cms)) != NID_pkcs7_data) {
		elfsig_err("%s: signature's content type is not id-data", name);
		return -EBADMSG;
	}
	sis = CMS_get0_SignerInfos(cms);
	if (!sis || sk_CMS_SignerInfo_num(sis) != 1) {
		elfsig_err("%s: signature must have exactly one signer (has %d)",
			   name, sis ? sk_CMS_SignerInfo_num(sis) : 0);
		return -EBADMSG;
	}
	si = sk_CMS_SignerInfo_value(sis, 0);
	CMS_SignerInfo_get0_algs(si, NULL, NULL, &dig, &sig);
	X509_ALGOR_get0(&obj, NULL, NULL, dig);
	hash = elfsig_hash_alg_by_nid(OBJ_obj2nid(obj));
	if (!hash) {
		elfsig_err("%s: signature digest algorithm is not %s", name,
			   elfsig_hash_names());
		return -EBADMSG;
	}
	if (CMS_SignerInfo_get0_signer_id(si, &keyid, &issuer, &sno) != 1 ||
	    (!keyid && (!issuer || !sno))) {
		elfsig_err("%s: signature does not identify its signer", name);
		return -EBADMSG;
	}
	if (!view)
		return 0;
	memset(view, 0, sizeof(*view));
	view->hash = hash->hash;
	if (keyid)
		hex(ASN1_STRING_get0_data(keyid), (size_t)ASN1_STRING_length(keyid),
		    view->skid, sizeof(view->skid));
	if (issuer)
		name_to_string(issuer, view->issuer, sizeof(view->issuer));
	if (sno)
		hex(ASN1_STRING_get0_data(sno), (size_t)ASN1_STRING_length(sno),
		    view->serial, sizeof(view->serial));
	X509_ALGOR_get0(&obj, NULL, NULL, sig);
	OBJ_obj2txt(view->sig_algorithm, sizeof(view->sig_algorithm), obj, 0);
	return 0;
}

int elfsig_pkcs7_check(const uint8_t *der, size_t len, const char *name,
		       struct elfsig_pkcs7_view *view)
{
	CMS_ContentInfo *cms;
	int ret;

	ret = parse_cms(der, len, name, &cms);
	if (ret)
		return ret;
	ret = check_cms(cms, name, view);
	CMS_ContentInfo_free(cms);
	return ret;
}

/* ---- trusted certificates ---- */

int elfsig_trust_new(struct elfsig_trust **out)
{
	struct elfsig_trust *t = calloc(1, sizeof(*t));

	if (!t || !(t->certs = sk_X509_new_null())) {
		free(t);
		elfsig_err("out of memory");
		return -ENOMEM;
	}
	*out = t;
	return 0;
}

void elfsig_trust_free(struct elfsig_trust *trust)
{
	if (!trust)
		return;
	sk_X509_pop_free(trust->certs, X509_free);
	free(trust);
}

/* Every certificate of a PEM bundle, or the one of a DER file. */
static int load_certs(const char *path, STACK_OF(X509) *into)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	BIO *b = NULL;
	X509 *x;
	int n = 0, ret;

	ret = elfsig_read_small_file(path, MAX_CERT_FILE, &buf, &len);
	if (ret)
		return ret;
	b = BIO_new_mem_buf(buf, (int)len);
	if (!b) {
		ret = -ENOMEM;
		goto out;
	}
	while ((x = PEM_read_bio_X509(b, NULL, NULL, NULL)) != NULL) {
		if (!sk_X509_push(into, x)) {
			X509_free(x);
			ret = -ENOMEM;
			goto out;
		}
		n++;
	}
	if (n == 0) {
		const unsigned char *p = buf;

		x = d2i_X509(NULL, &p, (long)len);
		if (!x || p != buf + len) {
			X509_free(x);
			elfsig_err_ssl("%s: not a PEM or DER X.509 certificate", path);
			ret = -EBADMSG;
			goto out;
		}
		if (!sk_X509_push(into, x)) {
			X509_free(x);
			ret = -ENOMEM;
			goto out;
		}
	}
	ERR_clear_error();
out:
	BIO_free(b);
	free(buf);
	return ret;
}

int elfsig_trust_add_file(struct elfsig_trust *trust, const char *path)
{
	return load_certs(path, trust->certs);
}

static bool cert_suffix(const char *name)
{
	static const char *const ok[] = { ".pem", ".crt", ".cer", ".der" };
	size_t n = strlen(name), i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (n > 4 && strcmp(name + n - 4, ok[i]) == 0)
			return true;
	return false;
}

int elfsig_trust_add_dir(struct elfsig_trust *trust, const char *dir)
{
	struct dirent **list = NULL;
	int n, i, ret = 0;

	n = scandir(dir, &list, NULL, alphasort);
	if (n < 0) {
		ret = -errno;
		elfsig_err("%s: %s", dir, strerror(errno));
		return ret;
	}
	for (i = 0; i < n; i++) {
		char *path;

		if (!ret && cert_suffix(list[i]->d_name)) {
			if (asprintf(&path, "%s/%s", dir, list[i]->d_name) < 0) {
				ret = -ENOMEM;
			} else {
				ret = load_certs(path, trust->certs);
				free(path);
			}
		}
		free(list[i]);
	}
	free(list);
	if (!ret && sk_X509_num(trust->certs) == 0) {
		elfsig_err("%s: no certificates (*.pem, *.crt, *.cer, *.der)", dir);
		ret = -ENOENT;
	}
	return ret;
}

/* ---- reading and verifying a file's signature ---- */

static void fill_info(const struct elfsig_elf *elf,
		      const struct elfsig_pkcs7_view *view,
		      struct elfsig_info *info)
{
	const struct elfsig_shdr *sh = &elf->shdrs[elf->sig_index];

	info->section_offset = sh->offset;
	info->section_size = sh->size;
	info->section_index = (unsigned int)elf->sig_index;
	info->hash = view->hash;
	info->has_interp = elf->has_interp;
	memcpy(info->issuer, view->issuer, sizeof(info->issuer));
	memcpy(info->serial, view->serial, sizeof(info->serial));
	memcpy(info->skid, view->skid, sizeof(info->skid));
	memcpy(info->sig_algorithm, view->sig_algorithm, sizeof(info->sig_algorithm));
}

/*
 * Open @path, read its signature and compute the image digest with the
 * signature's hash. With @notes, a malformed ELFSIG note is an error, as
 * the kernel refuses such an image. On success the caller owns *@cms.
 */
static int load_signed(int fd, const char *path, struct elfsig_info *info,
		       CMS_ContentInfo **cms, uint8_t *msg, size_t *msglen,
		       bool notes)
{
	enum elfsig_note_state note;
	struct elfsig_pkcs7_view view;
	uint32_t note_flags;
	struct elfsig_elf elf;
	uint8_t *der = NULL;
	size_t len = 0;
	int ret;

	memset(info, 0, sizeof(*info));
	*cms = NULL;
	/* With @fd >= 0, that open file (the caller's) rather than @path. */
	ret = fd >= 0 ? elfsig_elf_parse_fd(&elf, fd, path, ELFSIG_PARSE_ALL) :
			elfsig_elf_open(&elf, path, path, ELFSIG_PARSE_ALL);
	if (ret)
		return ret;
	ret = elfsig_elf_read_signature(&elf, &der, &len);
	if (ret)
		goto out;
	ret = parse_cms(der, len, path, cms);
	if (!ret)
		ret = check_cms(*cms, path, &view);
	if (ret)
		goto out;
	fill_info(&elf, &view, info);
	if (notes) {
		ret = elfsig_elf_flags(&elf, &note, &note_flags);
		if (ret)
			goto out;
	}
	ret = elfsig_elf_digest(&elf, view.hash, info->digest, &info->digest_size);
	if (!ret)
		ret = elfsig_build_message(view.hash, info->digest,
					   info->digest_size, msg, msglen);
out:
	if (ret) {
		CMS_ContentInfo_free(*cms);
		*cms = NULL;
	}
	free(der);
	elfsig_elf_release(&elf);
	if (fd < 0)
		close(elf.fd);
	return ret;
}

/* The trusted certificate's key must be one the kernel accepts too. */
static int check_cert_key(X509 *cert, const char *path, const char *subject)
{
	char name[600];

	snprintf(name, sizeof(name), "%s: trusted certificate %s", path, subject);
	return elfsig_cert_check(cert, name);
}

int elfsig_read_info(const char *path, struct elfsig_info *info)
{
	uint8_t msg[ELFSIG_MAX_MESSAGE];
	CMS_ContentInfo *cms;
	size_t mlen;
	int ret;

	ret = load_signed(-1, path, info, &cms, msg, &mlen, false);
	CMS_ContentInfo_free(cms);
	return ret;
}

static int verify_fd(const struct elfsig_trust *trust, int fd,
		     const char *path, struct elfsig_info *out)
{
	uint8_t msg[ELFSIG_MAX_MESSAGE];
	struct elfsig_info local = { 0 };
	struct elfsig_info *info = out ? out : &local;
	STACK_OF(X509) *signer = NULL;
	CMS_ContentInfo *cms = NULL;
	CMS_SignerInfo *si;
	BIO *content = NULL;
	X509 *match = NULL;
	size_t mlen;
	int i, ret;

	/* What the kernel refuses before it checks the signature. */
	ret = load_signed(fd, path, info, &cms, msg, &mlen, true);
	if (ret)
		return ret;
	si = sk_CMS_SignerInfo_value(CMS_get0_SignerInfos(cms), 0);
	for (i = 0; i < sk_X509_num(trust->certs); i++) {
		X509 *x = sk_X509_value(trust->certs, i);

		if (CMS_SignerInfo_cert_cmp(si, x) == 0) {
			match = x;
			break;
		}
	}
	if (!match) {
		elfsig_err("%s: no trusted certificate matches the signer (%s%s%s)",
			   path, info->skid[0] ? "key id " : info->issuer,
			   info->skid[0] ? info->skid : ", serial ",
			   info->skid[0] ? "" : info->serial);
		ret = -ENOKEY;
		goto out;
	}
	name_to_string(X509_get_subject_name(match), info->signer_subject,
		       sizeof(info->signer_subject));
	ret = check_cert_key(match, path, info->signer_subject);
	if (ret)
		goto out;
	signer = sk_X509_new_null();
	content = BIO_new_mem_buf(msg, (int)mlen);
	if (!signer || !content || !sk_X509_push(signer, match)) {
		ret = -ENOMEM;
		goto out;
	}
	if (CMS_verify(cms, signer, NULL, content, NULL,
		       CMS_BINARY | CMS_NOINTERN | CMS_NO_SIGNER_CERT_VERIFY) != 1) {
		elfsig_err_ssl("%s: bad signature", path);
		ret = -EKEYREJECTED;
		goto out;
	}
	ERR_clear_error();
out:
	sk_X509_free(signer);	/* does not free @match: trust owns it */
	BIO_free(content);
	CMS_ContentInfo_free(cms);
	return ret;
}

int elfsig_verify_file(const struct elfsig_trust *trust, const char *path,
		       struct elfsig_info *out)
{
	return verify_fd(trust, -1, path, out);
}

int elfsig_verify_cert_fd(X509 *cert, int fd, const char *path,
			  struct elfsig_info *info)
{
	struct elfsig_trust one = { .certs = sk_X509_new_null() };
	int ret = -ENOMEM;

	if (one.certs && sk_X509_push(one.certs, cert)) {
		elfsig_mute(true);
		ret = verify_fd(&one, fd, path, info);
		elfsig_mute(false);
		ERR_clear_error();
	}
	sk_X509_free(one.certs);	/* not @cert: the caller owns it */
	return ret;
}
