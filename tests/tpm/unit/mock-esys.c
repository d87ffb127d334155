// SPDX-License-Identifier: GPL-2.0-only
/*
 * mock-esys.c - libelfsig-tpm against a fake ESAPI (linked with
 * -Wl,--wrap=Esys_...): inject a failure at every TPM call of every
 * operation and check the error mapping, the single message, and that no
 * transient object, session or ESYS_TR is left behind on any path.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <tss2/tss2_esys.h>
#include <tss2/tss2_tctildr.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <tss2/tss2_mu.h>

#include "elfsig_tpm.h"

/* ---- the fake TPM ---- */

#define MAX_TR 64
static struct {
	int calls;		/* counted ESAPI calls so far */
	int fail_at;		/* inject at this call (1-based); 0 never */
	TSS2_RC fail_rc;
	TSS2_RC unseal_rc;	/* Unseal's answer when not injected */
	int pcr_bank_missing;	/* PCR_Read answers with an empty selection */
	int die;		/* the injected failure kills the TPM: every
				 * later call, flushes included, fails too */
	int dead;
	ESYS_TR next;
	ESYS_TR transient[MAX_TR];	/* loaded objects and sessions */
	ESYS_TR trs[MAX_TR];		/* ESYS_TRs of persistent objects */
	TPM2_HANDLE persistent[8];
	int errors;		/* messages through the callback */
	char last[512];
	uint8_t srk_name_byte;	/* the SRK's name: 0x000b, then 32 of these */
	unsigned int unallocated; /* banks (bit = TPM2_ALG_ID & 0xf) missing */
	int extends, loads;	/* PCR_Extend and Load calls */
	int pcr_value_fails;	/* the first PolicyPCRs answer TPM_RC_VALUE */
	int policy_pcrs;	/* PolicyPCR calls */
	ESYS_TR external;	/* the key of LoadExternal, and its name */
	TPM2B_NAME external_name;
	TPML_DIGEST_VALUES last_extend;
	/* One NV index: the rollback counter. */
	TPM2_HANDLE nv_index;		/* 0: none defined */
	TPMA_NV nv_attrs;
	uint64_t nv_value;
	int nv_reads, nv_increments;
} m;

static void mock_reset(int fail_at, TSS2_RC rc)
{
	memset(&m, 0, sizeof(m));
	m.fail_at = fail_at;
	m.fail_rc = rc;
	m.next = 0x4000;
}

static int inject(void)
{
	if (++m.calls == m.fail_at && m.die)
		m.dead = 1;
	return m.calls == m.fail_at || m.dead;
}

static void track(ESYS_TR *set, ESYS_TR tr)
{
	for (int i = 0; i < MAX_TR; i++)
		if (!set[i]) {
			set[i] = tr;
			return;
		}
	abort();
}

static int untrack(ESYS_TR *set, ESYS_TR tr)
{
	for (int i = 0; i < MAX_TR; i++)
		if (set[i] == tr) {
			set[i] = 0;
			return 1;
		}
	return 0;
}

static int live(const ESYS_TR *set)
{
	int n = 0;

	for (int i = 0; i < MAX_TR; i++)
		n += set[i] != 0;
	return n;
}

static void *dup_out(const void *p, size_t n)
{
	void *q = malloc(n);

	if (!q)
		abort();
	memcpy(q, p, n);
	return q;
}

/* Every wrapped symbol needs a prototype under -Wmissing-prototypes. */
#define W(ret, name, ...) ret __wrap_##name(__VA_ARGS__); ret __wrap_##name(__VA_ARGS__)

W(TSS2_RC, Tss2_TctiLdr_Initialize, const char *conf, TSS2_TCTI_CONTEXT **tcti)
{
	*tcti = (TSS2_TCTI_CONTEXT *)&m;
	return strncmp(conf, "mockfail", 8) ? TSS2_RC_SUCCESS :
	       TSS2_TCTI_RC_IO_ERROR;
}

W(void, Tss2_TctiLdr_Finalize, TSS2_TCTI_CONTEXT **tcti)
{
	*tcti = NULL;
}

W(TSS2_RC, Esys_Initialize, ESYS_CONTEXT **e, TSS2_TCTI_CONTEXT *tcti,
  TSS2_ABI_VERSION *abi)
{
	*e = (ESYS_CONTEXT *)&m;
	return TSS2_RC_SUCCESS;
}

W(void, Esys_Finalize, ESYS_CONTEXT **e)
{
	*e = NULL;
}

W(TSS2_RC, Esys_CreatePrimary, ESYS_CONTEXT *e, ESYS_TR h, ESYS_TR s1,
  ESYS_TR s2, ESYS_TR s3, const TPM2B_SENSITIVE_CREATE *sens,
  const TPM2B_PUBLIC *pub, const TPM2B_DATA *out, const TPML_PCR_SELECTION *pcr,
  ESYS_TR *obj, TPM2B_PUBLIC **opub, TPM2B_CREATION_DATA **cd,
  TPM2B_DIGEST **ch, TPMT_TK_CREATION **ct)
{
	if (inject())
		return m.fail_rc;
	*obj = m.next++;
	track(m.transient, *obj);
	return TSS2_RC_SUCCESS;
}

W(TSS2_RC, Esys_Create, ESYS_CONTEXT *e, ESYS_TR parent, ESYS_TR s1,
  ESYS_TR s2, ESYS_TR s3, const TPM2B_SENSITIVE_CREATE *sens,
  const TPM2B_PUBLIC *tmpl, const TPM2B_DATA *out, const TPML_PCR_SELECTION *pcr,
  TPM2B_PRIVATE **opriv, TPM2B_PUBLIC **opub, TPM2B_CREATION_DATA **cd,
  TPM2B_DIGEST **ch, TPMT_TK_CREATION **ct)
{
	TPM2B_PRIVATE priv = { .size = 48 };

	if (inject())
		return m.fail_rc;
	*opriv = dup_out(&priv, sizeof(priv));
	*opub = dup_out(tmpl, sizeof(*tmpl));
	return TSS2_RC_SUCCESS;
}

W(TSS2_RC, Esys_Load, ESYS_CONTEXT *e, ESYS_TR parent, ESYS_TR s1, ESYS_TR s2,
  ESYS_TR s3, const TPM2B_PRIVATE *priv, const TPM2B_PUBLIC *pub, ESYS_TR *obj)
{
	if (inject())
		return m.fail_rc;
	m.loads++;
	*obj = m.next++;
	track(m.transient, *obj);
	return TSS2_RC_SUCCESS;
}

W(TSS2_RC, Esys_StartAuthSession, ESYS_CONTEXT *e, ESYS_TR key, ESYS_TR bind,
  ESYS_TR s1, ESYS_TR s2, ESYS_TR s3, const TPM2B_NONCE *nonce, TPM2_SE type,
  const TPMT_SYM_DEF *sym, TPMI_ALG_HASH hash, ESYS_TR *session)
{
	if (inject())
		return m.fail_rc;
	*session = m.next++;
	track(m.transient, *session);
	return TSS2_RC_SUCCESS;
}

W(TSS2_RC, Esys_TRSess_SetAttributes, ESYS_CONTEXT *e, ESYS_TR session,
  TPMA_SESSION flags, TPMA_SESSION mask)
{
	return inject() ? m.fail_rc : TSS2_RC_SUCCESS;
}

W(TSS2_RC, Esys_PolicyPCR, ESYS_CONTEXT *e, ESYS_TR session, ESYS_TR s1,
  ESYS_TR s2, ESYS_TR s3, const TPM2B_DIGEST *digest,
  const TPML_PCR_SELECTION *pcrs)
{
	if (inject())
		return m.fail_rc;
	/* TPM_RC_VALUE on parameter 1: not the current PCR values */
	return ++m.policy_pcrs <= m.pcr_value_fails ? 0x1c4 : TSS2_RC_SUCCESS;
}

W(TSS2_RC, Esys_LoadExternal, ESYS_CONTEXT *e, ESYS_TR s1, ESYS_TR s2,
  ESYS_TR s3, const TPM2B_SENSITIVE *priv, const TPM2B_PUBLIC *pub,
  ESYS_TR hierarchy, ESYS_TR *obj)
{
	uint8_t buf[sizeof(TPMT_PUBLIC)];
	size_t off = 0;

	if (inject())
		return m.fail_rc;
	if (priv || hierarchy != ESYS_TR_RH_OWNER ||
	    Tss2_MU_TPMT_PUBLIC_Marshal(&pub->publicArea, buf, sizeof(buf), &off))
		return TPM2_RC_VALUE;
	/* ESAPI names it from the public area: nameAlg || H(public) */
	m.external_name.size = 34;
	m.external_name.name[0] = 0x00;
	m.external_name.name[1] = 0x0b;
	EVP_Digest(buf, off, m.external_name.name + 2, NULL, EVP_sha256(), NULL);
	*obj = m.external = m.next++;
	track(m.transient, *obj);
	return TSS2_RC_SUCCESS;
}

W(TSS2_RC, Esys_VerifySignature, ESYS_CONTEXT *e, ESYS_TR key, ESYS_TR s1,
  ESYS_TR s2, ESYS_TR s3, const TPM2B_DIGEST *digest,
  const TPMT_SIGNATURE *sig, TPMT_TK_VERIFIED **ticket)
{
	TPMT_TK_VERIFIED t = { .tag = TPM2_ST_VERIFIED,
			       .hierarchy = TPM2_RH_OWNER,
			       .digest = { .size = 32 } };

	if (inject())
		return m.fail_rc;
	*ticket = dup_out(&t, sizeof(t));
	return TSS2_RC_SUCCESS;
}

W(TSS2_RC, Esys_PolicyAuthorize, ESYS_CONTEXT *e, ESYS_TR session, ESYS_TR s1,
  ESYS_TR s2, ESYS_TR s3, const TPM2B_DIGEST *approved,
  const TPM2B_NONCE *ref, const TPM2B_NAME *key,
  const TPMT_TK_VERIFIED *ticket)
{
	return inject() ? m.fail_rc : TSS2_RC_SUCCESS;
}

W(TSS2_RC, Esys_PolicyGetDigest, ESYS_CONTEXT *e, ESYS_TR session, ESYS_TR s1,
  ESYS_TR s2, ESYS_TR s3, TPM2B_DIGEST **digest)
{
	TPM2B_DIGEST d = { .size = 32 };

	if (inject())
		return m.fail_rc;
	*digest = dup_out(&d, sizeof(d));
	return TSS2_RC_SUCCESS;
}

W(TSS2_RC, Esys_Unseal, ESYS_CONTEXT *e, ESYS_TR obj, ESYS_TR s1, ESYS_TR s2,
  ESYS_TR s3, TPM2B_SENSITIVE_DATA **data)
{
	TPM2B_SENSITIVE_DATA d = { .size = 6, .buffer = "secret" };

	if (inject())
		return m.fail_rc;
	if (m.unseal_rc)
		return m.unseal_rc;
	*data = dup_out(&d, sizeof(d));
	return TSS2_RC_SUCCESS;
}

/* All PCRs of the selection (8 at most per call, like a real TPM), each
 * holding its index in every byte. */
W(TSS2_RC, Esys_PCR_Read, ESYS_CONTEXT *e, ESYS_TR s1, ESYS_TR s2, ESYS_TR s3,
  const TPML_PCR_SELECTION *in, UINT32 *counter, TPML_PCR_SELECTION **sel,
  TPML_DIGEST **vals)
{
	TPML_PCR_SELECTION o = *in;
	TPML_DIGEST v = { 0 };

	if (inject())
		return m.fail_rc;
	memset(o.pcrSelections[0].pcrSelect, 0, 4);
	for (unsigned int i = 0; i < 24 && v.count < 8 && !m.pcr_bank_missing; i++)
		if (in->pcrSelections[0].pcrSelect[i / 8] & (1u << (i % 8))) {
			o.pcrSelections[0].pcrSelect[i / 8] |= 1u << (i % 8);
			v.digests[v.count].size = 32;
			memset(v.digests[v.count].buffer, (int)i, 32);
			v.count++;
		}
	*sel = dup_out(&o, sizeof(o));
	*vals = dup_out(&v, sizeof(v));
	return TSS2_RC_SUCCESS;
}

W(TSS2_RC, Esys_PCR_Extend, ESYS_CONTEXT *e, ESYS_TR pcr, ESYS_TR s1,
  ESYS_TR s2, ESYS_TR s3, const TPML_DIGEST_VALUES *d)
{
	if (inject())
		return m.fail_rc;
	m.extends++;
	m.last_extend = *d;
	return TSS2_RC_SUCCESS;
}

/* The allocated PCR banks: sha1, sha256, sha384, sha512, all 24 PCRs,
 * but those in m.unallocated (which get an empty selection). */
W(TSS2_RC, Esys_GetCapability, ESYS_CONTEXT *e, ESYS_TR s1, ESYS_TR s2,
  ESYS_TR s3, TPM2_CAP cap, UINT32 prop, UINT32 count, TPMI_YES_NO *more,
  TPMS_CAPABILITY_DATA **data)
{
	static const TPM2_ALG_ID algs[] = { TPM2_ALG_SHA1, TPM2_ALG_SHA256,
					    TPM2_ALG_SHA384, TPM2_ALG_SHA512 };
	TPMS_CAPABILITY_DATA c = { .capability = cap };

	if (inject())
		return m.fail_rc;
	if (cap != TPM2_CAP_PCRS)
		abort();
	for (unsigned int i = 0; i < 4; i++) {
		TPMS_PCR_SELECTION *sel = &c.data.assignedPCR.pcrSelections[i];

		sel->hash = algs[i];
		sel->sizeofSelect = 3;
		if (!(m.unallocated & (1u << (algs[i] & 0xf))))
			memset(sel->pcrSelect, 0xff, 3);
	}
	c.data.assignedPCR.count = 4;
	*more = 0;
	*data = dup_out(&c, sizeof(c));
	return TSS2_RC_SUCCESS;
}

/* Local in ESAPI (no TPM command): never injected. */
W(TSS2_RC, Esys_TR_GetName, ESYS_CONTEXT *e, ESYS_TR tr, TPM2B_NAME **name)
{
	TPM2B_NAME n = { .size = 34 };

	if (tr == m.external && tr) {
		*name = dup_out(&m.external_name, sizeof(m.external_name));
		return TSS2_RC_SUCCESS;
	}
	n.name[1] = 0x0b;
	memset(n.name + 2, m.srk_name_byte, 32);
	*name = dup_out(&n, sizeof(n));
	return TSS2_RC_SUCCESS;
}

W(TSS2_RC, Esys_TR_FromTPMPublic, ESYS_CONTEXT *e, TPM2_HANDLE h, ESYS_TR s1,
  ESYS_TR s2, ESYS_TR s3, ESYS_TR *tr)
{
	if (inject())
		return m.fail_rc;
	if (h == m.nv_index && h) {
		*tr = m.next++;
		track(m.trs, *tr);
		return TSS2_RC_SUCCESS;
	}
	for (int i = 0; i < 8; i++)
		if (m.persistent[i] == h) {
			*tr = m.next++;
			track(m.trs, *tr);
			return TSS2_RC_SUCCESS;
		}
	return 0x18b;	/* TPM_RC_HANDLE, handle 1 */
}

W(TSS2_RC, Esys_TR_Close, ESYS_CONTEXT *e, ESYS_TR *tr)
{
	if (!untrack(m.trs, *tr)) {
		fprintf(stderr, "TR_Close of unknown 0x%x\n", *tr);
		abort();
	}
	*tr = ESYS_TR_NONE;
	return TSS2_RC_SUCCESS;
}

W(TSS2_RC, Esys_FlushContext, ESYS_CONTEXT *e, ESYS_TR tr)
{
	if (m.dead)
		return m.fail_rc;
	if (!untrack(m.transient, tr)) {
		fprintf(stderr, "flush of unknown 0x%x\n", tr);
		abort();
	}
	return TSS2_RC_SUCCESS;
}

W(TSS2_RC, Esys_EvictControl, ESYS_CONTEXT *e, ESYS_TR auth, ESYS_TR obj,
  ESYS_TR s1, ESYS_TR s2, ESYS_TR s3, TPMI_DH_PERSISTENT h, ESYS_TR *out)
{
	if (inject())
		return m.fail_rc;
	if (untrack(m.trs, obj)) {	/* evicting: ESAPI keeps the node */
		track(m.trs, obj);
		for (int i = 0; i < 8; i++)
			if (m.persistent[i] == h)
				m.persistent[i] = 0;
		*out = ESYS_TR_NONE;
		return TSS2_RC_SUCCESS;
	}
	for (int i = 0; i < 8; i++)
		if (!m.persistent[i]) {
			m.persistent[i] = h;
			break;
		}
	*out = m.next++;
	track(m.trs, *out);
	return TSS2_RC_SUCCESS;
}

W(TSS2_RC, Esys_ReadPublic, ESYS_CONTEXT *e, ESYS_TR obj, ESYS_TR s1,
  ESYS_TR s2, ESYS_TR s3, TPM2B_PUBLIC **pub, TPM2B_NAME **name,
  TPM2B_NAME **qname)
{
	TPM2B_PUBLIC p = { .size = 1 };

	if (inject())
		return m.fail_rc;
	p.publicArea.objectAttributes = 0x40072;
	*pub = dup_out(&p, sizeof(p));
	return TSS2_RC_SUCCESS;
}

/* The counter's name: 0x000b, then 32 bytes of its attributes' low byte
 * and the WRITTEN bit (so the attributes show in it, as in a real name). */
static void nv_name(TPM2B_NAME *n)
{
	n->size = 34;
	n->name[0] = 0x00;
	n->name[1] = 0x0b;
	memset(n->name + 2, (int)((m.nv_attrs & 0xff) |
				  (m.nv_attrs & TPMA_NV_WRITTEN ? 0x80 : 0)), 32);
}

W(TSS2_RC, Esys_NV_ReadPublic, ESYS_CONTEXT *e, ESYS_TR nv, ESYS_TR s1,
  ESYS_TR s2, ESYS_TR s3, TPM2B_NV_PUBLIC **pub, TPM2B_NAME **name)
{
	TPM2B_NV_PUBLIC p = { .size = 1 };
	TPM2B_NAME n;

	if (inject())
		return m.fail_rc;
	p.nvPublic.nvIndex = m.nv_index;
	p.nvPublic.nameAlg = TPM2_ALG_SHA256;
	p.nvPublic.attributes = m.nv_attrs;
	p.nvPublic.dataSize = 8;
	nv_name(&n);
	*pub = dup_out(&p, sizeof(p));
	*name = dup_out(&n, sizeof(n));
	return TSS2_RC_SUCCESS;
}

W(TSS2_RC, Esys_NV_Read, ESYS_CONTEXT *e, ESYS_TR auth, ESYS_TR nv, ESYS_TR s1,
  ESYS_TR s2, ESYS_TR s3, UINT16 size, UINT16 offset,
  TPM2B_MAX_NV_BUFFER **data)
{
	TPM2B_MAX_NV_BUFFER d = { .size = 8 };

	if (inject())
		return m.fail_rc;
	if (!(m.nv_attrs & TPMA_NV_WRITTEN))
		return TPM2_RC_NV_UNINITIALIZED;
	for (int i = 0; i < 8; i++)
		d.buffer[i] = (uint8_t)(m.nv_value >> (56 - 8 * i));
	m.nv_reads++;
	*data = dup_out(&d, sizeof(d));
	return TSS2_RC_SUCCESS;
}

W(TSS2_RC, Esys_NV_Increment, ESYS_CONTEXT *e, ESYS_TR auth, ESYS_TR nv,
  ESYS_TR s1, ESYS_TR s2, ESYS_TR s3)
{
	if (inject())
		return m.fail_rc;
	m.nv_value++;
	m.nv_increments++;
	m.nv_attrs |= TPMA_NV_WRITTEN;
	return TSS2_RC_SUCCESS;
}

W(TSS2_RC, Esys_NV_DefineSpace, ESYS_CONTEXT *e, ESYS_TR auth, ESYS_TR s1,
  ESYS_TR s2, ESYS_TR s3, const TPM2B_AUTH *a, const TPM2B_NV_PUBLIC *pub,
  ESYS_TR *tr)
{
	if (inject())
		return m.fail_rc;
	if (m.nv_index)
		return TPM2_RC_NV_DEFINED;
	m.nv_index = pub->nvPublic.nvIndex;
	m.nv_attrs = pub->nvPublic.attributes;
	*tr = m.next++;
	track(m.trs, *tr);
	return TSS2_RC_SUCCESS;
}

/* ---- the tests ---- */

static int failed;

static void check(int ok, const char *name, const char *why)
{
	if (ok) {
		printf("PASS: %s\n", name);
	} else {
		printf("FAIL: %s: %s\n", name, why);
		failed++;
	}
}

static void on_error(const char *msg, void *ctx)
{
	m.errors++;
	snprintf(m.last, sizeof(m.last), "%s", msg);
}

typedef int (*op_fn)(struct elfsig_tpm *t);

static struct elfsig_tpm_sealed *sealed_fixture;

static int op_seal(struct elfsig_tpm *t)
{
	struct elfsig_tpm_pcrsel sel = { TPM2_ALG_SHA256, 0x0f0f0f };
	struct elfsig_tpm_sealed *s = NULL;
	int ret = elfsig_tpm_seal_current(t, &sel, (const uint8_t *)"k", 1, &s);

	if (!ret && !sealed_fixture)
		sealed_fixture = s;
	else
		elfsig_tpm_sealed_free(s);
	return ret;
}

static int op_unseal(struct elfsig_tpm *t)
{
	uint8_t buf[ELFSIG_TPM_MAX_SECRET];
	size_t len;

	return elfsig_tpm_unseal(t, sealed_fixture, buf, sizeof(buf), &len);
}

static int op_keygen(struct elfsig_tpm *t)
{
	return elfsig_tpm_keygen(t, ELFSIG_TPM_KEY_ECC_P256, 0x81000010, NULL);
}

static int op_evict(struct elfsig_tpm *t)
{
	m.persistent[0] = 0x81000010;
	return elfsig_tpm_evict(t, 0x81000010);
}

static int op_extend(struct elfsig_tpm *t)
{
	return elfsig_tpm_pcr_extend_data(t, 7, TPM2_ALG_SHA256, "ev", 2);
}

static const uint16_t all_banks[] = { TPM2_ALG_SHA256, TPM2_ALG_SHA1,
				      TPM2_ALG_SHA384, TPM2_ALG_SHA512 };

static int op_extend_event(struct elfsig_tpm *t)
{
	struct elfsig_tpm_event_digests ev;

	return elfsig_tpm_pcr_extend_event(t, 13, all_banks, 4, "ev", 2, &ev);
}

/* An authority key (ECDSA P-256) and a signature of its kind: the mock
 * TPM checks no signature, the library checks the shape. */
static uint8_t authority[200];
static size_t authority_len;
static uint8_t authority_sig[80];
static size_t authority_sig_len;
static struct elfsig_tpm_sealed *authorized_fixture;

static int make_authority(void)
{
	EVP_PKEY *k = EVP_EC_gen("P-256");
	uint8_t d[32] = { 1 }, *p = authority;
	EVP_PKEY_CTX *c = k ? EVP_PKEY_CTX_new(k, NULL) : NULL;
	int n = k ? i2d_PUBKEY(k, NULL) : 0;

	authority_sig_len = sizeof(authority_sig);
	if (!c || n <= 0 || (size_t)n > sizeof(authority) ||
	    i2d_PUBKEY(k, &p) != n || EVP_PKEY_sign_init(c) <= 0 ||
	    EVP_PKEY_sign(c, authority_sig, &authority_sig_len, d, sizeof(d)) <= 0)
		return -1;
	authority_len = (size_t)n;
	EVP_PKEY_CTX_free(c);
	EVP_PKEY_free(k);
	return 0;
}

static int op_seal_authorized(struct elfsig_tpm *t)
{
	struct elfsig_tpm_sealed *s = NULL;
	int ret = elfsig_tpm_seal_authorized(t, authority, authority_len,
					     (const uint8_t *)"ref", 3,
					     (const uint8_t *)"k", 1, &s);

	if (!ret && !authorized_fixture)
		authorized_fixture = s;
	else
		elfsig_tpm_sealed_free(s);
	return ret;
}

/* Two candidates; the mock's PCRs match the second when asked to. */
static size_t last_used;
static int op_unseal_authorized(struct elfsig_tpm *t)
{
	struct elfsig_tpm_signed_pcr_policy pols[2];
	uint8_t buf[ELFSIG_TPM_MAX_SECRET];
	size_t len, i;

	for (i = 0; i < 2; i++) {
		memset(&pols[i], 0, sizeof(pols[i]));
		pols[i].values.sel.bank = TPM2_ALG_SHA256;
		pols[i].values.sel.mask = 0x95;
		pols[i].values.digest_size = 32;
		pols[i].values.value[7][0] = (uint8_t)i;
		pols[i].sig = authority_sig;
		pols[i].sig_len = authority_sig_len;
	}
	return elfsig_tpm_unseal_authorized(t, authorized_fixture, authority,
					    authority_len, pols, 2, &last_used,
					    buf, sizeof(buf), &len);
}

/* The rollback counter: defined and written, value 41. */
#define NV 0x0100e15f
static void nv_fixture(void)
{
	m.nv_index = NV;
	m.nv_attrs = ELFSIG_TPM_COUNTER_ATTRS | TPMA_NV_WRITTEN;
	m.nv_value = 41;
}

static int op_counter_read(struct elfsig_tpm *t)
{
	uint64_t v;

	nv_fixture();
	return elfsig_tpm_counter_read(t, NV, NULL, 0, &v);
}

static int op_counter_advance(struct elfsig_tpm *t)
{
	uint64_t v;

	nv_fixture();
	return elfsig_tpm_counter_advance(t, NV, NULL, 0, 3, &v);
}

static int op_counter_define(struct elfsig_tpm *t)
{
	return elfsig_tpm_counter_define(t, NV);
}

/*
 * Run @op with a failure injected at call 1, 2, ... until it runs clean.
 * Each failing run must return @want, say exactly one thing, and leave no
 * transient object, session or ESYS_TR behind once the connection closes.
 */
static void every_failure_mode(const char *name, op_fn op, TSS2_RC rc,
			       int want, int die)
{
	char buf[160], why[600];
	int at, leaks = 0, bad_ret = 0, bad_msg = 0;

	for (at = 1; at < 100; at++) {
		struct elfsig_tpm_opts o = { .tcti = "mock:" };
		struct elfsig_tpm *t;
		int ret;

		mock_reset(at, rc);
		m.die = die;
		if (elfsig_tpm_open(&o, &t))
			abort();
		ret = op(t);
		elfsig_tpm_close(t);
		if (m.calls < at) {	/* ran clean: all points covered */
			snprintf(buf, sizeof(buf), "%s: runs clean with no injection", name);
			check(ret == 0 && m.errors == 0 && !live(m.transient) &&
			      !live(m.trs), buf, m.last);
			break;
		}
		/* A dead TPM keeps what it held; ESYS_TRs are ours to close. */
		if ((!die && live(m.transient)) || live(m.trs))
			leaks++;
		if (ret != want)
			bad_ret++;
		if (m.errors != 1)
			bad_msg++;
		if (leaks || bad_ret || bad_msg) {
			snprintf(why, sizeof(why),
				 "at call %d: ret %d (want %d), %d messages (last '%s'), %d transients, %d TRs left",
				 at, ret, want, m.errors, m.last, live(m.transient),
				 live(m.trs));
			break;
		}
	}
	snprintf(buf, sizeof(buf), die ?
		 "%s: TPM dies at each of %d TPM calls: %s, one message (not one per failed flush)" :
		 "%s: failure at each of %d TPM calls: %s, one message, nothing left loaded",
		 name, at - 1, strerror(-want));
	check(!leaks && !bad_ret && !bad_msg, buf, why);
}

static void every_failure(const char *name, op_fn op, TSS2_RC rc, int want)
{
	every_failure_mode(name, op, rc, want, 0);
}

/* The index must be the bound counter before anything is read through a
 * session: the name, the attributes, written; and the value is read. */
static void counter_checks(void)
{
	struct elfsig_tpm_opts o = { .tcti = "mock:" };
	struct elfsig_tpm_nv_info info;
	struct elfsig_tpm *t;
	TPM2B_NAME n;
	uint64_t v = 0;
	int ret;

	mock_reset(0, 0);
	nv_fixture();
	nv_name(&n);
	elfsig_tpm_open(&o, &t);
	ret = elfsig_tpm_counter_advance(t, NV, n.name, n.size, 2, &v);
	elfsig_tpm_close(t);
	check(ret == 0 && v == 43 && m.nv_increments == 2 && m.nv_reads == 1 &&
	      m.errors == 0 && !live(m.transient) && !live(m.trs),
	      "counter: the bound name admits it; two increments, then one authenticated read (43)",
	      m.last);

	mock_reset(0, 0);
	nv_fixture();
	nv_name(&n);
	n.name[5] ^= 1;
	elfsig_tpm_open(&o, &t);
	ret = elfsig_tpm_counter_read(t, NV, n.name, n.size, &v);
	elfsig_tpm_close(t);
	check(ret == -ESTALE && m.errors == 1 && m.nv_reads == 0 && !live(m.trs) &&
	      strstr(m.last, "is not the bound counter"),
	      "counter: another name is -ESTALE, one message, nothing read", m.last);

	mock_reset(0, 0);
	nv_fixture();
	m.nv_attrs |= TPMA_NV_OWNERWRITE;
	elfsig_tpm_open(&o, &t);
	ret = elfsig_tpm_counter_read(t, NV, NULL, 0, &v);
	elfsig_tpm_close(t);
	check(ret == -EKEYREJECTED && m.errors == 1 && m.nv_reads == 0 && !live(m.trs),
	      "counter: other attributes (ownerwrite) are -EKEYREJECTED, nothing read", m.last);

	mock_reset(0, 0);
	nv_fixture();
	m.nv_attrs &= ~TPMA_NV_WRITTEN;
	nv_name(&n);
	elfsig_tpm_open(&o, &t);
	ret = elfsig_tpm_counter_read(t, NV, n.name, n.size, &v);
	elfsig_tpm_close(t);
	check(ret == -ENODATA && m.errors == 1 && m.nv_reads == 0 && !live(m.trs),
	      "counter: defined again, never incremented, is -ENODATA", m.last);

	mock_reset(0, 0);
	elfsig_tpm_open(&o, &t);
	ret = elfsig_tpm_counter_read(t, NV, NULL, 0, &v);
	elfsig_tpm_close(t);
	check(ret == -ENOENT && m.errors == 1 && strstr(m.last, "is not defined"),
	      "counter: not defined is -ENOENT, one message", m.last);

	mock_reset(0, 0);
	elfsig_tpm_open(&o, &t);
	ret = elfsig_tpm_counter_define(t, NV);
	if (!ret)
		ret = elfsig_tpm_nv_info(t, NV, &info);
	elfsig_tpm_close(t);
	check(ret == 0 && info.attributes == (ELFSIG_TPM_COUNTER_ATTRS | TPMA_NV_WRITTEN) &&
	      m.nv_value == 1 && !elfsig_tpm_counter_check(&info) && !live(m.trs),
	      "counter: defined with the counter attributes and incremented once", m.last);
	mock_reset(0, 0);
	nv_fixture();
	elfsig_tpm_open(&o, &t);
	ret = elfsig_tpm_counter_define(t, NV);
	elfsig_tpm_close(t);
	check(ret == -EEXIST && m.errors == 0 && m.nv_value == 41,
	      "counter: defining it again is -EEXIST, silently, the value kept", m.last);
	mock_reset(0, 0);
	elfsig_tpm_open(&o, &t);
	ret = elfsig_tpm_counter_define(t, 0x81000001);
	elfsig_tpm_close(t);
	check(ret == -EINVAL && m.calls == 0 && m.errors == 1,
	      "counter: a handle outside the NV range is refused before any TPM call", m.last);
}

static void policy_failure(void)
{
	struct elfsig_tpm_opts o = { .tcti = "mock:" };
	struct elfsig_tpm *t;
	uint8_t buf[ELFSIG_TPM_MAX_SECRET];
	size_t len;
	int ret;

	mock_reset(0, 0);
	m.unseal_rc = 0x99d;	/* TPM_RC_POLICY_FAIL, session 1 */
	elfsig_tpm_open(&o, &t);
	ret = elfsig_tpm_unseal(t, sealed_fixture, buf, sizeof(buf), &len);
	elfsig_tpm_close(t);
	/* The mock's PCRs equal the recorded ones: the message says so. */
	check(ret == -EACCES && m.errors == 1 &&
	      !strncmp(m.last, "PCR policy not satisfied: ", 26) &&
	      !live(m.transient), "unseal: TPM_RC_POLICY_FAIL is -EACCES with the policy message",
	      m.last);
}

/* A bank the TPM has not allocated: PCR_Read succeeds but returns nothing.
 * The loop must end with an error, not spin or read garbage. */
static void bank_not_allocated(void)
{
	struct elfsig_tpm_opts o = { .tcti = "mock:" };
	struct elfsig_tpm_pcrsel sel = { TPM2_ALG_SHA384, 0x80 };
	struct elfsig_tpm_pcr_values v;
	struct elfsig_tpm *t;
	int ret;

	mock_reset(0, 0);
	m.pcr_bank_missing = 1;
	elfsig_tpm_open(&o, &t);
	ret = elfsig_tpm_pcr_read(t, &sel, &v);
	elfsig_tpm_close(t);
	check(ret == -EIO && m.errors == 1 && strstr(m.last, "bank not allocated") &&
	      m.calls == 1, "pcr read: an unallocated bank is an error after one read",
	      m.last);
}

static void unreachable(void)
{
	struct elfsig_tpm_opts o = { .tcti = "mockfail:x" };
	struct elfsig_tpm *t = (struct elfsig_tpm *)&o;
	int ret;

	mock_reset(0, 0);
	ret = elfsig_tpm_open(&o, &t);
	check(ret == -ENODEV && t == NULL && m.errors == 1 &&
	      strstr(m.last, "TPM not reachable"),
	      "open: TCTI failure is -ENODEV, one message", m.last);
}

/* @ev and the last TPM2_PCR_Extend carry H_bank("ev") for exactly
 * @banks, in that order. */
static int extended_as(const struct elfsig_tpm_event_digests *ev,
		       const uint16_t *banks, unsigned int n)
{
	const TPML_DIGEST_VALUES *d = &m.last_extend;

	if (ev->count != n || d->count != n)
		return 0;
	for (unsigned int i = 0; i < n; i++) {
		uint8_t md[EVP_MAX_MD_SIZE];
		unsigned int len = 0;

		EVP_Digest("ev", 2, md, &len,
			   EVP_get_digestbyname(elfsig_tpm_bank_name(banks[i])),
			   NULL);
		if (ev->d[i].bank != banks[i] || d->digests[i].hashAlg != banks[i] ||
		    ev->d[i].size != len || memcmp(ev->d[i].digest, md, len) ||
		    memcmp((const uint8_t *)&d->digests[i].digest, md, len))
			return 0;
	}
	return 1;
}

/* Every allocated bank in one TPM2_PCR_Extend; the allocation is asked
 * once per connection; unallocated banks are skipped, none is an error. */
static void extend_event(void)
{
	static const uint16_t three[] = { TPM2_ALG_SHA256, TPM2_ALG_SHA1,
					  TPM2_ALG_SHA512 };
	static const uint16_t twice[] = { TPM2_ALG_SHA256, TPM2_ALG_SHA256 };
	struct elfsig_tpm_opts o = { .tcti = "mock:" };
	struct elfsig_tpm_event_digests ev;
	struct elfsig_tpm *t;
	int r1, r2;

	mock_reset(0, 0);
	elfsig_tpm_open(&o, &t);
	r1 = elfsig_tpm_pcr_extend_event(t, 13, all_banks, 4, "ev", 2, &ev);
	check(r1 == 0 && m.extends == 1 && m.calls == 2 &&
	      extended_as(&ev, all_banks, 4),
	      "extend event: 4 banks in one PCR_Extend (after one GetCapability), digests in the caller's order",
	      m.last);
	r2 = elfsig_tpm_pcr_extend_event(t, 13, all_banks, 4, "ev", 2, &ev);
	check(r2 == 0 && m.extends == 2 && m.calls == 3,
	      "extend event: the next event is one TPM call (allocation cached)",
	      m.last);
	elfsig_tpm_close(t);

	mock_reset(0, 0);
	m.unallocated = 1u << (TPM2_ALG_SHA384 & 0xf);
	elfsig_tpm_open(&o, &t);
	r1 = elfsig_tpm_pcr_extend_event(t, 13, all_banks, 4, "ev", 2, &ev);
	elfsig_tpm_close(t);
	check(r1 == 0 && m.extends == 1 && extended_as(&ev, three, 3) &&
	      m.errors == 0,
	      "extend event: an unallocated bank (sha384) is skipped, the others extended",
	      m.last);

	mock_reset(0, 0);
	m.unallocated = 0xffff;
	elfsig_tpm_open(&o, &t);
	r1 = elfsig_tpm_pcr_extend_event(t, 13, all_banks, 4, "ev", 2, &ev);
	elfsig_tpm_close(t);
	check(r1 == -ENOENT && m.extends == 0 && m.errors == 1 && ev.count == 0,
	      "extend event: no requested bank allocated is -ENOENT, nothing extended",
	      m.last);

	mock_reset(0, 0);
	elfsig_tpm_open(&o, &t);
	r1 = elfsig_tpm_pcr_extend_event(t, 13, twice, 2, "ev", 2, &ev);
	r2 = elfsig_tpm_pcr_extend_event(t, 24, all_banks, 4, "ev", 2, &ev);
	elfsig_tpm_close(t);
	check(r1 == -EINVAL && r2 == -EINVAL && m.calls == 0 && m.errors == 2,
	      "extend event: a repeated bank or PCR 24 is -EINVAL before any TPM call",
	      m.last);
}

/* The object records the SRK's name at sealing; an SRK with another name
 * is refused before the object is loaded or a session salted with it. */
static void srk_name_pinned(void)
{
	struct elfsig_tpm_opts o = { .tcti = "mock:" };
	uint8_t buf[ELFSIG_TPM_MAX_SECRET];
	const uint8_t *name;
	struct elfsig_tpm *t;
	size_t len, nlen;
	int ret;

	nlen = elfsig_tpm_sealed_srk_name(sealed_fixture, &name);
	check(nlen == 34 && name[1] == 0x0b && name[2] == 0,
	      "seal: the object records the SRK's name", "");
	mock_reset(0, 0);
	m.srk_name_byte = 0x55;
	elfsig_tpm_open(&o, &t);
	ret = elfsig_tpm_unseal(t, sealed_fixture, buf, sizeof(buf), &len);
	elfsig_tpm_close(t);
	check(ret == -ENOKEY && m.errors == 1 && m.loads == 0 &&
	      strstr(m.last, "storage root key is not the pinned one") &&
	      !live(m.transient),
	      "unseal: another SRK name is -ENOKEY before anything is loaded",
	      m.last);
}

/* Candidates in order: a PCR mismatch (TPM_RC_VALUE) moves to the next in
 * the same session; none matching is -EACCES with one message; an object
 * sealed to a PCR state or to another authority is refused before any TPM
 * command. */
static void authorized_candidates(void)
{
	struct elfsig_tpm_opts o = { .tcti = "mock:" };
	struct elfsig_tpm *t;
	uint8_t buf[ELFSIG_TPM_MAX_SECRET];
	size_t len, used;
	int ret;

	mock_reset(0, 0);
	m.pcr_value_fails = 1;
	elfsig_tpm_open(&o, &t);
	ret = op_unseal_authorized(t);
	elfsig_tpm_close(t);
	check(ret == 0 && last_used == 1 && m.policy_pcrs == 2 && m.errors == 0 &&
	      !live(m.transient), "unseal authorized: the first candidate's PCRs differ, the second opens it",
	      m.last);

	mock_reset(0, 0);
	m.pcr_value_fails = 2;
	elfsig_tpm_open(&o, &t);
	ret = op_unseal_authorized(t);
	elfsig_tpm_close(t);
	check(ret == -EACCES && m.errors == 1 && m.loads == 0 && !live(m.transient) &&
	      strstr(m.last, "match none of the 2 signed PCR policies"),
	      "unseal authorized: no candidate matches: -EACCES, one message, the object never loaded",
	      m.last);

	mock_reset(0, 0);
	elfsig_tpm_open(&o, &t);
	ret = elfsig_tpm_unseal_authorized(t, sealed_fixture, authority, authority_len,
					   NULL, 0, &used, buf, sizeof(buf), &len);
	elfsig_tpm_close(t);
	check(ret == -EINVAL && m.calls == 0 && m.errors == 1,
	      "unseal authorized: an object sealed to a PCR state is refused before any TPM call",
	      m.last);

	mock_reset(0, 0);
	authority[authority_len - 1] ^= 1;	/* another point: another key */
	elfsig_tpm_open(&o, &t);
	ret = op_unseal_authorized(t);
	elfsig_tpm_close(t);
	authority[authority_len - 1] ^= 1;
	check((ret == -EBADE || ret == -EBADMSG) && m.calls == 0 && m.errors == 1,
	      "unseal authorized: another authority key is refused before any TPM call",
	      m.last);

	mock_reset(0, 0);
	elfsig_tpm_open(&o, &t);
	ret = elfsig_tpm_unseal(t, authorized_fixture, buf, sizeof(buf), &len);
	elfsig_tpm_close(t);
	check(ret == -EINVAL && m.calls == 0 && m.errors == 1,
	      "unseal: an authorized object is refused by the PolicyPCR unseal, before any TPM call",
	      m.last);
}

int main(void)
{
	elfsig_tpm_set_error_callback(on_error, NULL);
	unreachable();
	/* A sealed object for the unseal runs. */
	{
		struct elfsig_tpm_opts o = { .tcti = "mock:" };
		struct elfsig_tpm *t;

		mock_reset(0, 0);
		elfsig_tpm_open(&o, &t);
		op_seal(t);
		elfsig_tpm_close(t);
		if (!sealed_fixture) {
			printf("FAIL: fixture: could not seal against the mock\n");
			return 0;
		}
	}
	every_failure("seal", op_seal, TPM2_RC_FAILURE, -EIO);
	every_failure("seal (out of object memory)", op_seal, 0x902, -ENOSPC);
	every_failure("unseal", op_unseal, TPM2_RC_FAILURE, -EIO);
	every_failure("unseal (TCTI I/O error)", op_unseal, TSS2_TCTI_RC_IO_ERROR, -ENODEV);
	every_failure("keygen", op_keygen, TPM2_RC_FAILURE, -EIO);
	every_failure("evict", op_evict, TPM2_RC_FAILURE, -EIO);
	every_failure("pcr extend", op_extend, 0x9a2, -EPERM);
	every_failure_mode("seal", op_seal, TSS2_TCTI_RC_IO_ERROR, -ENODEV, 1);
	every_failure_mode("unseal", op_unseal, TSS2_TCTI_RC_IO_ERROR, -ENODEV, 1);
	every_failure_mode("keygen", op_keygen, TSS2_TCTI_RC_IO_ERROR, -ENODEV, 1);
	every_failure("pcr extend event", op_extend_event, 0x9a2, -EPERM);
	if (make_authority()) {
		printf("FAIL: authority key: OpenSSL could not make one\n");
		return 0;
	}
	mock_reset(0, 0);
	{
		struct elfsig_tpm_opts o = { .tcti = "mock:" };
		struct elfsig_tpm *t;

		elfsig_tpm_open(&o, &t);
		op_seal_authorized(t);
		elfsig_tpm_close(t);
	}
	check(authorized_fixture != NULL, "seal under PolicyAuthorize against the mock", m.last);
	if (authorized_fixture) {
		every_failure("seal authorized", op_seal_authorized, TPM2_RC_FAILURE, -EIO);
		every_failure("unseal authorized", op_unseal_authorized, TPM2_RC_FAILURE, -EIO);
		every_failure_mode("unseal authorized", op_unseal_authorized,
				   TSS2_TCTI_RC_IO_ERROR, -ENODEV, 1);
		authorized_candidates();
	}
	every_failure("counter read", op_counter_read, TPM2_RC_FAILURE, -EIO);
	every_failure("counter advance", op_counter_advance, TPM2_RC_FAILURE, -EIO);
	every_failure("counter define", op_counter_define, TPM2_RC_FAILURE, -EIO);
	every_failure_mode("counter advance", op_counter_advance,
			   TSS2_TCTI_RC_IO_ERROR, -ENODEV, 1);
	counter_checks();
	policy_failure();
	bank_not_allocated();
	extend_event();
	srk_name_pinned();
	elfsig_tpm_sealed_free(sealed_fixture);
	elfsig_tpm_sealed_free(authorized_fixture);
	return 0;
}
