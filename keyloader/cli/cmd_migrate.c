// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_migrate.c - elfsig-enroll migrate: an older enrolment becomes a
 * current one (policy version 4, PCR policies version 3, a rollback
 * counter binding, all for this machine's TPM storage root key).
 *
 * Version 1 (the policy's digest sealed to one PCR state): the TPM must
 * still release the old digest for exactly this policy, so an edited file
 * is never blessed by the authority. That proves no creator: anyone with
 * the TPM can seal a policy's digest to the current PCRs. So every key is
 * listed and the authority's operator must confirm exactly that set
 * (--expect-key): migrating is a re-enrolment decision. Versions 2 and 3
 * (signed): the policy's signature must verify, and so must every PCR
 * policy's approval before it is signed again for the machine the sealed
 * object records (version 2: and with a generation). Version 2 (signed, no generation):
 * the policy's signature must verify, and so must every PCR policy's
 * approval before it is signed again with a generation.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

/* Would the old loader have accepted this policy now? */
static int verify_v1(const struct opts *o, const uint8_t *buf, size_t len,
		     const struct kl_policy *pol)
{
	struct elfsig_tpm_opts topts = {
		.tcti = o->e.tcti, .srk_handle = o->e.srk_handle,
	};
	struct elfsig_tpm_sealed *sealed = NULL;
	struct elfsig_tpm *tpm = NULL;
	uint8_t digest[KL_FP_LEN];
	int ret = EXIT_FAIL;

	if (kl_sha256(buf, len, digest))
		goto out;
	if (elfsig_tpm_sealed_read_file(o->e.sealed_path, &sealed))
		goto out;
	/* An object from before the SRK pin is still read (the old loader
	 * did): the pin only ever protected the unseal, and this one is
	 * replaced by a pinned enrolment now. */
	topts.srk_name_len = elfsig_tpm_sealed_srk_name(sealed, &topts.srk_name);
	if (elfsig_tpm_open(&topts, &tpm))
		goto out;
	if (kl_policy_verify(tpm, sealed, pol, digest))
		fprintf(stderr, "%s: %s: not migrated: the TPM does not vouch for this policy in the current PCR state\n",
			PROG, o->e.policy_path);
	else
		ret = 0;
out:
	elfsig_tpm_close(tpm);
	elfsig_tpm_sealed_free(sealed);
	return ret;
}

/* The certificate of DIR/certs with fingerprint @fp, for its subject:
 * the policy's comment lines are whoever wrote the file's. */
static const char *cert_subject(const struct common_cert *certs, size_t n,
				const uint8_t fp[KL_FP_LEN])
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!certs[i].error && !memcmp(certs[i].fp, fp, KL_FP_LEN))
			return certs[i].subject;
	return NULL;
}

/*
 * A version 1 enrolment proves no creator: list every key (fingerprint,
 * subject of its certificate) and require the operator's --expect-key set
 * to be exactly the policy's keys. Return: 0, or EXIT_FAIL after one line
 * per key not confirmed or confirmed but not enrolled.
 */
static int confirm_keys(const struct opts *o, const struct kl_policy *pol)
{
	char hex[2 * KL_FP_LEN + 1], dir[PATH_MAX];
	struct common_cert *certs = NULL;
	uint8_t fp[KL_FP_LEN];
	size_t i, ncerts = 0;
	int ret = 0;

	/* A certificate directory that cannot be read only costs subjects. */
	if ((size_t)snprintf(dir, sizeof(dir), "%s/certs", o->dir) < sizeof(dir) &&
	    !access(dir, F_OK))
		kl_certdir_load(dir, &certs, &ncerts);
	printf("%s: version 1 enrolment: the TPM vouches for these bytes, not for who sealed them; %zu key%s:\n",
	       o->e.policy_path, pol->nkeys, pol->nkeys == 1 ? "" : "s");
	for (i = 0; i < pol->nkeys; i++) {
		const char *subject = cert_subject(certs, ncerts,
						   pol->keys[i].fp);

		common_hex(pol->keys[i].fp, KL_FP_LEN, hex);
		printf("  sha256:%s %s\n", hex, subject ? subject :
		       "(no certificate for it in DIR/certs)");
	}
	fflush(stdout);
	if (!o->nexpect_key) {
		fprintf(stderr, "%s: %s: not migrated: a version 1 enrolment does not prove who made it; confirm each key listed with --expect-key sha256:HEX\n",
			PROG, o->e.policy_path);
		ret = EXIT_FAIL;
		goto out;
	}
	for (i = 0; i < pol->nkeys; i++) {
		size_t j;

		for (j = 0; j < o->nexpect_key; j++)
			if (!parse_fingerprint(o->expect_key[j], fp) &&
			    !memcmp(fp, pol->keys[i].fp, KL_FP_LEN))
				break;
		if (j < o->nexpect_key)
			continue;
		common_hex(pol->keys[i].fp, KL_FP_LEN, hex);
		fprintf(stderr, "%s: %s: not migrated: sha256:%s is enrolled but not confirmed (--expect-key)\n",
			PROG, o->e.policy_path, hex);
		ret = EXIT_FAIL;
	}
	for (i = 0; i < o->nexpect_key; i++) {
		if (parse_fingerprint(o->expect_key[i], fp) ||
		    kl_policy_find(pol, fp) >= 0)
			continue;
		common_hex(fp, KL_FP_LEN, hex);
		fprintf(stderr, "%s: %s: not migrated: sha256:%s is confirmed (--expect-key) but not enrolled\n",
			PROG, o->e.policy_path, hex);
		ret = EXIT_FAIL;
	}
out:
	kl_certs_free(certs, ncerts);
	return ret;
}

/* Versions 2 and 3: signed by this authority; 2 with no generation yet,
 * 3 with no machine. */
static int migrate_signed(struct opts *o, const struct kl_signer *s,
			  struct kl_policy *pol, const uint8_t *buf, size_t len)
{
	uint8_t *sig = NULL;
	size_t sig_len;
	int err;

	if (kl_read_file(AT_FDCWD, o->e.sig_path, KL_PCRPOL_MAX_SIG, &sig,
			 &sig_len))
		return EXIT_FAIL;
	err = kl_policy_verify_bytes(pol, buf, len, sig, sig_len, &s->auth,
				     o->e.policy_path);
	free(sig);
	if (err) {
		fprintf(stderr, "%s: %s: not migrated: not signed by this authority\n",
			PROG, o->e.policy_path);
		return EXIT_FAIL;
	}
	/* The machine the enrolment was sealed on, as its object says. */
	if (kl_sealed_machine(o->e.sealed_path, pol))
		return EXIT_FAIL;
	if (pol->version == 3)
		return kl_enroll_write_generation(&o->e, pol, s, false,
						  o->force, NULL) ?
		       EXIT_FAIL : EXIT_OK;
	pol->generation = o->generation;
	return kl_enroll_write_generation(&o->e, pol, s, true, o->force,
					  NULL) ? EXIT_FAIL : EXIT_OK;
}

int cmd_migrate(struct opts *o, int argc, char **argv)
{
	struct kl_policy pol = { 0 };
	struct kl_signer s;
	uint8_t *buf = NULL;
	size_t len;
	int ret;

	if (argc)
		return usage_err("migrate: no arguments expected");
	ret = signer_load(o, "migrate", &s);
	if (ret)
		return ret;
	ret = EXIT_FAIL;
	if (kl_read_file(AT_FDCWD, o->e.policy_path, KL_POLICY_MAX_SIZE, &buf,
			 &len) ||
	    kl_policy_parse(buf, len, o->e.policy_path, &pol))
		goto out;
	if (pol.version == 3 && o->generation_set &&
	    o->generation != pol.generation) {
		ret = usage_err("migrate: --generation: a version 3 policy keeps its generation (resign changes it)");
		goto out;
	}
	if (pol.version == 2 || pol.version == 3) {
		ret = migrate_signed(o, &s, &pol, buf, len);
		goto out;
	}
	if (pol.version != 1) {
		fprintf(stderr, "%s: %s: policy version %u, nothing to migrate\n",
			PROG, o->e.policy_path, pol.version);
		goto out;
	}
	pol.generation = o->generation;
	if (!verify_v1(o, buf, len, &pol) && !confirm_keys(o, &pol))
		ret = kl_enroll_write(&o->e, &pol, &s, o->force) ?
		      EXIT_FAIL : EXIT_OK;
out:
	free(buf);
	kl_policy_free(&pol);
	signer_free(&s);
	return ret;
}
