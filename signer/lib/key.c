// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * key.c - libelfsig's private keys: common's key loading (common/lib/key.c)
 * behind the library's exported names.
 */
#include <errno.h>
#include <stdlib.h>

#include "key.h"
#include "lib_private.h"

struct elfsig_key {
	struct common_key *key;
};

int elfsig_key_load(const struct elfsig_key_opts *o, struct elfsig_key **out)
{
	const struct common_key_opts co = {
		.key = o->key, .providers = o->providers, .tcti = o->tcti,
		.key_pass = o->key_pass,
	};
	struct elfsig_key *k;
	int ret;

	*out = NULL;
	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	ret = common_key_load(&co, &k->key);
	if (ret) {
		free(k);
		return ret;
	}
	*out = k;
	return 0;
}

void elfsig_key_free(struct elfsig_key *k)
{
	if (!k)
		return;
	common_key_free(k->key);
	free(k);
}

struct evp_pkey_st *elfsig_key_pkey(const struct elfsig_key *k)
{
	return common_key_pkey(k->key);
}

const char *elfsig_key_name(const struct elfsig_key *k)
{
	return common_key_name(k->key);
}

int elfsig_key_sign_digest(const struct elfsig_key *k, enum elfsig_hash hash,
			   const uint8_t *digest, size_t len, uint8_t **sig,
			   size_t *siglen)
{
	const struct elfsig_hash_alg *h = elfsig_hash_alg(hash);

	return common_key_sign_digest(k->key, h ? h->name : NULL,
				      h ? h->size : 0, digest, len, sig, siglen);
}

int elfsig_key_public_der(const struct elfsig_key *k, uint8_t **der,
			  size_t *len)
{
	return common_key_public_der(k->key, der, len);
}
