#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# elfsig-keyloader against a real swtpm and the real kernel keyring: what
# loads, what is refused, and that the keyring ends locked in every case.
set -u
. "$(dirname "$0")/lib-kl.sh"

# Keys live in a session keyring of their own (the suite re-runs in one).
kl_loader_suite 4 tpm2_pcrextend

# case_setup NAME CERT...: enrol CERT... into $D (policy signed by the
# authority auth, sealed object, a signed PCR policy for the current
# state), copy them into $D/certs, make a fresh keyring $KR.
case_setup() {
	D=$T_TMP/$1; shift
	mkdir -p "$D/certs"
	local c
	for c in "$@"; do cp "$T_TMP/$c" "$D/certs/"; done
	(cd "$T_TMP" && "$ENROLL" create -d "$D" -K "$T_TMP/auth.key" "$@") \
		>"$D/enroll.out" 2>&1 || return 1
	KR=$(keyctl newring "kr-$(basename "$D")" @s)
}

# run_loader [ARGS...]: the loader on $D, into $KR; sets RC, output in $D/out.
run_loader() {
	timeout 30 "$KL" -d "$D" -k "$KR" -l "$D/events" --kmsg "$D/kmsg" "$@" \
		>"$D/out" 2>&1
	RC=$?
}

# locked: a further add into $KR is refused with EPERM.
locked() {
	local err
	err=$(keyctl padd asymmetric "" "$KR" < "$T_TMP/k4.der" 2>&1 >/dev/null) && return 1
	case $err in *"Operation not permitted"*) return 0 ;; esac
	return 1
}

# expect NAME RC NKEYS: exit status, key count, keyring locked.
expect() {
	local name=$1 rc=$2 n=$3 got
	got=$(kl_keys "$KR")
	if [ "$RC" != "$rc" ]; then
		t_fail "$name" "exit $RC, expected $rc: $(tail -n 3 "$D/out" | tr '\n' '|')"
	elif [ "$got" != "$n" ]; then
		t_fail "$name" "$got keys in the keyring, expected $n"
	elif ! locked; then
		t_fail "$name" "keyring not locked"
	else
		t_pass "$name"
	fi
}

has_key() { keyctl list "$KR" | grep -q "asymmetric: elfsig test $1:"; }

# 1. Three enrolled keys (PEM and DER) load, exactly those, then EPERM.
if case_setup enrol3 k1.pem k2.der k3.pem; then
	declare -A pcr_before
	for bank in sha256 sha1 sha384 sha512; do
		pcr_before[$bank]=$(tpm2_pcrread "$bank:13" | sed -n 's/.*13: 0x//p')
	done
	run_loader
	expect "three enrolled keys load, then the keyring is locked" 0 3
	if has_key k1 && has_key k2 && has_key k3 && ! has_key k4; then
		t_pass "the loaded keys are exactly k1, k2, k3"
	else
		t_fail "the loaded keys are exactly k1, k2, k3" "$(keyctl list "$KR" | tr '\n' '|')"
	fi
	err=$(keyctl padd asymmetric "" "$KR" < "$T_TMP/k4.der" 2>&1)
	case $err in *"Operation not permitted"*) t_pass "a fourth add gets EPERM" ;;
		*) t_fail "a fourth add gets EPERM" "$err" ;; esac
	# The event log replays to the PCR value, in every bank: 3 key events
	# and "locked", each extended into sha256, sha1, sha384 and sha512.
	for bank in sha256 sha1 sha384 sha512; do
		pcr_after=$(tpm2_pcrread "$bank:13" | sed -n 's/.*13: 0x//p')
		replay=$(python3 - "${pcr_before[$bank]}" "$D/events" "$bank" <<'PY'
import hashlib, sys
pcr, bank = bytes.fromhex(sys.argv[1]), sys.argv[3]
n = 0
for line in open(sys.argv[2]):
    idx, dig, ev = line.rstrip("\n").split(" ", 2)
    b, h = dig.split(":")
    if b != bank:
        continue
    d = bytes.fromhex(h)
    assert idx == "13" and d == hashlib.new(bank, ev.encode()).digest(), line
    pcr = hashlib.new(bank, pcr + d).digest()
    n += 1
print(n, pcr.hex().upper())
PY
)
		if [ "$replay" = "4 $pcr_after" ] &&
		   grep -q "^13 $bank:[0-9a-f]* elfsig-locked keys=3 status=ok\$" "$D/events"; then
			t_pass "event log: 4 $bank events that replay to PCR 13"
		else
			t_fail "event log: 4 $bank events that replay to PCR 13" "replay '$replay', PCR $pcr_after"
		fi
	done
	# The loader extends all banks with one TPM2_PCR_Extend per event.
	# The same events through the per-bank path (elfsig-tpm pcrextend:
	# one TPM2_PCR_Extend per bank and event, as the loader did before)
	# into PCR 15, which starts where PCR 13 did, end in the same values.
	same=1 why=
	for bank in sha256 sha1 sha384 sha512; do
		[ "$(tpm2_pcrread "$bank:15" | sed -n 's/.*15: 0x//p')" = "${pcr_before[$bank]}" ] ||
			{ same=0; why="PCR 15 and 13 start apart in $bank"; }
	done
	while read -r _ dig ev; do
		"$BUILD/elfsig-tpm" pcrextend --pcr 15 --bank "${dig%%:*}" --data "$ev" ||
			{ same=0; why="elfsig-tpm pcrextend failed"; }
	done < "$D/events"
	for bank in sha256 sha1 sha384 sha512; do
		a=$(tpm2_pcrread "$bank:13" | sed -n 's/.*13: 0x//p')
		b=$(tpm2_pcrread "$bank:15" | sed -n 's/.*15: 0x//p')
		[ -n "$a" ] && [ "$a" = "$b" ] || { same=0; why="$why $bank: PCR 13 $a, PCR 15 $b"; }
	done
	[ $same = 1 ] && t_pass "one extend for all banks = one extend per bank (PCR 13 = PCR 15 in 4 banks)" ||
		t_fail "one extend for all banks = one extend per bank" "$why"
	if grep -q "^<6>elfsig-keyloader: 3 keys loaded" "$D/kmsg"; then
		t_pass "the outcome goes to kmsg"
	else
		t_fail "the outcome goes to kmsg" "$(cat "$D/kmsg" 2>/dev/null)"
	fi
else
	t_fail "three enrolled keys load" "enrol failed: $(cat "$D/enroll.out")"
fi

# 2. A sealed PCR changes after enrolment: nothing loads.
if case_setup pcr k1.pem k2.pem k3.pem; then
	tpm2_pcrextend "7:sha256=$(printf 'firmware update' | sha256sum | cut -d' ' -f1)"
	run_loader
	expect "PCR 7 extended after enrolment: 0 keys, locked" 5 0
	grep -q "no signed PCR policy matches the current PCR state" "$D/kmsg" &&
		t_pass "PCR mismatch reported on kmsg" ||
		t_fail "PCR mismatch reported on kmsg" "$(cat "$D/kmsg")"
else
	t_fail "PCR change" "enrol failed"
fi

# 3. The policy file is edited after sealing.
if case_setup edit k1.pem k2.pem k3.pem; then
	sed -i 's/^# O=elfsig,CN=elfsig test k1/# CN=someone else/' "$D/policy"
	run_loader
	expect "policy comment edited: 0 keys, locked" 6 0
	out=$("$ENROLL" check -d "$D" 2>&1) &&
		t_fail "enroll check: an edited policy fails" "$out" ||
		{ grep -q "the signature does not verify with the enrolment authority's key" <<<"$out" &&
		  t_pass "enroll check: an edited policy fails" ||
		  t_fail "enroll check: an edited policy fails" "$out"; }
else
	t_fail "policy edited" "enrol failed"
fi
if case_setup smuggle k1.pem k2.pem; then
	cp "$T_TMP/k4.pem" "$D/certs/"
	echo "key sha256:$(kl_fp k4)" >> "$D/policy"
	run_loader
	expect "attacker's key appended to the policy: 0 keys, locked" 6 0
else
	t_fail "policy smuggle" "enrol failed"
fi

# 4. A certificate dropped into the directory without enrolment.
if case_setup dropped k1.pem k2.pem k3.pem; then
	cp "$T_TMP/k4.pem" "$D/certs/zz-extra.pem"
	run_loader
	expect "unenrolled certificate in the directory: the 3 enrolled load" 1 3
	has_key k4 && t_fail "the unenrolled certificate is not loaded" ||
		t_pass "the unenrolled certificate is not loaded"
	grep -q "zz-extra.pem: refused: not enrolled" "$D/out" &&
		t_pass "the refused file is named" ||
		t_fail "the refused file is named" "$(cat "$D/out")"
	# An enrolled certificate replaced by another under its file name.
	cp "$T_TMP/k4.pem" "$D/certs/k2.pem"
	rm "$D/certs/zz-extra.pem"
	KR=$(keyctl newring kr-replaced @s)
	run_loader
	expect "enrolled certificate file replaced: k1 and k3 only" 1 2
	has_key k4 && t_fail "the replacement is not loaded" ||
		t_pass "the replacement is not loaded"
else
	t_fail "unenrolled cert" "enrol failed"
fi

# 5. The TPM is unreachable (nothing listening), or no device at all.
if case_setup notpm k1.pem k2.pem k3.pem; then
	dead=$(t_free_port)
	start=$(date +%s)
	run_loader -T "swtpm:host=127.0.0.1,port=$dead"
	expect "TPM unreachable: 0 keys, locked" 4 0
	[ $(( $(date +%s) - start )) -lt 25 ] && t_pass "TPM unreachable: no hang" ||
		t_fail "TPM unreachable: no hang"
	KR=$(keyctl newring kr-nodev @s)
	run_loader -T "device:$T_TMP/no-such-tpm"
	expect "TPM device missing: 0 keys, locked" 4 0
else
	t_fail "TPM unreachable" "enrol failed"
fi

# 6. Malformed certificates are refused, the rest loads.
if case_setup malformed k1.der k2.pem k3.pem; then
	head -c 300 "$T_TMP/k4.der" > "$D/certs/truncated.der"
	{ cat "$T_TMP/k1.der"; printf 'trailing'; } > "$D/certs/trailing.der"
	printf -- '-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n' > "$D/certs/bad.pem"
	cat "$T_TMP/k4.pem" "$T_TMP/k1.pem" > "$D/certs/two.pem"
	: > "$D/certs/empty.der"
	run_loader
	expect "malformed certificates refused, the 3 enrolled load" 1 3
	n=$(grep -c "refused: not a certificate" "$D/out")
	[ "$n" = 5 ] && t_pass "each malformed file gets its line" ||
		t_fail "each malformed file gets its line" "$n lines: $(cat "$D/out")"
	# Only a malformed certificate, for an enrolled one that is missing.
	KR=$(keyctl newring kr-malformed2 @s)
	rm "$D/certs/"*; head -c 500 "$T_TMP/k1.der" > "$D/certs/k1.der"
	run_loader
	expect "the only certificate is malformed: 0 keys, locked" 1 0
else
	t_fail "malformed" "enrol failed"
fi

# 7. The keyring is already locked.
if case_setup prelocked k1.pem k2.pem; then
	keyctl restrict_keyring "$KR"
	run_loader
	expect "keyring already locked: 0 keys, status 7" 7 0
else
	t_fail "prelocked" "enrol failed"
fi

# 8. Damaged or missing inputs.
if case_setup inputs k1.pem k2.pem; then
	cp "$D/policy.sealed" "$D/sealed.orig"
	python3 - "$D/policy.sealed" <<'PY'
import sys
p = sys.argv[1]; b = bytearray(open(p, "rb").read())
b[len(b) // 2] ^= 0x40
open(p, "wb").write(b)
PY
	run_loader
	case $RC in 3|4|5|6) RC=x ;; esac
	expect "sealed object flipped: 0 keys, locked" x 0
	cp "$D/sealed.orig" "$D/policy.sealed"
	KR=$(keyctl newring kr-nopolicy @s)
	mv "$D/policy" "$D/policy.away"
	run_loader
	expect "policy missing: 0 keys, locked" 3 0
	grep " sha256:" "$D/events" | tail -n 1 | grep -q " elfsig-locked keys=0 status=bad-input\$" &&
		t_pass "a failed run still measures its outcome" ||
		t_fail "a failed run still measures its outcome" "$(tail -n 1 "$D/events")"
	mv "$D/policy.away" "$D/policy"
	KR=$(keyctl newring kr-nocerts @s)
	run_loader -c "$D/no-such-dir"
	expect "certificate directory missing: 0 keys, locked" 3 0
	KR=$(keyctl newring kr-notring @s)
	UK=$(keyctl add user not-a-keyring data "$KR")
	timeout 30 "$KL" -d "$D" \
		-k "$UK" --kmsg none -l "$D/events" >"$D/out" 2>&1
	RC=$?
	[ "$RC" = 7 ] && grep -q "is not a keyring" "$D/out" &&
		t_pass "--keyring naming a key that is no keyring: status 7" ||
		t_fail "--keyring naming a key that is no keyring: status 7" "exit $RC: $(cat "$D/out")"
	KR=$(keyctl newring kr-usage @s)
	timeout 30 "$KL" -k "$KR" --kmsg none --bogus >"$D/out" 2>&1; RC=$?
	expect "bad command line: status 2, keyring still locked" 2 0
else
	t_fail "inputs" "enrol failed"
fi

# 9. One command each: remove, add (signed again, no TPM write), a signed
# PCR policy for a predicted state next to the current one.
if case_setup rotate k1.pem k2.pem k3.pem; then
	P=(-d "$D" -K "$T_TMP/auth.key")
	sealed_sum=$(sha256sum < "$D/policy.sealed")
	"$ENROLL" remove "${P[@]}" "$T_TMP/k2.pem" >/dev/null &&
	run_loader && expect "remove k2: k1 and k3 load (k2's certificate moved aside)" 0 2
	KR=$(keyctl newring kr-add @s)
	cp "$T_TMP/k4.der" "$D/certs/"
	"$ENROLL" add "${P[@]}" "$T_TMP/k4.der" >/dev/null &&
	run_loader && expect "add k4: k1, k3, k4 load" 0 3
	KR=$(keyctl newring kr-remove-fp @s)
	"$ENROLL" remove "${P[@]}" "sha256:$(kl_fp k4)" >/dev/null &&
	run_loader && expect "remove by fingerprint" 0 2
	[ "$(sha256sum < "$D/policy.sealed")" = "$sealed_sum" ] &&
		t_pass "add and remove only sign: the sealed object is unchanged" ||
		t_fail "add and remove only sign: the sealed object is unchanged"
	# Predict PCR 4 after one more extend (a new kernel) and sign a PCR
	# policy for it: the current and the next state both load.
	ext=$(printf 'next kernel' | sha256sum | cut -d' ' -f1)
	kl_next_pcrs 4 'next kernel' > "$D/next.pcrs"
	"$ENROLL" sign-pcr-policy "${P[@]}" --pcr-values "$D/next.pcrs" \
		-o "$D/pcr-policies/next.pcrpol" >/dev/null || t_fail "sign-pcr-policy" "failed"
	KR=$(keyctl newring kr-before @s)
	run_loader
	expect "two signed states: the current one still loads" 0 2
	tpm2_pcrextend "4:sha256=$ext"
	KR=$(keyctl newring kr-after @s)
	run_loader
	expect "two signed states: the predicted one loads once reached" 0 2
	grep -q "enrolment unsealed under $D/pcr-policies/next.pcrpol" "$D/out" &&
		t_pass "the loader names the PCR policy that opened the enrolment" ||
		t_fail "the loader names the PCR policy that opened the enrolment" "$(cat "$D/out")"
	[ "$(sha256sum < "$D/policy.sealed")" = "$sealed_sum" ] &&
		t_pass "the update took no TPM write: the sealed object is unchanged" ||
		t_fail "the update took no TPM write: the sealed object is unchanged"
	kl_check "enroll check: status 0 in the next state, names its policy" 0 \
		"*unseals under $D/pcr-policies/next.pcrpol" -d "$D"
	out=$("$ENROLL" check --json -d "$D" 2>/dev/null); rc=$?
	[ "$rc" = 0 ] && python3 -c '
import json, sys
j = json.loads(sys.argv[1])
assert j["status"] == 0 and j["word"] == "ok" and j["epoch"] == 0, j
assert j["unsealed_under"] == sys.argv[2] + "/pcr-policies/next.pcrpol", j' "$out" "$D" &&
		t_pass "enroll check --json: status 0, ok, the PCR policy" ||
		t_fail "enroll check --json: status 0" "exit $rc: $out"
	"$ENROLL" check -d "$D" >"$D/out" 2>&1 &&
		grep -q "unseals under $D/pcr-policies/next.pcrpol" "$D/out" &&
		t_pass "enroll check: passes in the next state, names its policy" ||
		t_fail "enroll check: passes in the next state, names its policy" "$(cat "$D/out")"
	# One more extend: neither signed state, nothing loads.
	tpm2_pcrextend "4:sha256=$ext"
	KR=$(keyctl newring kr-unsigned @s)
	run_loader
	expect "a PCR state nobody signed: 0 keys, locked" 5 0
	kl_check "enroll check in an unsigned state: status 5 as the loader" 5 \
		"elfsig-enroll: PCR policy not satisfied: the current PCR values match none of the 2 signed PCR policies" -d "$D"
	out=$("$ENROLL" check --json -d "$D" 2>/dev/null); rc=$?
	[ "$rc" = 5 ] && python3 -c '
import json, sys
j = json.loads(sys.argv[1])
assert j["status"] == 5 and j["word"] == "pcr-mismatch" and "unsealed_under" not in j, j' "$out" &&
		t_pass "enroll check --json in an unsigned state: status 5, pcr-mismatch" ||
		t_fail "enroll check --json in an unsigned state" "exit $rc: $out"
	# Move to another selection and measurement PCR: one command, which
	# signs a PCR policy for the new selection too.
	"$ENROLL" add "${P[@]}" "$T_TMP/k1.pem" --pcrs sha256:0,7 --measure-pcr 14 >"$D/out" 2>&1 &&
		"$ENROLL" show -d "$D" | grep -q "PCRs sha256:0,7, measured into PCR 14" &&
		t_pass "add --pcrs --measure-pcr changes the policy" ||
		t_fail "add --pcrs --measure-pcr changes the policy" "$(cat "$D/out")"
	tpm2_pcrextend "4:sha256=$ext"	# no longer covered
	KR=$(keyctl newring kr-moved @s)
	: > "$D/events"
	run_loader
	expect "after the move, PCR 4 no longer matters" 0 2
	[ "$(grep -c "covers other PCRs than the policy's sha256:0,7" "$D/out")" = 2 ] &&
		t_pass "the PCR policies of the old selection are refused, one line each" ||
		t_fail "the PCR policies of the old selection are refused, one line each" "$(cat "$D/out")"
	[ "$(grep -c '^14 sha256:' "$D/events")" = 3 ] && ! grep -q '^13 ' "$D/events" &&
		t_pass "events go to the new measurement PCR 14" ||
		t_fail "events go to the new measurement PCR 14" "$(cut -c1-40 "$D/events" | tr '\n' '|')"
else
	t_fail "rotate" "enrol failed"
fi

# 10. A TPM that accepts the connection and never answers: the watchdog
# locks the keyring and exits.
if case_setup silent k1.pem k2.pem; then
	# The stand-in picks two free consecutive ports itself (no race with
	# other suites) and writes the first to a file once it listens.
	python3 "$TOP/tests/tools/tpmproxy.py" "$D/port" 0 --silent &
	spid=$!
	t_on_exit "kill $spid 2>/dev/null"
	for _ in $(seq 1 100); do [ -s "$D/port" ] && break; sleep 0.05; done
	sport=$(cat "$D/port")
	start=$(date +%s)
	run_loader -T "swtpm:host=127.0.0.1,port=$sport" --timeout 2
	expect "TPM that never answers: watchdog, 0 keys, locked" 10 0
	[ $(( $(date +%s) - start )) -lt 15 ] && t_pass "TPM that never answers: gone in seconds" ||
		t_fail "TPM that never answers: gone in seconds"
	kill "$spid" 2>/dev/null
else
	t_fail "silent TPM" "enrol failed"
fi

# 11. File names cannot forge console or kmsg lines.
if case_setup names k1.pem; then
	cp "$T_TMP/k2.pem" "$D/certs/evil
<0>elfsig-keyloader: 99 keys loaded"
	run_loader
	expect "a file name with a newline is refused" 1 1
	if [ "$(grep -vc '^<[0-9]>elfsig-keyloader: ' "$D/kmsg")" = 0 ] &&
	   ! grep -q '^<0>' "$D/kmsg"; then
		t_pass "no forged kmsg record"
	else
		t_fail "no forged kmsg record" "$(cat "$D/kmsg")"
	fi
else
	t_fail "names" "enrol failed"
fi

# 12. Enrolment refuses what the loader would: bad PCR value files leave
# every file untouched; a measurement PCR that is sealed or resettable.
if case_setup values k1.pem k2.pem; then
	P=(-d "$D" -K "$T_TMP/auth.key")
	good=$(tpm2_pcrread sha256:0,2,4,7 | sed -n 's/^ *\([0-9]*\) *: 0x\(.*\)/sha256:\1=\2/p')
	printf '%s\n' "$good" | grep -v 'sha256:7=' > "$D/v1"			# PCR 7 missing
	{ printf '%s\n' "$good"; echo "sha256:7=$(printf '%064d' 0)"; } > "$D/v2"	# PCR 7 twice
	printf '%s\n' "$good" | sed 's/^sha256:4=\(.\{10\}\).*/sha256:4=\1/' > "$D/v3"	# short
	printf '%s\n' "$good" | sed 's/^sha256:2=./sha256:2=g/' > "$D/v4"		# not hex
	{ printf '%s\n' "$good"; echo "sha256:99=00"; } > "$D/v5"			# bad index
	head -c 300 /dev/urandom > "$D/v6"
	# tpm2_pcrread's own output is accepted as it is (all banks listed).
	tpm2_pcrread sha1:0,2,4,7+sha256:0,2,4,7 > "$D/v-tpm2"
	rm "$D"/pcr-policies/*
	if "$ENROLL" sign-pcr-policy "${P[@]}" --pcr-values "$D/v-tpm2" >"$D/out" 2>&1 &&
	   "$ENROLL" check -d "$D" >>"$D/out" 2>&1; then
		t_pass "--pcr-values takes tpm2_pcrread output"
	else
		t_fail "--pcr-values takes tpm2_pcrread output" "$(cat "$D/out")"
	fi
	sums=$(cat "$D/policy" "$D/policy.sig" "$D/policy.sealed" "$D"/pcr-policies/* | sha256sum)
	bad=0
	for v in v1 v2 v3 v4 v5 v6; do
		"$ENROLL" sign-pcr-policy "${P[@]}" --pcr-values "$D/$v" >"$D/out" 2>&1 && bad=$((bad + 1))
	done
	[ "$bad" = 0 ] && [ "$(cat "$D/policy" "$D/policy.sig" "$D/policy.sealed" "$D"/pcr-policies/* | sha256sum)" = "$sums" ] &&
		[ "$(find "$D/pcr-policies" -type f | wc -l)" = 1 ] &&
		t_pass "malformed PCR value files refused, files untouched" ||
		t_fail "malformed PCR value files refused, files untouched" "$bad accepted"
	# A write that fails (here: no directory for the sealed object)
	# changes no file and leaves no temporary behind.
	sums=$(cat "$D/policy" "$D/policy.sig" "$D/authority.pem" "$D/policy.sealed" | sha256sum)
	if ! "$ENROLL" create -f "${P[@]}" -s "$D/nodir/policy.sealed" "$T_TMP/k3.pem" >"$D/out" 2>&1 &&
	   [ "$(cat "$D/policy" "$D/policy.sig" "$D/authority.pem" "$D/policy.sealed" | sha256sum)" = "$sums" ] &&
	   [ -z "$(find "$D" -name '*.tmp.*')" ]; then
		t_pass "a failed write changes nothing, leaves no temporary file"
	else
		t_fail "a failed write changes nothing, leaves no temporary file" "$(cat "$D/out"; ls "$D")"
	fi
	"$ENROLL" create -f "${P[@]}" -p "$D/p2" -s "$D/s2" --pcrs sha256:0,7,13 "$T_TMP/k1.pem" >"$D/out" 2>&1
	rc1=$?
	"$ENROLL" create -f "${P[@]}" -p "$D/p2" -s "$D/s2" --measure-pcr 16 "$T_TMP/k1.pem" >"$D/out" 2>&1
	rc2=$?
	[ "$rc1" = 2 ] && [ "$rc2" = 2 ] && [ ! -e "$D/p2" ] &&
		t_pass "measurement PCR sealed or resettable: refused at enrolment" ||
		t_fail "measurement PCR sealed or resettable: refused at enrolment" "$rc1 $rc2"
else
	t_fail "values" "enrol failed"
fi

# 13. The lock itself fails (a keyring without setattr permission: the
# kernel refuses KEYCTL_RESTRICT_KEYRING with EACCES, for root too): the
# one status that says the keyring is open.
if case_setup nolock k1.pem k2.pem; then
	keyctl setperm "$KR" 0x1f000000	# possessor: view read write search link
	run_loader
	if [ "$RC" = 8 ] && grep -q "CANNOT LOCK keyring" "$D/kmsg" &&
	   grep -q "keyring NOT LOCKED (exit 8: unlocked)" "$D/out" &&
	   grep -q "elfsig-unlocked keys=2 status=unlocked" "$D/events"; then
		t_pass "lock refused by the kernel: status 8, said on kmsg and measured"
	else
		t_fail "lock refused by the kernel: status 8" "exit $RC: $(tr '\n' '|' < "$D/out")"
	fi
else
	t_fail "nolock" "enrol failed"
fi

# 14. The event log cannot be written: keys loaded and locked, status 9.
if case_setup nolog k1.pem k2.pem; then
	timeout 30 "$KL" -d "$D" \
		-k "$KR" -l /dev/full --kmsg "$D/kmsg" >"$D/out" 2>&1
	RC=$?
	expect "event log unwritable: loaded, locked, status 9" 9 2
else
	t_fail "nolog" "enrol failed"
fi

# 15. The real /dev/kmsg (not a file): each line is one kernel log record.
# (glibc's dprintf() silently writes nothing to /dev/kmsg; a file does not
# show that.)
if [ -w /dev/kmsg ] && dmesg >/dev/null 2>&1 && case_setup kmsg k1.pem; then
	token=kmsgprobe-$$-$RANDOM
	timeout 30 "$KL" -d "$D" -c "$D/$token" \
		-k "$KR" -l "$D/events" --kmsg /dev/kmsg >"$D/out" 2>&1
	RC=$?
	if dmesg | grep -q "elfsig-keyloader: $D/$token: cannot open certificate directory" &&
	   dmesg | grep -q "elfsig-keyloader: 0 keys loaded into $KR, keyring locked (exit 3"; then
		t_pass "the lines reach the kernel log through /dev/kmsg"
	else
		t_fail "the lines reach the kernel log through /dev/kmsg" "$(dmesg | tail -n 3 | tr '\n' '|')"
	fi
else
	t_skip "the lines reach the kernel log through /dev/kmsg" "/dev/kmsg not writable or dmesg not readable here"
fi

# 17. An edited policy never picks the PCR the loader extends: the TPM
# refuses it, so the default (13) is used, not the edited line's.
pcr() { tpm2_pcrread "sha256:$1" | sed -n "s/.*$1: 0x//p"; }
for m in 14 1; do
	if case_setup "pcr-edit-$m" k1.pem; then
		sed -i "s/^measure-pcr 13$/measure-pcr $m/" "$D/policy"
		b13=$(pcr 13); bm=$(pcr "$m")
		run_loader
		want=6; [ "$m" = 1 ] && want=3	# PCR 1 does not even parse
		[ "$RC" = "$want" ] && [ "$(pcr "$m")" = "$bm" ] && [ "$(pcr 13)" != "$b13" ] &&
			t_pass "an edited policy's measure-pcr $m is not used (PCR $m unchanged, 13 extended)" ||
			t_fail "an edited policy's measure-pcr $m is not used (PCR $m unchanged, 13 extended)" \
				"rc=$RC $(tail -n 2 "$D/out" | tr '\n' '|')"
	else
		t_fail "pcr-edit-$m" "enrol failed"
	fi
done

# 18. Enrolment refuses PCRs that prove nothing or belong to others.
for args in "--pcrs sha256:0,16" "--pcrs sha256:7,23" "--pcrs sha256:0,17" \
	    "--measure-pcr 0" "--measure-pcr 7" "--measure-pcr 10" "--measure-pcr 16" "--measure-pcr 23"; do
	# shellcheck disable=SC2086
	"$ENROLL" create -f -p "$T_TMP/pp" -s "$T_TMP/ps" $args "$T_TMP/k1.pem" >"$T_TMP/pout" 2>&1
	rc=$?
	[ "$rc" = 2 ] && [ ! -e "$T_TMP/pp" ] && [ ! -e "$T_TMP/ps" ] && [ "$(wc -l < "$T_TMP/pout")" = 1 ] &&
		t_pass "enrolment refuses $args" || t_fail "enrolment refuses $args" "rc=$rc $(cat "$T_TMP/pout")"
done
mkdir -p "$T_TMP/ctl"
"$ENROLL" create -f -d "$T_TMP/ctl" -K "$T_TMP/auth.key" -p "$T_TMP/pp" -s "$T_TMP/ps" \
	--measure-pcr 14 "$T_TMP/k1.pem" >"$T_TMP/pout" 2>&1 &&
	t_pass "control: --measure-pcr 14 is enrolled" || t_fail "control: --measure-pcr 14 is enrolled" "$(cat "$T_TMP/pout")"

# 19. The first failure decides the status: no enrolled certificate present
# (partial, 0 keys) and then an event log that cannot be written is still
# "partial", never "loaded and locked, measurement incomplete" (9).
if case_setup first-fail k1.pem; then
	rm -f "$D/certs/"*; cp "$T_TMP/k2.pem" "$D/certs/"
	timeout 30 "$KL" -d "$D" \
		-k "$KR" -l "$D/no/such/dir/events" --kmsg "$D/kmsg" >"$D/out" 2>&1
	RC=$?
	expect "the first failure decides the status (partial, then a log error)" 1 0
else
	t_fail first-fail "enrol failed"
fi

# 20. elfsig-enroll never replaces a device node (or any non-regular file)
# with its policy or sealed object.
if [ "$(id -u)" = 0 ] && mknod "$T_TMP/node" c 1 3 2>/dev/null; then
	mkdir -p "$T_TMP/dev"
	for which in p s; do
		if [ $which = p ]; then args=(-p "$T_TMP/node" -s "$T_TMP/ns"); else args=(-p "$T_TMP/np" -s "$T_TMP/node"); fi
		"$ENROLL" create -f -d "$T_TMP/dev" -K "$T_TMP/auth.key" "${args[@]}" \
			"$T_TMP/k1.pem" >"$T_TMP/nout" 2>&1
		rc=$?
		[ "$rc" != 0 ] && [ -c "$T_TMP/node" ] && grep -q "exists and is not a regular file" "$T_TMP/nout" &&
			[ ! -e "$T_TMP/np" ] && [ ! -e "$T_TMP/ns" ] &&
			t_pass "enrolment refuses a device as -$which" ||
			t_fail "enrolment refuses a device as -$which" "rc=$rc $(cat "$T_TMP/nout")"
	done
else
	t_skip "enrolment refuses a device" "needs root to mknod"
fi

# 21. An event log path that is a FIFO (with or without a reader) never
# stalls the boot: the loader goes on, loads, locks, and says why.
if case_setup fifo-log k1.pem; then
	mkfifo "$D/fifo"
	timeout 30 "$KL" -d "$D" \
		-k "$KR" -l "$D/fifo" --kmsg "$D/kmsg" >"$D/out" 2>&1
	RC=$?
	expect "an event log that is a FIFO: no hang, keys loaded and locked (9)" 9 1
	grep -q "fifo: \(the event log is not a regular file\|cannot open event log\)" "$D/out" &&
		t_pass "an event log that is a FIFO: the reason is said" ||
		t_fail "an event log that is a FIFO: the reason is said" "$(cat "$D/out")"
else
	t_fail fifo-log "enrol failed"
fi

# 22. create --dir makes a missing directory (and pcr-policies in it)
# with the modes the loader reads; a --dir that is a file or a symlink is
# refused with one line, nothing written.
D=$T_TMP/newdir/etc-elfsig
out=$(cd "$T_TMP" && "$ENROLL" create -d "$D" -K "$T_TMP/auth.key" k1.pem 2>&1 >/dev/null); rc=$?
if [ "$rc" = 1 ] && [ "$out" = "elfsig-enroll: $D: cannot create: No such file or directory" ]; then
	t_pass "create --dir whose parent is missing: one line, status 1"
else
	t_fail "create --dir whose parent is missing" "exit $rc: $out"
fi
mkdir -p "$T_TMP/newdir"
if (cd "$T_TMP" && "$ENROLL" create -d "$D" -K "$T_TMP/auth.key" k1.pem) >"$T_TMP/newdir.out" 2>&1 &&
   [ "$(stat -c %a "$D")" = 755 ] && [ "$(stat -c %a "$D/pcr-policies")" = 755 ] &&
   [ -s "$D/policy" ] && [ -s "$D/policy.sealed" ]; then
	mkdir -p "$D/certs" && cp "$T_TMP/k1.pem" "$D/certs/"
	KR=$(keyctl newring kr-newdir @s)
	run_loader
	expect "create --dir into a missing directory: made 0755, the loader loads it" 0 1
else
	t_fail "create --dir into a missing directory" "$(tr '\n' '|' < "$T_TMP/newdir.out")"
fi
touch "$T_TMP/afile"
ln -s "$T_TMP/newdir" "$T_TMP/alink"
for bad in afile alink; do
	out=$(cd "$T_TMP" && "$ENROLL" create -d "$T_TMP/$bad" -K "$T_TMP/auth.key" k1.pem 2>&1); rc=$?
	case $bad in
	afile) want="elfsig-enroll: $T_TMP/afile: exists and is not a directory" ;;
	alink) want="elfsig-enroll: $T_TMP/alink: is a symbolic link, not a directory: refused" ;;
	esac
	if [ "$rc" = 1 ] && [ "$out" = "$want" ] && [ ! -e "$T_TMP/newdir/policy" ]; then
		t_pass "create --dir on a $bad: one line, status 1, nothing written"
	else
		t_fail "create --dir on a $bad" "exit $rc: $out"
	fi
done

# 23. remove moves the removed key's certificate out of certs/ (into
# certs.removed/), so the next boot loads the rest with status 0, not
# "partial"; a certificate given by its path in certs/ goes as well.
if case_setup remove-certs k1.pem k2.der k3.pem; then
	"$ENROLL" remove -d "$D" -K "$T_TMP/auth.key" "sha256:$(kl_fp k2)" "$D/certs/k3.pem" \
		>"$D/remove.out" 2>&1; rc=$?
	if [ "$rc" = 0 ] && [ -f "$D/certs.removed/k2.der" ] && [ -f "$D/certs.removed/k3.pem" ] &&
	   [ "$(cd "$D/certs" && echo *)" = k1.pem ] && grep -qxF "$D/certs/k2.der: moved to $D/certs.removed/" "$D/remove.out"; then
		t_pass "remove: the removed certificates moved to certs.removed/"
	else
		t_fail "remove: the removed certificates moved to certs.removed/" "exit $rc: $(tr '\n' '|' < "$D/remove.out"); certs: $(cd "$D/certs" && echo *)"
	fi
	run_loader
	expect "after remove: the boot loads the remaining key, status 0 (not partial)" 0 1
else
	t_fail remove-certs "enrol failed"
fi

# 16. What the lookup by name relies on: no process can make a keyring
# whose name starts with a dot, neither with add_key nor by joining a
# named session keyring.
e1=$(keyctl newring .elfsig @s 2>&1)
e2=$(keyctl session .elfsig true 2>&1)
case "$e1/$e2" in
*"Operation not permitted"*/*"Operation not permitted"*)
	t_pass "a user cannot create a keyring named .elfsig" ;;
*)	t_fail "a user cannot create a keyring named .elfsig" "$e1 / $e2" ;;
esac
exit 0
