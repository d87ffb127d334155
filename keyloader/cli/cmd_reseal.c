// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_reseal.c - elfsig-enroll reseal: seal the enrolment again with this
 * TPM. The policy and its PCR policies are signed for one machine (its
 * TPM's storage root key): on a TPM with another one (a cleared TPM, a
 * new machine) the authority signs them again for it (-K), written
 * together with the object; without -K that is refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

int cmd_reseal(struct opts *o, int argc, char **argv)
{
	struct kl_policy pol, here = { 0 };
	struct kl_signer s = { 0 };
	struct kl_authority a;
	struct kl_out out;
	uint8_t *buf = NULL;
	bool same;
	size_t len;
	int ret;

	if (argc)
		return usage_err("reseal: no arguments expected");
	if (o->pcrs_set || o->measure_set || o->e.pcr_values)
		return usage_err("reseal: the sealed object holds no PCR state; sign a PCR policy with sign-pcr-policy");
	if (o->authority_key) {
		ret = signer_load(o, "reseal", &s);
		if (ret)
			return ret;
	}
	/* The policy's signature is checked first: reseal binds this TPM to
	 * the authority that signed it, never to a file someone edited. */
	ret = load_verified(o, o->authority_key ? &s : NULL, &pol, &a);
	if (ret)
		goto out_signer;
	ret = EXIT_FAIL;
	if (kl_enroll_machine(&o->e, &here))
		goto out;
	same = here.srk_name_len == pol.srk_name_len &&
	       !memcmp(here.srk_name, pol.srk_name, pol.srk_name_len);
	if (!same && !o->authority_key) {
		fprintf(stderr, "%s: %s: signed for another machine (its srk line names another TPM storage root key than this TPM's): the authority signs it for this one with elfsig-enroll reseal --authority-key KEY\n",
			PROG, o->e.policy_path);
		goto out;
	}
	if (kl_enroll_seal(&o->e, &a, &buf, &len))
		goto out;
	out = (struct kl_out){ .path = o->e.sealed_path, .data = buf,
			       .len = len, .mode = 0644 };
	if (same) {
		ret = kl_write_all(&out, 1) ? EXIT_FAIL : EXIT_OK;
	} else {
		memcpy(pol.srk_name, here.srk_name, here.srk_name_len);
		pol.srk_name_len = here.srk_name_len;
		ret = kl_enroll_write_generation(&o->e, &pol, &s, false,
						 o->force, &out) ?
		      EXIT_FAIL : EXIT_OK;
	}
	if (!ret)
		printf("%s: sealed with this TPM, bound to the authority's PCR policies\n",
		       o->e.sealed_path);
out:
	free(buf);
	kl_policy_free(&pol);
	kl_authority_free(&a);
out_signer:
	if (o->authority_key)
		signer_free(&s);
	return ret;
}
