#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The enrolment pins the TPM's storage root key: the sealed object records
# the SRK's name, and elfsig-keyloader refuses any other SRK (another TPM,
# a substituted persistent key) with status 11, the keyring locked. An
# enrolment from before the enrolment authority (a version 1 policy, its
# digest sealed to one PCR state, with or without the pin) is refused with
# status 3 until `elfsig-enroll migrate` rewrites it.
set -u
. "$(dirname "$0")/lib-kl.sh"

kl_need swtpm keyctl openssl tpm2_createprimary tpm2_evictcontrol tpm2_getcap python3 timeout
if [ -z "${KL_IN_SESSION:-}" ]; then
	KL_IN_SESSION=1 exec keyctl session - "$0" "$@"
fi
[ -x "$KL" ] && [ -x "$ENROLL" ] || { echo "FAIL: build: $KL or $ENROLL missing"; exit 1; }
t_mktemp
kl_swtpm_start || { echo "FAIL: swtpm: did not start"; exit 1; }
TPM_A=$TPM2TOOLS_TCTI
for i in 1 2 3; do kl_cert "k$i" || { echo "FAIL: openssl: cert k$i"; exit 1; }; done
kl_authority auth || { echo "FAIL: openssl: authority key"; exit 1; }
kl_need_keyring k1
SRK_ATTRS='restricted|decrypt|fixedtpm|fixedparent|sensitivedataorigin|userwithauth|noda'

# enrol NAME [ENROLL OPTIONS]: k1, k2 enrolled into $D (policy, sealed, certs).
enrol() {
	D=$T_TMP/$1; shift
	mkdir -p "$D/certs"
	cp "$T_TMP/k1.pem" "$T_TMP/k2.der" "$D/certs/"
	"$ENROLL" create -d "$D" -K "$T_TMP/auth.key" "$@" \
		"$T_TMP/k1.pem" "$T_TMP/k2.der" >"$D/enroll.out" 2>&1
}

# 1. Enrolment records the SRK's name in the sealed object (format 3).
if enrol pin; then
	srk=$("$BUILD/elfsig-tpm" srkname)
	python3 - "$D/policy.sealed" "$srk" <<'PY' &&
import sys
b, name = open(sys.argv[1], "rb").read(), bytes.fromhex(sys.argv[2])
off = 12 + 2 + 34 + 2 + 17              # header, authority name, policyRef
assert b[8:10] == b"\0\3", b[8:10]
assert b[off:off + 2 + len(name)] == len(name).to_bytes(2, "big") + name
PY
		t_pass "enrolment records the SRK's name in the sealed object" ||
		t_fail "enrolment records the SRK's name in the sealed object" "$srk"

	# (a) The enrolled TPM: loads.
	kl_load same
	kl_expect "the enrolled TPM: both keys load" 0 2

	# (b) Another TPM (its own owner seed, so another SRK): refused by
	# the pin before anything is unsealed, status 11, locked, measured.
	if KL_SWTPM_NAME=other kl_swtpm_start; then
		TPM_B=$TPM2TOOLS_TCTI
		export TPM2TOOLS_TCTI=$TPM_A
		: > "$D/events"
		kl_load other -T "$TPM_B"
		kl_expect "another TPM: status 11, no key, locked" 11 0 \
			"elfsig-keyloader: TPM's storage root key is not the enrolled one (another TPM, a cleared TPM, a substituted key or forged TPM responses): no key loaded"
		grep -qxF "elfsig-keyloader: storage root key is not the pinned one (its name differs): another TPM, a cleared owner seed, or a substituted key" "$D/out" &&
		grep -qF "keyring locked (exit 11: srk-mismatch)" "$D/out" &&
		grep -q "^13 sha256:[0-9a-f]* elfsig-locked keys=0 status=srk-mismatch\$" "$D/events" &&
		[ -z "$(TPM2TOOLS_TCTI=$TPM_B tpm2_getcap handles-transient)" ] &&
			t_pass "another TPM: the reason, the status word, the measured outcome, nothing left loaded" ||
			t_fail "another TPM: the reason, the status word, the measured outcome, nothing left loaded" \
				"$(tr '\n' '|' < "$D/out") $(cat "$D/events")"
		kl_check "enroll check on another TPM: status 11 as the loader" 11 \
			"*storage root key is not the pinned one*" -d "$D" -T "$TPM_B"
		kl_check "enroll check with no TPM reachable: status 4 as the loader" 4 \
			"elfsig-enroll: *" -d "$D" -T swtpm:host=127.0.0.1,port=1
		mv "$D/policy.sealed" "$D/policy.sealed.away"
		kl_check "enroll check without the sealed object: status 3 as the loader" 3 \
			"*$D/policy.sealed*" -d "$D"
		mv "$D/policy.sealed.away" "$D/policy.sealed"
	else
		t_fail "another TPM" "second swtpm did not start"
	fi
else
	t_fail "enrolment records the SRK's name" "enrol failed: $(cat "$D/enroll.out")"
fi

# 2. A persistent SRK replaced by another key of the same template (here
# the endorsement hierarchy's, persisted at the same handle): it passes the
# template check, its name differs, the pin refuses it.
tpm2_createprimary -Q -C o -g sha256 -G ecc256:aes128cfb -a "$SRK_ATTRS" -c "$T_TMP/srk.ctx" &&
	tpm2_evictcontrol -Q -C o -c "$T_TMP/srk.ctx" 0x81000001 && tpm2_flushcontext -t ||
	t_fail "persistent SRK" "cannot persist the SRK"
if enrol persistent --srk-handle 0x81000001; then
	kl_load persistent --srk-handle 0x81000001
	kl_expect "persistent SRK: loads" 0 2
	tpm2_evictcontrol -Q -C o -c 0x81000001
	tpm2_createprimary -Q -C e -g sha256 -G ecc256:aes128cfb -a "$SRK_ATTRS" -c "$T_TMP/fake.ctx" &&
		tpm2_evictcontrol -Q -C o -c "$T_TMP/fake.ctx" 0x81000001 && tpm2_flushcontext -t
	kl_load substituted --srk-handle 0x81000001
	kl_expect "persistent SRK substituted (same template, other key): status 11, no key, locked" 11 0 \
		"elfsig-keyloader: storage root key is not the pinned one (its name differs): another TPM, a cleared owner seed, or a substituted key"
	[ -z "$(tpm2_getcap handles-transient)" ] &&
		t_pass "substituted SRK: nothing left loaded" ||
		t_fail "substituted SRK: nothing left loaded" "$(tpm2_getcap handles-transient)"
else
	t_fail "persistent SRK" "enrol failed: $(cat "$D/enroll.out")"
fi

# 3. Enrolments from before the authority: a version 1 policy whose
# digest is sealed to one PCR state, as elfsig-enroll wrote them (sealed
# object version 2, or version 1 from before the pin). Refused with the
# one command that migrates them; migrate checks that the TPM still
# vouches for the policy, then signs and seals it anew.
# v1_enrol NAME [v1]: such an enrolment of k1, k2 into $D.
v1_enrol() {
	D=$T_TMP/$1
	mkdir -p "$D/certs"
	cp "$T_TMP/k1.pem" "$T_TMP/k2.der" "$D/certs/"
	printf '# old\nelfsig-policy 1\npcrs sha256:0,2,4,7\nmeasure-pcr 13\n\nkey sha256:%s\nkey sha256:%s\n' \
		"$(kl_fp k1)" "$(kl_fp k2)" > "$D/policy"
	sha256sum < "$D/policy" | cut -d' ' -f1 | xxd -r -p > "$D/digest"
	"$BUILD/elfsig-tpm" seal --pcrs sha256:0,2,4,7 --in "$D/digest" \
		--out "$D/policy.sealed" >/dev/null || return 1
	[ "${2:-}" = v1 ] || return 0
	python3 - "$D/policy.sealed" <<'PY'
import sys
p = sys.argv[1]; b = open(p, "rb").read()
off = 12 + 10 + 4 * 32
assert b[8:10] == b"\0\2" and b[off:off + 2] == b"\0\x22"
open(p, "wb").write(b[:8] + b"\0\1" + b[10:off] + b[off + 36:])
PY
}
MIGRATE_LINE="refused, migrate it with elfsig-enroll migrate --authority-key KEY"
for v in v2 v1; do
	if v1_enrol "old-$v" $v; then
		kl_load "old-$v"
		kl_expect "version 1 enrolment (sealed object $v): refused, status 3, no key, locked" 3 0 \
			"elfsig-keyloader: $D/policy: policy format version 1 is sealed to one PCR state and not signed by an enrolment authority: $MIGRATE_LINE"
		out=$("$ENROLL" check -d "$D" 2>&1) &&
			t_fail "enroll check refuses a version 1 enrolment ($v)" "$out" ||
			{ [[ $out == *"$MIGRATE_LINE"* ]] &&
			  t_pass "enroll check refuses a version 1 enrolment ($v)" ||
			  t_fail "enroll check refuses a version 1 enrolment ($v)" "$out"; }
		"$ENROLL" migrate -d "$D" -K "$T_TMP/auth.key" \
			--expect-key "sha256:$(kl_fp k1)" --expect-key "$(kl_fp k2)" >"$D/mout" 2>&1 &&
			[ "$(od -An -tx1 -j8 -N2 "$D/policy.sealed" | tr -d ' ')" = 0003 ] &&
			grep -q "^elfsig-policy 4\$" "$D/policy" &&
			t_pass "elfsig-enroll migrate rewrites it (policy 4, sealed object 3) ($v)" ||
			t_fail "elfsig-enroll migrate rewrites it ($v)" "$(cat "$D/mout")"
		kl_load "old-$v-migrated"
		kl_expect "after migrate: both keys load ($v)" 0 2
	else
		t_fail "version 1 enrolment ($v)" "could not write it"
	fi
done
# An edited version 1 policy is not migrated: the TPM does not vouch for it.
if v1_enrol old-edited; then
	echo "key sha256:$(kl_fp k3)" >> "$D/policy"
	cp "$D/policy" "$D/policy.before"
	out=$("$ENROLL" migrate -d "$D" -K "$T_TMP/auth.key" --expect-key "$(kl_fp k1)" \
		--expect-key "$(kl_fp k2)" --expect-key "$(kl_fp k3)" 2>&1) &&
		t_fail "migrate refuses an edited version 1 policy" "$out" ||
		{ [[ $out == *"not migrated: the TPM does not vouch for this policy"* ]] &&
		  cmp -s "$D/policy" "$D/policy.before" && [ ! -e "$D/policy.sig" ] &&
		  t_pass "migrate refuses an edited version 1 policy, writes nothing" ||
		  t_fail "migrate refuses an edited version 1 policy, writes nothing" "$out"; }
else
	t_fail "edited version 1 policy" "could not write it"
fi

# 4. A version 1 enrolment proves no creator: anyone with the TPM seals a
# policy's digest to the current PCRs (here: the real keys k1, k2 and an
# attacker's k3, as the v1 layout is). migrate lists every key with its
# certificate's subject and migrates only the exact set the operator
# confirms; any other set is refused, one line naming the key, nothing
# written, and the next boot still loads nothing.
# migrate_refused NAME WANT EXPECT...: migrate -d $D with these
# --expect-key fingerprints fails, names WANT on stderr, lists every key
# on stdout, and leaves $D as it was.
migrate_refused() {
	local name=$1 want=$2 args=() f; shift 2
	for f in "$@"; do args+=(--expect-key "sha256:$f"); done
	(cd "$D" && find . -type f -exec sha256sum {} + | sort) > "$T_TMP/before"
	"$ENROLL" migrate -d "$D" -K "$T_TMP/auth.key" "${args[@]}" >"$T_TMP/mout" 2>"$T_TMP/merr"
	local rc=$?
	(cd "$D" && find . -type f -exec sha256sum {} + | sort) > "$T_TMP/after"
	if [ "$rc" = 0 ]; then
		t_fail "$name" "exit 0: $(cat "$T_TMP/mout")"
	elif [ "$(grep -c . "$T_TMP/merr")" != 1 ] || ! grep -qF -- "$want" "$T_TMP/merr"; then
		t_fail "$name" "expected one line '$want', got: $(tr '\n' '|' < "$T_TMP/merr")"
	elif ! grep -q "sha256:$(kl_fp k3) .*CN=elfsig test k3$" "$T_TMP/mout" ||
	     ! grep -q "sha256:$(kl_fp k1) .*CN=elfsig test k1$" "$T_TMP/mout"; then
		t_fail "$name" "keys not listed with their subjects: $(tr '\n' '|' < "$T_TMP/mout")"
	elif ! diff -q "$T_TMP/before" "$T_TMP/after" >/dev/null; then
		t_fail "$name" "files changed: $(diff "$T_TMP/before" "$T_TMP/after" | tr '\n' '|')"
	else
		t_pass "$name"
	fi
}
if v1_enrol launder; then
	cp "$T_TMP/k3.pem" "$D/certs/"
	printf 'elfsig-policy 1\npcrs sha256:0,2,4,7\nmeasure-pcr 13\n# CN=elfsig test k1\nkey sha256:%s\nkey sha256:%s\nkey sha256:%s\n' \
		"$(kl_fp k1)" "$(kl_fp k2)" "$(kl_fp k3)" > "$D/policy"
	sha256sum < "$D/policy" | cut -d' ' -f1 | xxd -r -p > "$D/digest"
	"$BUILD/elfsig-tpm" seal --pcrs sha256:0,2,4,7 --in "$D/digest" \
		--out "$D/policy.sealed" >/dev/null || t_fail "v1 laundering: seal"
	FAKE=$(printf other | sha256sum | cut -d" " -f1)
	NOTCONF="is enrolled but not confirmed (--expect-key)"
	migrate_refused "migrate of a v1 enrolment without --expect-key: refused, keys listed, nothing written" \
		"not migrated: a version 1 enrolment does not prove who made it; confirm each key listed with --expect-key sha256:HEX"
	migrate_refused "migrate with the real keys only: the attacker's key is named, refused, nothing written" \
		"sha256:$(kl_fp k3) $NOTCONF" "$(kl_fp k1)" "$(kl_fp k2)"
	migrate_refused "migrate with a confirmed key that is not enrolled: named, refused" \
		"sha256:$FAKE is confirmed (--expect-key) but not enrolled" \
		"$(kl_fp k1)" "$(kl_fp k2)" "$(kl_fp k3)" "$FAKE"
	out=$("$ENROLL" migrate -d "$D" -K "$T_TMP/auth.key" --expect-key nothex 2>&1)
	rc=$?
	[ "$rc" = 2 ] && [[ $out == *"--expect-key: expected sha256:<64 hex digits>"* ]] &&
		t_pass "migrate --expect-key with a malformed fingerprint: usage, status 2" ||
		t_fail "migrate --expect-key malformed" "exit $rc: $out"
	kl_load launder
	kl_expect "the refused v1 enrolment still loads nothing (status 3)" 3 0
	"$ENROLL" migrate -d "$D" -K "$T_TMP/auth.key" --expect-key "$(kl_fp k1)" \
		--expect-key "$(kl_fp k2)" --expect-key "$(kl_fp k3)" >"$D/mout" 2>&1 &&
		t_pass "migrate with exactly the enrolled set confirmed: migrated" ||
		t_fail "migrate with exactly the enrolled set" "$(cat "$D/mout")"
	kl_load launder-confirmed
	kl_expect "what the operator confirmed loads: the three keys" 0 3
else
	t_fail "v1 laundering" "could not write the enrolment"
fi

# 5. Policies and PCR policies are signed for one machine (the SRK name
# of its TPM, the srk line): machine A's files, copied onto machine B of
# the same authority (another swtpm, its own enrolment), load nothing
# there. Machine A is $TPM_A, machine B $TPM_B.
# on_b NAME RC LINE: the loader on machine B's enrolment $D: status RC,
# no key, locked, LINE among its lines.
on_b() { kl_load "$1" -T "$TPM_B"; kl_expect "$1" "$2" 0 "$3"; }
if [ -n "${TPM_B:-}" ] && enrol mach-a && A=$D && enrol mach-b -T "$TPM_B" && B=$D; then
	D=$B
	kl_load mach-b -T "$TPM_B"
	kl_expect "machine B's own enrolment loads on B" 0 2
	grep -q "^srk $("$BUILD/elfsig-tpm" srkname --tcti "$TPM_B")\$" "$B/policy" &&
	grep -q "^srk $("$BUILD/elfsig-tpm" srkname --tcti "$TPM_B")\$" "$B"/pcr-policies/*.pcrpol &&
		t_pass "the policy and PCR policy name machine B's SRK" ||
		t_fail "the policy and PCR policy name machine B's SRK" "$(grep -h ^srk "$B/policy" "$B"/pcr-policies/*)"
	cp -a "$B" "$T_TMP/mach-b.keep"
	cp "$A/policy" "$A/policy.sig" "$B/"
	on_b "machine A's policy on machine B: status 6, no key, locked" 6 \
		"elfsig-keyloader: $B/policy: signed for another machine (its srk line names another TPM storage root key than this enrolment's)"
	n=$(grep -c "signed for another machine" "$D/out")
	[ "$n" = 1 ] && t_pass "machine A's policy on machine B: one line" ||
		t_fail "machine A's policy on machine B: one line" "$n: $(tr '\n' '|' < "$D/out")"
	out=$("$ENROLL" check -d "$B" -T "$TPM_B" 2>&1) && t_fail "check: machine A's policy on B" "$out" ||
		{ [[ $out == *"$B/policy: signed for another machine"* ]] &&
		  t_pass "check: machine A's policy on B refused" || t_fail "check: machine A's policy on B" "$out"; }
	cp "$T_TMP/mach-b.keep/policy" "$T_TMP/mach-b.keep/policy.sig" "$B/"
	rm "$B"/pcr-policies/*
	cp "$A"/pcr-policies/*.pcrpol "$B/pcr-policies/a.pcrpol"
	on_b "machine A's PCR policy (same PCR values) on machine B: left out, status 3" 3 \
		"elfsig-keyloader: $B/pcr-policies/a.pcrpol: signed for another machine (its srk line names another TPM storage root key than this enrolment's)"
	# The migrated version 1 enrolment of case 4 (machine A), on B.
	cp "$T_TMP/launder/policy" "$T_TMP/launder/policy.sig" "$B/"
	cp "$T_TMP"/launder/pcr-policies/*.pcrpol "$B/pcr-policies/a.pcrpol"
	on_b "a policy migrated on machine A, on machine B: status 6, no key" 6 \
		"elfsig-keyloader: $B/policy: signed for another machine (its srk line names another TPM storage root key than this enrolment's)"
	# reseal on another TPM: the authority signs the files for it.
	rm -rf "$B" && cp -a "$A" "$B"
	out=$("$ENROLL" reseal -d "$B" -T "$TPM_B" 2>&1); rc=$?
	[ "$rc" = 1 ] && cmp -s "$A/policy.sealed" "$B/policy.sealed" &&
	[[ $out == *"$B/policy: signed for another machine (its srk line names another TPM storage root key than this TPM's): the authority signs it for this one with elfsig-enroll reseal --authority-key KEY" ]] &&
		t_pass "reseal on another machine without the authority key: refused, one line, nothing written" ||
		t_fail "reseal on another machine without the authority key" "exit $rc: $out"
	"$ENROLL" reseal -d "$B" -T "$TPM_B" -K "$T_TMP/auth.key" >"$B/reseal.out" 2>&1 &&
	"$ENROLL" counter -d "$B" -T "$TPM_B" -K "$T_TMP/auth.key" >>"$B/reseal.out" 2>&1 &&
		kl_load resealed-b -T "$TPM_B" &&
		kl_expect "reseal -K and counter -K on machine B: loads there" 0 2 ||
		t_fail "reseal -K on machine B" "$(cat "$B/reseal.out")"
	D=$A
	kl_load mach-a-still
	kl_expect "machine A's own files still load on A" 0 2
else
	t_fail "machine binding" "enrolments on two swtpms failed: $(cat "$D/enroll.out" 2>/dev/null)"
fi

# 6. A signing host holds no machine's files: without them,
# sign-pcr-policy and predict say in one line what they need; with the
# machine's SRK name (elfsig-tpm srkname there), its PCRs and generation,
# sign-pcr-policy signs for it, with no TPM reachable, and the loader on
# that machine unseals under the file.
S=$T_TMP/signing-host
mkdir -p "$S"
if [ -d "${A:-}" ] && (export TPM2TOOLS_TCTI=$TPM_A
	"$BUILD/elfsig-tpm" srkname > "$S/a.srk" &&
	"$BUILD/elfsig-tpm" pcrread "$(sed -n 's/^pcrs //p' "$A/policy")" > "$S/a.pcrs"); then
	out=$(cd "$S" && "$ENROLL" sign-pcr-policy -d "$S/etc" -K "$T_TMP/auth.key" \
		--pcr-values a.pcrs -o a.pcrpol 2>&1); rc=$?
	[ "$rc" = 1 ] && [ ! -e "$S/a.pcrpol" ] &&
	[ "$out" = "elfsig-enroll: sign-pcr-policy: no machine's policy at $S/etc/policy: give a copy of the machine's enrolment directory (--dir) or --srk-name NAME --pcrs SEL --generation N" ] &&
		t_pass "sign-pcr-policy without the machine's files: status 1, one line naming what it needs" ||
		t_fail "sign-pcr-policy without the machine's files" "exit $rc: $out"
	out=$("$ENROLL" predict -d "$S/etc" --event-log /dev/null 2>&1); rc=$?
	[ "$rc" = 1 ] &&
	[ "$out" = "elfsig-enroll: predict: no machine's policy at $S/etc/policy: give a copy of the machine's enrolment directory (--dir) or --pcrs SEL" ] &&
		t_pass "predict without the machine's files: status 1, one line naming what it needs" ||
		t_fail "predict without the machine's files" "exit $rc: $out"
	out=$("$ENROLL" sign-pcr-policy -d "$S/etc" -K "$T_TMP/auth.key" --srk-name "$(cat "$S/a.srk")" \
		--pcr-values "$S/a.pcrs" -o "$S/a.pcrpol" 2>&1); rc=$?
	[ "$rc" = 2 ] && [[ $out == *"--srk-name: --pcrs and --generation are needed too"* ]] &&
		t_pass "sign-pcr-policy --srk-name without --pcrs and --generation: usage error" ||
		t_fail "sign-pcr-policy --srk-name without --pcrs and --generation" "exit $rc: $out"
	TPM2TOOLS_TCTI=swtpm:host=127.0.0.1,port=1 "$ENROLL" sign-pcr-policy -d "$S/etc" \
		-K "$T_TMP/auth.key" --srk-name "$(cat "$S/a.srk")" \
		--pcrs "$(sed -n 's/^pcrs //p' "$A/policy")" \
		--generation "$(sed -n 's/^generation //p' "$A/policy")" \
		--pcr-values "$S/a.pcrs" -o "$S/a.pcrpol" >"$S/out" 2>&1 &&
		[ ! -e "$S/etc" ] ||
		t_fail "sign-pcr-policy --srk-name on a host without a TPM" "$(cat "$S/out")"
	rm -f "$A"/pcr-policies/*
	cp "$S/a.pcrpol" "$A/pcr-policies/"
	D=$A
	kl_load signing-host
	kl_expect "a PCR policy signed on a host without machine A's files loads on A" 0 2 \
		"elfsig-keyloader: enrolment unsealed under $A/pcr-policies/a.pcrpol*"
else
	t_fail "signing host" "machine A's enrolment, SRK name and PCRs"
fi
exit 0
