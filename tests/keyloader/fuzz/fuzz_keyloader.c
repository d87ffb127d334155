// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_keyloader.c - libFuzzer harness for the keyloader's parsers. The
 * first byte picks one: the policy file (whatever it accepts, the canonical
 * writer reproduces and the parser accepts again with the same PCRs and
 * keys), a certificate file (an accepted one's DER parses again to the same
 * fingerprint), a PCR values file.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void policy(const uint8_t *data, size_t size)
{
	struct kl_policy a, b;
	char *text;
	size_t len, i;

	if (kl_policy_parse(data, size, "fuzz", &a))
		return;
	if (kl_policy_format(&a, &text, &len)) {
		kl_policy_free(&a);
		return;		/* -E2BIG: long subjects; refused, never written */
	}
	if (kl_policy_parse((const uint8_t *)text, len, "fuzz", &b))
		abort();
	if (a.sel.bank != b.sel.bank || a.sel.mask != b.sel.mask ||
	    a.measure_pcr != b.measure_pcr || a.nkeys != b.nkeys)
		abort();
	for (i = 0; i < a.nkeys; i++)
		if (memcmp(a.keys[i].fp, b.keys[i].fp, KL_FP_LEN) ||
		    !a.keys[i].subject != !b.keys[i].subject)
			abort();
	free(text);
	kl_policy_free(&a);
	kl_policy_free(&b);
}

static void cert(const uint8_t *data, size_t size)
{
	struct kl_cert a = { 0 }, b = { 0 };
	uint8_t fp[KL_FP_LEN];

	if (kl_cert_parse(data, size, "fuzz", &a))
		return;
	kl_sha256(a.der, a.der_len, fp);
	if (a.der_len > size || memcmp(fp, a.fp, KL_FP_LEN) || !a.subject)
		abort();
	if (kl_cert_parse(a.der, a.der_len, "fuzz", &b) ||
	    memcmp(a.fp, b.fp, KL_FP_LEN))
		abort();
	kl_cert_clear(&a);
	kl_cert_clear(&b);
}

static void pcr_values(const uint8_t *data, size_t size)
{
	static const struct elfsig_tpm_pcrsel sel = { 0x000b, 0x95 }; /* sha256:0,2,4,7 */
	struct elfsig_tpm_pcr_values v;

	kl_pcr_values_parse(data, size, "fuzz", &sel, &v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	switch (data[0] % 3) {
	case 0: policy(data + 1, size - 1); break;
	case 1: cert(data + 1, size - 1); break;
	case 2: pcr_values(data + 1, size - 1); break;
	}
	return 0;
}
