#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# attest/: the kernel's measurement log parsed and checked without a TPM
# (elfsig-attest log): the contract's records, and every malformed or
# inconsistent log refused with one line and its exit code.
set -u
. "$(dirname "$0")/lib-attest.sh"
attest_need sha256sum
t_mktemp
D=$T_TMP
FP_rel=$(attest_cert rel "/O=Example/CN=Example release key 2026")
FP_rel2=$(attest_cert rel2 "/O=Example/CN=Second release key")
FP_rogue=$(attest_cert rogue "/CN=rogue")
L=$D/clean.log
"$KERNLOG" write --log "$L" init key="$D/rel.pem" key="$D/rel2.pem" mode=enforce lock

# the clean log: keys with the enrolment fingerprints, mode, lock
out=$("$ATTEST" log --log "$L" 2>&1); rc=$?
[ $rc = 0 ] && grep -qxF "key: $FP_rel CN=Example release key 2026,O=Example (record 1)" <<<"$out" &&
	grep -qxF "key: $FP_rel2 CN=Second release key,O=Example (record 2)" <<<"$out" &&
	grep -qxF "mode: enforce (record 3)" <<<"$out" &&
	grep -qxF "lock: locked at record 4, keys=2" <<<"$out" &&
	grep -qxF "verdict: unverified" <<<"$out" &&
	t_pass clean-log-lists-keys-mode-lock || t_fail clean-log-lists-keys-mode-lock "rc=$rc $out"

# the replayed value is the one the TPM would hold (computed apart here)
want=$(python3 - "$L" <<'PY'
import hashlib, struct, sys
img = open(sys.argv[1], "rb").read(); off = 0; pcr = bytes(32)
while off < len(img):
    tnl, = struct.unpack_from("<I", img, off + 24); off += 28 + tnl
    tdl, = struct.unpack_from("<I", img, off); td = img[off + 4:off + 4 + tdl]; off += 4 + tdl
    pcr = hashlib.sha256(pcr + hashlib.sha256(td).digest()).digest()
print(pcr.hex())
PY
)
grep -q "replay to PCR 13 sha256 $want " <<<"$out" && t_pass replay-value-independent ||
	t_fail replay-value-independent "want $want: $out"

"$ATTEST" log --log "$L" --json >"$D/j" && python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
assert j["verdict"] == "unverified" and not j["verified"] and j["locked"]
assert [k["fingerprint"] for k in j["keys"]] == sys.argv[2:4], j
assert j["mode"] == "enforce" and j["lock_keys"] == 2
' "$D/j" "$FP_rel" "$FP_rel2" && t_pass json-output || t_fail json-output "$(cat "$D/j")"

# another PCR, named consistently
"$KERNLOG" write --log "$D/p14.log" --pcr 14 init key="$D/rel.pem" mode=enforce lock
"$ATTEST" log --log "$D/p14.log" --pcr 14 >/dev/null 2>&1 && t_pass log-of-pcr-14 || t_fail log-of-pcr-14
expect log-of-pcr-14-read-as-13 7 "*record 0 (elfsig-init) is for PCR 14, not PCR 13*" \
	"$ATTEST" log --log "$D/p14.log"

# structure: lengths, counts, fields
head -c -10 "$L" >"$D/cut.log"
expect truncated-log 5 "*cut.log: record 4: template data length * runs past the end of the log*" \
	"$ATTEST" log --log "$D/cut.log"
head -c 30 "$L" >"$D/cut2.log"
expect truncated-in-header 5 "*record 0: template name length 7 runs past the end of the log (2 bytes left)" "$ATTEST" log --log "$D/cut2.log"
"$KERNLOG" mutate "$L" "$D/lie.log" lie:2
expect length-lie 5 "*lie.log: record 2: template data length 4294967280 runs past the end of the log*" \
	"$ATTEST" log --log "$D/lie.log"
"$KERNLOG" many --log "$D/many.log" --count 8193
expect huge-count 5 "*many.log: more than 8192 records" "$ATTEST" log --log "$D/many.log"
"$KERNLOG" many --log "$D/max.log" --count 8192
"$ATTEST" log --log "$D/max.log" >/dev/null 2>&1; rc=$?
[ $rc = 9 ] || [ $rc = 0 ] && t_pass most-records-parse || t_fail most-records-parse "rc=$rc"
: >"$D/empty.log"
expect empty-log 5 "*empty.log: empty log*" "$ATTEST" log --log "$D/empty.log"
head -c $((8 * 1024 * 1024 + 1)) /dev/zero >"$D/big.log"
expect oversized-log 5 "*big.log: larger than 8388608 bytes" "$ATTEST" log --log "$D/big.log"
expect missing-log 1 "*nope.log: No such file or directory" "$ATTEST" log --log "$D/nope.log"

# contents
"$KERNLOG" mutate "$L" "$D/swap.log" swap:0:1
expect init-not-first 5 "*record 0 is .elfsig, not elfsig-init" "$ATTEST" log --log "$D/swap.log"
"$KERNLOG" mutate "$L" "$D/keep.log" set-buf-keep:1:"$D/rogue.pem"
expect changed-cert-old-digests 7 "*record 1 (.elfsig): the d-ng digest is not the SHA-256 of its data" \
	"$ATTEST" log --log "$D/keep.log"
"$KERNLOG" mutate "$L" "$D/sha1.log" zero-sha1:3
expect wrong-template-digest 7 "*record 3 (elfsig-mode): the template digest is not the SHA-1 of its template data" \
	"$ATTEST" log --log "$D/sha1.log"
"$KERNLOG" mutate "$L" "$D/other.log" set-pcr:2:10
expect record-of-another-pcr 7 "*record 2 (.elfsig) is for PCR 10, not PCR 13*" "$ATTEST" log --log "$D/other.log"
"$KERNLOG" write --log "$D/x.log" init key="$D/rel.pem" event=.elfsig:not-a-certificate lock
expect key-not-der 5 "*x.log: record 2: *" "$ATTEST" log --log "$D/x.log"
"$KERNLOG" write --log "$D/x.log" init event=elfsig-surprise:hello lock
expect unknown-event 5 "*record 1: unknown event \"elfsig-surprise\"" "$ATTEST" log --log "$D/x.log"
"$KERNLOG" write --log "$D/x.log" init mode=enforce mode=permissive lock
expect mode-loosens 7 "*record 2: the mode goes from enforce to permissive, but modes only tighten" \
	"$ATTEST" log --log "$D/x.log"
"$KERNLOG" write --log "$D/x.log" init mode=strict lock
expect mode-unknown 5 "*record 1: elfsig-mode data is not mode=off|permissive|enforce|require" \
	"$ATTEST" log --log "$D/x.log"
"$KERNLOG" write --log "$D/x.log" init key="$D/rel.pem" lock=2
expect lock-count-lies 7 "*record 2: the lock counts 2 keys, but the log admitted 1" "$ATTEST" log --log "$D/x.log"
"$KERNLOG" write --log "$D/x.log" init lock=0 lock=0
expect second-lock 7 "*record 2: a second elfsig-lock (the first is record 1)" "$ATTEST" log --log "$D/x.log"
"$KERNLOG" write --log "$D/x.log" init lock=01
expect lock-count-malformed 5 "*record 1: elfsig-lock data is not keys=N" "$ATTEST" log --log "$D/x.log"
"$KERNLOG" write --log "$D/x.log" init init lock
expect second-init 7 "*record 1: a second elfsig-init*" "$ATTEST" log --log "$D/x.log"
"$KERNLOG" write --log "$D/x.log" event=elfsig-init:"elfsig log v2 pcr=13" lock
expect init-text 5 "*record 0: elfsig-init data is not \"elfsig log v1 pcr=13\"" "$ATTEST" log --log "$D/x.log"

# a log without the lock, and a key after it: reported, judged by verify
"$KERNLOG" write --log "$D/x.log" init key="$D/rel.pem" lock key="$D/rogue.pem"
out=$("$ATTEST" log --log "$D/x.log" 2>&1); rc=$?
[ $rc = 0 ] && grep -q "^key: $FP_rogue CN=rogue (record 3) AFTER THE LOCK$" <<<"$out" &&
	t_pass key-after-lock-shown || t_fail key-after-lock-shown "rc=$rc $out"

# usage
expect usage-pcr 2 "elfsig-attest: --pcr 24: 0..23" "$ATTEST" log --log "$L" --pcr 24
"$ATTEST" log >/dev/null 2>&1; [ $? = 2 ] && t_pass usage-no-log || t_fail usage-no-log
exit 0
