// SPDX-License-Identifier: GPL-2.0-only
/*
 * enroll_write.c - the enrolment's files written: the signed policy, the
 * sealed object, the authority's key, signed PCR policies and the counter
 * binding, each set replaced together (kl_write_all()). What was written
 * is said through the note callback (kl_set_note_callback()).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kl_enroll.h"

static void print_policy(const struct kl_policy *pol,
			 const struct kl_enroll_opts *e)
{
	char sel[128] = "?";

	elfsig_tpm_pcrsel_format(&pol->sel, sel, sizeof(sel));
	kl_note("%s: %zu key%s, PCRs %s; signed in %s", e->policy_path,
		pol->nkeys, pol->nkeys == 1 ? "" : "s", sel, e->sig_path);
}

const char *kl_enroll_values_source(const struct kl_enroll_opts *e)
{
	return e->pcr_values ? e->pcr_values :
	       e->event_log ? "the predicted" : "the current";
}

/* A signed PCR policy into @out, its directory made if need be. */
static int pcr_policy_out(const struct kl_enroll_opts *e,
			  const struct kl_policy *pol, const struct kl_signer *s,
			  struct kl_out *out)
{
	char *text, *path;
	size_t len;

	if (!e->out && mkdir(e->pcrpol_dir, 0755) && errno != EEXIST) {
		kl_err("%s: %s", e->pcrpol_dir, strerror(errno));
		return -EIO;
	}
	if (kl_enroll_pcr_policy(e, pol, s, &text, &len, &path))
		return -EIO;
	*out = (struct kl_out){ .path = path, .data = text, .len = len,
				.mode = 0644 };
	kl_note("%s: PCR policy for %s values, signed", path,
		kl_enroll_values_source(e));
	return 0;
}

static void free_outs(struct kl_out *outs, size_t n, size_t pcrpol)
{
	size_t i;

	for (i = 0; i < n; i++)
		free((void *)outs[i].data);
	if (pcrpol < n)
		free((char *)outs[pcrpol].path);
}

int kl_enroll_write_policy(const struct kl_enroll_opts *e,
			   struct kl_policy *pol, const struct kl_signer *s,
			   bool pcr_policy)
{
	struct kl_out outs[3] = { 0 };
	size_t n = 0, pcrpol = ARRAY_SIZE(outs);
	char *text = NULL;
	uint8_t *sig = NULL;
	size_t len, sig_len;
	int ret = -EIO;

	if (kl_enroll_sign_policy(pol, s, &text, &len, &sig, &sig_len))
		return -EIO;
	if (pcr_policy) {
		if (pcr_policy_out(e, pol, s, &outs[n]))
			goto out;
		pcrpol = n++;
	}
	/* The signature before the policy: a crash between the two renames
	 * leaves a pair that does not verify (fails closed). */
	outs[n++] = (struct kl_out){ .path = e->sig_path, .data = sig,
				     .len = sig_len, .mode = 0644 };
	outs[n++] = (struct kl_out){ .path = e->policy_path, .data = text,
				     .len = len, .mode = 0644 };
	sig = NULL;
	text = NULL;
	if (!kl_write_all(outs, n)) {
		print_policy(pol, e);
		ret = 0;
	}
out:
	free_outs(outs, n, pcrpol);
	free(text);
	free(sig);
	return ret;
}

int kl_enroll_write(const struct kl_enroll_opts *e, struct kl_policy *pol,
		    const struct kl_signer *s, bool force)
{
	struct kl_out outs[7] = { 0 };
	size_t n = 0, pcrpol = ARRAY_SIZE(outs), len, slen, plen, sig_len;
	uint8_t *sealed = NULL, *sig = NULL;
	char *text = NULL, *pem = NULL;
	int ret = -EIO;

	/* For this machine: its TPM's storage root key. */
	if (kl_enroll_machine(e, pol) ||
	    kl_enroll_sign_policy(pol, s, &text, &len, &sig, &sig_len) ||
	    kl_authority_pem(&s->auth, &pem, &plen) ||
	    kl_enroll_seal(e, &s->auth, &sealed, &slen))
		goto out;
	if (pcr_policy_out(e, pol, s, &outs[n]))
		goto out;
	pcrpol = n++;
	if (kl_enroll_binding_out(e, s, pol->generation, force, &outs[n]))
		goto out;
	n += 2;
	outs[n++] = (struct kl_out){ .path = e->sealed_path, .data = sealed,
				     .len = slen, .mode = 0644 };
	outs[n++] = (struct kl_out){ .path = e->authority_path, .data = pem,
				     .len = plen, .mode = 0644 };
	outs[n++] = (struct kl_out){ .path = e->sig_path, .data = sig,
				     .len = sig_len, .mode = 0644 };
	outs[n++] = (struct kl_out){ .path = e->policy_path, .data = text,
				     .len = len, .mode = 0644 };
	sealed = sig = NULL;
	text = pem = NULL;
	if (!kl_write_all(outs, n)) {
		print_policy(pol, e);
		kl_note("%s: sealed with this TPM, bound to the authority's PCR policies",
			e->sealed_path);
		ret = 0;
	}
out:
	free_outs(outs, n, pcrpol);
	free(sealed);
	free(sig);
	free(text);
	free(pem);
	return ret;
}

int kl_enroll_binding_out(const struct kl_enroll_opts *e,
			  const struct kl_signer *s, uint32_t generation,
			  bool lower, struct kl_out *outs)
{
	char *text;
	uint8_t *sig;
	size_t len, sig_len;
	uint64_t epoch;

	if (kl_enroll_bind(e, s, generation, lower, &text, &len, &sig,
			   &sig_len, &epoch))
		return -EIO;
	outs[0] = (struct kl_out){ .path = e->counter_sig_path, .data = sig,
				   .len = sig_len, .mode = 0644 };
	outs[1] = (struct kl_out){ .path = e->counter_path, .data = text,
				   .len = len, .mode = 0644 };
	kl_note("%s: rollback counter 0x%08x bound, epoch %llu",
		e->counter_path, e->nv_index, (unsigned long long)epoch);
	return 0;
}

long kl_enroll_resign_pcr_policies(const struct kl_enroll_opts *e,
				   const struct kl_policy *pol,
				   const struct kl_signer *s, uint32_t generation,
				   struct kl_out *outs, size_t max)
{
	char **names = NULL;
	size_t n = 0, i, k = 0;
	long ret = -1;
	int dfd;

	if (kl_dir_list(e->pcrpol_dir, "signed PCR policy directory",
			KL_PCRPOL_MAX_FILES, &dfd, &names, &n))
		return -1;
	for (i = 0; i < n && k < max; i++) {
		struct kl_pcr_policy pp;
		uint8_t *buf;
		char *path, *text;
		size_t len;
		int err;

		if (asprintf(&path, "%s/%s", e->pcrpol_dir, names[i]) < 0)
			goto out;
		err = kl_read_file(AT_FDCWD, path, KL_PCRPOL_MAX_SIZE, &buf,
				   &len);
		if (!err) {
			err = kl_pcr_policy_parse(buf, len, path, &pp);
			free(buf);
		}
		/* Nothing the authority did not approve is blessed anew. */
		if (!err) {
			err = kl_pcr_policy_resign(&pp, pol, s, generation,
						   &text, &len);
			kl_pcr_policy_clear(&pp);
		}
		if (err) {
			kl_err("%s: not signed again: nothing written", path);
			free(path);
			goto out;
		}
		outs[k++] = (struct kl_out){ .path = path, .data = text,
					     .len = len, .mode = 0644 };
	}
	ret = (long)k;
out:
	if (ret < 0)
		for (i = 0; i < k; i++) {
			free((void *)outs[i].data);
			free((char *)outs[i].path);
		}
	kl_names_free(names, n);
	close(dfd);
	return ret;
}

int kl_enroll_write_generation(const struct kl_enroll_opts *e,
			       struct kl_policy *pol, const struct kl_signer *s,
			       bool bind, bool force, const struct kl_out *extra)
{
	struct kl_out outs[KL_PCRPOL_MAX_FILES + 5] = { 0 };
	size_t nextra = SIZE_MAX;
	uint8_t *sig = NULL;
	char *text = NULL;
	size_t len, sig_len, i, n;
	long k;
	int ret = -EIO;

	k = kl_enroll_resign_pcr_policies(e, pol, s, pol->generation, outs,
					  KL_PCRPOL_MAX_FILES);
	if (k < 0)
		return -EIO;
	n = (size_t)k;
	if (bind) {
		if (kl_enroll_binding_out(e, s, pol->generation, force, &outs[n]))
			goto out;
		n += 2;
	}
	if (kl_enroll_sign_policy(pol, s, &text, &len, &sig, &sig_len))
		goto out;
	if (extra) {
		nextra = n;
		outs[n++] = *extra;
	}
	/* The signature before the policy (a crash in between fails
	 * closed), everything else before both. */
	outs[n++] = (struct kl_out){ .path = e->sig_path, .data = sig,
				     .len = sig_len, .mode = 0644 };
	outs[n++] = (struct kl_out){ .path = e->policy_path, .data = text,
				     .len = len, .mode = 0644 };
	if (!kl_write_all(outs, n)) {
		kl_note("%s: policy version %d, generation %u, signed; %ld PCR polic%s signed again",
			e->policy_path, KL_POLICY_VERSION, pol->generation, k,
			k == 1 ? "y" : "ies");
		ret = 0;
	}
out:
	for (i = 0; i < n; i++)
		if (i != nextra)
			free((void *)outs[i].data);
	for (i = 0; i < (size_t)k; i++)
		free((char *)outs[i].path);
	return ret;
}
