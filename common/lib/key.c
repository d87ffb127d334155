// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * key.c - load a private key through OSSL_STORE and sign digests with it.
 *
 * One code path for every key source, as in the kernel's sign-file: a
 * PEM/DER file, a TPM-resident key (the tpm2 provider's "handle:0x81..." or
 * a "TSS2 PRIVATE KEY" file) and a PKCS#11 URI are all just key names.
 * signelf signs ELF files with it (libelfsig's elfsig_key_*), elfsig-enroll
 * signs enrolment policies and PCR policies with an enrolment authority
 * key. Only the key types of format v1 load (common_key_check()). Where no
 * provider serves PKCS#11 URIs, libp11's engine does (engine.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dlfcn.h>
#include <sys/stat.h>

#include <openssl/asn1.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <openssl/rsa.h>
#include <openssl/store.h>
#include <openssl/ui.h>
#include <openssl/x509.h>

#include <openssl/obj_mac.h>
#include <openssl/objects.h>

#include "common.h"
#include "key.h"
#include "elfsig/uapi/linux/elfsig.h"

#define MAX_PROVIDERS	8

struct common_key {
	EVP_PKEY *pkey;
	OSSL_PROVIDER *prov[MAX_PROVIDERS];
	int nprov;
	char *tss_log;		/* where tpm2-tss logs while we run, or NULL */
	char *name;		/* the key's name, for messages (no PIN) */
	struct engine_st *engine;	/* libp11's, for a PKCS#11 key, or NULL */
	bool use_engine;	/* no provider serves its pkcs11: URI */
	bool pass_asked;	/* its store asked for a password */
	bool pass_given;	/* --key-pass or ELFSIG_KEY_PASS gave one */
	/* A "TSS2 PRIVATE KEY" PEM file: what it says, for messages. */
	bool tss2;
	bool empty_auth;	/* the key has no password */
	uint64_t parent;	/* the handle it is loaded under */
};

/*
 * tpm2-tss prints its errors on stderr, several lines each; while the tpm2
 * provider runs, send them to a private file instead, so a failure can be
 * told in one line with its real reason (unless the user asked for the
 * TSS log with TSS2_LOG or TSS2_LOGFILE).
 */
static void tss_log_start(struct common_key *s)
{
	const char *dir = getenv("TMPDIR");
	char *path = NULL;
	int fd;

	if (getenv("TSS2_LOG") || getenv("TSS2_LOGFILE"))
		return;
	if (asprintf(&path, "%s/elfsig-tss.XXXXXX", dir && *dir ? dir : "/tmp") < 0)
		return;
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0) {
		free(path);
		return;
	}
	close(fd);
	setenv("TSS2_LOGFILE", path, 1);
	setenv("TSS2_LOG", "all+warning", 1);
	s->tss_log = path;
}

/*
 * Decode a TPM response code with tpm2-tss's own decoder: libtss2-rc is
 * already in the process (the tpm2 provider's ESAPI needs it), so this
 * adds no dependency to libelfsig.
 */
static const char *tss_rc_decode(unsigned long rc)
{
	const char *(*decode)(uint32_t);
	void *h = dlopen("libtss2-rc.so.0", RTLD_NOW | RTLD_NOLOAD);

	if (!h)
		return NULL;
	*(void **)&decode = dlsym(h, "Tss2_RC_Decode");
	dlclose(h);	/* still loaded: RTLD_NOLOAD took a reference */
	return decode ? decode((uint32_t)rc) : NULL;
}

/*
 * The innermost reason tpm2-tss logged (the layers above log after it),
 * without its "ERROR:esys:file:line:fn()" prefix, into @out ("" if none):
 * the first TPM response code, decoded, or else the first line that says
 * more than "Received TPM Error".
 */
static void tss_log_reason(const struct common_key *s, char *out, size_t n)
{
	char line[512], first[256] = "";
	FILE *f;

	out[0] = '\0';
	if (!s->tss_log || !(f = fopen(s->tss_log, "re")))
		return;
	while (!out[0] && fgets(line, sizeof(line), f)) {
		char *r = strstr(line, "() "), *code = strstr(line, "ErrorCode (0x");
		size_t len;

		line[strcspn(line, "\n")] = '\0';
		r = r ? r + 3 : line;
		while (*r == ' ')
			r++;
		len = strlen(r);
		while (len && r[len - 1] == ' ')
			r[--len] = '\0';
		if (code) {
			unsigned long rc = strtoul(code + 11, NULL, 16);
			const char *text = tss_rc_decode(rc);

			snprintf(out, n, "TPM error 0x%lx%s%.200s", rc, text ? ": " : "",
				 text ? text : "");
		} else if (!first[0] && *r && strcmp(r, "Received TPM Error")) {
			snprintf(first, sizeof(first), "%.200s", r);
		}
	}
	fclose(f);
	if (!out[0])
		snprintf(out, n, "%s", first);
}

static void tss_log_stop(struct common_key *s)
{
	if (!s->tss_log)
		return;
	/* Give the process its environment back (both were unset). */
	unsetenv("TSS2_LOGFILE");
	unsetenv("TSS2_LOG");
	unlink(s->tss_log);
	free(s->tss_log);
	s->tss_log = NULL;
}

static int load_provider(struct common_key *s, const char *name)
{
	OSSL_PROVIDER *p;

	if (s->nprov >= MAX_PROVIDERS) {
		common_err("too many OpenSSL providers");
		return -E2BIG;
	}
	p = OSSL_PROVIDER_load(NULL, name);
	if (!p) {
		common_err_ssl("cannot load the OpenSSL provider '%s'", name);
		return -ENOPKG;
	}
	s->prov[s->nprov++] = p;
	return 0;
}

/*
 * Loading any provider stops OpenSSL from activating its default one on
 * its own, so the default provider is loaded explicitly before the
 * others, and for the rest of the process: were it unloaded with the key,
 * every later digest of the process (the library's, its caller's) would
 * fail, and OpenSSL's one-shot SHA256() fails without a word.
 */
static int keep_default_provider(void)
{
	static OSSL_PROVIDER *dflt;

	if (dflt)
		return 0;
	dflt = OSSL_PROVIDER_load(NULL, "default");
	if (!dflt) {
		common_err_ssl("cannot load the OpenSSL provider 'default'");
		return -ENOPKG;
	}
	return 0;
}

/* Does the key name need the tpm2 provider? */
static bool is_tpm_key(const char *key)
{
	static const char tss2[] = "-----BEGIN TSS2 PRIVATE KEY-----";
	char head[sizeof(tss2)];
	ssize_t n;
	int fd;

	if (strncmp(key, "handle:", 7) == 0)
		return true;
	fd = open(key, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	n = read(fd, head, sizeof(head) - 1);
	close(fd);
	return n == (ssize_t)sizeof(head) - 1 &&
	       memcmp(head, tss2, sizeof(head) - 1) == 0;
}

static int setup_providers(struct common_key *s,
			   const struct common_key_opts *o)
{
	const char *const *p;
	OSSL_PROVIDER *p_tpm;
	int ret;

	ret = keep_default_provider();
	if (ret)
		return ret;
	if (is_tpm_key(o->key)) {
		const char *tcti = o->tcti ? o->tcti : getenv("TPM2TOOLS_TCTI");
		char reason[256];

		/* The tpm2 provider reads its TCTI from the environment. */
		if (o->tcti || (tcti && !getenv("TPM2OPENSSL_TCTI")))
			setenv("TPM2OPENSSL_TCTI", tcti, 1);
		tcti = getenv("TPM2OPENSSL_TCTI");
		tss_log_start(s);
		p_tpm = OSSL_PROVIDER_load(NULL, "tpm2");
		if (!p_tpm) {
			tss_log_reason(s, reason, sizeof(reason));
			ERR_clear_error();
			common_err("cannot use the TPM (TCTI '%s'%s): %s", tcti ? tcti :
				   "tpm2-tss default", tcti ? "" : "; set --tcti or TPM2TOOLS_TCTI",
				   reason[0] ? reason :
				   "the OpenSSL provider 'tpm2' failed to start");
			return -ENODEV;
		}
		s->prov[s->nprov++] = p_tpm;
	} else if (strncmp(o->key, "pkcs11:", 7) == 0) {
		/* A PKCS#11 provider if there is one, else libp11's engine. */
		OSSL_PROVIDER *p11 = OSSL_PROVIDER_load(NULL, "pkcs11");

		ERR_clear_error();
		if (p11)
			s->prov[s->nprov++] = p11;
		else
			s->use_engine = true;
	}
	for (p = o->providers; p && *p; p++) {
		ret = load_provider(s, *p);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * A key name that is a path (bare or "file:") must be a regular file: the
 * store would block on a FIFO and list a directory. (The store reopens the
 * name; whoever can swap the file between the two opens owns its directory
 * and could replace the key anyway.)
 */
static int check_key_path(const char *key)
{
	const char *path = key;
	struct stat st;

	if (strncmp(path, "file:", 5) == 0) {
		path += 5;
		if (strncmp(path, "//", 2) == 0)
			path += 2;
	}
	if (stat(path, &st) != 0 || S_ISREG(st.st_mode))
		return 0;	/* not a path (or the store reports it) */
	common_err("%s: not a regular file", key);
	return -EINVAL;
}

/* Errors of a probe that may fail are not the user's business. */
static void __attribute__((format(printf, 1, 2))) no_err(const char *fmt, ...)
{
}

/* A whole regular file of 1 to @max bytes (malloc'ed), or an error. */
static int read_key_file(const char *path, size_t max, uint8_t **out,
			 size_t *len)
{
	uint8_t *buf;
	size_t got = 0;
	int fd, ret;

	fd = common_open_input(AT_FDCWD, path, true, no_err);
	if (fd < 0)
		return fd;
	buf = malloc(max + 1);
	ret = buf ? common_read_upto(fd, buf, max + 1, &got) : -ENOMEM;
	close(fd);
	if (!ret && (got == 0 || got > max))
		ret = -EBADMSG;
	if (ret) {
		free(buf);
		return ret;
	}
	*out = buf;
	*len = got;
	return 0;
}

/*
 * If @key names a "TSS2 PRIVATE KEY" PEM file, note its emptyAuth flag and
 * parent handle (TSSPrivKey ::= SEQUENCE { type OID, emptyAuth [0]
 * EXPLICIT BOOLEAN OPTIONAL, parent INTEGER, pubkey, privkey }), so that a
 * failure can name its cause. Anything else is left to the store.
 */
static void tss2_inspect(struct common_key *s, const char *key)
{
	STACK_OF(ASN1_TYPE) *seq = NULL;
	char *name = NULL, *header = NULL;
	unsigned char *data = NULL;
	const unsigned char *p;
	uint8_t *buf = NULL;
	long dlen = 0;
	size_t len = 0;
	BIO *b = NULL;
	int i;

	if (strncmp(key, "file:", 5) == 0) {
		key += 5;
		if (strncmp(key, "//", 2) == 0)
			key += 2;
	} else if (strchr(key, ':') && strncmp(key, "/", 1) != 0 &&
		   strncmp(key, ".", 1) != 0) {
		return;		/* handle:, pkcs11:, ... */
	}
	if (read_key_file(key, 64u << 10, &buf, &len) != 0)
		goto out;
	b = BIO_new_mem_buf(buf, (int)len);
	if (!b || !PEM_read_bio(b, &name, &header, &data, &dlen) ||
	    strcmp(name, "TSS2 PRIVATE KEY") != 0)
		goto out;
	p = data;
	seq = d2i_ASN1_SEQUENCE_ANY(NULL, &p, dlen);
	if (!seq)
		goto out;
	s->tss2 = true;
	s->empty_auth = false;		/* DEFAULT FALSE */
	for (i = 0; i < sk_ASN1_TYPE_num(seq); i++) {
		const ASN1_TYPE *t = sk_ASN1_TYPE_value(seq, i);
		const ASN1_STRING *o;
		uint64_t v;

		if (t->type == V_ASN1_OTHER) {
			/* [0] { BOOLEAN }: a0 03 01 01 xx */
			o = t->value.asn1_string;
			if (o && o->length == 5 && o->data[0] == 0xa0 &&
			    o->data[2] == 0x01)
				s->empty_auth = o->data[4] != 0;
		} else if (t->type == V_ASN1_INTEGER &&
			   ASN1_INTEGER_get_uint64(&v, t->value.integer)) {
			s->parent = v;
		}
	}
out:
	ERR_clear_error();
	sk_ASN1_TYPE_pop_free(seq, ASN1_TYPE_free);
	OPENSSL_free(name);
	OPENSSL_free(header);
	OPENSSL_free(data);
	BIO_free(b);
	free(buf);
}

/* A TPM handle of the transient range (TPM_HT_TRANSIENT). */
static bool transient_handle(uint64_t h)
{
	return (h >> 24) == 0x80;
}

/* What the store's password callback works from. */
struct key_pass {
	const char *pass;	/* NULL: none was given */
	bool asked;		/* the key wanted one */
};

static int key_pass_cb(char *buf, int size, int rwflag, void *u)
{
	struct key_pass *kp = u;
	size_t n;

	kp->asked = true;
	if (!kp->pass || size <= 0)
		return -1;
	n = strlen(kp->pass);
	if (n > (size_t)size)
		return -1;
	memcpy(buf, kp->pass, n);
	return (int)n;
}

/*
 * @key with the value of its "pin-value" attribute, if any, replaced by
 * "***": a PKCS#11 URI may carry its PIN, which no message may show.
 */
static char *shown_name(const char *key)
{
	static const char attr[] = "pin-value=";
	const char *p = key, *v;
	char *name, *q;

	if (strncmp(key, "pkcs11:", 7) != 0)
		return strdup(key);
	/* At worst every attribute is an empty "pin-value=": room for that. */
	name = malloc(strlen(key) * 2 + 4);
	if (!name)
		return NULL;
	q = name;
	while ((v = strstr(p, attr)) != NULL) {
		v += sizeof(attr) - 1;
		memcpy(q, p, (size_t)(v - p));
		q += v - p;
		memcpy(q, "***", 3);
		q += 3;
		p = v + strcspn(v, ";?&");
	}
	strcpy(q, p);
	return name;
}

/* The PKCS#11 key @key through libp11's engine. */
static int load_engine_key(struct common_key *s, const char *key,
			   const char *pass, UI_METHOD *ui, struct key_pass *kp)
{
	int ret;

	ret = common_engine_load(key, s->name, pass, ui ? ui : UI_OpenSSL(),
				 kp, &kp->asked, &s->pkey, &s->engine);
	if (ret == -ENOPKG)
		common_err("%s: no OpenSSL provider or engine here serves PKCS#11 URIs: install libp11's engine (Debian package libengine-pkcs11-openssl) or a PKCS#11 provider (pkcs11-provider)",
			   s->name);
	return ret;
}

static int load_key(struct common_key *s, const char *key, const char *pass)
{
	struct key_pass kp = { pass, false };
	UI_METHOD *ui = NULL;
	OSSL_STORE_CTX *st;
	char reason[256];
	int ret;

	ret = check_key_path(key);
	if (ret)
		return ret;
	tss2_inspect(s, key);
	/*
	 * Prompt on the terminal only when there is one and no password was
	 * given: a pipeline must fail with a message, never wait.
	 */
	if (pass || !isatty(STDIN_FILENO)) {
		ui = UI_UTIL_wrap_read_pem_callback(key_pass_cb, 0);
		if (!ui)
			return -ENOMEM;
	}
	if (s->use_engine) {
		ret = load_engine_key(s, key, pass, ui, &kp);
		UI_destroy_method(ui);
		return ret;
	}
	st = OSSL_STORE_open_ex(key, NULL, NULL, ui ? ui : UI_get_default_method(),
				&kp, NULL, NULL, NULL);
	if (st) {
		OSSL_STORE_expect(st, OSSL_STORE_INFO_PKEY);
		while (!s->pkey && !OSSL_STORE_eof(st)) {
			OSSL_STORE_INFO *info = OSSL_STORE_load(st);

			if (!info) {
				if (OSSL_STORE_error(st))
					break;
				continue;
			}
			if (OSSL_STORE_INFO_get_type(info) == OSSL_STORE_INFO_PKEY)
				s->pkey = OSSL_STORE_INFO_get1_PKEY(info);
			OSSL_STORE_INFO_free(info);
		}
		OSSL_STORE_close(st);
	}
	UI_destroy_method(ui);
	if (s->pkey) {
		/*
		 * A TPM key's password is checked when it signs, not when it
		 * loads: remember what signing failures will have to tell.
		 */
		s->pass_asked = kp.asked;
		s->pass_given = pass != NULL;
		ERR_clear_error();
		return 0;
	}
	if (s->tss2 && transient_handle(s->parent)) {
		/* The TPM error says a handle is not loaded; say which. */
		ERR_clear_error();
		common_err("%s: cannot load the private key: its parent is the transient handle 0x%08llx, which no longer exists (encode the key under the owner hierarchy 0x40000001 or a persistent parent 0x81...)",
			   s->name, (unsigned long long)s->parent);
		return -ENOKEY;
	}
	if (kp.asked && !pass) {
		ERR_clear_error();
		common_err("%s: the key needs a password (give it with --key-pass or ELFSIG_KEY_PASS)",
			   s->name);
		return -EACCES;
	}
	tss_log_reason(s, reason, sizeof(reason));
	if (reason[0]) {
		ERR_clear_error();
		common_err("%s: cannot load the private key: %s", s->name, reason);
	} else if (kp.asked) {
		common_err_ssl("%s: cannot load the private key (wrong password?)", s->name);
	} else {
		common_err_ssl(st ? "%s: no private key found" :
			       "%s: cannot open the private key", s->name);
	}
	return -ENOKEY;
}

int common_key_load(const struct common_key_opts *o, struct common_key **out)
{
	struct common_key *s;
	int ret;

	*out = NULL;
	if (!o->key) {
		common_err("no key given");
		return -EINVAL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->name = shown_name(o->key);
	if (!s->name) {
		free(s);
		return -ENOMEM;
	}
	ret = setup_providers(s, o);
	if (!ret)
		ret = load_key(s, o->key, o->key_pass);
	if (!ret)
		ret = common_key_check(s->pkey, s->name);
	if (ret) {
		common_key_free(s);
		return ret;
	}
	*out = s;
	return 0;
}

void common_key_free(struct common_key *s)
{
	int i;

	if (!s)
		return;
	EVP_PKEY_free(s->pkey);	/* before its provider or engine goes */
	common_engine_release(s->engine);
	tss_log_stop(s);
	for (i = s->nprov - 1; i >= 0; i--)
		OSSL_PROVIDER_unload(s->prov[i]);
	free(s->name);
	free(s);
}

EVP_PKEY *common_key_pkey(const struct common_key *s)
{
	return s->pkey;
}

const char *common_key_name(const struct common_key *s)
{
	return s->name;
}

/*
 * Why @s could not sign, in one line. A TPM key whose password is wrong or
 * missing loads anyway and fails only here, as an authorization failure:
 * name that cause rather than the provider's "cannot sign".
 */
static void sign_failed(const struct common_key *s)
{
	char reason[256];
	const char *name = s->name ? s->name : "the key";

	bool needs_pass = s->pass_asked || (s->tss2 && !s->empty_auth);

	tss_log_reason(s, reason, sizeof(reason));
	if (needs_pass && !s->pass_given) {
		ERR_clear_error();
		common_err("%s: signing failed: the key needs a password (give it with --key-pass or ELFSIG_KEY_PASS)",
			   name);
	} else if (needs_pass) {
		if (reason[0]) {
			ERR_clear_error();
			common_err("%s: signing failed: wrong password? %s", name,
				   reason);
		} else {
			common_err_ssl("%s: signing failed: wrong password?", name);
		}
	} else if (s->tss2 && s->empty_auth &&
		   (strstr(reason, "0x98e") || strstr(reason, "0x9a2"))) {
		/* TPM_RC_AUTH_FAIL or _BAD_AUTH: the file says "no password". */
		ERR_clear_error();
		common_err("%s: signing failed: the TPM refused the key's empty password (its file says emptyAuth TRUE, but the key has a password: encode it again without emptyAuth, then give the password): %s",
			   name, reason);
	} else if (reason[0]) {
		ERR_clear_error();
		common_err("%s: signing failed: %s", name, reason);
	} else {
		common_err_ssl("%s: signing failed", name);
	}
}

/*
 * The digest was computed by the caller with the default provider; only
 * the private-key operation goes to the key's provider. (Letting CMS hash
 * and sign makes a TPM provider duplicate its digest and key contexts,
 * which a TPM without a resource manager cannot hold.)
 */
int common_key_sign_digest(const struct common_key *s, const char *hash,
			   size_t hash_size, const uint8_t *digest, size_t len,
			   uint8_t **sig, size_t *siglen)
{
	EVP_PKEY_CTX *pctx = NULL;
	const OSSL_PROVIDER *prov;
	unsigned char *buf = NULL;
	EVP_MD *md = NULL;
	char propq[80];
	size_t n = 0;
	int ret = -EIO;

	*sig = NULL;
	*siglen = 0;
	if (!hash || len != hash_size) {
		common_err("signing: a %s digest is %zu bytes, not %zu",
			   hash ? hash : "?", hash ? hash_size : 0, len);
		return -EINVAL;
	}
	md = EVP_MD_fetch(NULL, hash, "?provider=default");
	/*
	 * Ask for the key's own provider: a TPM key also has a public-only
	 * copy in the default provider (made when it was compared with a
	 * certificate), which must not be picked for signing.
	 */
	prov = EVP_PKEY_get0_provider(s->pkey);
	snprintf(propq, sizeof(propq), "?provider=%s",
		 prov ? OSSL_PROVIDER_get0_name(prov) : "default");
	pctx = md ? EVP_PKEY_CTX_new_from_pkey(NULL, s->pkey, propq) : NULL;
	if (!pctx || EVP_PKEY_sign_init(pctx) <= 0 ||
	    EVP_PKEY_CTX_set_signature_md(pctx, md) <= 0)
		goto fail;
	if (EVP_PKEY_is_a(s->pkey, "RSA") &&
	    EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) <= 0)
		goto fail;
	if (EVP_PKEY_sign(pctx, NULL, &n, digest, len) <= 0)
		goto fail;
	buf = malloc(n);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	if (EVP_PKEY_sign(pctx, buf, &n, digest, len) <= 0)
		goto fail;
	*sig = buf;
	*siglen = n;
	ret = 0;
	goto out;
fail:
	sign_failed(s);
	free(buf);
out:
	EVP_PKEY_CTX_free(pctx);
	EVP_MD_free(md);
	return ret;
}

int common_key_public_der(const struct common_key *s, uint8_t **der,
			  size_t *len)
{
	unsigned char *p = NULL;
	int n;

	*der = NULL;
	*len = 0;
	n = i2d_PUBKEY(s->pkey, &p);
	if (n <= 0) {
		common_err_ssl("cannot encode the public key");
		return -EIO;
	}
	*der = malloc((size_t)n);
	if (!*der) {
		OPENSSL_free(p);
		return -ENOMEM;
	}
	memcpy(*der, p, (size_t)n);
	*len = (size_t)n;
	OPENSSL_free(p);
	return 0;
}

/* The key types format v1 allows (the kernel's table). */
static const struct key_alg {
	int type;		/* ELFSIG_KEY_RSA or ELFSIG_KEY_ECDSA */
	unsigned int bits;
	const char *name;
} key_algs[] = ELFSIG_KEY_ALGS;

#define N_KEY_ALGS (sizeof(key_algs) / sizeof(key_algs[0]))

const char *common_key_names(void)
{
	static char list[128];
	size_t i, n = 0;

	if (list[0])
		return list;
	for (i = 0; i < N_KEY_ALGS; i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s",
				      i ? ", " : "", key_algs[i].name);
	return list;
}

/* The RSA signature is as long as the modulus. */
bool common_key_rsa_sig_ok(size_t sig_len)
{
	size_t i;

	for (i = 0; i < N_KEY_ALGS; i++)
		if (key_algs[i].type == ELFSIG_KEY_RSA &&
		    sig_len == key_algs[i].bits / 8)
			return true;
	return false;
}

/* An ECDSA signature is a SEQUENCE of two INTEGERs of at most the field
 * size (plus a sign byte). */
size_t common_key_ecdsa_max_field(void)
{
	size_t i, m = 0;

	for (i = 0; i < N_KEY_ALGS; i++)
		if (key_algs[i].type == ELFSIG_KEY_ECDSA &&
		    (key_algs[i].bits + 7) / 8 > m)
			m = (key_algs[i].bits + 7) / 8;
	return m;
}

/* OpenSSL's NID of the NIST curve with a @bits field, or NID_undef. */
static int nist_curve(unsigned int bits)
{
	switch (bits) {
	case 256: return NID_X9_62_prime256v1;
	case 384: return NID_secp384r1;
	case 521: return NID_secp521r1;
	default: return NID_undef;
	}
}

/* Describe @key as "RSA-1024", "EC prime256v1", "ED25519"... */
static void key_desc(EVP_PKEY *key, char *out, size_t outsz)
{
	char group[64] = "";

	if (EVP_PKEY_is_a(key, "RSA"))
		snprintf(out, outsz, "RSA-%d", EVP_PKEY_get_bits(key));
	else if (EVP_PKEY_is_a(key, "EC") &&
		 EVP_PKEY_get_group_name(key, group, sizeof(group), NULL))
		snprintf(out, outsz, "EC %s", group);
	else
		snprintf(out, outsz, "%s", EVP_PKEY_get0_type_name(key) ?
			 EVP_PKEY_get0_type_name(key) : "unknown");
}

int common_key_check(EVP_PKEY *key, const char *name)
{
	char group[64] = "", desc[96];
	size_t i;
	bool rsa = EVP_PKEY_is_a(key, "RSA");
	bool ec = EVP_PKEY_is_a(key, "EC");
	int curve = NID_undef;

	if (ec && EVP_PKEY_get_group_name(key, group, sizeof(group), NULL))
		curve = OBJ_sn2nid(group);
	for (i = 0; i < N_KEY_ALGS; i++) {
		const struct key_alg *k = &key_algs[i];

		if (k->type == ELFSIG_KEY_RSA ?
		    rsa && EVP_PKEY_get_bits(key) == (int)k->bits :
		    ec && curve != NID_undef && curve == nist_curve(k->bits))
			return 0;
	}
	key_desc(key, desc, sizeof(desc));
	common_err("%s: %s keys are not allowed by format v1 (allowed: %s)",
		   name, desc, common_key_names());
	return -EKEYREJECTED;
}
