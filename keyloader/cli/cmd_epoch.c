// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_epoch.c - elfsig-enroll epoch: the machine's epoch (rollback counter
 * minus the binding's base), and raising it: --bump, --generation N. Needs
 * no authority key: anyone who may write the TPM can raise it (and so
 * only deny service, never roll back).
 */
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "kl_counter.h"

int cmd_epoch(struct opts *o, int argc, char **argv)
{
	struct elfsig_tpm_opts topts = {
		.tcti = o->e.tcti, .srk_handle = o->e.srk_handle,
	};
	struct elfsig_tpm *tpm = NULL;
	struct kl_authority a = { 0 };
	struct kl_policy pol = { 0 };
	struct kl_binding b;
	uint64_t value, epoch, target;
	int ret = EXIT_FAIL;

	if (argc)
		return usage_err("epoch: no arguments expected");
	if (load_verified(o, NULL, &pol, &a))
		return EXIT_FAIL;
	if (kl_binding_load(o->e.counter_path, o->e.counter_sig_path, &a, &b))
		goto out;
	/* The binding's TPM: another one's SRK is refused before use. */
	topts.srk_name = b.srk_name;
	topts.srk_name_len = b.srk_name_len;
	if (elfsig_tpm_open(&topts, &tpm))
		goto out;
	if (kl_counter_epoch(tpm, &b, &value, &epoch))
		goto out;
	target = o->bump ? epoch + 1 : o->generation_set ? o->generation : epoch;
	if (target > KL_GENERATION_MAX) {
		fprintf(stderr, "%s: epoch %llu: the last generation is %u\n",
			PROG, (unsigned long long)target, KL_GENERATION_MAX);
		goto out;
	}
	if (target < epoch) {
		fprintf(stderr, "%s: the epoch is %llu: it never goes down (the authority binds the counter again: elfsig-enroll counter --force)\n",
			PROG, (unsigned long long)epoch);
		goto out;
	}
	/* All or nothing: a target out of one command's reach is refused
	 * before the first increment, not left half-way. */
	if (target - epoch > KL_ENROLL_ADVANCE_MAX) {
		fprintf(stderr, "%s: epoch %llu to %llu needs %llu counter increments, more than the %d of one command: nothing done (raise it in steps)\n",
			PROG, (unsigned long long)epoch,
			(unsigned long long)target,
			(unsigned long long)(target - epoch),
			KL_ENROLL_ADVANCE_MAX);
		goto out;
	}
	if (target > epoch) {
		if (kl_counter_advance(tpm, &b, epoch, target,
				       KL_ENROLL_ADVANCE_MAX, &epoch))
			goto out;
		value = b.base + epoch;
	}
	printf("rollback counter 0x%08x: value %llu, base %llu, epoch %llu; %s generation %u%s\n",
	       b.nv_index, (unsigned long long)value,
	       (unsigned long long)b.base, (unsigned long long)epoch,
	       o->e.policy_path, pol.generation,
	       pol.generation < epoch ? " (revoked: the loader refuses it)" : "");
	ret = epoch < target ? EXIT_FAIL : EXIT_OK;
	if (ret)
		fprintf(stderr, "%s: epoch %llu, not %llu: at most %d increments a command\n",
			PROG, (unsigned long long)epoch,
			(unsigned long long)target, KL_ENROLL_ADVANCE_MAX);
out:
	elfsig_tpm_close(tpm);
	kl_policy_free(&pol);
	kl_authority_free(&a);
	return ret;
}
