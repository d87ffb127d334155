// SPDX-License-Identifier: GPL-2.0-only
/* cmd_check.c - elfsig-enroll check: would the loader accept the enrolment now? */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "kl_counter.h"
#include "kl_pcrsig.h"

/* A file the authority did not sign as it is, or for another machine,
 * is the loader's status 6; anything else wrong with it, 3. */
static int file_status(int err)
{
	return err == -EBADE ? KL_EXIT_POLICY : KL_EXIT_INPUT;
}

/* The counter answered and disagrees with its binding (as the loader:
 * status 13); any other error is the TPM's (status 4). */
static bool counter_disagrees(int err)
{
	return err == -ENOENT || err == -ESTALE || err == -EKEYREJECTED ||
	       err == -ENODATA || err == -ERANGE;
}

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
	const char *under = NULL;
	size_t pcrsig_entry = 0;
	bool have_epoch = false;
	long k;
	int ret = KL_EXIT_INPUT, err;

	if (argc)
		return usage_err("check: no arguments expected");
	/* The same checks as the loader, in the same order, with the same
	 * exit statuses where the cause is the same. */
	err = kl_enroll_load(&o->e, &pol, &a);
	if (err) {
		ret = file_status(err);
		goto out;
	}
	err = elfsig_tpm_sealed_read_file(o->e.sealed_path, &sealed);
	if (!err)
		err = kl_sealed_check(sealed, o->e.sealed_path, &topts);
	if (!err)
		err = kl_check_machine(o->e.policy_path, pol.srk_name,
				       pol.srk_name_len, topts.srk_name,
				       topts.srk_name_len);
	if (err) {
		ret = file_status(err);
		goto out;
	}
	if (kl_pcr_policies_load(o->e.pcrpol_dir, &pol, &a, &pps, &n, &bad))
		goto out;
	/* The opt-in: systemd's entries, read as the loader reads them. */
	if (pol.pcrsig) {
		err = kl_pcrsig_open(o->pcrsig_dir, o->pcrsig_sealed,
				     o->pcrsig_key_path, &pol, &topts, &pk,
				     &ps_sealed, &ps, &nps);
		if (err == -EBADE || err == -ENOMEM) {
			ret = file_status(err);
			goto out;
		}
		if (err)
			nps = 0;
	}
	if (!n && !nps) {
		fprintf(stderr, "%s: %s: no usable signed PCR policy%s\n", PROG,
			o->e.pcrpol_dir, pol.pcrsig ? " or systemd .pcrsig entry" : "");
		goto out;
	}
	err = kl_binding_load(o->e.counter_path, o->e.counter_sig_path, &a, &b);
	if (!err)
		err = kl_binding_check_machine(&b, o->e.counter_path,
					       topts.srk_name,
					       topts.srk_name_len,
					       o->e.nv_index);
	if (err) {
		ret = file_status(err);
		goto out;
	}
	ret = KL_EXIT_TPM;
	if (elfsig_tpm_open(&topts, &tpm))
		goto out;
	/* Another TPM is said first: its counter is not the bound one. */
	err = elfsig_tpm_srk_name(tpm, srk, &srk_len);
	if (err) {
		ret = err == -ENOKEY ? KL_EXIT_SRK : KL_EXIT_TPM;
		goto out;
	}
	/* Rollback: what the loader would refuse as revoked. */
	err = kl_counter_epoch(tpm, &b, &value, &epoch);
	have_epoch = !err;
	if (err) {
		if (counter_disagrees(err) && err != -ERANGE) /* said */
			fprintf(stderr, "%s: rollback counter 0x%08x: %s\n",
				PROG, b.nv_index, kl_counter_reason(err));
		if (counter_disagrees(err))
			ret = KL_EXIT_ROLLBACK;
		goto out;
	}
	ret = KL_EXIT_ROLLBACK;
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
	ret = KL_EXIT_TPM;
	err = -EACCES;
	if (m)
		err = kl_unseal_check(tpm, sealed, &a, pps, m, &used);
	if (err == -EACCES && nps) {
		/* As the loader: no elfsig PCR policy matched; systemd's. */
		err = kl_pcrsig_unseal(tpm, ps_sealed, &a, &pol, &pk, ps, nps,
				       &used);
		if (!err && o->json) {
			pcrsig_entry = used + 1;
		} else if (!err) {
			printf("%s: signed by the authority, %zu key%s, generation %u (epoch %llu); %s unseals under systemd .pcrsig entry %zu of %zu in %s (outside rollback protection)\n",
			       o->e.policy_path, pol.nkeys,
			       pol.nkeys == 1 ? "" : "s", pol.generation,
			       (unsigned long long)epoch, o->pcrsig_sealed,
			       used + 1, nps, o->pcrsig_dir);
		}
		if (!err) {
			ret = bad ? KL_EXIT_PARTIAL : KL_EXIT_OK;
			goto out;
		}
	}
	if (err == -EACCES && n > m &&
	    (k = kl_pcr_policies_match(tpm, pps + m, n - m)) >= 0) {
		fprintf(stderr, "%s: %s: this PCR state is approved only by a revoked PCR policy (generation %u, epoch %llu)\n",
			PROG, pps[m + (size_t)k].name,
			pps[m + (size_t)k].generation,
			(unsigned long long)epoch);
		ret = KL_EXIT_ROLLBACK;
	} else if (err == -EACCES) {
		if (!m && nps)
			fprintf(stderr, "%s: no signed PCR policy or systemd .pcrsig entry matches the current PCR state\n",
				PROG);
		ret = KL_EXIT_UNSEAL;
	} else if (err == -EBADE || err == -EBADMSG) {
		ret = KL_EXIT_POLICY;
	} else if (err == -ENOKEY) {
		ret = KL_EXIT_SRK;
	}
	if (!err && o->json) {
		under = pps[used].name;
	} else if (!err) {
		printf("%s: signed by the authority, %zu key%s, generation %u (epoch %llu); %s unseals under %s\n",
		       o->e.policy_path, pol.nkeys, pol.nkeys == 1 ? "" : "s",
		       pol.generation, (unsigned long long)epoch,
		       o->e.sealed_path, pps[used].name);
	}
	if (!err)
		ret = bad ? KL_EXIT_PARTIAL : KL_EXIT_OK;
out:
	if (o->json) {
		/* The reasons stay on stderr, one line each. */
		fputs("{\"policy\":", stdout);
		common_json_string(stdout, o->e.policy_path);
		printf(",\"status\":%d,\"word\":\"%s\"", ret,
		       kl_exit_word(ret));
		if (have_epoch)
			printf(",\"generation\":%u,\"epoch\":%llu",
			       pol.generation, (unsigned long long)epoch);
		if (under) {
			fputs(",\"unsealed_under\":", stdout);
			common_json_string(stdout, under);
		}
		if (pcrsig_entry) {
			printf(",\"pcrsig_entry\":%zu,\"pcrsig_dir\":", pcrsig_entry);
			common_json_string(stdout, o->pcrsig_dir);
		}
		fputs("}\n", stdout);
	}
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
