// SPDX-License-Identifier: GPL-2.0-only
/* enroll.c - seal a policy's digest, write policy + sealed object, verify. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "kl.h"

int kl_policy_load(const char *path, struct kl_policy *pol)
{
	uint8_t *buf;
	size_t len;
	int err;

	err = kl_read_file(AT_FDCWD, path, KL_POLICY_MAX_SIZE, &buf, &len);
	if (err)
		return err;
	err = kl_policy_parse(buf, len, path, pol);
	free(buf);
	return err;
}

static int seal_digest(const struct kl_policy *pol,
		       const struct kl_enroll_opts *o,
		       const uint8_t digest[KL_FP_LEN],
		       struct elfsig_tpm_sealed **sealed)
{
	struct elfsig_tpm_opts topts = {
		.tcti = o->tcti, .srk_handle = o->srk_handle,
	};
	struct elfsig_tpm_pcr_values vals;
	struct elfsig_tpm *tpm;
	uint8_t *buf;
	size_t len;
	int err;

	err = elfsig_tpm_open(&topts, &tpm);
	if (err)
		return err;
	if (o->pcr_values) {
		err = kl_read_file(AT_FDCWD, o->pcr_values, 64 * 1024, &buf,
				   &len);
		if (!err) {
			err = kl_pcr_values_parse(buf, len, o->pcr_values,
						  &pol->sel, &vals);
			free(buf);
		}
		if (!err)
			err = elfsig_tpm_seal(tpm, &vals, digest, KL_FP_LEN,
					      sealed);
	} else {
		err = elfsig_tpm_seal_current(tpm, &pol->sel, digest, KL_FP_LEN,
					      sealed);
	}
	elfsig_tpm_close(tpm);
	return err;
}

int kl_enroll_commit(const struct kl_policy *pol,
		     const struct kl_enroll_opts *o)
{
	struct elfsig_tpm_sealed *sealed = NULL;
	char *text, *stmp = NULL, *ptmp = NULL;
	uint8_t digest[KL_FP_LEN], *sbuf = NULL;
	size_t len, slen = 0;
	int err;

	err = kl_policy_check_pcrs(&pol->sel, pol->measure_pcr);
	if (err)
		return err;
	err = kl_policy_format(pol, &text, &len);
	if (err)
		return err;
	kl_sha256(text, len, digest);
	err = seal_digest(pol, o, digest, &sealed);
	OPENSSL_cleanse(digest, sizeof(digest));
	if (!err)
		err = elfsig_tpm_sealed_serialize(sealed, &sbuf, &slen);
	/* Both files are written and synced under temporary names first, so
	 * a failure (full disk, missing directory) changes nothing; then two
	 * renames. A crash between those leaves a pair that does not match,
	 * which the loader refuses (no key loaded): it fails closed. */
	if (!err)
		err = common_atomic_prepare(o->sealed_path, sbuf, slen, 0644, &stmp, kl_err);
	if (!err)
		err = common_atomic_prepare(o->policy_path, text, len, 0644, &ptmp, kl_err);
	if (err) {
		common_atomic_abort(stmp);
		common_atomic_abort(ptmp);
	} else {
		err = common_atomic_commit(stmp, o->sealed_path, kl_err);
		if (err)
			common_atomic_abort(ptmp);
		else
			err = common_atomic_commit(ptmp, o->policy_path, kl_err);
	}
	elfsig_tpm_sealed_free(sealed);
	free(sbuf);
	free(text);
	return err;
}

int kl_sealed_pin(const struct elfsig_tpm_sealed *sealed, const char *path,
		  struct elfsig_tpm_opts *opts)
{
	const uint8_t *name;
	size_t len = elfsig_tpm_sealed_srk_name(sealed, &name);

	/* Without the pin, whoever answers for the TPM could substitute the
	 * SRK, learn the session salt and forge the unsealed digest. */
	if (!len) {
		kl_err("%s: sealed object does not pin the TPM's storage root key (written before enrolment recorded it): refused, run elfsig-enroll reseal",
		       path);
		return -EBADMSG;
	}
	opts->srk_name = name;
	opts->srk_name_len = len;
	return 0;
}

int kl_policy_verify(struct elfsig_tpm *tpm,
		     const struct elfsig_tpm_sealed *sealed,
		     const struct kl_policy *pol,
		     const uint8_t digest[KL_FP_LEN])
{
	const struct elfsig_tpm_pcrsel *ssel = elfsig_tpm_sealed_pcrsel(sealed);
	uint8_t secret[ELFSIG_TPM_MAX_SECRET];
	size_t slen = 0;
	int err;

	if (ssel->bank != pol->sel.bank || ssel->mask != pol->sel.mask) {
		kl_err("the sealed object covers other PCRs than the policy names");
		return -EBADE;
	}
	err = elfsig_tpm_unseal(tpm, sealed, secret, sizeof(secret), &slen);
	if (!err && (slen != KL_FP_LEN ||
		     CRYPTO_memcmp(secret, digest, KL_FP_LEN))) {
		kl_err("the policy file does not match the sealed digest (edited after enrolment?)");
		err = -EBADE;
	}
	OPENSSL_cleanse(secret, sizeof(secret));
	return err;
}
