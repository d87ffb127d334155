// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_keyloader.c - libFuzzer harness for the keyloader's parsers. The
 * first byte picks one: the policy file (whatever it accepts, the canonical
 * writer reproduces and the parser accepts again with the same PCRs and
 * keys), a certificate file (an accepted one's DER parses again to the same
 * fingerprint), a PCR values file, a signed PCR policy (whatever it
 * accepts, the writer reproduces with the same values and signature), a
 * TCG event log replayed with a component replaced.
 */
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kl_counter.h"
#include "kl_measure.h"
#include "kl_pcrsig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void policy(const uint8_t *data, size_t size)
{
	struct kl_policy a, b;
	char *text;
	size_t len, i;

	if (kl_policy_parse(data, size, "fuzz", &a))
		return;
	/* An older version names no machine: written for one. */
	if (!a.srk_name_len) {
		a.srk_name[1] = 0x0b;
		a.srk_name_len = 2 + KL_FP_LEN;
	}
	if (kl_policy_format(&a, &text, &len)) {
		kl_policy_free(&a);
		return;		/* -E2BIG: long subjects; refused, never written */
	}
	if (kl_policy_parse((const uint8_t *)text, len, "fuzz", &b))
		abort();
	if (a.sel.bank != b.sel.bank || a.sel.mask != b.sel.mask ||
	    a.measure_pcr != b.measure_pcr || a.nkeys != b.nkeys ||
	    memcmp(a.authority, b.authority, KL_FP_LEN) ||
	    a.srk_name_len != b.srk_name_len ||
	    memcmp(a.srk_name, b.srk_name, a.srk_name_len))
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
	struct common_cert a = { 0 }, b = { 0 };
	uint8_t fp[KL_FP_LEN];

	if (common_cert_parse(data, size, "fuzz", &a))
		return;
	if (kl_sha256(a.der, a.der_len, fp) ||
	    a.der_len > size || memcmp(fp, a.fp, KL_FP_LEN) || !a.subject)
		abort();
	if (common_cert_parse(a.der, a.der_len, "fuzz", &b) ||
	    memcmp(a.fp, b.fp, KL_FP_LEN))
		abort();
	common_cert_clear(&a);
	common_cert_clear(&b);
}

static void pcr_values(const uint8_t *data, size_t size)
{
	static const struct elfsig_tpm_pcrsel sel = { 0x000b, 0x95 }; /* sha256:0,2,4,7 */
	struct elfsig_tpm_pcr_values v;

	kl_pcr_values_parse(data, size, "fuzz", &sel, &v);
}

/* "Signs" with the signatures the parsed file carries: the approval's
 * first, then its generation's (a version 1 file has none: the
 * approval's again). */
struct replay {
	const struct kl_pcr_policy *pp;
	int calls;
};

static int replay_sig(void *ctx, const uint8_t digest[KL_FP_LEN],
		      uint8_t **sig, size_t *sig_len)
{
	struct replay *r = ctx;
	const struct kl_pcr_policy *pp = r->pp;
	bool gen = r->calls++ && pp->gen_sig_len;
	const uint8_t *src = gen ? pp->gen_sig : pp->sig;
	size_t n = gen ? pp->gen_sig_len : pp->sig_len;

	*sig = malloc(n);
	if (!*sig)
		return -1;
	memcpy(*sig, src, n);
	*sig_len = n;
	return 0;
}

static void pcr_policy(const uint8_t *data, size_t size)
{
	struct kl_pcr_policy a, b;
	struct kl_authority auth = { 0 };
	struct replay r = { .pp = &a };
	/* The machine: the file's own, or (older versions) a SHA-256 name */
	struct kl_policy pol = { .srk_name = { 0x00, 0x0b },
				 .srk_name_len = 2 + KL_FP_LEN };
	char *text;
	size_t len;

	if (kl_pcr_policy_parse(data, size, "fuzz", &a))
		return;
	memcpy(auth.fp, a.authority, KL_FP_LEN);
	if (a.srk_name_len)
		memcpy(pol.srk_name, a.srk_name, a.srk_name_len);
	if (kl_pcr_policy_sign(&a.values, a.generation, &pol, &auth, replay_sig,
			       &r, &text, &len) ||
	    kl_pcr_policy_parse((const uint8_t *)text, len, "fuzz", &b))
		abort();
	if (memcmp(&a.values, &b.values, sizeof(a.values)) ||
	    memcmp(a.approved, b.approved, sizeof(a.approved)) ||
	    memcmp(a.authority, b.authority, KL_FP_LEN) ||
	    a.sig_len != b.sig_len || memcmp(a.sig, b.sig, a.sig_len) ||
	    b.version != KL_PCRPOL_VERSION || a.generation != b.generation ||
	    memcmp(b.srk_name, pol.srk_name, pol.srk_name_len) ||
	    (a.version == KL_PCRPOL_VERSION &&
	     (a.gen_sig_len != b.gen_sig_len ||
	      memcmp(a.gen_sig, b.gen_sig, a.gen_sig_len))))
		abort();
	free(text);
	kl_pcr_policy_clear(&a);
	kl_pcr_policy_clear(&b);
}

/* The rollback counter binding: parse, write, parse again, the same. */
static void binding(const uint8_t *data, size_t size)
{
	struct kl_binding a, b;
	char *text;
	size_t len;

	if (kl_binding_parse(data, size, "fuzz", &a))
		return;
	if (kl_binding_format(&a, &text, &len) ||
	    kl_binding_parse((const uint8_t *)text, len, "fuzz", &b) ||
	    memcmp(&a, &b, sizeof(a)))
		abort();
	free(text);
}

static void event_log(const uint8_t *data, size_t size)
{
	static const struct elfsig_tpm_pcrsel sel = { 0x000b, 0xffffff };
	struct kl_eventlog_replace rep = { .from = { 0 }, .to = { 1 } };
	struct elfsig_tpm_pcr_values v;

	kl_eventlog_replay(data, size, "fuzz", &rep, 1, &sel, &v);
}

/* systemd .pcrsig JSON: what parses is within the bounds. */
static void pcrsig(const uint8_t *data, size_t size)
{
	struct kl_pcrsig_file f;
	size_t i;

	if (kl_pcrsig_parse(data, size, "fuzz", &f))
		return;
	if (!f.n || f.n > KL_PCRSIG_MAX_ENTRIES)
		abort();
	for (i = 0; i < f.n; i++)
		if (!f.entries[i].pcrs || f.entries[i].pcrs >> ELFSIG_TPM_MAX_PCRS ||
		    !f.entries[i].sig_len || f.entries[i].sig_len > KL_PCRPOL_MAX_SIG)
			abort();
	kl_pcrsig_file_free(&f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	switch (data[0] % 7) {
	case 0: policy(data + 1, size - 1); break;
	case 1: cert(data + 1, size - 1); break;
	case 2: pcr_values(data + 1, size - 1); break;
	case 3: pcr_policy(data + 1, size - 1); break;
	case 4: event_log(data + 1, size - 1); break;
	case 5: binding(data + 1, size - 1); break;
	case 6: pcrsig(data + 1, size - 1); break;
	}
	return 0;
}
