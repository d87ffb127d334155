// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_counter.c - elfsig-enroll counter: bind this machine's rollback
 * counter (define it if need be) at the policy's generation; also the
 * recovery when the counter and the files disagree (docs/keyloader.md).
 */
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"

int cmd_counter(struct opts *o, int argc, char **argv)
{
	struct kl_out outs[2] = { 0 };
	struct kl_authority a;
	struct kl_policy pol;
	struct kl_signer s;
	int ret;

	if (argc)
		return usage_err("counter: no arguments expected");
	ret = signer_load(o, "counter", &s);
	if (ret)
		return ret;
	/* The generation is the signed policy's, unless given. */
	ret = load_verified(o, &s, &pol, &a);
	if (ret)
		goto out;
	ret = kl_enroll_binding_out(&o->e, &s, o->generation_set ?
				    o->generation : pol.generation, o->force,
				    outs) ? EXIT_FAIL : 0;
	if (!ret)
		ret = kl_write_all(outs, 2) ? EXIT_FAIL : EXIT_OK;
	free((void *)outs[0].data);
	free((void *)outs[1].data);
	kl_policy_free(&pol);
	kl_authority_free(&a);
out:
	signer_free(&s);
	return ret;
}
