// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcr_gen_tbs.c - unit test of what the enrolment authority signs to give
 * a PCR policy its generation and machine: SHA-256 of the tag, its NUL,
 * the approved digest, the generation (big-endian) and the whole SRK name,
 * computed here independently; a name longer than a TPM name is refused,
 * never signed cut short. Prints the project's PASS/FAIL lines.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <openssl/sha.h>

#include "kl_pcrpolicy.h"

static int failed;

static void result(const char *name, int ok, const char *why)
{
	printf("%s: %s%s%s\n", ok ? "PASS" : "FAIL", name, ok ? "" : ": ",
	       ok ? "" : why);
	failed += !ok;
}

/* The message, laid out here from the definition, and its digest. */
static void expected(const uint8_t *approved, uint32_t gen,
		     const uint8_t *name, size_t name_len, uint8_t *out)
{
	static uint8_t msg[sizeof(KL_GENERATION_TAG) + ELFSIG_TPM_POLICY_SIZE +
			   4 + ELFSIG_TPM_MAX_NAME];
	size_t o = 0;

	memcpy(msg, KL_GENERATION_TAG, sizeof(KL_GENERATION_TAG));
	o += sizeof(KL_GENERATION_TAG);
	memcpy(msg + o, approved, ELFSIG_TPM_POLICY_SIZE);
	o += ELFSIG_TPM_POLICY_SIZE;
	msg[o++] = gen >> 24;
	msg[o++] = gen >> 16;
	msg[o++] = gen >> 8;
	msg[o++] = gen;
	memcpy(msg + o, name, name_len);
	SHA256(msg, o + name_len, out);
}

int main(void)
{
	uint8_t approved[ELFSIG_TPM_POLICY_SIZE], name[ELFSIG_TPM_MAX_NAME + 1];
	uint8_t got[KL_FP_LEN], want[KL_FP_LEN];
	size_t len;
	int err;

	for (len = 0; len < sizeof(approved); len++)
		approved[len] = (uint8_t)(0xa0 + len);
	for (len = 0; len < sizeof(name); len++)
		name[len] = (uint8_t)len;

	/* An SRK name as the TPM gives it: nameAlg (2 bytes) || SHA-256. */
	err = kl_pcr_policy_gen_tbs(approved, 0x01020304, name, 2 + KL_FP_LEN,
				    got);
	expected(approved, 0x01020304, name, 2 + KL_FP_LEN, want);
	result("gen tbs: a SHA-256 SRK name, as defined", !err &&
	       !memcmp(got, want, sizeof(got)), "digest differs");

	err = kl_pcr_policy_gen_tbs(approved, 7, name, ELFSIG_TPM_MAX_NAME, got);
	expected(approved, 7, name, ELFSIG_TPM_MAX_NAME, want);
	result("gen tbs: the longest TPM name, whole", !err &&
	       !memcmp(got, want, sizeof(got)), "digest differs");

	err = kl_pcr_policy_gen_tbs(approved, 7, name, ELFSIG_TPM_MAX_NAME + 1,
				    got);
	result("gen tbs: a name longer than a TPM name is refused",
	       err == -EINVAL, "signed (cut short) instead of refused");
	return failed ? 1 : 0;
}
