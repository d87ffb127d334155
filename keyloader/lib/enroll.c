// SPDX-License-Identifier: GPL-2.0-only
/* enroll.c - seal a policy's digest, write policy + sealed object, verify. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "kl_counter.h"
#include "kl_enroll.h"

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

static int predict(const struct kl_enroll_opts *o,
		   const struct elfsig_tpm_pcrsel *sel,
		   struct elfsig_tpm_pcr_values *vals)
{
	/* The hit counts are the prediction's report, not an option. */
	struct kl_eventlog_replace rep[KL_MAX_REPLACE];
	char hex[2 * KL_FP_LEN + 1];
	uint8_t *buf;
	size_t len, i;
	int err;

	err = kl_read_file(AT_FDCWD, o->event_log, KL_EVENTLOG_MAX_SIZE, &buf,
			   &len);
	if (err)
		return err;
	memcpy(rep, o->replace, sizeof(rep));
	err = kl_eventlog_replay(buf, len, o->event_log, rep, o->nreplace, sel,
				 vals);
	free(buf);
	/* A replacement that matches nothing predicts the old state: it is
	 * a mistake (a wrong digest), never signed silently. */
	for (i = 0; !err && i < o->nreplace; i++) {
		if (rep[i].hits)
			continue;
		common_hex(rep[i].from, KL_FP_LEN, hex);
		kl_err("%s: no event measured sha256:%s (nothing to replace)",
		       o->event_log, hex);
		err = -ENOENT;
	}
	return err;
}

int kl_enroll_pcr_values(const struct kl_enroll_opts *o,
			 const struct elfsig_tpm_pcrsel *sel,
			 struct elfsig_tpm_pcr_values *vals)
{
	struct elfsig_tpm_opts topts = {
		.tcti = o->tcti, .srk_handle = o->srk_handle,
	};
	struct elfsig_tpm *tpm;
	uint8_t *buf;
	size_t len;
	int err;

	if (o->pcr_values) {
		err = kl_read_file(AT_FDCWD, o->pcr_values, 64 * 1024, &buf,
				   &len);
		if (err)
			return err;
		err = kl_pcr_values_parse(buf, len, o->pcr_values, sel, vals);
		free(buf);
		return err;
	}
	if (o->event_log)
		return predict(o, sel, vals);
	err = elfsig_tpm_open(&topts, &tpm);
	if (err)
		return err;
	err = elfsig_tpm_pcr_read(tpm, sel, vals);
	elfsig_tpm_close(tpm);
	return err;
}

int kl_enroll_seal_to(const struct kl_enroll_opts *o,
		      const struct kl_authority *key, const char *ref,
		      const struct elfsig_tpm_pcr_values *pcrs,
		      const struct kl_authority *a, uint8_t **buf, size_t *len)
{
	struct elfsig_tpm_opts topts = {
		.tcti = o->tcti, .srk_handle = o->srk_handle,
	};
	struct elfsig_tpm_sealed *sealed = NULL;
	struct elfsig_tpm *tpm;
	int err;

	*buf = NULL;
	err = elfsig_tpm_open(&topts, &tpm);
	if (err)
		return err;
	/* The object holds the authority's fingerprint and opens under the
	 * PCR policies @key signs with policyRef @ref. */
	err = elfsig_tpm_seal_authorized_pcrs(tpm, key->spki, key->spki_len,
					      (const uint8_t *)ref, strlen(ref),
					      pcrs, a->fp, KL_FP_LEN, &sealed);
	elfsig_tpm_close(tpm);
	if (!err)
		err = elfsig_tpm_sealed_serialize(sealed, buf, len);
	elfsig_tpm_sealed_free(sealed);
	return err;
}

int kl_enroll_seal(const struct kl_enroll_opts *o, const struct kl_authority *a,
		   uint8_t **buf, size_t *len)
{
	/* elfsig's policyRef: the authority's approvals for elfsig only. */
	return kl_enroll_seal_to(o, a, KL_POLICY_REF, NULL, a, buf, len);
}

int kl_enroll_machine(const struct kl_enroll_opts *o, struct kl_policy *pol)
{
	struct elfsig_tpm_opts topts = {
		.tcti = o->tcti, .srk_handle = o->srk_handle,
	};
	struct elfsig_tpm *tpm;
	int err;

	err = elfsig_tpm_open(&topts, &tpm);
	if (err)
		return err;
	err = elfsig_tpm_srk_name(tpm, pol->srk_name, &pol->srk_name_len);
	elfsig_tpm_close(tpm);
	return err;
}

int kl_sealed_machine(const char *path, struct kl_policy *pol)
{
	struct elfsig_tpm_sealed *sealed = NULL;
	struct elfsig_tpm_opts pin = { 0 };
	int err;

	err = elfsig_tpm_sealed_read_file(path, &sealed);
	if (!err)
		err = kl_sealed_pin(sealed, path, &pin);
	if (!err) {
		memcpy(pol->srk_name, pin.srk_name, pin.srk_name_len);
		pol->srk_name_len = pin.srk_name_len;
	}
	elfsig_tpm_sealed_free(sealed);
	return err;
}

int kl_enroll_sign_policy(struct kl_policy *pol, const struct kl_signer *s,
			  char **text, size_t *len, uint8_t **sig,
			  size_t *sig_len)
{
	uint8_t digest[KL_FP_LEN];
	int err;

	*sig = NULL;
	memcpy(pol->authority, s->auth.fp, KL_FP_LEN);
	pol->version = KL_POLICY_VERSION;
	err = kl_policy_check_pcrs(&pol->sel, pol->measure_pcr);
	if (!err)
		err = kl_policy_format(pol, text, len);
	if (err)
		return err;
	err = kl_sha256(*text, *len, digest);
	if (!err)
		err = s->sign(s->ctx, digest, sig, sig_len);
	if (err) {
		free(*text);
		*text = NULL;
	}
	return err;
}

int kl_enroll_pcr_policy(const struct kl_enroll_opts *o,
			 const struct kl_policy *pol, const struct kl_signer *s,
			 char **text, size_t *len, char **path)
{
	struct elfsig_tpm_pcr_values vals;
	uint8_t approved[ELFSIG_TPM_POLICY_SIZE];
	char hex[2 * ELFSIG_TPM_POLICY_SIZE + 1];
	int err;

	*path = NULL;
	err = kl_enroll_pcr_values(o, &pol->sel, &vals);
	if (!err)
		err = elfsig_tpm_pcr_policy_digest(&vals, approved);
	if (!err)
		err = kl_pcr_policy_sign(&vals, pol->generation, pol, &s->auth,
					 s->sign, s->ctx, text, len);
	if (err)
		return err;
	/* Named after the state: signing it again replaces the same file. */
	common_hex(approved, sizeof(approved), hex);
	if ((o->out ? asprintf(path, "%s", o->out) :
		      asprintf(path, "%s/%.16s.pcrpol", o->pcrpol_dir, hex)) < 0) {
		*path = NULL;
		free(*text);
		*text = NULL;
		return -ENOMEM;
	}
	return 0;
}

int kl_write_all(struct kl_out *outs, size_t n)
{
	size_t i;
	int err = 0;

	/* Every file is written and synced under a temporary name first, so
	 * a failure (full disk, missing directory) changes nothing; then the
	 * renames, in order. A crash between them leaves files that do not
	 * match, which the loader refuses: it fails closed. */
	for (i = 0; i < n && !err; i++)
		err = common_atomic_prepare(outs[i].path, outs[i].data,
					    outs[i].len, outs[i].mode,
					    &outs[i].tmp, kl_err);
	for (i = 0; i < n; i++) {
		if (err) {
			common_atomic_abort(outs[i].tmp);
		} else {
			err = common_atomic_commit(outs[i].tmp, outs[i].path,
						   kl_err);
		}
		outs[i].tmp = NULL;
	}
	return err;
}

int kl_enroll_load(const struct kl_enroll_opts *o, struct kl_policy *pol,
		   struct kl_authority *a)
{
	uint8_t *buf = NULL, *sig = NULL;
	size_t len, sig_len;
	int err;

	memset(pol, 0, sizeof(*pol));
	memset(a, 0, sizeof(*a));
	err = kl_read_file(AT_FDCWD, o->policy_path, KL_POLICY_MAX_SIZE, &buf,
			   &len);
	if (!err)
		err = kl_policy_parse(buf, len, o->policy_path, pol);
	/* A version 1 policy: the message names the migration. */
	if (!err && pol->version < KL_POLICY_VERSION)
		err = kl_policy_check_signature(pol, buf, len, NULL, 0, NULL,
						o->policy_path);
	if (!err)
		err = kl_authority_load(o->authority_path, a);
	if (!err)
		err = kl_read_file(AT_FDCWD, o->sig_path, KL_PCRPOL_MAX_SIG, &sig,
				   &sig_len);
	if (!err)
		err = kl_policy_check_signature(pol, buf, len, sig, sig_len, a,
						o->policy_path);
	free(buf);
	free(sig);
	if (err) {
		kl_policy_free(pol);
		kl_authority_free(a);
	}
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

int kl_sealed_check(const struct elfsig_tpm_sealed *sealed, const char *path,
		    struct elfsig_tpm_opts *opts)
{
	const uint8_t *name, *ref;
	size_t ref_len;
	int err;

	err = kl_sealed_pin(sealed, path, opts);
	if (err)
		return err;
	/* A sealed object proves nothing about who sealed it: only one that
	 * opens under the authority's signed PCR policies is an enrolment. */
	if (!elfsig_tpm_sealed_authority(sealed, &name, &ref, &ref_len)) {
		kl_err("%s: sealed to one PCR state (format version 1 enrolment), not bound to an enrolment authority: refused, migrate it with elfsig-enroll migrate --authority-key KEY",
		       path);
		return -EPROTO;
	}
	if (ref_len != strlen(KL_POLICY_REF) ||
	    memcmp(ref, KL_POLICY_REF, ref_len)) {
		kl_err("%s: bound to the authority's policies for another purpose (policyRef), not elfsig's",
		       path);
		return -EBADE;
	}
	return 0;
}

/* The binding in place, if it is the authority's for this TPM and
 * counter (anything else is replaced, and said so). */
static bool old_binding(const struct kl_enroll_opts *o,
			const struct kl_authority *a, const uint8_t *srk,
			size_t srk_len, const struct elfsig_tpm_nv_info *nv,
			struct kl_binding *b)
{
	if (access(o->counter_path, F_OK))
		return false;
	if (kl_binding_load(o->counter_path, o->counter_sig_path, a, b) ||
	    kl_binding_check_machine(b, o->counter_path, srk, srk_len,
				     o->nv_index))
		goto replaced;
	if (b->nv_name_len == nv->name_len &&
	    !memcmp(b->nv_name, nv->name, nv->name_len))
		return true;
	kl_err("%s: binds another counter at 0x%08x (defined again?)",
	       o->counter_path, o->nv_index);
replaced:
	kl_err("%s: replaced by a new binding", o->counter_path);
	return false;
}

/* Define the counter, or take the one there if it is a rollback counter. */
static int counter_ready(struct elfsig_tpm *tpm, uint32_t index,
			 struct elfsig_tpm_nv_info *nv)
{
	int err = elfsig_tpm_counter_define(tpm, index);

	if (err && err != -EEXIST)
		return err;
	err = elfsig_tpm_nv_info(tpm, index, nv);
	if (err == -ENOENT)
		kl_err("NV index 0x%08x vanished", index);
	if (!err && elfsig_tpm_counter_check(nv)) {
		kl_err("NV index 0x%08x is taken by something else: choose another with --nv-index",
		       index);
		err = -EEXIST;
	}
	if (!err && !(nv->attributes & ELFSIG_TPM_NV_WRITTEN)) {
		uint64_t v;

		/* Defined again by someone and never incremented. */
		err = elfsig_tpm_counter_advance(tpm, index, NULL, 0, 1, &v);
		if (!err)
			err = elfsig_tpm_nv_info(tpm, index, nv);
	}
	return err;
}

int kl_enroll_bind(const struct kl_enroll_opts *o, const struct kl_signer *s,
		   uint32_t generation, bool lower, char **text, size_t *len,
		   uint8_t **sig, size_t *sig_len, uint64_t *epoch)
{
	struct elfsig_tpm_opts topts = {
		.tcti = o->tcti, .srk_handle = o->srk_handle,
	};
	struct elfsig_tpm_nv_info nv = { 0 };
	struct kl_binding b = { 0 }, old;
	struct elfsig_tpm *tpm;
	uint8_t digest[KL_FP_LEN];
	uint64_t value, steps = 0;
	int err;

	*text = NULL;
	*sig = NULL;
	err = elfsig_tpm_open(&topts, &tpm);
	if (err)
		return err;
	err = elfsig_tpm_srk_name(tpm, b.srk_name, &b.srk_name_len);
	if (!err)
		err = counter_ready(tpm, o->nv_index, &nv);
	if (!err)
		err = elfsig_tpm_counter_read(tpm, o->nv_index, nv.name,
					      nv.name_len, &value);
	if (err)
		goto out;
	b.nv_index = o->nv_index;
	memcpy(b.nv_name, nv.name, nv.name_len);
	b.nv_name_len = nv.name_len;
	memcpy(b.authority, s->auth.fp, KL_FP_LEN);
	if (old_binding(o, &s->auth, b.srk_name, b.srk_name_len, &nv, &old) &&
	    value >= old.base && (value - old.base <= generation || !lower)) {
		/* Bases only go up: an older binding never lowers the epoch. */
		if (value - old.base > generation) {
			kl_err("the machine's epoch is %llu, above generation %u: lowering it re-admits revoked files; --force to do so",
			       (unsigned long long)(value - old.base), generation);
			err = -ERANGE;
			goto out;
		}
		b.base = old.base;
		steps = generation - (value - old.base);
	} else if (value >= generation) {
		b.base = value - generation;
	} else {
		steps = generation - value;
	}
	if (steps > KL_ENROLL_ADVANCE_MAX) {
		kl_err("generation %u needs %llu counter increments, more than %d: bind at a lower generation",
		       generation, (unsigned long long)steps,
		       KL_ENROLL_ADVANCE_MAX);
		err = -ERANGE;
		goto out;
	}
	if (steps)
		err = elfsig_tpm_counter_advance(tpm, o->nv_index, nv.name,
						 nv.name_len, (unsigned int)steps,
						 &value);
	if (err)
		goto out;
	*epoch = value - b.base;
	err = kl_binding_format(&b, text, len);
	if (err)
		goto out;
	err = kl_sha256(*text, *len, digest);
	if (!err)
		err = s->sign(s->ctx, digest, sig, sig_len);
out:
	elfsig_tpm_close(tpm);
	if (err) {
		free(*text);
		*text = NULL;
	}
	return err;
}
