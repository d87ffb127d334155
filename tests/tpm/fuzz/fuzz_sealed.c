// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_sealed.c - libFuzzer harness for the sealed-object parser: hostile
 * bytes never crash it, and whatever it accepts serialises back to exactly
 * the same bytes (no field is silently dropped or normalised).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "elfsig_tpm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elfsig_tpm_sealed *s = NULL, *t = NULL;
	uint8_t *buf = NULL, *pub = NULL, *priv = NULL;
	size_t len, publen, privlen;

	if (elfsig_tpm_sealed_parse(data, size, &s) == 0) {
		if (elfsig_tpm_sealed_serialize(s, &buf, &len) ||
		    len != size || memcmp(buf, data, size))
			abort();
		/* the tpm2-tools pair of an accepted object is accepted too
		 * (one sealed to a PCR state: a PolicyAuthorize object has
		 * no selection to import it with) */
		if (elfsig_tpm_sealed_to_tss(s, &pub, &publen, &priv, &privlen) ||
		    (elfsig_tpm_sealed_pcrsel(s)->mask &&
		     elfsig_tpm_sealed_from_tss(elfsig_tpm_sealed_pcrsel(s), pub,
						publen, priv, privlen, &t)))
			abort();
		elfsig_tpm_sealed_free(t);
		free(pub);
		free(priv);
		free(buf);
		elfsig_tpm_sealed_free(s);
	}
	/* The same bytes as a tpm2-tools -u/-r pair, split at the first byte. */
	if (size > 1) {
		struct elfsig_tpm_pcrsel sel = { 0x000b, 0x81 };
		size_t cut = 1 + data[0] % (size - 1);
		if (elfsig_tpm_sealed_from_tss(&sel, data + 1, cut - 1,
					       data + cut, size - cut, &t) == 0)
			elfsig_tpm_sealed_free(t);
	}
	return 0;
}
