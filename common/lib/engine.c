// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * engine.c - PKCS#11 keys through libp11's OpenSSL engine, for hosts where
 * no OpenSSL provider serves "pkcs11:" URIs (Debian 12 has libp11's engine,
 * libengine-pkcs11-openssl, and no pkcs11-provider), as the kernel's
 * sign-file and evmctl do.
 *
 * The ENGINE API is deprecated in OpenSSL 3 and absent from builds made
 * without it (OPENSSL_NO_ENGINE, OPENSSL_NO_DEPRECATED_3_0): this file alone
 * uses it, asks for its declarations without the deprecation attributes,
 * and otherwise builds to stubs that say the engine cannot be used.
 */
#define OPENSSL_SUPPRESS_DEPRECATED

#include <errno.h>
#include <string.h>

#include <openssl/opensslconf.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include "common.h"
#include "key.h"

#if !defined(OPENSSL_NO_ENGINE) && !defined(OPENSSL_NO_DEPRECATED_3_0)
#include <openssl/engine.h>

/* libp11's error libraries and the reasons worth their own message. */
#define P11_LIB_CKR		"PKCS#11 module"
#define P11_LIB_ENG		"pkcs11 engine"
#define CKR_PIN_INCORRECT	0xa0
#define CKR_PIN_LEN_RANGE	0xa2
#define CKR_PIN_LOCKED		0xa4
#define ENG_R_OBJECT_NOT_FOUND	0x65

/*
 * What libp11 queued: its first error that says why (the ones after it
 * only say that loading failed), as (library, reason) and as text; the
 * queue is drained.
 */
struct p11_reason {
	const char *lib;
	int reason;
	const char *text;
};

static void p11_reason(struct p11_reason *r)
{
	unsigned long e;

	memset(r, 0, sizeof(*r));
	while ((e = ERR_get_error()) != 0) {
		const char *lib = ERR_lib_error_string(e);

		if (r->text || !lib || (strcmp(lib, P11_LIB_CKR) &&
					strcmp(lib, P11_LIB_ENG)))
			continue;
		r->lib = lib;
		r->reason = ERR_GET_REASON(e);
		r->text = ERR_reason_error_string(e);
	}
}

static bool p11_is(const struct p11_reason *r, const char *lib, int reason)
{
	return r->lib && strcmp(r->lib, lib) == 0 && r->reason == reason;
}

int common_engine_load(const char *uri, const char *shown, const char *pin,
		       struct ui_method_st *ui, void *ui_data, const bool *pin_asked,
		       struct evp_pkey_st **pkey, struct engine_st **engine)
{
	struct p11_reason why;
	EVP_PKEY *k = NULL;
	ENGINE *e;
	int ret;

	*pkey = NULL;
	*engine = NULL;
	e = ENGINE_by_id("pkcs11");
	if (!e) {
		ERR_clear_error();
		return -ENOPKG;
	}
	/*
	 * libp11 prints its own failures on stderr unless told not to. A
	 * pin-value in the URI takes precedence over the PIN set here.
	 */
	if (!ENGINE_ctrl_cmd_string(e, "QUIET", NULL, 1) ||
	    (pin && !ENGINE_ctrl_cmd_string(e, "PIN", pin, 0)) ||
	    !ENGINE_init(e)) {
		common_err_ssl("%s: cannot start libp11's PKCS#11 engine", shown);
		ENGINE_free(e);
		return -ENODEV;
	}
	k = ENGINE_load_private_key(e, uri, ui, ui_data);
	if (k) {
		ERR_clear_error();
		*pkey = k;
		*engine = e;
		return 0;
	}
	p11_reason(&why);
	if (p11_is(&why, P11_LIB_CKR, CKR_PIN_INCORRECT) ||
	    p11_is(&why, P11_LIB_CKR, CKR_PIN_LEN_RANGE)) {
		common_err("%s: the token refused the PIN (wrong PIN)", shown);
		ret = -EACCES;
	} else if (p11_is(&why, P11_LIB_CKR, CKR_PIN_LOCKED)) {
		common_err("%s: the token's PIN is locked (too many wrong PINs)", shown);
		ret = -EACCES;
	} else if (*pin_asked && !pin) {
		common_err("%s: the token needs a PIN (give it with --key-pass, ELFSIG_KEY_PASS or pin-value in the URI)",
			   shown);
		ret = -EACCES;
	} else if (p11_is(&why, P11_LIB_ENG, ENG_R_OBJECT_NOT_FOUND)) {
		common_err("%s: no private key matches the URI (no such token, or no such key on it)",
			   shown);
		ret = -ENOKEY;
	} else {
		common_err("%s: cannot load the private key through libp11's PKCS#11 engine%s%s",
			   shown, why.text ? ": " : "", why.text ? why.text : "");
		ret = -ENOKEY;
	}
	ENGINE_finish(e);
	ENGINE_free(e);
	return ret;
}

void common_engine_release(struct engine_st *engine)
{
	if (!engine)
		return;
	ENGINE_finish(engine);
	ENGINE_free(engine);
}

#else	/* no ENGINE API in this OpenSSL */

int common_engine_load(const char *uri, const char *shown, const char *pin,
		       struct ui_method_st *ui, void *ui_data, const bool *pin_asked,
		       struct evp_pkey_st **pkey, struct engine_st **engine)
{
	*pkey = NULL;
	*engine = NULL;
	return -ENOPKG;
}

void common_engine_release(struct engine_st *engine)
{
}

#endif
