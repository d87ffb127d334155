// SPDX-License-Identifier: LGPL-2.1-or-later
/* error.c - the error callback and the TSS return code to errno mapping. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <tss2/tss2_rc.h>
#include <tss2/tss2_tpm2_types.h>

#include "common.h"
#include "tpm_private.h"

COMMON_DEFINE_REPORTER(elfsig_tpm_set_error_callback, elfsig_tpm_error_cb,
		       tpm_err, tpm_err_ssl)

/* While muted, failures are not reported: for best-effort diagnostics
 * whose own failure must not add a second line to the real one. */
COMMON_DEFINE_MUTE(tpm_err_mute)

/* The TPM's format-one codes carry the parameter/handle/session number in
 * bits 8..11; strip it so the switch sees the bare error. */
static TSS2_RC tpm_rc_base(TSS2_RC rc)
{
	TSS2_RC layer = rc & TSS2_RC_LAYER_MASK;
	TSS2_RC code = rc & ~TSS2_RC_LAYER_MASK;

	if (layer != TSS2_TPM_RC_LAYER && layer != TSS2_RESMGR_TPM_RC_LAYER)
		return rc;
	if (code & TPM2_RC_FMT1)
		return TPM2_RC_FMT1 | (code & 0x3f);
	return code;
}

static bool tpm_rc_from_tpm(TSS2_RC rc)
{
	TSS2_RC layer = rc & TSS2_RC_LAYER_MASK;

	return layer == TSS2_TPM_RC_LAYER || layer == TSS2_RESMGR_TPM_RC_LAYER;
}

bool tpm_rc_is_policy_fail(TSS2_RC rc)
{
	TSS2_RC base = tpm_rc_base(rc);

	return tpm_rc_from_tpm(rc) &&
	       (base == TPM2_RC_POLICY_FAIL || base == TPM2_RC_PCR_CHANGED ||
		base == TPM2_RC_PCR);
}

int tpm_rc_errno(TSS2_RC rc)
{
	TSS2_RC base = tpm_rc_base(rc);

	if (rc == TSS2_RC_SUCCESS)
		return 0;
	if (!tpm_rc_from_tpm(rc)) {
		switch (rc & ~TSS2_RC_LAYER_MASK) {
		case TSS2_BASE_RC_IO_ERROR:
		case TSS2_BASE_RC_NO_CONNECTION:
		case TSS2_BASE_RC_NOT_SUPPORTED:
		case TSS2_BASE_RC_NO_TPM:
			return -ENODEV;
		case TSS2_BASE_RC_MEMORY:
			return -ENOMEM;
		case TSS2_BASE_RC_BAD_VALUE:
		case TSS2_BASE_RC_BAD_REFERENCE:
			return -EINVAL;
		case TSS2_BASE_RC_RSP_AUTH_FAILED:
			return -EPERM;
		default:
			return -EIO;
		}
	}
	if (tpm_rc_is_policy_fail(rc))
		return -EACCES;
	switch (base) {
	case TPM2_RC_AUTH_FAIL:
	case TPM2_RC_BAD_AUTH:
	case TPM2_RC_AUTH_MISSING:
	case TPM2_RC_AUTH_UNAVAILABLE:
	case TPM2_RC_HIERARCHY:
		return -EPERM;
	case TPM2_RC_OBJECT_MEMORY:
	case TPM2_RC_SESSION_MEMORY:
	case TPM2_RC_OBJECT_HANDLES:
	case TPM2_RC_SESSION_HANDLES:
	case TPM2_RC_NV_SPACE:
		return -ENOSPC;
	case TPM2_RC_HANDLE:
	case TPM2_RC_REFERENCE_H0:
		return -ENOENT;
	case TPM2_RC_NV_DEFINED:
		return -EEXIST;
	case TPM2_RC_LOCKOUT:
	case TPM2_RC_RETRY:
	case TPM2_RC_YIELDED:
	case TPM2_RC_TESTING:
		return -EBUSY;
	case TPM2_RC_INTEGRITY:
	case TPM2_RC_SENSITIVE:
	case TPM2_RC_BINDING:
		return -EKEYREJECTED;
	case TPM2_RC_VALUE:
	case TPM2_RC_SIZE:
	case TPM2_RC_CURVE:
	case TPM2_RC_KEY_SIZE:
	case TPM2_RC_HASH:
	case TPM2_RC_ATTRIBUTES:
		return -EINVAL;
	default:
		return -EIO;
	}
}

/* What the code means for a person using this tool. */
const char *tpm_rc_explain(TSS2_RC rc)
{
	switch (tpm_rc_errno(rc)) {
	case -ENODEV:
		return "TPM not reachable";
	case -EACCES:
		return "PCR policy not satisfied";
	case -EPERM:
		return "TPM authorisation failed";
	case -ENOSPC:
		return "TPM out of object or session slots";
	case -ENOENT:
		return "no such object in the TPM";
	case -EEXIST:
		return "persistent handle already in use";
	case -EBUSY:
		return "TPM busy or in dictionary-attack lockout";
	case -EKEYREJECTED:
		return "object rejected by the TPM (sealed on another TPM or under another parent?)";
	case -EINVAL:
		return "TPM rejected a parameter";
	case -ENOMEM:
		return "out of memory";
	default:
		return "TPM command failed";
	}
}

/**
 * tpm_rc_fail() - report a failed TSS call and map its code
 * @rc:   the TSS2_RC
 * @what: the operation, for the message
 *
 * Return: the negative errno for @rc (0 if @rc is success).
 */
int tpm_rc_fail(TSS2_RC rc, const char *what)
{
	if (rc == TSS2_RC_SUCCESS)
		return 0;
	tpm_err("%s: %s (%s, 0x%x)", what, tpm_rc_explain(rc),
		Tss2_RC_Decode(rc), rc);
	return tpm_rc_errno(rc);
}
