#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# systemd's signed PCR policies (.pcrsig), an opt-in the authority signs:
# real `systemd-measure sign` output over dummy UKI sections, PCR 11 of a
# real swtpm brought to the value systemd-measure predicts by replaying
# systemd-stub's extends, the loader into the real kernel keyring. Each
# refusal: the status, no key, the keyring locked, one line.
set -u
. "$(dirname "$0")/lib-kl.sh"

MEASURE=${MEASURE:-/usr/lib/systemd/systemd-measure}
[ -x "$MEASURE" ] || { echo "SKIP: $MEASURE not installed (systemd 252 or later)"; exit 77; }
kl_loader_suite 3 tpm2_pcrextend
kl_authority evil && kl_authority sd rsa && kl_authority sd2 rsa ||
	{ echo "FAIL: openssl: keys"; exit 1; }

# A dummy UKI: the sections systemd-stub measures into PCR 11.
U=$T_TMP/uki
mkdir -p "$U"
printf 'not a kernel' > "$U/linux"
printf 'ID=elfsig-test\nVERSION_ID=1\n' > "$U/osrel"
printf 'console=ttyS0 quiet' > "$U/cmdline"
printf 'not an initrd' > "$U/initrd"
SECTIONS=(--linux="$U/linux" --osrel="$U/osrel" --cmdline="$U/cmdline" --initrd="$U/initrd")

# sign KEY OUT: systemd-measure signs the four boot phases for KEY (it
# uses the TPM only to compute the policy digests).
sign() {
	"$MEASURE" sign "${SECTIONS[@]}" --bank=sha256 \
		--private-key="$T_TMP/$1.key" --public-key="$T_TMP/$1.pub" \
		--tpm2-device="$TPM2TOOLS_TCTI" > "$2" 2>"$2.err"
}
sign sd "$T_TMP/uki.pcrsig" && t_pass "systemd-measure sign: a .pcrsig for the dummy UKI" ||
	t_fail "systemd-measure sign: a .pcrsig for the dummy UKI" "$(cat "$T_TMP/uki.pcrsig.err")"
sign sd2 "$T_TMP/other.pcrsig" || t_fail "systemd-measure sign (another key)" "$(cat "$T_TMP/other.pcrsig.err")"

# extend DATA...: what systemd-stub and systemd-pcrphase extend into PCR 11
# (SHA-256 of each item).
extend() {
	local f
	for f in "$@"; do
		tpm2_pcrextend "11:sha256=$(sha256sum < "$f" | cut -d' ' -f1)" || return 1
	done
}
# systemd-stub: each section's name (with its NUL), then its contents.
for s in linux osrel cmdline initrd; do
	printf '.%s\0' "$s" > "$U/name.$s"
	extend "$U/name.$s" "$U/$s"
done
printf 'enter-initrd' > "$U/phase1"
extend "$U/phase1"
want=$("$MEASURE" calculate "${SECTIONS[@]}" --bank=sha256 --phase=enter-initrd | sed -n 's/^11:sha256=//p')
got=$(tpm2_pcrread sha256:11 | sed -n 's/.*11 *: *0x//p' | tr 'A-F' 'a-f')
[ -n "$want" ] && [ "$got" = "$want" ] &&
	t_pass "PCR 11 replayed as systemd-stub does = systemd-measure calculate (enter-initrd)" ||
	t_fail "PCR 11 replayed as systemd-stub does = systemd-measure calculate (enter-initrd)" "TPM $got, systemd-measure $want"

# enrol NAME: k1, k2 enrolled into $D by auth; only systemd's .pcrsig can
# open it (no elfsig PCR policy is installed).
enrol() {
	D=$T_TMP/$1
	mkdir -p "$D/certs" "$D/pcrsig"
	cp "$T_TMP/k1.pem" "$T_TMP/k2.der" "$D/certs/"
	"$ENROLL" create -d "$D" -K "$T_TMP/auth.key" "$T_TMP/k1.pem" \
		"$T_TMP/k2.der" >"$D/enroll.out" 2>&1 || return 1
	rm -f "$D"/pcr-policies/*
	cp "$T_TMP/uki.pcrsig" "$D/pcrsig/"
}

# one_line NAME FILE: exactly one of the loader's lines names FILE.
one_line() {
	local n
	n=$(grep -c -F -- "$2" "$D/out")
	[ "$n" = 1 ] && t_pass "$1: one line" || t_fail "$1: one line" "$n lines: $(tr '\n' '|' < "$D/out")"
}

# check NAME RC PATTERN: elfsig-enroll check exits RC; its output is one
# line matching PATTERN.
check() {
	local out rc
	out=$("$ENROLL" check -d "$D" 2>&1); rc=$?
	# shellcheck disable=SC2053 # $3 is a glob pattern
	[ "$rc" = "$2" ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && [[ $out == $3 ]] &&
		t_pass "check: $1" || t_fail "check: $1" "exit $rc: $out"
}

# 1. Without the opt-in, the same .pcrsig opens nothing.
enrol plain || t_fail "enrol" "$(cat "$D/enroll.out")"
kl_load plain
kl_expect "no opt-in: the systemd-signed .pcrsig loads nothing (status 3)" 3 0 \
	"elfsig-keyloader: $D/pcrsig: systemd .pcrsig files ignored: the signed policy does not accept them (elfsig-enroll pcrsig enable)"
one_line "no opt-in" "$D/pcrsig"
check "no opt-in: .pcrsig files present, no usable PCR policy (status 3, as the loader)" 3 \
	"elfsig-enroll: $D/pcr-policies: no usable signed PCR policy"

# 2. The opt-in can only be signed in: an edited policy is refused, and
# so is another key's enable.
cp "$D/policy" "$D/policy.good"
fp=$(openssl pkey -pubin -in "$T_TMP/sd.pub" -outform DER | sha256sum | cut -d' ' -f1)
printf 'pcrsig-key sha256:%s\npcrsig-pcrs sha256:11\n' "$fp" >> "$D/policy"
kl_load edited
kl_expect "opt-in added by editing the policy: status 6, no key" 6 0 \
	"elfsig-keyloader: $D/policy: not signed by the enrolment authority: no key loaded"
cp "$D/policy.good" "$D/policy"
out=$("$ENROLL" pcrsig enable -d "$D" -K "$T_TMP/evil.key" --public-key "$T_TMP/sd.pub" 2>&1); rc=$?
[ "$rc" = 1 ] && [[ $out == *"is not the enrolment authority of"* ]] && ! grep -q pcrsig-key "$D/policy" &&
	t_pass "pcrsig enable with another authority key: refused, nothing written" ||
	t_fail "pcrsig enable with another authority key: refused, nothing written" "exit $rc: $out"

# 3. The opt-in: the authority signs it, this TPM gets pcrsig.sealed.
out=$("$ENROLL" pcrsig enable -d "$D" -K "$T_TMP/auth.key" --public-key "$T_TMP/sd.pub" 2>&1); rc=$?
[ "$rc" = 0 ] && grep -qx "pcrsig-key sha256:$fp" "$D/policy" && grep -qx "pcrsig-pcrs sha256:11" "$D/policy" &&
	[ -s "$D/pcrsig.sealed" ] && [ -s "$D/pcrsig-key.pem" ] &&
	t_pass "pcrsig enable: the signed policy names the systemd key and PCR 11" ||
	t_fail "pcrsig enable: the signed policy names the systemd key and PCR 11" "exit $rc: $out"
openssl dgst -sha256 -verify "$D/authority.pem" -signature "$D/policy.sig" "$D/policy" >/dev/null 2>&1 &&
	t_pass "pcrsig enable: the policy is the authority's (openssl dgst -verify)" ||
	t_fail "pcrsig enable: the policy is the authority's (openssl dgst -verify)"
"$ENROLL" show -d "$D" | grep -q "^accepts systemd .pcrsig PCR policies of the key sha256:$fp for sha256:11" &&
	t_pass "show names the opt-in" || t_fail "show names the opt-in" "$("$ENROLL" show -d "$D" 2>&1)"
kl_load optin
kl_expect "opt-in: systemd-measure's signature opens the enrolment, both keys load" 0 2 \
	"elfsig-keyloader: enrolment unsealed under a systemd .pcrsig entry of $D/pcrsig (pcrsig.sealed; outside rollback protection)"
check "opt-in only: the .pcrsig entry that opens it is named" 0 \
	"$D/policy: signed by the authority, 2 keys, generation 0 (epoch 0); $D/pcrsig.sealed unseals under systemd .pcrsig entry * of * in $D/pcrsig (outside rollback protection)"

# The opt-in survives the other commands that sign the policy again.
"$ENROLL" resign -d "$D" -K "$T_TMP/auth.key" >"$D/resign.out" 2>&1 &&
	grep -qx "pcrsig-key sha256:$fp" "$D/policy" && grep -qx "generation 1" "$D/policy" &&
	kl_load resigned &&
	kl_expect "resign keeps the opt-in (generation 1): loads, the epoch follows the policy" 0 2 \
		"elfsig-keyloader: rollback counter 0x0100e15f: epoch 0 -> 1: files of an older generation are refused from now on" ||
	t_fail "resign keeps the opt-in" "$(cat "$D/resign.out")"

# 4. Another key's .pcrsig, and every malformed file: one line each.
mv "$D/pcrsig/uki.pcrsig" "$T_TMP/uki.keep"
cp "$T_TMP/other.pcrsig" "$D/pcrsig/other.pcrsig"
kl_load otherkey
kl_expect "a .pcrsig signed by another key: status 3, no key" 3 0 \
	"elfsig-keyloader: $D/pcrsig/other.pcrsig: refused: no sha256 entry signed by the enrolled systemd key"
one_line "another key's .pcrsig" "other.pcrsig"
rm "$D/pcrsig/other.pcrsig"

# bad NAME LINE: $D/pcrsig/bad.pcrsig (written by the caller) alone is
# refused: status 3, no key, LINE, one line naming it.
bad() {
	kl_load "bad-$1"
	kl_expect "malformed .pcrsig ($1): status 3, no key" 3 0 "elfsig-keyloader: $D/pcrsig/bad.pcrsig: $2"
	one_line "malformed .pcrsig ($1)" "bad.pcrsig"
}
good=$(cat "$T_TMP/uki.keep")
head -c 150 "$T_TMP/uki.keep" > "$D/pcrsig/bad.pcrsig"
bad truncated "not a systemd .pcrsig file: byte *"
python3 -c 'import sys; sys.stdout.write(sys.argv[1] + " " * 70000)' "$good" > "$D/pcrsig/bad.pcrsig"
bad oversized "*larger than 65536 bytes*"
z=0000000000000000000000000000000000000000000000000000000000000000
printf '%s' "${good/\"pol\"/\"pol\":\"$z\",\"pol\"}" > "$D/pcrsig/bad.pcrsig"
bad "member twice" "not a systemd .pcrsig file: byte *: member given twice in an entry"
printf '%s' "${good/\"sig\":\"/\"sig\":\"*}" > "$D/pcrsig/bad.pcrsig"
bad "bad base64" "not a systemd .pcrsig file: byte *: \"sig\": expected base64, at most 512 bytes"
printf '%s}' "$good" > "$D/pcrsig/bad.pcrsig"
bad "trailing data" "not a systemd .pcrsig file: byte *: data after the JSON object"
printf '{"sha256":[{"pcrs":[11],"pkfp":"%s","pol":"%s","sig":"%s","x":1}]}' "$z" "$z" AA== > "$D/pcrsig/bad.pcrsig"
bad "unknown member" "not a systemd .pcrsig file: byte *: unknown member in an entry (pcrs, pkfp, pol, sig)"
printf '{"sha256":[{"pcrs":[11],"pkfp":"%s","pol":"%s","sig":"AA=="}]}' 00 "$z" > "$D/pcrsig/bad.pcrsig"
bad "short pkfp" "not a systemd .pcrsig file: byte *: \"pkfp\": expected 64 hex digits"
printf '{"sha256":[{"pcrs":[11,11],"pkfp":"%s","pol":"%s","sig":"AA=="}]}' "$z" "$z" > "$D/pcrsig/bad.pcrsig"
bad "PCR repeated" "not a systemd .pcrsig file: byte *: PCR indexes not in ascending order, or repeated"
printf '{"sha256":[{"pcrs":[24],"pkfp":"%s","pol":"%s","sig":"AA=="}]}' "$z" "$z" > "$D/pcrsig/bad.pcrsig"
bad "PCR 24" "not a systemd .pcrsig file: byte *: expected a PCR index 0..23"
printf '{"sha256":[]}' > "$D/pcrsig/bad.pcrsig"
bad "no entries" "not a systemd .pcrsig file: byte *: expected an entry {...}"
: > "$D/pcrsig/bad.pcrsig"
bad empty "not a systemd .pcrsig file: byte 0: expected '{'"
python3 - "$T_TMP/uki.keep" > "$D/pcrsig/bad.pcrsig" <<'PY'
import base64, json, sys
d = json.load(open(sys.argv[1]))
for e in d["sha256"]:
    s = bytearray(base64.b64decode(e["sig"])); s[10] ^= 1
    e["sig"] = base64.b64encode(bytes(s)).decode()
sys.stdout.write(json.dumps(d))
PY
bad "signature altered" "refused: an entry's signature does not verify with the systemd key"
rm "$D/pcrsig/bad.pcrsig"
mv "$T_TMP/uki.keep" "$D/pcrsig/uki.pcrsig"

# 5. The key and the object must be the opted-in ones.
cp "$D/pcrsig-key.pem" "$T_TMP/sd.keep"
cp "$T_TMP/sd2.pub" "$D/pcrsig-key.pem"
kl_load swapkey
kl_expect "another systemd key in pcrsig-key.pem: status 6, no key" 6 0 \
	"elfsig-keyloader: $D/pcrsig-key.pem: not the systemd key the signed policy opts in to (pcrsig-key)"
cp "$T_TMP/sd.keep" "$D/pcrsig-key.pem"
cp "$D/pcrsig.sealed" "$T_TMP/sealed.keep"
cp "$D/policy.sealed" "$D/pcrsig.sealed"
kl_load swapobj
kl_expect "the elfsig object as pcrsig.sealed: status 6, no key" 6 0 \
	"elfsig-keyloader: $D/pcrsig.sealed: not bound with PolicyAuthorize to the opted-in systemd key and an empty policyRef"
cp "$T_TMP/sealed.keep" "$D/pcrsig.sealed"

# 6. pcrsig seal: the object again on this TPM, no authority key.
rm "$D/pcrsig.sealed"
"$ENROLL" pcrsig seal -d "$D" >"$D/seal.out" 2>&1 && kl_load resealed &&
	kl_expect "pcrsig seal (no authority key): loads again" 0 2 "elfsig-keyloader: enrolment unsealed under a systemd .pcrsig entry*" ||
	t_fail "pcrsig seal" "$(cat "$D/seal.out")"

# 7. The next phase is approved too (systemd signs all four); a PCR 11
# value nobody signed is not.
printf 'leave-initrd' > "$U/phase2"
extend "$U/phase2"
kl_load phase2
kl_expect "PCR 11 at leave-initrd: its systemd entry opens it" 0 2 "elfsig-keyloader: enrolment unsealed under a systemd .pcrsig entry*"
printf 'not signed' > "$U/evil"
extend "$U/evil"
kl_load otherpcr
kl_expect "PCR 11 in a state systemd did not sign: status 5, no key" 5 0 \
	"elfsig-keyloader: TPM refused to unseal: no signed PCR policy or systemd .pcrsig entry matches the current PCR state: no key loaded"
check "opt-in, PCR 11 in a state systemd did not sign: status 5, as the loader" 5 \
	"elfsig-enroll: no signed PCR policy or systemd .pcrsig entry matches the current PCR state"

# 8. The authority's own PCR policies come first, and an opt-in whose
# files are gone (one line) still leaves them.
"$ENROLL" sign-pcr-policy -d "$D" -K "$T_TMP/auth.key" >"$D/sign.out" 2>&1 ||
	t_fail "sign-pcr-policy" "$(cat "$D/sign.out")"
mv "$D/pcrsig" "$T_TMP/pcrsig.keep"; mv "$D/pcrsig.sealed" "$T_TMP/pcrsig.sealed.keep"
kl_load nofiles
kl_expect "opt-in without its files: the authority's PCR policy still opens it" 0 2 \
	"elfsig-keyloader: enrolment unsealed under $D/pcr-policies/*.pcrpol"
one_line "opt-in without its files" "$D/pcrsig.sealed"
mv "$T_TMP/pcrsig.keep" "$D/pcrsig"; mv "$T_TMP/pcrsig.sealed.keep" "$D/pcrsig.sealed"

# 9. disable: the authority withdraws the opt-in; resign revokes the
# older policy that still opts in.
cp "$D/policy" "$T_TMP/optin.policy"; cp "$D/policy.sig" "$T_TMP/optin.policy.sig"
"$ENROLL" pcrsig disable -d "$D" -K "$T_TMP/auth.key" >"$D/disable.out" 2>&1 &&
	! grep -q pcrsig "$D/policy" && t_pass "pcrsig disable: the opt-in is gone from the signed policy" ||
	t_fail "pcrsig disable: the opt-in is gone from the signed policy" "$(cat "$D/disable.out")"
"$ENROLL" resign -d "$D" -K "$T_TMP/auth.key" >"$D/resign.out" 2>&1 &&
	"$ENROLL" epoch -d "$D" --generation 2 >>"$D/resign.out" 2>&1 ||
	t_fail "resign, epoch 2" "$(cat "$D/resign.out")"
cp "$T_TMP/optin.policy" "$D/policy"; cp "$T_TMP/optin.policy.sig" "$D/policy.sig"
kl_load restored
kl_expect "the older policy that opts in, restored after disable + resign: status 13" 13 0 \
	"elfsig-keyloader: $D/policy: generation 1 is revoked on this machine (epoch 2)*"

# 10. The opt-in keeps the boot-state binding: pcrsig.sealed opens under
# systemd's approval of PCR 11 AND the enrolment's own PCRs 0, 2, 4, 7 at
# the values it was sealed to. A second swtpm (a fresh machine): PCR 11
# replayed to enter-initrd as systemd-stub does, the opt-in enabled.
KL_SWTPM_NAME=tpm-b kl_swtpm_start || t_fail "second swtpm" "did not start"
for s in linux osrel cmdline initrd; do extend "$U/name.$s" "$U/$s"; done
extend "$U/phase1"
enrol boot || t_fail "enrol (second TPM)" "$(cat "$D/enroll.out")"
"$ENROLL" pcrsig enable -d "$D" -K "$T_TMP/auth.key" --public-key "$T_TMP/sd.pub" >"$D/enable.out" 2>&1 &&
	[ "$(od -An -tx1 -j8 -N4 "$D/pcrsig.sealed" | tr -d ' ')" = 00030002 ] &&
	t_pass "pcrsig enable: pcrsig.sealed binds PCRs of its own (format 3, PCRs flag)" ||
	t_fail "pcrsig enable: pcrsig.sealed binds PCRs of its own" "$(cat "$D/enable.out")"
kl_load boot
kl_expect "own PCRs as sealed, PCR 11 as systemd signed: loads" 0 2 \
	"elfsig-keyloader: enrolment unsealed under a systemd .pcrsig entry*"
# Only the PCR systemd signs changes (the next phase), its entry matches.
extend "$U/phase2"
kl_load boot-phase2
kl_expect "only PCR 11 changed, with systemd-measure's signature for it: loads" 0 2 \
	"elfsig-keyloader: enrolment unsealed under a systemd .pcrsig entry*"
# Another firmware (PCR 0) and Secure Boot state (PCR 7); PCR 11 still
# as systemd signed it.
printf 'other firmware' > "$U/fw"
tpm2_pcrextend "0:sha256=$(sha256sum < "$U/fw" | cut -d' ' -f1)" "7:sha256=$(sha256sum < "$U/fw" | cut -d' ' -f1)" ||
	t_fail "extend PCRs 0 and 7"
kl_load boot-firmware
kl_expect "PCRs 0 and 7 changed, PCR 11 as systemd signed: status 5, no key" 5 0 \
	"elfsig-keyloader: PCR policy not satisfied: PCRs 0,7 changed since enrolment (bank sha256)"
one_line "PCRs 0 and 7 changed" "PCRs 0,7 changed"
out=$("$ENROLL" check -d "$D" 2>&1); rc=$?
[ "$rc" = 5 ] && [[ $out == *"PCR policy not satisfied: PCRs 0,7 changed since enrolment (bank sha256)"* ]] &&
	t_pass "check: PCRs 0 and 7 changed: status 5 as the loader, the PCRs named" ||
	t_fail "check: PCRs 0 and 7 changed" "exit $rc: $out"
# An object bound to systemd's approval alone (what elfsig-enroll wrote
# before) is not used: its own PCRs are missing. Here: the PCRs flag and
# selection cut out of the file, so that its recorded policy no longer
# matches the object's and the file is refused before any TPM use.
python3 - "$D/pcrsig.sealed" <<'PY'
import sys
p = sys.argv[1]; b = bytearray(open(p, "rb").read())
assert b[10:12] == b"\0\2"
off = 12 + 2 + b[13] + 2 + b[12 + 2 + b[13] + 1]
b[10:12] = b"\0\0"
del b[off:off + 4 + 3 + 4 * 32]
open(p, "wb").write(bytes(b))
PY
kl_load boot-stripped
kl_expect "pcrsig.sealed without its own PCRs (flag cut out): refused, no key" 3 0 \
	"elfsig-keyloader: $D/pcrsig.sealed: not a sealed object"

exit 0
