// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sign.c - sign files with a key loaded through OSSL_STORE (key.c) and
 * its certificate.
 */
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "common.h"
#include "lib_private.h"

struct elfsig_signer {
	struct elfsig_key *key;
	X509 *cert;
	EVP_MD *md;
	enum elfsig_hash hash;
	unsigned int flags;
};

static int load_cert(struct elfsig_signer *s, const char *path)
{
	uint8_t *buf = NULL;
	const unsigned char *p;
	size_t len = 0;
	BIO *b;
	int ret;

	ret = elfsig_read_small_file(path, 1u << 20, &buf, &len);
	if (ret)
		return ret;
	b = BIO_new_mem_buf(buf, (int)len);
	if (b)
		s->cert = PEM_read_bio_X509(b, NULL, NULL, NULL);
	BIO_free(b);
	if (!s->cert) {
		p = buf;
		s->cert = d2i_X509(NULL, &p, (long)len);
		if (s->cert && p != buf + len) {
			X509_free(s->cert);
			s->cert = NULL;
		}
	}
	free(buf);
	if (!s->cert) {
		elfsig_err_ssl("%s: not a PEM or DER X.509 certificate", path);
		return -EBADMSG;
	}
	ERR_clear_error();
	return 0;
}

int elfsig_signer_load(const struct elfsig_signer_opts *o,
		       struct elfsig_signer **out)
{
	const struct elfsig_key_opts kopts = {
		.key = o->key, .providers = o->providers, .tcti = o->tcti,
		.key_pass = o->key_pass,
	};
	struct elfsig_signer *s;
	const char *alg;
	int ret;

	if (!o->key || !o->cert) {
		elfsig_err("a key and a certificate are required");
		return -EINVAL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->hash = o->hash ? o->hash : ELFSIG_HASH_SHA256;
	s->flags = o->flags;
	alg = elfsig_hash_name(s->hash);
	if (!alg) {
		elfsig_err("unsupported hash algorithm %d", (int)s->hash);
		ret = -EINVAL;
		goto fail;
	}
	ret = elfsig_key_load(&kopts, &s->key);
	if (!ret)
		ret = load_cert(s, o->cert);
	if (!ret)
		ret = elfsig_cert_check(s->cert, o->cert);
	if (ret)
		goto fail;
	if (X509_check_private_key(s->cert, elfsig_key_pkey(s->key)) != 1) {
		elfsig_err_ssl("%s: the key does not match the certificate %s",
			       elfsig_key_name(s->key), o->cert);
		ret = -EKEYREJECTED;
		goto fail;
	}
	s->md = EVP_MD_fetch(NULL, alg, "?provider=default");
	if (!s->md) {
		elfsig_err_ssl("cannot use %s", alg);
		ret = -ENOPKG;
		goto fail;
	}
	*out = s;
	return 0;
fail:
	elfsig_signer_free(s);
	return ret;
}

void elfsig_signer_free(struct elfsig_signer *s)
{
	if (!s)
		return;
	X509_free(s->cert);
	EVP_MD_free(s->md);
	elfsig_key_free(s->key);	/* the providers go with it */
	free(s);
}

/* The raw signature over @msg: hashed here, signed by the key's provider. */
static int raw_sign(const struct elfsig_signer *s, const uint8_t *msg,
		    size_t msglen, unsigned char **sig, size_t *siglen)
{
	unsigned char dgst[EVP_MAX_MD_SIZE];
	unsigned int dlen = 0;
	int ret;

	*sig = NULL;
	if (!EVP_Digest(msg, msglen, dgst, &dlen, s->md, NULL)) {
		elfsig_err_ssl("signing failed");
		return -EIO;
	}
	ret = elfsig_key_sign_digest(s->key, s->hash, dgst, dlen, sig, siglen);
	OPENSSL_cleanse(dgst, sizeof(dgst));
	return ret;
}

/*
 * Make the detached PKCS#7 over @msg, shaped as the kernel's sign-file makes
 * it: no certificates, no signed attributes, so the signature is over the
 * message itself.
 */
static int sign_message(void *ctx, const uint8_t *msg, size_t msglen,
			uint8_t **der, size_t *len)
{
	const struct elfsig_signer *s = ctx;
	unsigned int flags = CMS_NOCERTS | CMS_BINARY | CMS_NOSMIMECAP |
			     CMS_NOATTR | CMS_PARTIAL;
	CMS_ContentInfo *cms;
	CMS_SignerInfo *si;
	unsigned char *out = NULL, *sig = NULL;
	size_t siglen = 0;
	int n, ret = -EIO;

	if (s->flags & ELFSIG_USE_KEYID)
		flags |= CMS_USE_KEYID;
	cms = CMS_sign(NULL, NULL, NULL, NULL, CMS_NOCERTS | CMS_PARTIAL |
		       CMS_BINARY | CMS_DETACHED);
	si = cms ? CMS_add1_signer(cms, s->cert, elfsig_key_pkey(s->key), s->md, flags) : NULL;
	if (!si) {
		elfsig_err_ssl("cannot build the PKCS#7 structure");
		goto out;
	}
	ret = raw_sign(s, msg, msglen, &sig, &siglen);
	if (ret)
		goto out;
	ret = -EIO;
	if (siglen > INT32_MAX ||
	    !ASN1_STRING_set(CMS_SignerInfo_get0_signature(si), sig, (int)siglen) ||
	    !CMS_set_detached(cms, 1)) {
		elfsig_err_ssl("cannot build the PKCS#7 structure");
		goto out;
	}
	n = i2d_CMS_ContentInfo(cms, &out);
	if (n <= 0) {
		elfsig_err_ssl("cannot encode the signature");
		goto out;
	}
	ret = common_memdup_out(der, len, out, (size_t)n);
out:
	free(sig);
	OPENSSL_free(out);
	CMS_ContentInfo_free(cms);
	return ret;
}

int elfsig_sign_file(const struct elfsig_signer *signer, const char *path,
		     const char *out, unsigned int flags)
{
	return elfsig_rewrite(path, out, signer->hash, sign_message,
			      (void *)signer, flags);
}

bool elfsig_signer_owns_fd(const struct elfsig_signer *s, int fd,
			   const char *path)
{
	struct elfsig_info info;

	return elfsig_verify_cert_fd(s->cert, fd, path, &info) == 0 &&
	       info.hash == s->hash;
}

int elfsig_sign_prepare_at(const struct elfsig_signer *signer,
			   const char *path, const struct elfsig_at *at,
			   struct elfsig_pending *pend)
{
	return elfsig_rewrite_prepare(path, NULL, signer->hash, sign_message,
				      (void *)signer, 0, at, pend);
}

#define BATCH_MAX	ELFSIG_BATCH_MAX	/* files prepared before one sync */
#define FD_RESERVE	16	/* for the input, OpenSSL, ... */

/*
 * How many prepared files (two open descriptors each: the temporary file
 * and its directory) fit under
 * RLIMIT_NOFILE beside the descriptors already open: a batch must never
 * fail on EMFILE, whatever `ulimit -n` is.
 */
size_t elfsig_batch_size(size_t reserve)
{
	struct rlimit rl;
	size_t open_fds = 0, room;
	struct dirent *d;
	DIR *dir;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return BATCH_MAX;
	dir = opendir("/proc/self/fd");
	if (dir) {
		while ((d = readdir(dir)) != NULL)
			if (d->d_name[0] != '.')
				open_fds++;
		closedir(dir);
	} else {
		open_fds = FD_RESERVE;	/* no /proc: assume a busy process */
	}
	if (rl.rlim_cur <= open_fds + FD_RESERVE + reserve)
		return 1;
	room = (size_t)(rl.rlim_cur - open_fds - FD_RESERVE - reserve) / 2;
	if (!room)
		return 1;
	return room < BATCH_MAX ? room : BATCH_MAX;
}

int elfsig_sign_files(const struct elfsig_signer *signer,
		      const char *const *paths, size_t n, unsigned int flags,
		      int *results)
{
	struct elfsig_pending pend[BATCH_MAX];
	size_t batch = elfsig_batch_size(0), start, i;
	int ret = 0;

	for (start = 0; start < n; start += batch) {
		size_t m = batch;

		if (n - start < m)
			m = n - start;
		for (i = 0; i < m; i++)
			results[start + i] = elfsig_rewrite_prepare(
				paths[start + i], NULL, signer->hash, sign_message,
				(void *)signer, flags, NULL, &pend[i]);
		elfsig_pending_commit_all(pend, m, results + start);
		for (i = 0; i < m; i++)
			if (!ret)
				ret = results[start + i];
	}
	return ret;
}

struct attach_ctx {
	const uint8_t *der;
	size_t len;
};

static int attach_blob(void *ctx, const uint8_t *msg, size_t msglen,
		       uint8_t **der, size_t *len)
{
	const struct attach_ctx *a = ctx;

	*der = malloc(a->len);
	if (!*der)
		return -ENOMEM;
	memcpy(*der, a->der, a->len);
	*len = a->len;
	return 0;
}

int elfsig_attach_file(const char *path, const char *out, const uint8_t *der,
		       size_t len, unsigned int flags)
{
	struct elfsig_pkcs7_view view;
	struct attach_ctx a = { der, len };
	int ret;

	ret = elfsig_pkcs7_check(der, len, path, &view);
	if (ret)
		return ret;
	return elfsig_rewrite(path, out, view.hash, attach_blob, &a, flags);
}

int elfsig_remove_file(const char *path, const char *out)
{
	return elfsig_rewrite(path, out, 0, NULL, NULL, 0);
}
