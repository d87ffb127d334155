#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tpm/: seal and unseal under PolicyPCR against a real swtpm.
set -u
. "$(dirname "$0")/lib-tpm.sh"
tpm_need swtpm tpm2_getrandom tpm2_pcrread tpm2_pcrextend tpm2_getcap python3
t_mktemp
tpm_start || { t_fail tpm-start "cannot start swtpm"; exit 0; }
T=$TPM_TOOL
D=$T_TMP

no_transients() {
	[ -z "$(tpm2_getcap handles-transient)" ] &&
		[ -z "$(tpm2_getcap handles-loaded-session)" ]
}

# roundtrip
head -c 48 /dev/urandom >"$D/secret"
if $T seal --pcrs sha256:0,2,4,7 --in "$D/secret" --out "$D/sealed" 2>"$D/err" &&
	$T unseal --in "$D/sealed" --out "$D/out" 2>>"$D/err" && cmp -s "$D/secret" "$D/out"; then
	t_pass seal-unseal-roundtrip
else
	t_fail seal-unseal-roundtrip "$(cat "$D/err")"
fi

# stdout output, and the secret is not in the sealed file
out=$($T unseal --in "$D/sealed" | od -An -tx1 | tr -d ' \n')
want=$(od -An -tx1 "$D/secret" | tr -d ' \n')
[ "$out" = "$want" ] && t_pass unseal-to-stdout || t_fail unseal-to-stdout "got $out"
if grep -qF "$(head -c 16 "$D/secret" | od -An -tx1 | tr -d ' \n')" <(od -An -tx1 -v "$D/sealed" | tr -d ' \n'); then
	t_fail secret-not-in-file "secret bytes appear in the sealed file"
else
	t_pass secret-not-in-file
fi
t_check no-transient-left no_transients

# other banks, and a selection larger than one PCR_Read answer (24 PCRs)
ok=1
for sel in sha1:0-23 sha384:0,11,23 sha512:4; do
	$T seal --pcrs "$sel" --in "$D/secret" --out "$D/bank.sealed" &&
		$T unseal --in "$D/bank.sealed" --out "$D/bank.out" && cmp -s "$D/secret" "$D/bank.out" ||
		{ ok=0; break; }
done
[ $ok = 1 ] && t_pass banks-sha1-sha384-sha512-and-24-pcrs || t_fail banks-sha1-sha384-sha512-and-24-pcrs "$sel"

# size limits: 128 bytes is fine, 129 and 0 are refused
head -c 128 /dev/urandom >"$D/s128"
if $T seal --pcrs sha256:7 --in "$D/s128" --out "$D/sealed128" &&
	$T unseal --in "$D/sealed128" --out "$D/o128" && cmp -s "$D/s128" "$D/o128"; then
	t_pass seal-128-bytes
else
	t_fail seal-128-bytes
fi
head -c 129 /dev/urandom >"$D/s129"
msg=$($T seal --pcrs sha256:7 --in "$D/s129" --out "$D/x" 2>&1); rc=$?
[ $rc = 1 ] && [[ $msg == *"larger than 128 bytes"* ]] && [ ! -e "$D/x" ] &&
	t_pass seal-129-bytes-refused || t_fail seal-129-bytes-refused "rc=$rc $msg"
: >"$D/s0"
msg=$($T seal --pcrs sha256:7 --in "$D/s0" --out "$D/x" 2>&1); rc=$?
[ $rc != 0 ] && [[ $msg == *"empty secret"* ]] && t_pass seal-empty-refused ||
	t_fail seal-empty-refused "rc=$rc $msg"

# pcrread agrees with tpm2_pcrread, across more than 8 PCRs (several reads)
tpm2_pcrextend "3:sha256=$(printf x | sha256sum | cut -c1-64)" >/dev/null
tpm2_pcrextend "12:sha256=$(printf y | sha256sum | cut -c1-64)" >/dev/null
mine=$($T pcrread sha256:0-23 | sed 's/^sha256://' | tr 'a-f' 'A-F' | sed 's/=/ /')
theirs=$(tpm2_pcrread sha256:0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23 |
	awk '/^ +[0-9]+ *:/ { gsub(":", ""); gsub("0x", ""); print $1, $2 }')
[ "$(echo "$mine" | wc -l)" = 24 ] && [ "$mine" = "$theirs" ] &&
	t_pass pcrread-matches-tpm2-tools || t_fail pcrread-matches-tpm2-tools "$mine // $theirs"

# an unrelated PCR changes: still unseals
$T pcrextend --pcr 5 --data unrelated
$T unseal --in "$D/sealed" --out "$D/out2" && cmp -s "$D/secret" "$D/out2" &&
	t_pass unrelated-pcr-extend-still-unseals || t_fail unrelated-pcr-extend-still-unseals

# a sealed PCR changes: refused, clear message, exit 4, nothing left loaded
$T pcrextend --pcr 7 --data "next boot stage"
msg=$($T unseal --in "$D/sealed" --out "$D/out3" 2>&1); rc=$?
if [ $rc = 4 ] && [ "$msg" = "elfsig-tpm: PCR policy not satisfied: PCR 7 changed since enrolment (bank sha256)" ] &&
	[ ! -s "$D/out3" ]; then
	t_pass extended-pcr-unseal-fails
else
	t_fail extended-pcr-unseal-fails "rc=$rc msg=$msg"
fi
t_check no-transient-after-policy-failure no_transients

# several PCRs changed are all named
$T pcrextend --pcr 2 --data x
msg=$($T unseal --in "$D/sealed" 2>&1 >/dev/null)
[[ $msg == *"PCRs 2,7 changed since enrolment"* ]] && t_pass policy-failure-names-pcrs ||
	t_fail policy-failure-names-pcrs "$msg"

# seal to the next state: --expect with the value PCR 9 will have
cur=$($T pcrread sha256:9 | cut -d= -f2)
ev=$(printf 'kernel-v2' | sha256sum | cut -c1-64)
next=$(python3 -c 'import hashlib, sys; print(hashlib.sha256(bytes.fromhex(sys.argv[1] + sys.argv[2])).hexdigest())' "$cur" "$ev")
echo -n "future" >"$D/fs"
$T seal --pcrs sha256:0,9 --expect "9=$next" --in "$D/fs" --out "$D/future"
msg=$($T unseal --in "$D/future" 2>&1 >/dev/null); rc=$?
[ $rc = 4 ] && [[ $msg == *"PCR 9 changed since enrolment"* ]] &&
	t_pass expect-not-yet-reached || t_fail expect-not-yet-reached "rc=$rc $msg"
$T pcrextend --pcr 9 --data 'kernel-v2'
[ "$($T unseal --in "$D/future")" = future ] && t_pass expect-reached-unseals ||
	t_fail expect-reached-unseals
[ "$($T pcrread sha256:9 | cut -d= -f2)" = "$next" ] && t_pass pcrextend-data-is-hash-extend ||
	t_fail pcrextend-data-is-hash-extend

# bad --expect is a usage error
$T seal --pcrs sha256:0,9 --expect "8=$next" --in "$D/fs" --out "$D/x" 2>/dev/null
[ $? = 2 ] && t_pass expect-outside-selection-refused || t_fail expect-outside-selection-refused
$T seal --pcrs sha256:9 --expect "9=abcd" --in "$D/fs" --out "$D/x" 2>/dev/null
[ $? = 2 ] && t_pass expect-short-digest-refused || t_fail expect-short-digest-refused

# swtpm has 3 object slots and no resource manager: 20 rounds would
# exhaust them if anything leaked.
ok=1
for i in $(seq 1 20); do
	[ "$($T unseal --in "$D/future" 2>/dev/null)" = future ] || { ok=0; break; }
	$T unseal --in "$D/sealed" 2>/dev/null && { ok=0; break; }
done
[ $ok = 1 ] && no_transients && t_pass no-slot-leak-20-rounds || t_fail no-slot-leak-20-rounds "round $i"

# a persistent SRK: same template, so objects sealed either way open either way
tpm2_createprimary -Q -C o -g sha256 -G ecc256:aes128cfb \
	-a 'restricted|decrypt|fixedtpm|fixedparent|sensitivedataorigin|userwithauth|noda' \
	-c "$D/srk.ctx" && tpm2_evictcontrol -Q -C o -c "$D/srk.ctx" 0x81000002 >/dev/null &&
	tpm2_flushcontext -t
echo -n "persistent" >"$D/ps"
if $T seal --srk-handle 0x81000002 --pcrs sha256:0 --in "$D/ps" --out "$D/psealed" &&
	[ "$($T unseal --srk-handle 0x81000002 --in "$D/psealed")" = persistent ] &&
	[ "$($T unseal --in "$D/psealed")" = persistent ] &&
	[ "$($T unseal --srk-handle 0x81000002 --in "$D/future")" = future ]; then
	t_pass persistent-srk-same-as-primary
else
	t_fail persistent-srk-same-as-primary
fi
msg=$($T unseal --srk-handle 0x81000003 --in "$D/psealed" 2>&1); rc=$?
[ $rc = 1 ] && [ "$msg" = "elfsig-tpm: no object at persistent handle 0x81000003" ] &&
	t_pass missing-srk-handle || t_fail missing-srk-handle "rc=$rc $msg"
# Anything but a standard SRK at the handle is refused (it would be the
# salt key of the unseal session).
tpm2_createprimary -Q -C o -G rsa2048 -c "$D/rsasrk.ctx" && tpm2_evictcontrol -Q -C o -c "$D/rsasrk.ctx" 0x81000004 &&
	tpm2_flushcontext -t
$T keygen --handle 0x81000005 >/dev/null
for h in 0x81000004 0x81000005; do
	msg=$($T unseal --srk-handle $h --in "$D/psealed" 2>&1); rc=$?
	[ $rc = 1 ] && [ "$msg" = "elfsig-tpm: persistent handle $h does not hold a standard ECC P-256 storage root key" ] &&
		t_pass "non-srk-at-handle-refused-$h" || t_fail "non-srk-at-handle-refused-$h" "rc=$rc $msg"
done
# The SRK's name: the same as tpm2-tools computes for the same primary;
# pinned, it admits the genuine SRK (primary or persistent) and refuses
# any other; a wrong pin is refused before anything is unsealed.
name=$($T srkname)
tpm2_createprimary -Q -C o -g sha256 -G ecc256:aes128cfb \
	-a 'restricted|decrypt|fixedtpm|fixedparent|sensitivedataorigin|userwithauth|noda' -c "$D/srk3.ctx"
theirs=$(tpm2_readpublic -c "$D/srk3.ctx" | awk '/^name:/ { print $2; exit }')
tpm2_flushcontext -t
[ -n "$name" ] && [ "$name" = "$theirs" ] && [ "$($T srkname --srk-handle 0x81000002)" = "$name" ] &&
	t_pass srkname-matches-tpm2-tools || t_fail srkname-matches-tpm2-tools "$name vs $theirs"
[ "$($T unseal --srk-name "$name" --in "$D/psealed")" = persistent ] &&
	[ "$($T unseal --srk-name "$name" --srk-handle 0x81000002 --in "$D/psealed")" = persistent ] &&
	t_pass pinned-srk-name-unseals || t_fail pinned-srk-name-unseals
wrong=${name%??}00; [ "$wrong" = "$name" ] && wrong=${name%??}11
msg=$($T unseal --srk-name "$wrong" --in "$D/psealed" 2>&1); rc=$?
[ $rc = 1 ] && [[ $msg == "elfsig-tpm: storage root key is not the pinned one"* ]] &&
	t_pass wrong-srk-name-refused || t_fail wrong-srk-name-refused "rc=$rc $msg"
# One event into every allocated bank with one TPM2_PCR_Extend
# (--all-banks) ends where four per-bank extends end: PCR 16 and 23 start
# equal (both unused here), take the same event by the two paths, and
# tpm2_pcrread finds them equal and equal to H(before || H(event)).
out=$($T pcrextend --pcr 16 --all-banks --data 'elfsig-key sha256:00')
for b in sha1 sha256 sha384 sha512; do $T pcrextend --pcr 23 --bank $b --data 'elfsig-key sha256:00'; done
python3 - "$out" <<'PY' && t_pass all-banks-extend-equals-per-bank || t_fail all-banks-extend-equals-per-bank "$out"
import hashlib, re, subprocess, sys
ev = b"elfsig-key sha256:00"
printed = dict(l.split(":") for l in sys.argv[1].split())
assert sorted(printed) == ["sha1", "sha256", "sha384", "sha512"], printed
for bank in printed:
    out = subprocess.run(["tpm2_pcrread", bank + ":16,23"], capture_output=True, text=True, check=True).stdout
    v = {int(i): x.lower() for i, x in re.findall(r"(\d+)\s*:\s*0x([0-9A-Fa-f]+)", out)}
    d = hashlib.new(bank, ev).digest()
    want = hashlib.new(bank, bytes(len(d)) + d).hexdigest()
    assert printed[bank] == d.hex(), bank
    assert v[16] == v[23] == want, (bank, v, want)
PY
msg=$($T pcrextend --pcr 16 --all-banks --digest 00 2>&1); rc=$?
[ $rc = 2 ] && [[ $msg == *"--all-banks goes with --data, without --bank"* ]] &&
	t_pass all-banks-usage || t_fail all-banks-usage "rc=$rc $msg"

# The sealed object records the SRK it was sealed under; another TPM's
# SRK is refused by name before the object is loaded or a session salted.
$T seal --pcrs sha256:0 --in <(printf pinned) --out "$D/pinned" >/dev/null
python3 - "$D/pinned" "$name" <<'PY' && t_pass sealed-file-records-srk-name || t_fail sealed-file-records-srk-name
import sys
b, name = open(sys.argv[1], "rb").read(), bytes.fromhex(sys.argv[2])
off = 12 + 10 + 32                      # header, selection, one sha256 value
assert b[8:10] == b"\0\2" and b[off:off + 2 + len(name)] == len(name).to_bytes(2, "big") + name
PY
if tpm_other other; then
	msg=$($T unseal --tcti "$OTHER_TCTI" --in "$D/pinned" 2>&1); rc=$?
	[ $rc = 1 ] && [ "$msg" = "elfsig-tpm: storage root key is not the pinned one (its name differs): another TPM, a cleared owner seed, or a substituted key" ] &&
		[ -z "$(TPM2TOOLS_TCTI=$OTHER_TCTI tpm2_getcap handles-transient)" ] &&
		t_pass other-tpm-refused-by-srk-name || t_fail other-tpm-refused-by-srk-name "rc=$rc $msg"
else
	t_fail other-tpm-refused-by-srk-name "second swtpm did not start"
fi
# Outputs are replaced atomically and never anything but a regular file;
# an input that is a directory is refused without blocking.
$T seal --pcrs sha256:0 --in "$D/secret" --out "$D/sealed0" || t_fail seal-sealed0
if [ "$(id -u)" = 0 ] && mknod "$D/node" c 1 3 2>/dev/null; then
	msg=$($T seal --pcrs sha256:0 --in "$D/secret" --out "$D/node" 2>&1); rc=$?
	[ "$rc" != 0 ] && [ -c "$D/node" ] && [ "$(printf '%s\n' "$msg" | wc -l)" = 1 ] &&
		[[ $msg == *"node: exists and is not a regular file"* ]] &&
		t_pass seal-out-device-refused || t_fail seal-out-device-refused "rc=$rc $msg"
	msg=$($T unseal --in "$D/sealed0" --out "$D/node" 2>&1); rc=$?
	[ "$rc" != 0 ] && [ -c "$D/node" ] && [[ $msg == *"node: exists and is not a regular file"* ]] && t_pass unseal-out-device-refused ||
		t_fail unseal-out-device-refused "rc=$rc $msg"
else
	t_skip seal-out-device-refused "needs root to mknod"
fi
mkdir -p "$D/adir"
msg=$(timeout 10 "$T" seal --pcrs sha256:0 --in "$D/adir" --out "$D/x2" 2>&1); rc=$?
[ "$rc" != 0 ] && [ "$rc" != 124 ] && [ ! -e "$D/x2" ] && [[ $msg == *"not a regular file or a pipe"* ]] &&
	t_pass seal-in-directory-refused || t_fail seal-in-directory-refused "rc=$rc $msg"
printf 'old' > "$D/keep"
$T unseal --in "$D/sealed0" --out "$D/keep" && cmp -s "$D/keep" "$D/secret" &&
	[ -z "$(find "$D" -maxdepth 1 -name 'keep.tmp.*')" ] &&
	t_pass unseal-out-replaced-atomically || t_fail unseal-out-replaced-atomically
t_check no-transient-at-end no_transients
exit 0
