#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The enrolment authority: only a policy it signed loads, only under a PCR
# policy it signed, only from a TPM object bound to it with PolicyAuthorize.
# Each refusal: the exit status, no key, the keyring locked, and the one
# line that says why. Against a real swtpm and the real kernel keyring.
set -u
. "$(dirname "$0")/lib-kl.sh"

kl_need swtpm swtpm_ioctl keyctl openssl tpm2_pcrread tpm2_pcrextend tpm2_createpolicy \
	tpm2_policyauthorize tpm2_startauthsession python3 timeout
if [ -z "${KL_IN_SESSION:-}" ]; then
	KL_IN_SESSION=1 exec keyctl session - "$0" "$@"
fi
[ -x "$KL" ] && [ -x "$ENROLL" ] || { echo "FAIL: build: $KL or $ENROLL missing"; exit 1; }
t_mktemp
kl_swtpm_start || { echo "FAIL: swtpm: did not start"; exit 1; }
for i in 1 2 3; do kl_cert "k$i" || { echo "FAIL: openssl: cert k$i"; exit 1; }; done
kl_authority auth && kl_authority rsa rsa && kl_authority evil ||
	{ echo "FAIL: openssl: authority keys"; exit 1; }
kl_need_keyring k1

# enrol NAME [KEY]: k1, k2 enrolled into $D by the authority KEY (auth).
enrol() {
	D=$T_TMP/$1
	mkdir -p "$D/certs"
	cp "$T_TMP/k1.pem" "$T_TMP/k2.der" "$D/certs/"
	"$ENROLL" create -d "$D" -K "${2:-$T_TMP/auth.key}" \
		"$T_TMP/k1.pem" "$T_TMP/k2.der" >"$D/enroll.out" 2>&1
}

# refuses NAME LINE CMD...: an elfsig-enroll command fails (status 1) with
# LINE (a glob) among its lines.
refuses() {
	local name=$1 line=$2 out rc l; shift 2
	out=$("$@" 2>&1); rc=$?
	if [ "$rc" = 1 ]; then
		while IFS= read -r l; do
			# shellcheck disable=SC2053 # a glob on purpose
			[[ $l == $line ]] && { t_pass "$name"; return; }
		done <<<"$out"
	fi
	t_fail "$name" "exit $rc: $(tr '\n' '|' <<<"$out")"
}

NOT_SIGNED="elfsig-keyloader: */policy: not signed by the enrolment authority: no key loaded"

# 1. Signed by the authority, with an ECDSA P-256 and an RSA-2048 key.
for key in auth rsa; do
	if enrol "good-$key" "$T_TMP/$key.key"; then
		kl_load "good-$key"
		kl_expect "authority-signed policy ($key key): both keys load" 0 2 \
			"elfsig-keyloader: enrolment unsealed under $D/pcr-policies/*.pcrpol"
		openssl dgst -sha256 -verify "$D/authority.pem" -signature "$D/policy.sig" \
			"$D/policy" >/dev/null 2>&1 &&
			t_pass "the policy's signature is what openssl dgst -sha256 -verify checks ($key)" ||
			t_fail "the policy's signature is what openssl dgst -sha256 -verify checks ($key)"
	else
		t_fail "enrol ($key)" "$(cat "$D/enroll.out")"
	fi
done

# 2. Unsigned, foreign-signed, tampered after signing: nothing loads.
if enrol sig; then
	cp "$D/policy" "$D/policy.good"; cp "$D/policy.sig" "$D/sig.good"
	rm "$D/policy.sig"
	kl_load unsigned
	kl_expect "unsigned policy (no signature file): status 3, no key" 3 0 \
		"elfsig-keyloader: $D/policy.sig: cannot open: No such file or directory"
	openssl dgst -sha256 -sign "$T_TMP/evil.key" -out "$D/policy.sig" "$D/policy"
	kl_load foreign-sig
	kl_expect "policy signed by another key: status 6, no key" 6 0 "$NOT_SIGNED"
	grep -q "the signature does not verify with the enrolment authority's key" "$D/out" &&
		t_pass "foreign signature: the reason is said" ||
		t_fail "foreign signature: the reason is said" "$(cat "$D/out")"
	cp "$D/sig.good" "$D/policy.sig"
	echo "key sha256:$(kl_fp k3)" >> "$D/policy"
	cp "$T_TMP/k3.pem" "$D/certs/"
	kl_load tampered
	kl_expect "a key appended after signing: status 6, no key" 6 0 "$NOT_SIGNED"
	sed -i '1s/^#.*/# reviewed by nobody/' "$D/policy.good"
	cp "$D/policy.good" "$D/policy"; rm "$D/certs/k3.pem"
	kl_load comment
	kl_expect "a comment edited after signing: status 6, no key" 6 0 "$NOT_SIGNED"
	: > "$D/policy.sig"
	kl_load empty-sig
	kl_expect "an empty signature file: status 6, no key" 6 0 "$NOT_SIGNED"
else
	t_fail "enrol sig" "$(cat "$D/enroll.out")"
fi

# 3. Another authority's whole enrolment (policy, signature, authority.pem
# and a sealed object of its own) against our TPM, piece by piece.
if enrol ours && cp -r "$D" "$T_TMP/ours.orig" && enrol theirs "$T_TMP/evil.key"; then
	O=$T_TMP/ours; E=$T_TMP/theirs
	cp "$E/policy" "$E/policy.sig" "$O/"
	D=$O; kl_load their-policy
	kl_expect "a policy signed by another authority: status 6, no key" 6 0 \
		"elfsig-keyloader: $O/policy: names another enrolment authority than the configured one"
	cp "$T_TMP/ours.orig/policy" "$T_TMP/ours.orig/policy.sig" "$O/"
	cp "$E/policy.sealed" "$O/"
	kl_load their-object
	kl_expect "a sealed object bound to another authority: status 6, no key" 6 0 \
		"elfsig-keyloader: $O/policy.sealed: not an enrolment of the configured authority: no key loaded"
	grep -q "sealed object: bound to another authority key" "$O/out" &&
		t_pass "another authority's object: refused before the TPM opens it" ||
		t_fail "another authority's object: refused before the TPM opens it" "$(cat "$O/out")"
	# Their authority.pem with their signed policy and their object:
	# consistent, so it loads; what keeps it out is the integrity of the
	# image that carries /etc/elfsig (docs/threat-model.md).
	cp "$E/authority.pem" "$E/policy" "$E/policy.sig" "$E/counter" \
		"$E/counter.sig" "$O/"
	cp "$E"/pcr-policies/* "$O/pcr-policies/"
	cp "$T_TMP/ours.orig/policy.sealed" "$O/"
	kl_load their-config-our-object
	kl_expect "their authority.pem and policy, our sealed object: status 6, no key" 6 0 \
		"elfsig-keyloader: $O/policy.sealed: not an enrolment of the configured authority: no key loaded"
else
	t_fail "enrol ours/theirs" "$(cat "$D/enroll.out")"
fi

# 4. An attacker who can talk to the TPM seals objects of their own to
# the current (predictable) PCR values.
if enrol attacker; then
	cp "$D/policy.sealed" "$D/sealed.good"
	# (a) PolicyPCR, as version 1 enrolments were sealed: refused by kind.
	kl_fp k1 | xxd -r -p > "$D/secret"
	"$BUILD/elfsig-tpm" seal --pcrs sha256:0,2,4,7 --in "$D/secret" --out "$D/policy.sealed" >/dev/null
	kl_load pcr-sealed
	kl_expect "an attacker's object sealed to the current PCRs: status 3, no key" 3 0 \
		"elfsig-keyloader: $D/policy.sealed: sealed to one PCR state (format version 1 enrolment), not bound to an enrolment authority: refused, migrate it with elfsig-enroll migrate --authority-key KEY"
	# (b) The same PolicyPCR object under a version 3 header that claims
	# the authority: the loader checks the object's authPolicy itself.
	python3 - "$D/sealed.good" "$D/policy.sealed" <<'PY'
import sys
good, pcr = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
auth = 12 + 36 + 2 + len(b"elfsig-pcr-policy") + 36	# header, names, ref
pcr_body = 12 + 10 + 4 * 32 + 36			# v2: header, sel, values, SRK
open(sys.argv[2], "wb").write(good[:auth] + pcr[pcr_body:])
PY
	kl_load claims-authority
	kl_expect "a PolicyPCR object that claims the authority: status 3, no key" 3 0 \
		"elfsig-keyloader: sealed object: its policy is not PolicyAuthorize by the authority key it names"
	# (c) Bound to the real authority (its public key is public): the
	# object only ever gates the PCR state, the keys still come from the
	# signed policy, so the attacker gains nothing.
	"$ENROLL" reseal -d "$D" -s "$D/attacker.sealed" >/dev/null 2>&1 &&
		cp "$D/attacker.sealed" "$D/policy.sealed"
	echo "key sha256:$(kl_fp k3)" >> "$D/policy"; cp "$T_TMP/k3.pem" "$D/certs/"
	kl_load resealed-by-attacker
	kl_expect "an attacker's object bound to the real authority, with their key in the policy: status 6, no key" 6 0 \
		"$NOT_SIGNED"
else
	t_fail "enrol attacker" "$(cat "$D/enroll.out")"
fi

# 5. Signed PCR policies: a PCR change needs a new one; two states load;
# the sealed object is never written again; a revoked state loads nothing.
# The swtpm restarts (PCRs back to their reset values, state kept) to boot
# the old state again.
swtpm_restart() {
	local port=${TPM2TOOLS_TCTI##*port=}
	swtpm_ioctl --tcp "127.0.0.1:$((port + 1))" -i >/dev/null 2>&1 &&
		tpm2_startup -c >/dev/null 2>&1
}
if enrol states; then
	sealed_sum=$(sha256sum < "$D/policy.sealed")
	cur=$(ls "$D/pcr-policies")
	kl_next_pcrs 4 "kernel 2" > "$D/next.pcrs"
	tpm2_pcrextend "4:sha256=$(printf 'kernel 2' | sha256sum | cut -d' ' -f1)"
	kl_load unsigned-state
	kl_expect "a PCR change without a signed PCR policy: status 5, no key" 5 0 \
		"elfsig-keyloader: TPM refused to unseal: no signed PCR policy matches the current PCR state: no key loaded"
	# The authority signs the new state, without this machine's TPM.
	TPM2TOOLS_TCTI=swtpm:host=127.0.0.1,port=1 "$ENROLL" sign-pcr-policy -d "$D" \
		-K "$T_TMP/auth.key" --pcr-values "$D/next.pcrs" -o "$T_TMP/ci.pcrpol" >"$D/sout" 2>&1 &&
		t_pass "a PCR policy for given values is signed without a TPM" ||
		t_fail "a PCR policy for given values is signed without a TPM" "$(cat "$D/sout")"
	cp "$T_TMP/ci.pcrpol" "$D/pcr-policies/zz-next.pcrpol"
	kl_load new-state
	kl_expect "the new state with its signed PCR policy: both keys load" 0 2 \
		"elfsig-keyloader: enrolment unsealed under $D/pcr-policies/zz-next.pcrpol"
	if swtpm_restart; then
		kl_load old-state
		kl_expect "back to the old state (fallback boot): both keys load" 0 2 \
			"elfsig-keyloader: enrolment unsealed under $D/pcr-policies/$cur"
		[ "$(sha256sum < "$D/policy.sealed")" = "$sealed_sum" ] &&
			t_pass "two states, no TPM write: the sealed object is unchanged" ||
			t_fail "two states, no TPM write: the sealed object is unchanged"
		rm "$D/pcr-policies/$cur"
		kl_load revoked
		kl_expect "the old state's PCR policy removed: status 5, no key" 5 0 \
			"elfsig-keyloader: TPM refused to unseal: no signed PCR policy matches the current PCR state: no key loaded"
	else
		t_fail "swtpm restart" "swtpm_ioctl -i failed"
	fi
	# Hostile or foreign PCR policy files: each refused with its line,
	# the good one still opens the enrolment.
	"$ENROLL" sign-pcr-policy -d "$D" -K "$T_TMP/auth.key" -o "$D/pcr-policies/good.pcrpol" >/dev/null
	P=$D/pcr-policies
	sed 's/^\(pcr sha256:0=\).*/\1'"$(printf '%064d' 1)"'/' "$P/good.pcrpol" > "$P/a-values-edited.pcrpol"
	sed 's/^policy \(.\)/policy 0/' "$P/good.pcrpol" > "$P/b-policy-edited.pcrpol"
	sed 's/^signature ../signature 00/' "$P/good.pcrpol" > "$P/c-signature-edited.pcrpol"
	head -c 100 "$P/good.pcrpol" > "$P/d-truncated.pcrpol"
	{ cat "$P/good.pcrpol"; printf 'signature %02000d\n' 0; } > "$P/e-two-signatures.pcrpol"
	python3 -c 'import sys; sys.stdout.write("#" * 20000)' > "$P/f-huge.pcrpol"
	mkfifo "$P/g-fifo.pcrpol"
	# Another authority's signed PCR policy (section 3's), same state.
	"$ENROLL" sign-pcr-policy -d "$T_TMP/theirs" -K "$T_TMP/evil.key" \
		-o "$P/h-foreign.pcrpol" >/dev/null
	# Signed by the authority, but for another policyRef (as systemd's
	# signed policies are): not for elfsig.
	python3 - "$P/good.pcrpol" "$T_TMP/auth.key" "$P/i-other-ref.pcrpol" <<'PY'
import hashlib, subprocess, sys
lines = open(sys.argv[1]).read().splitlines()
pol = bytes.fromhex([l.split()[1] for l in lines if l.startswith("policy ")][0])
sig = subprocess.run(["openssl", "pkeyutl", "-sign", "-inkey", sys.argv[2], "-pkeyopt", "digest:sha256"],
                     input=hashlib.sha256(pol).digest(), capture_output=True, check=True).stdout
out = [l if not l.startswith("signature ") else "signature " + sig.hex() for l in lines]
open(sys.argv[3], "w").write("\n".join(out) + "\n")
PY
	kl_load hostile-pcr-policies
	kl_expect "hostile PCR policy files refused one by one, the good one loads" 0 2 \
		"elfsig-keyloader: enrolment unsealed under $P/good.pcrpol"
	n=$(grep -c "pcr-policies/[a-i]-" "$D/out")
	[ "$n" = 9 ] && t_pass "each of the 9 refused PCR policy files gets one line" ||
		t_fail "each of the 9 refused PCR policy files gets one line" "$n: $(cat "$D/out")"
	why=$(grep -c "a-values-edited.pcrpol: the policy digest is not that of the PCR values listed\|c-signature-edited.pcrpol: refused: the signature does not verify\|h-foreign.pcrpol: refused: signed by another enrolment authority\|i-other-ref.pcrpol: refused: the signature does not verify" "$D/out")
	[ "$why" = 4 ] && t_pass "edited values, edited signature, another authority, another policyRef: each reason said" ||
		t_fail "edited values, edited signature, another authority, another policyRef: each reason said" "$(cat "$D/out")"
	rm -f "$P"/*
	kl_load no-pcr-policy
	kl_expect "no signed PCR policy at all: status 3, no key" 3 0 \
		"elfsig-keyloader: $P: no usable signed PCR policy: no key loaded"
else
	t_fail "enrol states" "$(cat "$D/enroll.out")"
fi

# 6. add, remove, reseal and sign-pcr-policy never work from a policy the
# authority did not sign as it is: a tampered one is refused, nothing is
# written.
if enrol refuse; then
	echo "key sha256:$(kl_fp k3)" >> "$D/policy"
	sums=$(cat "$D/policy" "$D/policy.sig" "$D/policy.sealed" "$D"/pcr-policies/* | sha256sum)
	line="elfsig-enroll: $D/policy: the signature does not verify with the enrolment authority's key*"
	refuses "add refuses a tampered policy" "$line" "$ENROLL" add -d "$D" -K "$T_TMP/auth.key" "$T_TMP/k3.pem"
	refuses "remove refuses a tampered policy" "$line" "$ENROLL" remove -d "$D" -K "$T_TMP/auth.key" "$T_TMP/k1.pem"
	refuses "reseal refuses a tampered policy" "$line" "$ENROLL" reseal -d "$D"
	refuses "sign-pcr-policy refuses a tampered policy" "$line" "$ENROLL" sign-pcr-policy -d "$D" -K "$T_TMP/auth.key"
	kl_check "check on a tampered policy: status 6 as the loader" 6 "$line" -d "$D"
	[ "$(cat "$D/policy" "$D/policy.sig" "$D/policy.sealed" "$D"/pcr-policies/* | sha256sum)" = "$sums" ] &&
		t_pass "the refusals wrote nothing" || t_fail "the refusals wrote nothing"
	sed -i '$d' "$D/policy"
	refuses "add with another authority's key is refused" \
		"elfsig-enroll: $T_TMP/evil.key is not the enrolment authority of $D/policy ($D/authority.pem)" \
		"$ENROLL" add -d "$D" -K "$T_TMP/evil.key" "$T_TMP/k3.pem"
	out=$("$ENROLL" add -d "$D" "$T_TMP/k3.pem" 2>&1); rc=$?
	[ "$rc" = 2 ] && [[ $out == *"add: --authority-key KEY is required"* ]] &&
		t_pass "add without --authority-key: usage error" ||
		t_fail "add without --authority-key: usage error" "$rc $out"
else
	t_fail "enrol refuse" "$(cat "$D/enroll.out")"
fi

# 7. Authority keys outside format v1's table are refused at enrolment.
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 -out "$T_TMP/rsa1024.key" 2>/dev/null
openssl genpkey -algorithm ED25519 -out "$T_TMP/ed25519.key" 2>/dev/null
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-521 -out "$T_TMP/p521.key" 2>/dev/null
for k in rsa1024 ed25519 p521; do
	mkdir -p "$T_TMP/bad-$k"
	refuses "an authority key $k is refused" "elfsig-enroll: $T_TMP/$k.key: * keys are not allowed by format v1 (allowed: *)" \
		"$ENROLL" create -d "$T_TMP/bad-$k" -K "$T_TMP/$k.key" "$T_TMP/k1.pem"
	[ -z "$(ls "$T_TMP/bad-$k")" ] || t_fail "nothing written for $k" "$(ls "$T_TMP/bad-$k")"
done

# An RSA-4096 authority: in format v1's table, but few TPMs (swtpm 0.7
# among them) load such a key; enrolment finds out, not the next boot.
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:4096 -out "$T_TMP/rsa4096.key" 2>/dev/null
mkdir -p "$T_TMP/rsa4096"
if out=$("$ENROLL" create -d "$T_TMP/rsa4096" -K "$T_TMP/rsa4096.key" "$T_TMP/k1.pem" 2>&1); then
	D=$T_TMP/rsa4096; mkdir -p "$D/certs"; cp "$T_TMP/k1.pem" "$D/certs/"
	kl_load rsa4096
	kl_expect "an RSA-4096 authority this TPM loads: the key loads" 0 1
elif [[ $out == *"loading the authority's public key (a key type this TPM lacks?)"* ]] &&
     [ -z "$(find "$T_TMP/rsa4096" -type f)" ]; then
	t_pass "an RSA-4096 authority this TPM cannot load: refused at enrolment, nothing written"
else
	t_fail "an RSA-4096 authority" "$out"
fi

# 8. The digests are the TPM's own: the signed PCR policy's digest is what
# tpm2_createpolicy computes for its values, the sealed object's authPolicy
# what tpm2_policyauthorize computes (in a TPM trial session) for the
# authority's name and the policyRef the object records.
if enrol interop; then
	P=$(find "$D/pcr-policies" -type f | head -n 1)
	python3 - "$P" "$D/values.bin" <<'PY'
import sys
out = open(sys.argv[2], "wb")
for l in open(sys.argv[1]):
    if l.startswith("pcr sha256:"):
        out.write(bytes.fromhex(l.strip().split("=")[1]))
PY
	tpm2_createpolicy --policy-pcr -l sha256:0,2,4,7 -f "$D/values.bin" -L "$D/pcr.dat" >/dev/null 2>&1
	[ "$(xxd -p -c64 "$D/pcr.dat")" = "$(sed -n 's/^policy //p' "$P")" ] &&
		t_pass "interop: the signed PCR policy's digest is tpm2_createpolicy's" ||
		t_fail "interop: the signed PCR policy's digest is tpm2_createpolicy's" "$(xxd -p -c64 "$D/pcr.dat")"
	python3 - "$D/policy.sealed" "$D" <<'PY'
import sys
b, d = open(sys.argv[1], "rb").read(), sys.argv[2]
assert b[8:10] == b"\0\3"
n = int.from_bytes(b[12:14], "big"); name = b[14:14 + n]; off = 14 + n
r = int.from_bytes(b[off:off + 2], "big"); ref = b[off + 2:off + 2 + r]; off += 2 + r
off += 2 + int.from_bytes(b[off:off + 2], "big")		# the SRK's name
pub = b[off + 2:]						# TPMT_PUBLIC
ap = pub[10:10 + int.from_bytes(pub[8:10], "big")]
open(d + "/name.bin", "wb").write(name); open(d + "/ref.bin", "wb").write(ref)
open(d + "/authpolicy.bin", "wb").write(ap)
PY
	sed -n 's/^policy //p' "$P" | xxd -r -p > "$D/approved.bin"
	tpm2_startauthsession -S "$D/trial.ctx" >/dev/null 2>&1 &&
		tpm2_policyauthorize -S "$D/trial.ctx" -L "$D/authorize.dat" -i "$D/approved.bin" \
			-q "$D/ref.bin" -n "$D/name.bin" >/dev/null 2>&1
	tpm2_flushcontext "$D/trial.ctx" >/dev/null 2>&1
	cmp -s "$D/authorize.dat" "$D/authpolicy.bin" && [ "$(cat "$D/ref.bin")" = elfsig-pcr-policy ] &&
		t_pass "interop: the sealed object's authPolicy is tpm2_policyauthorize's for the authority and policyRef" ||
		t_fail "interop: the sealed object's authPolicy is tpm2_policyauthorize's" \
			"$(xxd -p -c64 "$D/authorize.dat") vs $(xxd -p -c64 "$D/authpolicy.bin")"
else
	t_fail "enrol interop" "$(cat "$D/enroll.out")"
fi

# 9. An authority key that never leaves a TPM (tpm2 OpenSSL provider).
if "$BUILD/elfsig-tpm" keygen --type ecc --handle 0x81000020 >/dev/null 2>&1; then
	if TPM2OPENSSL_TCTI=$TPM2TOOLS_TCTI enrol tpm-key handle:0x81000020; then
		kl_load tpm-key
		kl_expect "an authority key in the TPM (handle:0x81000020): both keys load" 0 2
	else
		t_fail "an authority key in the TPM" "$(cat "$D/enroll.out")"
	fi
else
	t_fail "an authority key in the TPM" "elfsig-tpm keygen failed"
fi

# ECDSA high-S, decided: accepted as the same signature. The TPM makes
# them (tests/attest/quote.sh), so a TPM-resident authority key does too;
# (r, n - s) verifies over the very bytes (r, s) does, and nothing in
# elfsig keys on a signature's bytes. The policy's signature and the PCR
# policy's approval, each turned into its other form, still load.
# high_s FILE|HEX: the other form of a DER ECDSA-Sig-Value (P-256).
high_s() {
	python3 - "$@" <<'PY'
import sys
n = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
def der_int(v):
    b = v.to_bytes((v.bit_length() + 8) // 8, "big")
    return b"\x02" + bytes([len(b)]) + b
def flip(d):
    assert d[0] == 0x30 and d[1] < 0x80
    i = 2; r_len = d[i + 1]; r = int.from_bytes(d[i + 2:i + 2 + r_len], "big"); i += 2 + r_len
    s = int.from_bytes(d[i + 2:i + 2 + d[i + 1]], "big")
    body = der_int(r) + der_int(n - s)
    return b"\x30" + bytes([len(body)]) + body
a = sys.argv[1]
if a.startswith("hex:"):
    print(flip(bytes.fromhex(a[4:])).hex())
else:
    d = flip(open(a, "rb").read())
    open(a, "wb").write(d)
PY
}
if enrol highs; then
	high_s "$D/policy.sig"
	f=$(ls "$D"/pcr-policies/*.pcrpol)
	sig=$(sed -n 's/^signature //p' "$f")
	sed -i "s/^signature .*/signature $(high_s "hex:$sig")/" "$f"
	openssl dgst -sha256 -verify "$D/authority.pem" -signature "$D/policy.sig" "$D/policy" >/dev/null &&
	! grep -q "^signature $sig\$" "$f" &&
		kl_load highs && kl_expect "ECDSA signatures in their other (r, n - s) form: accepted, both keys load" 0 2 ||
		t_fail "ECDSA high-S" "the other form was not made: $(cat "$D/enroll.out")"
else
	t_fail "ECDSA high-S" "enrol failed: $(cat "$D/enroll.out")"
fi
exit 0
