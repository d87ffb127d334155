#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The enrolment pins the TPM's storage root key: the sealed object records
# the SRK's name, and elfsig-keyloader refuses any other SRK (another TPM,
# a substituted persistent key) with status 11, the keyring locked. An
# object written before the pin (format version 1) is refused with status
# 3 until `elfsig-enroll reseal` rewrites it.
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
kl_need_keyring k1
SRK_ATTRS='restricted|decrypt|fixedtpm|fixedparent|sensitivedataorigin|userwithauth|noda'

# enrol NAME [ENROLL OPTIONS]: k1, k2 enrolled into $D (policy, sealed, certs).
enrol() {
	D=$T_TMP/$1; shift
	mkdir -p "$D/certs"
	cp "$T_TMP/k1.pem" "$T_TMP/k2.der" "$D/certs/"
	"$ENROLL" create -p "$D/policy" -s "$D/policy.sealed" "$@" \
		"$T_TMP/k1.pem" "$T_TMP/k2.der" >"$D/enroll.out" 2>&1
}

# load NAME [LOADER OPTIONS]: the loader on $D into a fresh keyring;
# sets RC and KR, output in $D/out.
load() {
	local name=$1; shift
	KR=$(keyctl newring "kr-$name" @s)
	timeout 30 "$KL" -p "$D/policy" -s "$D/policy.sealed" -c "$D/certs" \
		-k "$KR" -l "$D/events" --kmsg none "$@" >"$D/out" 2>&1
	RC=$?
}

# expect NAME RC NKEYS [LINE]: exit status, keys in the keyring, keyring
# locked (a further add gets EPERM), and LINE among the loader's output.
expect() {
	local name=$1 rc=$2 n=$3 line=${4:-} got err
	got=$(kl_keys "$KR")
	err=$(keyctl padd asymmetric "" "$KR" < "$T_TMP/k3.der" 2>&1 >/dev/null)
	if [ "$RC" != "$rc" ]; then
		t_fail "$name" "exit $RC, expected $rc: $(tr '\n' '|' < "$D/out")"
	elif [ "$got" != "$n" ]; then
		t_fail "$name" "$got keys in the keyring, expected $n"
	elif [[ $err != *"Operation not permitted"* ]]; then
		t_fail "$name" "keyring not locked: $err"
	elif [ -n "$line" ] && ! grep -qxF "$line" "$D/out"; then
		t_fail "$name" "no line '$line' in: $(tr '\n' '|' < "$D/out")"
	else
		t_pass "$name"
	fi
}

# 1. Enrolment records the SRK's name in the sealed object (format 2).
if enrol pin; then
	srk=$("$BUILD/elfsig-tpm" srkname)
	python3 - "$D/policy.sealed" "$srk" <<'PY' &&
import sys
b, name = open(sys.argv[1], "rb").read(), bytes.fromhex(sys.argv[2])
off = 12 + 10 + 4 * 32                  # header, selection, sha256:0,2,4,7
assert b[8:10] == b"\0\2", b[8:10]
assert b[off:off + 2 + len(name)] == len(name).to_bytes(2, "big") + name
PY
		t_pass "enrolment records the SRK's name in the sealed object" ||
		t_fail "enrolment records the SRK's name in the sealed object" "$srk"

	# (a) The enrolled TPM: loads.
	load same
	expect "the enrolled TPM: both keys load" 0 2

	# (b) Another TPM (its own owner seed, so another SRK): refused by
	# the pin before anything is unsealed, status 11, locked, measured.
	if KL_SWTPM_NAME=other kl_swtpm_start; then
		TPM_B=$TPM2TOOLS_TCTI
		export TPM2TOOLS_TCTI=$TPM_A
		: > "$D/events"
		load other -T "$TPM_B"
		expect "another TPM: status 11, no key, locked" 11 0 \
			"elfsig-keyloader: TPM's storage root key is not the enrolled one (another TPM, a cleared TPM, a substituted key or forged TPM responses): no key loaded"
		grep -qxF "elfsig-keyloader: storage root key is not the pinned one (its name differs): another TPM, a cleared owner seed, or a substituted key" "$D/out" &&
		grep -qF "keyring locked (exit 11: srk-mismatch)" "$D/out" &&
		grep -q "^13 sha256:[0-9a-f]* elfsig-locked keys=0 status=srk-mismatch\$" "$D/events" &&
		[ -z "$(TPM2TOOLS_TCTI=$TPM_B tpm2_getcap handles-transient)" ] &&
			t_pass "another TPM: the reason, the status word, the measured outcome, nothing left loaded" ||
			t_fail "another TPM: the reason, the status word, the measured outcome, nothing left loaded" \
				"$(tr '\n' '|' < "$D/out") $(cat "$D/events")"
		out=$("$ENROLL" check -p "$D/policy" -s "$D/policy.sealed" -T "$TPM_B" 2>&1) &&
			t_fail "enroll check on another TPM fails" "$out" ||
			{ [[ $out == *"storage root key is not the pinned one"* ]] &&
			  t_pass "enroll check on another TPM fails" ||
			  t_fail "enroll check on another TPM fails" "$out"; }
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
	load persistent --srk-handle 0x81000001
	expect "persistent SRK: loads" 0 2
	tpm2_evictcontrol -Q -C o -c 0x81000001
	tpm2_createprimary -Q -C e -g sha256 -G ecc256:aes128cfb -a "$SRK_ATTRS" -c "$T_TMP/fake.ctx" &&
		tpm2_evictcontrol -Q -C o -c "$T_TMP/fake.ctx" 0x81000001 && tpm2_flushcontext -t
	load substituted --srk-handle 0x81000001
	expect "persistent SRK substituted (same template, other key): status 11, no key, locked" 11 0 \
		"elfsig-keyloader: storage root key is not the pinned one (its name differs): another TPM, a cleared owner seed, or a substituted key"
	[ -z "$(tpm2_getcap handles-transient)" ] &&
		t_pass "substituted SRK: nothing left loaded" ||
		t_fail "substituted SRK: nothing left loaded" "$(tpm2_getcap handles-transient)"
else
	t_fail "persistent SRK" "enrol failed: $(cat "$D/enroll.out")"
fi

# 3. A sealed object written before the pin: format version 1, the same
# layout without the SRK's name (what elfsig-enroll wrote until now).
if enrol v1; then
	python3 - "$D/policy.sealed" <<'PY' || t_fail "version 1 object" "the enrolment did not write version 2"
import sys
p = sys.argv[1]; b = open(p, "rb").read()
off = 12 + 10 + 4 * 32
assert b[8:10] == b"\0\2" and b[off:off + 2] == b"\0\x22"
open(p, "wb").write(b[:8] + b"\0\1" + b[10:off] + b[off + 36:])
PY
	load v1
	expect "version 1 sealed object: refused, status 3, no key, locked" 3 0 \
		"elfsig-keyloader: $D/policy.sealed: sealed object does not pin the TPM's storage root key (written before enrolment recorded it): refused, run elfsig-enroll reseal"
	out=$("$ENROLL" check -p "$D/policy" -s "$D/policy.sealed" 2>&1) &&
		t_fail "enroll check refuses a version 1 object" "$out" ||
		{ [[ $out == *"does not pin the TPM's storage root key"* ]] &&
		  t_pass "enroll check refuses a version 1 object" ||
		  t_fail "enroll check refuses a version 1 object" "$out"; }
	"$ENROLL" reseal -p "$D/policy" -s "$D/policy.sealed" >"$D/out" 2>&1 &&
		[ "$(od -An -tx1 -j8 -N2 "$D/policy.sealed" | tr -d ' ')" = 0002 ] &&
		t_pass "elfsig-enroll reseal rewrites it as version 2" ||
		t_fail "elfsig-enroll reseal rewrites it as version 2" "$(cat "$D/out")"
	load v1-resealed
	expect "after reseal: both keys load" 0 2
else
	t_fail "version 1" "enrol failed: $(cat "$D/enroll.out")"
fi
exit 0
