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
expect missing-log 1 "*nope.log: cannot open: No such file or directory" "$ATTEST" log --log "$D/nope.log"

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
expect lock-count-lies 7 "*record 2: the lock counts 2 key admissions, but the log has 1 .elfsig records before it" "$ATTEST" log --log "$D/x.log"
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

# keys=N counts admissions. The kernel's asymmetric keys have no update:
# an add whose description is in the ring replaces that key. The same
# certificate added again is one key, listed once; another certificate
# with the same description (subject and key identifier: a re-issue for
# the same key) replaces the earlier one, which is flagged.
"$KERNLOG" write --log "$D/x.log" init key="$D/rel.pem" key="$D/rel2.pem" key="$D/rel.pem" mode=enforce lock
out=$("$ATTEST" log --log "$D/x.log" 2>&1); rc=$?
[ $rc = 0 ] && [ "$(grep -c '^key: ' <<<"$out")" = 2 ] &&
	grep -qxF "key: $FP_rel CN=Example release key 2026,O=Example (record 1, added again: 2 admissions, the last at record 3, one key)" <<<"$out" &&
	grep -qxF "key: $FP_rel2 CN=Second release key,O=Example (record 2)" <<<"$out" &&
	grep -qxF "lock: locked at record 5, keys=3 (key admissions: 2 certificates, 0 of them replaced)" <<<"$out" &&
	t_pass readded-key-listed-once || t_fail readded-key-listed-once "rc=$rc $out"
for n in 1 2; do
	openssl req -x509 -key "$D/rel.key" -out "$D/reissue$n.pem" -days $((30 + n)) \
		-subj "/O=Example/CN=Example release key 2026" 2>/dev/null
done
FP_re1=sha256:$(openssl x509 -in "$D/reissue1.pem" -outform DER | sha256sum | cut -c1-64)
FP_re2=sha256:$(openssl x509 -in "$D/reissue2.pem" -outform DER | sha256sum | cut -c1-64)
"$KERNLOG" write --log "$D/x.log" init key="$D/reissue1.pem" key="$D/rel2.pem" key="$D/reissue2.pem" mode=enforce lock
out=$("$ATTEST" log --log "$D/x.log" 2>&1); rc=$?
[ $rc = 0 ] && [ "$FP_re1" != "$FP_re2" ] &&
	grep -qxF "key: $FP_re1 CN=Example release key 2026,O=Example (record 1) REPLACED by record 3" <<<"$out" &&
	grep -qxF "key: $FP_re2 CN=Example release key 2026,O=Example (record 3)" <<<"$out" &&
	grep -qxF "key: $FP_rel2 CN=Second release key,O=Example (record 2)" <<<"$out" &&
	grep -qxF "lock: locked at record 5, keys=3 (key admissions: 3 certificates, 1 of them replaced)" <<<"$out" &&
	t_pass reissued-key-replaces || t_fail reissued-key-replaces "rc=$rc $out"
# A, B (replaces A), A again (replaces B): A stays, B is flagged.
"$KERNLOG" write --log "$D/x.log" init key="$D/reissue1.pem" key="$D/reissue2.pem" key="$D/reissue1.pem" lock
out=$("$ATTEST" log --log "$D/x.log" --json 2>&1); rc=$?
[ $rc = 0 ] && python3 -c '
import json, subprocess, sys
j = json.loads(sys.argv[1])
k = {x["fingerprint"]: x for x in j["keys"]}
a, b = k[sys.argv[2]], k[sys.argv[3]]
assert len(k) == 2 and j["lock_keys"] == 3 and j["admissions"] == 3 and j["replaced"] == 1, j
assert (a["record"], a["admissions"], a["last_record"], a["replaced_by"]) == (1, 2, 3, None), a
assert (b["record"], b["admissions"], b["replaced_by"]) == (2, 1, 3), b
# the description as the kernel names the key: CN (it starts with O), then the SKID
skid = subprocess.run(["openssl", "x509", "-in", sys.argv[4], "-noout", "-ext", "subjectKeyIdentifier"],
                      capture_output=True, text=True).stdout.split("\n")[1].strip().replace(":", "").lower()
assert a["description"] == b["description"] == "Example release key 2026: " + skid, (a, skid)
' "$out" "$FP_re1" "$FP_re2" "$D/reissue1.pem" && t_pass replaced-back-json || t_fail replaced-back-json "rc=$rc $out"
# O and CN combined ("O: CN") when CN does not start with O; no SKID: the serial
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$D/noskid.key" \
	-out "$D/noskid.pem" -subj "/O=Acme Corp/CN=build signer" -days 30 \
	-set_serial 0x8f01 -addext "subjectKeyIdentifier=none" 2>/dev/null
"$KERNLOG" write --log "$D/x.log" init key="$D/noskid.pem" lock
out=$("$ATTEST" log --log "$D/x.log" --json 2>&1)
grep -qF '"description":"Acme Corp: build signer: 008f01"' <<<"$out" &&
	t_pass description-o-cn-serial || t_fail description-o-cn-serial "$out"

# usage
expect usage-pcr 2 "elfsig-attest: --pcr 24: 0..23" "$ATTEST" log --log "$L" --pcr 24
"$ATTEST" log >/dev/null 2>&1; [ $? = 2 ] && t_pass usage-no-log || t_fail usage-no-log
exit 0
