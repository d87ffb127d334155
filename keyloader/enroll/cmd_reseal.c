// SPDX-License-Identifier: GPL-2.0-only
/* cmd_reseal.c - elfsig-enroll reseal: seal the enrolment again with this TPM. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

int cmd_reseal(struct opts *o, int argc, char **argv)
{
	struct kl_authority a;
	struct kl_policy pol;
	struct kl_out out;
	uint8_t *buf = NULL;
	size_t len;
	int ret;

	if (argc)
		return usage_err("reseal: no arguments expected");
	if (o->pcrs_set || o->measure_set || o->e.pcr_values)
		return usage_err("reseal: the sealed object holds no PCR state; sign a PCR policy with sign-pcr-policy");
	/* The policy's signature is checked first: reseal binds this TPM to
	 * the authority that signed it, never to a file someone edited. */
	ret = load_verified(o, NULL, &pol, &a);
	if (ret)
		return ret;
	ret = EXIT_FAIL;
	if (!kl_enroll_seal(&o->e, &a, &buf, &len)) {
		out = (struct kl_out){ .path = o->e.sealed_path, .data = buf,
				       .len = len, .mode = 0644 };
		if (!kl_write_all(&out, 1)) {
			printf("%s: sealed with this TPM, bound to the authority's PCR policies\n",
			       o->e.sealed_path);
			ret = EXIT_OK;
		}
	}
	free(buf);
	kl_policy_free(&pol);
	kl_authority_free(&a);
	return ret;
}
