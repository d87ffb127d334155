// SPDX-License-Identifier: GPL-2.0-only
/* cmd_check.c - elfsig-enroll check: would the loader accept the enrolment now? */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

int cmd_check(struct opts *o, int argc, char **argv)
{
	struct elfsig_tpm_opts topts = {
		.tcti = o->e.tcti, .srk_handle = o->e.srk_handle,
	};
	struct elfsig_tpm_sealed *sealed = NULL;
	struct kl_pcr_policy *pps = NULL;
	struct elfsig_tpm_sealed *ps_sealed = NULL;
	struct kl_pcrsig_entry *ps = NULL;
	struct kl_pcrsig_key pk = { 0 };
	size_t nps = 0;
	struct elfsig_tpm *tpm = NULL;
	struct kl_authority a = { 0 };
	struct kl_policy pol = { 0 };
	size_t n = 0, bad, used, m;
	struct kl_binding b;
	uint64_t value, epoch;
	uint8_t srk[ELFSIG_TPM_MAX_NAME];
	size_t srk_len;
	int ret = EXIT_FAIL, err;

	if (argc)
		return usage_err("check: no arguments expected");
	/* The same checks as the loader, in the same order. */
	if (load_verified(o, NULL, &pol, &a))
		return EXIT_FAIL;
	if (elfsig_tpm_sealed_read_file(o->e.sealed_path, &sealed) ||
	    kl_sealed_check(sealed, o->e.sealed_path, &topts) ||
	    kl_check_machine(o->e.policy_path, pol.srk_name, pol.srk_name_len,
			     topts.srk_name, topts.srk_name_len))
		goto out;
	if (kl_pcr_policies_load(o->e.pcrpol_dir, &pol, &a, &pps, &n, &bad))
		goto out;
	/* The opt-in: systemd's entries, read as the loader reads them. */
	if (pol.pcrsig) {
		err = kl_pcrsig_open(o->pcrsig_dir, o->pcrsig_sealed,
				     o->pcrsig_key_path, &pol, &topts, &pk,
				     &ps_sealed, &ps, &nps);
		if (err == -EBADE || err == -ENOMEM)
			goto out;
		if (err)
			nps = 0;
	}
	if (!n && !nps) {
		fprintf(stderr, "%s: %s: no usable signed PCR policy%s\n", PROG,
			o->e.pcrpol_dir, pol.pcrsig ? " or systemd .pcrsig entry" : "");
		goto out;
	}
	if (kl_binding_load(o->e.counter_path, o->e.counter_sig_path, &a, &b) ||
	    kl_binding_check_machine(&b, o->e.counter_path, topts.srk_name,
				     topts.srk_name_len, o->e.nv_index))
		goto out;
	if (elfsig_tpm_open(&topts, &tpm))
		goto out;
	/* Another TPM is said first: its counter is not the bound one. */
	if (elfsig_tpm_srk_name(tpm, srk, &srk_len))
		goto out;
	/* Rollback: what the loader would refuse as revoked. */
	if (kl_counter_epoch(tpm, &b, &value, &epoch))
		goto out;
	if (pol.generation < epoch) {
		fprintf(stderr, "%s: %s: generation %u is revoked on this machine (epoch %llu)\n",
			PROG, o->e.policy_path, pol.generation,
			(unsigned long long)epoch);
		goto out;
	}
	m = kl_pcr_policies_drop_revoked(pps, n, epoch);
	bad += n - m;
	if (!m && !nps) {
		fprintf(stderr, "%s: %s: no signed PCR policy of generation %llu or later\n",
			PROG, o->e.pcrpol_dir, (unsigned long long)epoch);
		goto out;
	}
	err = -EACCES;
	if (m)
		err = kl_unseal_check(tpm, sealed, &a, pps, m, &used);
	if (err == -EACCES && nps) {
		/* As the loader: no elfsig PCR policy matched; systemd's. */
		err = kl_pcrsig_unseal(tpm, ps_sealed, &a, &pol, &pk, ps, nps,
				       &used);
		if (!err) {
			printf("%s: signed by the authority, %zu key%s, generation %u (epoch %llu); %s unseals under systemd .pcrsig entry %zu of %zu in %s (outside rollback protection)\n",
			       o->e.policy_path, pol.nkeys,
			       pol.nkeys == 1 ? "" : "s", pol.generation,
			       (unsigned long long)epoch, o->pcrsig_sealed,
			       used + 1, nps, o->pcrsig_dir);
			ret = bad ? EXIT_FAIL : EXIT_OK;
			goto out;
		}
	}
	if (err == -EACCES && !m && nps)
		fprintf(stderr, "%s: no signed PCR policy or systemd .pcrsig entry matches the current PCR state\n",
			PROG);
	if (!err) {
		printf("%s: signed by the authority, %zu key%s, generation %u (epoch %llu); %s unseals under %s\n",
		       o->e.policy_path, pol.nkeys, pol.nkeys == 1 ? "" : "s",
		       pol.generation, (unsigned long long)epoch,
		       o->e.sealed_path, pps[used].name);
		ret = bad ? EXIT_FAIL : EXIT_OK;
	}
out:
	elfsig_tpm_close(tpm);
	kl_pcr_policies_free(pps, n);
	free(ps);
	kl_pcrsig_key_free(&pk);
	elfsig_tpm_sealed_free(ps_sealed);
	elfsig_tpm_sealed_free(sealed);
	kl_policy_free(&pol);
	kl_authority_free(&a);
	return ret;
}
