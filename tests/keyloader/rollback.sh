#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Rollback protection: the machine's epoch (a TPM counter minus the base
# the authority signed in the binding) refuses every policy and PCR policy
# of an older generation; a revocation (files of a newer generation) takes
# effect on the first boot with them; an attacker can raise the epoch
# (denial of service), never lower it. Each refusal: the status, no key,
# the keyring locked, the one line. Against a real swtpm and keyring.
set -u
. "$(dirname "$0")/lib-kl.sh"

kl_loader_suite 3 tpm2_nvincrement tpm2_nvundefine tpm2_nvdefine tpm2_nvread
AUTH=$T_TMP/auth.key
NV=0x0100e15f
kl_authority evil || { echo "FAIL: openssl: evil key"; exit 1; }

# nvvalue: the counter as the TPM reads it (decimal).
nvvalue() { tpm2_nvread -C "$NV" -s 8 "$NV" 2>/dev/null | od -An -tu8 --endian=big | tr -d ' '; }

# epoch_is NAME N: `elfsig-enroll epoch` reports epoch N for $D.
epoch_is() {
	local out
	out=$("$ENROLL" epoch -d "$D" 2>&1)
	[[ $out == *", epoch $2; "* ]] && t_pass "$1" || t_fail "$1" "$out"
}

REVOKED="elfsig-keyloader: */policy: generation * is revoked on this machine (epoch *): no key loaded; install the authority's current files*"
BADBIND="elfsig-keyloader: */counter: not a rollback counter binding of the configured authority for this TPM: no key loaded"

D=$T_TMP/e
mkdir -p "$D/certs"
cp "$T_TMP/k1.pem" "$T_TMP/k2.der" "$D/certs/"
if ! "$ENROLL" create -d "$D" -K "$AUTH" "$T_TMP/k1.pem" "$T_TMP/k2.der" >"$T_TMP/create.out" 2>&1; then
	t_fail "create" "$(cat "$T_TMP/create.out")"
	exit 1
fi

# 1. The enrolment binds the counter: a file a person can read, signed by
# the authority, naming this TPM's SRK and the counter; epoch 0.
grep -q "^nv-index $NV\$" "$D/counter" && grep -q "^srk 000b[0-9a-f]\{64\}\$" "$D/counter" &&
	grep -q "^base $(nvvalue)\$" "$D/counter" &&
	openssl dgst -sha256 -verify "$D/authority.pem" -signature "$D/counter.sig" "$D/counter" >/dev/null 2>&1 &&
	grep -q "^generation 0\$" "$D/policy" && grep -q "^generation 0\$" "$D"/pcr-policies/*.pcrpol &&
	t_pass "create: the binding names this TPM and the counter, base = the counter, signed (openssl dgst verifies it); files of generation 0" ||
	t_fail "create: the binding" "$(cat "$D/counter") $(nvvalue)"
epoch_is "a new enrolment is at epoch 0" 0
kl_load gen0
kl_expect "generation 0 at epoch 0 (equal): both keys load" 0 2 \
	"elfsig-keyloader: enrolment unsealed under $D/pcr-policies/*.pcrpol"

# 2. A revocation: the authority removes k2 and issues the still-valid
# files under generation 1 (k2's certificate moves out of certs/). The
# first boot with them raises the epoch.
cp -a "$D" "$T_TMP/gen0"
"$ENROLL" remove -d "$D" -K "$AUTH" "$T_TMP/k2.der" >/dev/null 2>&1 &&
	"$ENROLL" resign -d "$D" -K "$AUTH" >"$T_TMP/resign.out" 2>&1 &&
	grep -q "generation 1, signed; 1 PCR policy signed again" "$T_TMP/resign.out" ||
	t_fail "remove + resign" "$(cat "$T_TMP/resign.out")"
before=$(nvvalue)
kl_load gen1
kl_expect "generation 1 above epoch 0: the enrolled key loads" 0 1 \
	"elfsig-keyloader: rollback counter $NV: epoch 0 -> 1: files of an older generation are refused from now on"
[ "$(nvvalue)" = $((before + 1)) ] &&
	t_pass "the load advanced the TPM counter by one" ||
	t_fail "the load advanced the TPM counter by one" "$before -> $(nvvalue)"
epoch_is "elfsig-enroll epoch: 1" 1
kl_load gen1-again
kl_expect "generation 1 at epoch 1 loads again, nothing advanced" 0 1
[ "$(nvvalue)" = $((before + 1)) ] && t_pass "no TPM write when the epoch is the files'" ||
	t_fail "no TPM write when the epoch is the files'" "$(nvvalue)"
cp -a "$D" "$T_TMP/gen1"

# 3. The old files come back (a restored image): the removed key does not.
D=$T_TMP/gen0
kl_load old
kl_expect "old enrolment (generation 0, with the removed key) at epoch 1: status 13, no key" 13 0 "$REVOKED"
grep -q "keyring locked (exit 13: rollback)" "$D/out" && [ "$(grep -c . "$D/out")" = 2 ] &&
	t_pass "refused in one line, then the summary" || t_fail "one line" "$(cat "$D/out")"
kl_check "check refuses the old enrolment: status 13 as the loader" 13 \
	"elfsig-enroll: $D/policy: generation 0 is revoked on this machine (epoch 1)" -d "$D"

# 4. The current policy with only an old signed PCR policy: refused.
D=$T_TMP/gen1
rm "$D"/pcr-policies/*; cp "$T_TMP"/gen0/pcr-policies/* "$D/pcr-policies/"
kl_load old-pcrpol
kl_expect "an old signed PCR policy (generation 0) at epoch 1: status 13, no key" 13 0 \
	"elfsig-keyloader: $D/pcr-policies: no signed PCR policy of generation 1 or later: no key loaded*"
grep -q "pcrpol: refused: generation 0 is revoked on this machine (epoch 1)" "$D/out" &&
	t_pass "the revoked PCR policy is named" || t_fail "the revoked PCR policy is named" "$(cat "$D/out")"
kl_check "check with only an old signed PCR policy: status 13 as the loader" 13 \
	"elfsig-enroll: $D/pcr-policies: no signed PCR policy of generation 1 or later" -d "$D"
# With a current PCR policy for another state (an update) next to it: the
# old state is approved only by the revoked file, and the loader says so.
kl_next_pcrs 4 "an update" > "$T_TMP/update.pcrs"
"$ENROLL" sign-pcr-policy -d "$D" -K "$AUTH" --pcr-values "$T_TMP/update.pcrs" \
	-o "$D/pcr-policies/zz-update.pcrpol" >/dev/null 2>&1 || t_fail "sign-pcr-policy for the update"
kl_load old-state
kl_expect "the old state, whose only PCR policy is revoked: status 13, no key" 13 0 \
	"elfsig-keyloader: $D/pcr-policies/4f04c837291ac05d.pcrpol: this PCR state is approved only by a revoked PCR policy (generation 0, epoch 1): no key loaded"
kl_check "check in the old state, whose only PCR policy is revoked: status 13 as the loader" 13 \
	"elfsig-enroll: $D/pcr-policies/4f04c837291ac05d.pcrpol: this PCR state is approved only by a revoked PCR policy (generation 0, epoch 1)" -d "$D"
rm "$D/pcr-policies/zz-update.pcrpol"
# Its generation edited to 1 without the authority: the signature says no.
sed -i 's/^generation 0$/generation 1/' "$D"/pcr-policies/*
kl_load forged-gen
kl_expect "a PCR policy's generation edited (0 -> 1): refused, status 3" 3 0 \
	"elfsig-keyloader: */pcr-policies/*: refused: the signature of its generation and machine does not verify with the enrolment authority's key"

# 5. An attacker who can write the TPM bumps the counter: the current
# files are refused (denial of service, never a rollback); the authority
# recovers by binding again (or by signing for the new epoch).
D=$T_TMP/e
tpm2_nvincrement -C "$NV" "$NV" >/dev/null 2>&1 || t_fail "tpm2_nvincrement"
kl_load bumped
kl_expect "counter bumped by an attacker (epoch 2): the current files refused, status 13" 13 0 "$REVOKED"
out=$("$ENROLL" counter -d "$D" -K "$AUTH" 2>&1) &&
	t_fail "counter will not lower the epoch without --force" "$out" ||
	{ [[ $out == *"the machine's epoch is 2, above generation 1: lowering it re-admits revoked files; --force to do so"* ]] &&
	  t_pass "counter will not lower the epoch without --force" ||
	  t_fail "counter will not lower the epoch without --force" "$out"; }
"$ENROLL" counter -d "$D" -K "$AUTH" --force >/dev/null 2>&1
kl_load recovered
kl_expect "recovery: the authority binds the counter again (counter --force): loads" 0 1
epoch_is "after the recovery: epoch 1 again" 1
D=$T_TMP/gen0
kl_load old-after-recovery
kl_expect "after the recovery the old enrolment is still refused" 13 0 "$REVOKED"
D=$T_TMP/e
# The binding it replaced (a lower base) only raises the epoch.
cp "$T_TMP/gen1/counter" "$T_TMP/gen1/counter.sig" "$D/"
kl_load old-binding
kl_expect "the binding from before the recovery: epoch 2 again, refused (denial only)" 13 0 "$REVOKED"
"$ENROLL" counter -d "$D" -K "$AUTH" --force >/dev/null 2>&1

# 6. Undefine and define the counter again (the owner authorization is
# empty here): it restarts above every value it ever had; no rollback.
before=$(nvvalue)
tpm2_nvundefine -C o "$NV" >/dev/null 2>&1 &&
	tpm2_nvdefine -C o -s 8 -a "nt=counter|authwrite|authread|no_da" "$NV" >/dev/null 2>&1 ||
	t_fail "tpm2_nvundefine + nvdefine"
kl_load redefined
kl_expect "counter defined again, never incremented: status 13, no key" 13 0 \
	"elfsig-keyloader: rollback counter $NV: the counter was defined again and never incremented: no key loaded*"
tpm2_nvincrement -C "$NV" "$NV" >/dev/null 2>&1
[ "$(nvvalue)" -gt "$before" ] &&
	t_pass "the new counter starts above the old one ($before -> $(nvvalue))" ||
	t_fail "the new counter starts above the old one" "$before -> $(nvvalue)"
D=$T_TMP/gen0
kl_load redefined-old
kl_expect "after undefine + define + increment, the old enrolment is still refused" 13 0 "$REVOKED"
D=$T_TMP/e
# Defined again with other attributes (writable by the owner, say): not
# the bound counter (its name differs).
tpm2_nvundefine -C o "$NV" >/dev/null 2>&1 &&
	tpm2_nvdefine -C o -s 8 -a "nt=counter|ownerwrite|authwrite|authread|no_da" "$NV" >/dev/null 2>&1 &&
	tpm2_nvincrement -C "$NV" "$NV" >/dev/null 2>&1
kl_load other-attrs
kl_expect "the index defined again with other attributes: status 13, no key" 13 0 \
	"elfsig-keyloader: rollback counter $NV: the NV index is not a rollback counter: no key loaded*"
tpm2_nvundefine -C o "$NV" >/dev/null 2>&1
"$ENROLL" counter -d "$D" -K "$AUTH" --force >/dev/null 2>&1
kl_load rebound
kl_expect "bound again to a new counter: loads" 0 1

# 7. Bindings that are not this machine's, or not the authority's.
cp "$D/counter" "$T_TMP/counter.good"; cp "$D/counter.sig" "$T_TMP/counter.sig.good"
base=$(sed -n 's/^base //p' "$D/counter")
sed -i "s/^base .*/base $((base + 1))/" "$D/counter"
kl_load forged
kl_expect "binding edited (a higher base, a lower epoch): status 6" 6 0 "$BADBIND"
grep -q "counter: the signature does not verify with the enrolment authority's key" "$D/out" &&
	t_pass "edited binding: the reason is said" || t_fail "edited binding: the reason" "$(cat "$D/out")"
openssl dgst -sha256 -sign "$T_TMP/evil.key" -out "$D/counter.sig" "$D/counter"
kl_load evil-binding
kl_expect "binding signed by another key: status 6" 6 0 "$BADBIND"
cp "$T_TMP/counter.good" "$D/counter"; cp "$T_TMP/counter.sig.good" "$D/counter.sig"
rm "$D/counter"
kl_load no-binding
kl_expect "no binding: status 3, one line naming the command" 3 0 \
	"elfsig-keyloader: $D/counter: no rollback counter binding (an enrolment from before rollback protection): refused, bind it with elfsig-enroll counter --authority-key KEY"
cp "$T_TMP/counter.good" "$D/counter"
# A binding for another index of this TPM, signed by the authority.
mkdir -p "$T_TMP/other-index"
cp "$D/policy" "$D/policy.sig" "$D/authority.pem" "$T_TMP/other-index/"
"$ENROLL" counter -d "$T_TMP/other-index" -K "$AUTH" --nv-index 0x0100e160 >/dev/null 2>&1 &&
	cp "$T_TMP/other-index/counter" "$T_TMP/other-index/counter.sig" "$D/"
kl_load other-index
kl_expect "a binding for another NV index: status 6" 6 0 "$BADBIND"
grep -q "counter: binds NV index 0x0100e160, not the configured rollback counter $NV" "$D/out" &&
	t_pass "another index: the reason is said" || t_fail "another index: the reason" "$(cat "$D/out")"
kl_load other-index-configured --nv-index 0x0100e160
kl_expect "the same binding with the loader configured for that index: loads" 0 1
cp "$T_TMP/counter.good" "$D/counter"; cp "$T_TMP/counter.sig.good" "$D/counter.sig"
# Another TPM's binding, signed by the same authority.
TPM_A=$TPM2TOOLS_TCTI
if KL_SWTPM_NAME=other kl_swtpm_start; then
	TPM_B=$TPM2TOOLS_TCTI
	export TPM2TOOLS_TCTI=$TPM_A
	mkdir -p "$T_TMP/other-tpm"
	cp "$D/policy" "$D/policy.sig" "$D/authority.pem" "$T_TMP/other-tpm/"
	"$ENROLL" counter -d "$T_TMP/other-tpm" -K "$AUTH" -T "$TPM_B" >/dev/null 2>&1 &&
		cp "$T_TMP/other-tpm/counter" "$T_TMP/other-tpm/counter.sig" "$D/"
	kl_load other-tpm
	kl_expect "another TPM's binding (same authority): status 6" 6 0 "$BADBIND"
	grep -q "counter: binds another TPM's counter (its storage root key differs from the sealed object's)" "$D/out" &&
		t_pass "another TPM's binding: the reason is said" ||
		t_fail "another TPM's binding: the reason" "$(cat "$D/out")"
	cp "$T_TMP/counter.good" "$D/counter"; cp "$T_TMP/counter.sig.good" "$D/counter.sig"
else
	t_fail "another TPM" "second swtpm did not start"
fi

# 8. The advance on load is bounded: generation 40 from epoch 1 takes
# three boots (16 increments each at most); the files load every time.
"$ENROLL" resign -d "$D" -K "$AUTH" --generation 40 >/dev/null 2>&1 || t_fail "resign --generation 40"
before=$(nvvalue)
kl_load far
kl_expect "generation 40 at epoch 1: loads" 0 1 \
	"elfsig-keyloader: rollback counter $NV: epoch 1 -> 17 of 40 (at most 16 increments a run: the rest at the next boots)"
[ "$(nvvalue)" = $((before + 16)) ] && t_pass "16 increments, not 39" ||
	t_fail "16 increments, not 39" "$before -> $(nvvalue)"
kl_load far2
kl_load far3
kl_expect "the third boot reaches generation 40" 0 1 \
	"elfsig-keyloader: rollback counter $NV: epoch 33 -> 40: files of an older generation are refused from now on"
epoch_is "elfsig-enroll epoch: 40" 40

# 9. An explicit bump (no authority key needed) revokes now.
out=$("$ENROLL" epoch -d "$D" --bump 2>&1)
[[ $out == *"epoch 41; $D/policy generation 40 (revoked: the loader refuses it)"* ]] &&
	t_pass "epoch --bump: epoch 41, the policy of generation 40 is shown revoked" ||
	t_fail "epoch --bump" "$out"
kl_load after-bump
kl_expect "after the bump the generation 40 files are refused" 13 0 "$REVOKED"
out=$("$ENROLL" epoch -d "$D" --generation 3 2>&1) &&
	t_fail "epoch never goes down" "$out" ||
	{ [[ $out == *"the epoch is 41: it never goes down"* ]] && t_pass "epoch never goes down" ||
	  t_fail "epoch never goes down" "$out"; }
# All or nothing: beyond one command's 4096 increments, nothing is done.
before=$(nvvalue)
out=$("$ENROLL" epoch -d "$D" --generation 1000000000 2>&1); rc=$?
[ "$rc" = 1 ] && [ "$(nvvalue)" = "$before" ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] &&
[[ $out == "elfsig-enroll: epoch 41 to 1000000000 needs 999999959 counter increments, more than the 4096 of one command: nothing done (raise it in steps)" ]] &&
	t_pass "epoch --generation 1000000000: refused before any increment, one line" ||
	t_fail "epoch --generation 1000000000: all or nothing" "exit $rc, counter $before -> $(nvvalue): $out"

# 10. Formats from before rollback protection are refused with the
# command that migrates them: a version 2 policy and version 1 PCR
# policies (no generation), made as the previous elfsig-enroll wrote them
# (the same lines without the generation; the policy signed with openssl).
# migrate signs the PCR policies again with a generation and binds the
# counter.
# old_format nogen|nomachine FILE...: a version 4 policy or version 3 PCR
# policy as an older elfsig-enroll wrote it. nogen: before generations
# (policy 2, PCR policy 1: the srk and generation lines gone); nomachine:
# before the machine binding (policy 3, PCR policy 2: the srk line gone,
# the generation signed again over what it covered then, with $AUTH).
# The caller signs the policy again with openssl.
old_format() {
	local how=$1; shift
	AUTH=$AUTH python3 - "$how" "$@" <<'PY'
import hashlib, os, subprocess, sys
how = sys.argv[1]
for f in sys.argv[2:]:
    out, approved, gen = [], None, None
    for l in open(f).read().splitlines():
        w = l.split(" ")
        if w[0] == "srk" or (how == "nogen" and w[0] in ("generation", "generation-signature")):
            continue
        if w[0] in ("elfsig-policy", "elfsig-pcr-policy") and len(w) == 2:
            l = "%s %d" % (w[0], int(w[1]) - (2 if how == "nogen" else 1))
        if w[0] == "policy":
            approved = bytes.fromhex(w[1])
        if w[0] == "generation":
            gen = int(w[1])
        if w[0] == "generation-signature" and approved is not None:
            tbs = hashlib.sha256(b"elfsig-pcr-policy-generation\0" + approved + gen.to_bytes(4, "big")).digest()
            sig = subprocess.run(["openssl", "pkeyutl", "-sign", "-inkey", os.environ["AUTH"]],
                                 input=tbs, capture_output=True, check=True).stdout
            l = "generation-signature " + sig.hex()
        out.append(l)
    open(f, "w").write("\n".join(out) + "\n")
PY
}
"$ENROLL" resign -d "$D" -K "$AUTH" --generation 41 >/dev/null 2>&1 || t_fail "resign --generation 41"
cp -a "$D" "$T_TMP/v2"
D=$T_TMP/v2
rm "$D/counter" "$D/counter.sig"
old_format nogen "$D/policy" "$D"/pcr-policies/*
openssl dgst -sha256 -sign "$AUTH" -out "$D/policy.sig" "$D/policy"
kl_load v2
kl_expect "a version 2 policy: status 3, one line naming the migration" 3 0 \
	"elfsig-keyloader: $D/policy: policy format version 2 has no generation (no rollback protection): refused, migrate it with elfsig-enroll migrate --authority-key KEY"
"$ENROLL" migrate -d "$D" -K "$AUTH" --generation 41 >"$T_TMP/migrate.out" 2>&1 &&
	grep -q "^elfsig-policy 4$" "$D/policy" && grep -q "^generation 41$" "$D/policy" &&
	grep -q "^generation 41$" "$D"/pcr-policies/* && [ -s "$D/counter" ] &&
	t_pass "migrate: policy 4, the PCR policy signed again, counter bound" ||
	t_fail "migrate" "$(cat "$T_TMP/migrate.out")"
kl_load v2-migrated
kl_expect "after migrate at the machine's epoch: loads" 0 1
# A version 1 signed PCR policy next to current ones: left out, named.
D=$T_TMP/e
cp "$T_TMP"/v2/pcr-policies/*.pcrpol "$D/pcr-policies/v1.pcrpol"
old_format nogen "$D/pcr-policies/v1.pcrpol"
kl_load v1-pcrpol
kl_expect "a version 1 PCR policy is left out (named), the others load" 0 1 \
	"elfsig-keyloader: $D/pcr-policies/v1.pcrpol: refused: signed PCR policy version 1 has no generation (no rollback protection), migrate it with elfsig-enroll migrate --authority-key KEY"

# 11. Formats from before the machine binding: a version 3 policy and
# version 2 PCR policies (no srk line). Refused with the command that
# migrates them; migrate signs them again for the machine the sealed
# object records, at the same generation.
cp -a "$T_TMP/v2" "$T_TMP/v3"
D=$T_TMP/v3
srk=$(sed -n 's/^srk //p' "$D/policy")
old_format nomachine "$D/policy" "$D"/pcr-policies/*
openssl dgst -sha256 -sign "$AUTH" -out "$D/policy.sig" "$D/policy"
cp "$D"/pcr-policies/*.pcrpol "$T_TMP/v2.pcrpol"
kl_load v3
kl_expect "a version 3 policy: status 3, one line naming the migration" 3 0 \
	"elfsig-keyloader: $D/policy: policy format version 3 is not bound to a machine (any machine of the authority would load it): refused, migrate it with elfsig-enroll migrate --authority-key KEY"
"$ENROLL" migrate -d "$D" -K "$AUTH" >"$T_TMP/migrate.out" 2>&1 &&
	grep -q "^elfsig-policy 4$" "$D/policy" && grep -q "^generation 41$" "$D/policy" &&
	[ -n "$srk" ] && grep -q "^srk $srk$" "$D/policy" && grep -q "^srk $srk$" "$D"/pcr-policies/* &&
	grep -q "^elfsig-pcr-policy 3$" "$D"/pcr-policies/* &&
	t_pass "migrate: policy 4 and PCR policy 3 for the sealed object's machine, generation kept" ||
	t_fail "migrate of a version 3 policy" "$(cat "$T_TMP/migrate.out")"
kl_load v3-migrated
kl_expect "after migrate of a version 3 policy: loads" 0 1
cp "$T_TMP/v2.pcrpol" "$D/pcr-policies/v2.pcrpol"
kl_load v2-pcrpol
kl_expect "a version 2 PCR policy is left out (named), the others load" 0 1 \
	"elfsig-keyloader: $D/pcr-policies/v2.pcrpol: refused: signed PCR policy version 2 is not bound to a machine, migrate it with elfsig-enroll migrate --authority-key KEY"
exit 0
