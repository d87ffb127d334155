#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# attest/: quotes of the emulated kernel's PCR 13 (tests/attest/kernlog.py
# writes the log and extends every allocated bank, as the kernel will):
# verified, interoperable with tpm2_quote/tpm2_checkquote and evmctl, and
# every forged log, wrong nonce, wrong key or wrong PCR refused.
set -u
. "$(dirname "$0")/lib-attest.sh"
attest_need swtpm tpm2_quote tpm2_checkquote tpm2_pcrread tpm2_pcrextend tpm2_getcap evmctl
[ -x "$TPM_TOOL" ] || { echo "FAIL: quote.sh: $TPM_TOOL not built"; exit 1; }
t_mktemp
tpm_start || { t_fail tpm-start "cannot start swtpm"; exit 0; }
D=$T_TMP
AK=0x81010001
N=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')

FP_rel=$(attest_cert rel "/O=Example/CN=Example release key 2026")
FP_rel2=$(attest_cert rel2 "/O=Example/CN=Second release key")
attest_cert rogue "/CN=rogue" >/dev/null

# verify ARGS...: the standard verification of the current quote and log
verify() {
	"$ATTEST" verify --ak-pub "$D/ak.pem" --msg "$D/q.msg" --sig "$D/q.sig" \
		--nonce "$N" --log "$D/kernel.log" "$@"
}

# the attestation key: created, then reused; nothing else at a handle is
expect_out() { grep -q "$2" "$T_TMP/out" && t_pass "$1" || t_fail "$1" "$(cat "$T_TMP/out")"; }
"$ATTEST" ak --handle $AK --pub "$D/ak.pem" >"$T_TMP/out" 2>&1
expect_out ak-created "attestation key 0x81010001 created"
"$ATTEST" ak --handle $AK --pub "$D/ak2.pem" >"$T_TMP/out" 2>&1
expect_out ak-reused "already there, reused"
cmp -s "$D/ak.pem" "$D/ak2.pem" && t_pass ak-same-public-key || t_fail ak-same-public-key
"$TPM_TOOL" keygen --type ecc --handle 0x81010002 >/dev/null 2>&1
expect ak-refuses-signing-key 1 "*0x81010002 holds a key that is not a restricted signing key*" \
	"$ATTEST" ak --handle 0x81010002 --pub "$D/x.pem"
expect ak-refuses-wrong-type 1 "*0x81010001 holds a key that is not the requested restricted signing key*" \
	"$ATTEST" ak --handle $AK --type rsa --pub "$D/x.pem"
expect quote-refuses-non-ak 1 "*0x81010002 holds a key that is not a restricted signing key*" \
	"$ATTEST" quote --ak-handle 0x81010002 --nonce "$N" --msg "$D/x.msg" --sig "$D/x.sig"

# the kernel, emulated: its log and its extends of PCR 13
"$KERNLOG" write --log "$D/kernel.log" --extend init key="$D/rel.pem" \
	key="$D/rel2.pem" mode=enforce lock
"$ATTEST" quote --ak-handle $AK --nonce "$N" --msg "$D/q.msg" --sig "$D/q.sig" &&
	t_pass quote || t_fail quote

verify >"$D/report" 2>&1; rc=$?
[ $rc = 0 ] && grep -qxF "key: $FP_rel CN=Example release key 2026,O=Example (record 1)" "$D/report" &&
	grep -qxF "key: $FP_rel2 CN=Second release key,O=Example (record 2)" "$D/report" &&
	grep -qxF "mode: enforce (record 3)" "$D/report" &&
	grep -qxF "lock: locked at record 4, keys=2" "$D/report" &&
	grep -qxF "verdict: trusted" "$D/report" &&
	t_pass verified-keys-listed || t_fail verified-keys-listed "rc=$rc $(cat "$D/report")"
# the replayed value is what the TPM holds
pcr=$(tpm2_pcrread sha256:13 | awk '/13:/ {print tolower(substr($2, 3))}')
grep -q "replay to PCR 13 sha256 $pcr (the quoted value)" "$D/report" &&
	t_pass replay-equals-tpm-pcr || t_fail replay-equals-tpm-pcr "$pcr"
verify --json >"$D/j" && python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
assert j["verdict"] == "trusted" and j["verified"] and j["quote"]["signature"] == "ECDSA"
assert [k["fingerprint"] for k in j["keys"]] == sys.argv[2:4] and j["locked"]
' "$D/j" "$FP_rel" "$FP_rel2" && t_pass verified-json || t_fail verified-json "$(cat "$D/j")"

# allow lists: the enrolment fingerprints pass; a missing one is named
printf '# release keys\n%s\n\n  %s  \n' "$FP_rel" "$FP_rel2" >"$D/allow"
verify --allow "$D/allow" >/dev/null 2>&1 && t_pass allow-list-all-allowed ||
	t_fail allow-list-all-allowed
printf '%s\n' "$FP_rel" >"$D/allow1"
expect allow-list-foreign-key 8 "elfsig-attest: record 2: key $FP_rel2 (CN=Second release key,O=Example) is not in the allow list" \
	verify --allow "$D/allow1"
grep -q "^key: $FP_rel2 .* NOT ALLOWED$" "$T_TMP/out" && grep -qxF "verdict: foreign-key" "$T_TMP/out" &&
	t_pass foreign-key-reported || t_fail foreign-key-reported "$(cat "$T_TMP/out")"
printf 'key %s\n' "$FP_rel" >"$D/allow2"
expect allow-list-malformed 5 "*allow2:1: expected sha256:<64 hex digits>*" verify --allow "$D/allow2"

# --require-mode: the verdict judges the mode recorded last (enforce here)
verify --require-mode enforce >"$T_TMP/out" 2>&1 && grep -qxF "verdict: trusted" "$T_TMP/out" &&
	t_pass require-mode-met || t_fail require-mode-met "$(cat "$T_TMP/out")"
expect require-mode-looser 10 "elfsig-attest: record 3: mode enforce, looser than the required require" \
	verify --require-mode require
grep -qxF "verdict: mode-too-loose" "$T_TMP/out" && grep -qxF "mode: enforce (record 3)" "$T_TMP/out" &&
	t_pass require-mode-looser-reported || t_fail require-mode-looser-reported "$(cat "$T_TMP/out")"
expect require-mode-unknown 2 "elfsig-attest: --require-mode strict: off, permissive, enforce or require" \
	verify --require-mode strict
# ECDSA high-S, decided: the TPM makes such signatures (an s above n/2
# in one quote of 16, else 2^-16 odds), they verify, and so does each
# quote's signature in its other form (r, n - s): accepted as the same
# signature, since nothing keys on a signature's bytes.
# s_form SIG [flip]: "high" or "low" for a marshalled ECDSA P-256
# TPMT_SIGNATURE; with flip, rewrite it as (r, n - s).
s_form() {
	python3 - "$@" <<'PY'
import sys
n = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
b = bytearray(open(sys.argv[1], "rb").read())
assert b[0:2] == b"\x00\x18" and b[4:6] == b"\x00\x20" and b[38:40] == b"\x00\x20"
s = int.from_bytes(b[40:72], "big")
if len(sys.argv) > 2:
    b[40:72] = (n - s).to_bytes(32, "big")
    open(sys.argv[1], "wb").write(bytes(b))
else:
    print("high" if s > n // 2 else "low")
PY
}
high=
for _ in $(seq 1 16); do
	"$ATTEST" quote --ak-handle $AK --nonce "$N" --msg "$D/h.msg" --sig "$D/h.sig" || break
	[ "$(s_form "$D/h.sig")" = high ] && { high=1; break; }
done
[ -n "$high" ] && "$ATTEST" verify --ak-pub "$D/ak.pem" --msg "$D/h.msg" --sig "$D/h.sig" \
	--nonce "$N" --log "$D/kernel.log" >/dev/null 2>&1 &&
	t_pass "the TPM makes high-S ECDSA quotes; one verifies" ||
	t_fail "the TPM makes high-S ECDSA quotes; one verifies" "high=${high:-none in 16}"
s_form "$D/h.sig" flip
[ "$(s_form "$D/h.sig")" = low ] && "$ATTEST" verify --ak-pub "$D/ak.pem" --msg "$D/h.msg" --sig "$D/h.sig" \
	--nonce "$N" --log "$D/kernel.log" >/dev/null 2>&1 &&
	t_pass "the same quote's signature as (r, n - s): verifies too" ||
	t_fail "the same quote's signature as (r, n - s)"
# a boot whose log records no mode (PCR 12 here): unknown is not enough
"$KERNLOG" write --log "$D/nomode.log" --pcr 12 --extend init key="$D/rel.pem" lock
"$ATTEST" quote --ak-handle $AK --nonce "$N" --pcr 12 --msg "$D/nm.msg" --sig "$D/nm.sig" || t_fail quote-pcr12
expect require-mode-unrecorded 10 "elfsig-attest: no elfsig-mode record in 3 records: the mode is unknown, off is required" \
	"$ATTEST" verify --ak-pub "$D/ak.pem" --msg "$D/nm.msg" --sig "$D/nm.sig" --nonce "$N" --log "$D/nomode.log" --pcr 12 --require-mode off

# interoperability: tpm2_checkquote accepts ours, we accept tpm2_quote's
tpm2_checkquote -Q -u "$D/ak.pem" -m "$D/q.msg" -s "$D/q.sig" -q "$N" -g sha256 &&
	t_pass tpm2_checkquote-accepts-ours || t_fail tpm2_checkquote-accepts-ours
tpm2_quote -Q -c $AK -l sha256:13 -q "$N" -m "$D/t.msg" -s "$D/t.sig" -g sha256 &&
	"$ATTEST" verify --ak-pub "$D/ak.pem" --msg "$D/t.msg" --sig "$D/t.sig" --nonce "$N" \
		--log "$D/kernel.log" >/dev/null 2>&1 &&
	t_pass tpm2_quote-output-verifies || t_fail tpm2_quote-output-verifies

# evmctl replays the same log to the TPM's PCRs (sha1 and sha256 banks),
# read from files as /sys/class/tpm/tpm0/pcr-<bank>/ would give them
for b in sha1 sha256; do
	tpm2_pcrread "$b" | sed -n 's/^ *\([0-9]*\) *: *0x\([0-9A-F]*\)$/\1 \2/p' |
		while read -r i v; do printf 'PCR-%02d: %s\n' "$i" "${v,,}"; done >"$D/pcrs-$b"
done
evmctl ima_measurement --pcrs sha1,"$D/pcrs-sha1" --pcrs sha256,"$D/pcrs-sha256" \
	"$D/kernel.log" >"$D/evm" 2>&1 && grep -q "Matched per TPM bank" "$D/evm" &&
	t_pass evmctl-replays-log || t_fail evmctl-replays-log "$(tail -3 "$D/evm")"
"$KERNLOG" mutate "$D/kernel.log" "$D/swapped.log" swap:1:2
evmctl ima_measurement --pcrs sha1,"$D/pcrs-sha1" --pcrs sha256,"$D/pcrs-sha256" \
	"$D/swapped.log" >/dev/null 2>&1 && t_fail evmctl-refuses-reordered ||
	t_pass evmctl-refuses-reordered

# flip IN OUT OFFSET: IN with one bit of the byte at OFFSET flipped
flip() {
	python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read())
o = int(sys.argv[3]) % len(b); b[o] ^= 1; open(sys.argv[2], "wb").write(b)' "$@"
}

# forged logs, against the genuine quote
forged() {	# NAME RC PATTERN LOG
	expect "$1" "$2" "$3" "$ATTEST" verify --ak-pub "$D/ak.pem" --msg "$D/q.msg" \
		--sig "$D/q.sig" --nonce "$N" --log "$4"
}
NOREPLAY="*the log does not replay to the quoted PCR 13*"
forged forged-reordered 7 "$NOREPLAY" "$D/swapped.log"
"$KERNLOG" mutate "$D/kernel.log" "$D/f.log" drop:4
forged forged-lock-dropped 7 "$NOREPLAY" "$D/f.log"
"$KERNLOG" mutate "$D/kernel.log" "$D/f.log" drop:2
forged forged-key-dropped 7 "$NOREPLAY" "$D/f.log"
head -c -3 "$D/kernel.log" >"$D/f.log"
forged forged-truncated 5 "*f.log: record 4: template data length * runs past the end*" "$D/f.log"
"$KERNLOG" mutate "$D/kernel.log" "$D/f.log" append:mode=require
forged forged-extra-record 7 "$NOREPLAY" "$D/f.log"
"$KERNLOG" mutate "$D/kernel.log" "$D/f.log" set-buf:1:"$D/rogue.pem"
forged forged-changed-cert 7 "$NOREPLAY" "$D/f.log"
"$KERNLOG" mutate "$D/kernel.log" "$D/f.log" set-buf-keep:1:"$D/rogue.pem"
forged forged-changed-cert-digests-kept 7 "*record 1 (.elfsig): the d-ng digest is not the SHA-256 of its data" "$D/f.log"
"$KERNLOG" mutate "$D/kernel.log" "$D/f.log" set-pcr:2:14
forged forged-record-of-pcr-14 7 "*record 2 (.elfsig) is for PCR 14, not PCR 13*" "$D/f.log"
# a record really extended into PCR 14, relabelled as PCR 13's
"$KERNLOG" write --log "$D/p14.log" --extend "@14:key=$D/rogue.pem"
"$KERNLOG" mutate "$D/p14.log" "$D/p14as13.log" set-pcr:0:13
cat "$D/kernel.log" "$D/p14as13.log" >"$D/f.log"
forged forged-pcr-14-record-counted-as-ours 7 "$NOREPLAY" "$D/f.log"
"$KERNLOG" mutate "$D/kernel.log" "$D/f.log" lie:3
forged forged-length-lie 5 "*f.log: record 3: template data length 4294967280 runs past the end of the log*" "$D/f.log"
"$KERNLOG" many --log "$D/f.log" --count 9000
forged forged-huge-count 5 "*f.log: more than 8192 records" "$D/f.log"

# the quote itself
expect wrong-nonce 6 "*q.msg: the quote's nonce is not the one given*" \
	"$ATTEST" verify --ak-pub "$D/ak.pem" --msg "$D/q.msg" --sig "$D/q.sig" \
	--nonce "${N%??}ff" --log "$D/kernel.log"
"$ATTEST" ak --handle 0x81010003 --type rsa --pub "$D/rsa.pem" >/dev/null
openssl ecparam -name prime256v1 -genkey -noout 2>/dev/null | openssl pkey -pubout -out "$D/other.pem"
expect wrong-ak-ecc 6 "*q.sig: the quote's signature does not verify with the attestation key *other.pem*" \
	"$ATTEST" verify --ak-pub "$D/other.pem" --msg "$D/q.msg" --sig "$D/q.sig" --nonce "$N" --log "$D/kernel.log"
expect wrong-ak-type 6 "*q.sig: signature algorithm 0x0018 does not go with the key in *rsa.pem*" \
	"$ATTEST" verify --ak-pub "$D/rsa.pem" --msg "$D/q.msg" --sig "$D/q.sig" --nonce "$N" --log "$D/kernel.log"
"$ATTEST" quote --ak-handle 0x81010003 --nonce "$N" --msg "$D/r.msg" --sig "$D/r.sig" &&
	"$ATTEST" verify --ak-pub "$D/rsa.pem" --msg "$D/r.msg" --sig "$D/r.sig" --nonce "$N" \
		--log "$D/kernel.log" --json | grep -q '"verdict":"trusted".*"signature":"RSASSA"' &&
	t_pass rsa-ak-quote-verifies || t_fail rsa-ak-quote-verifies
"$ATTEST" quote --ak-handle $AK --nonce "$N" --pcr 14 --msg "$D/p.msg" --sig "$D/p.sig"
expect quote-of-another-pcr 6 "*p.msg: the quote covers PCRs sha256:14, not PCR 13 with only sha256 PCRs beside it" \
	"$ATTEST" verify --ak-pub "$D/ak.pem" --msg "$D/p.msg" --sig "$D/p.sig" --nonce "$N" --log "$D/kernel.log"

# One boot quote for the boot chain and .elfsig: tpm2_quote of sha256:0,7,13
# with the PCR values it read (-o -F values), or elfsig-tpm pcrread's lines.
tpm2_pcrextend "0:sha256=$(printf firmware | sha256sum | cut -c1-64)" &&
	tpm2_pcrextend "7:sha256=$(printf secureboot | sha256sum | cut -c1-64)" ||
	t_fail boot-pcrs-extended
bquote() { # PCRS NAME: a tpm2_quote of PCRS into $D/NAME.{msg,sig,pcrs}
	tpm2_quote -Q -c $AK -l "$1" -q "$N" -m "$D/$2.msg" -s "$D/$2.sig" \
		-o "$D/$2.pcrs" -F values -g sha256
}
bverify() { # NAME ARGS...: verify the quote NAME against the kernel log
	local n=$1; shift
	"$ATTEST" verify --ak-pub "$D/ak.pem" --msg "$D/$n.msg" --sig "$D/$n.sig" \
		--nonce "$N" --log "$D/kernel.log" "$@"
}
pcr_of() { # I: the TPM's sha256 PCR I, lower-case hex
	tpm2_pcrread "sha256:$1" | sed -n 's/^ *[0-9]* *: *0x\([0-9A-F]*\)$/\1/p' | tr A-F a-f
}
bquote sha256:0,7,13 boot || t_fail boot-quote "tpm2_quote -l sha256:0,7,13 failed"
bverify boot --pcr-values "$D/boot.pcrs" >"$D/report" 2>"$D/err"; rc=$?
[ $rc = 0 ] && grep -qxF "verdict: trusted" "$D/report" &&
	grep -q "^quote: valid ECDSA signature over sha256:0,7,13, nonce matches" "$D/report" &&
	grep -qxF "pcr: sha256:0 $(pcr_of 0) (quoted)" "$D/report" &&
	grep -qxF "pcr: sha256:7 $(pcr_of 7) (quoted)" "$D/report" &&
	grep -q "replay to PCR 13 sha256 $(pcr_of 13) (the quoted value)" "$D/report" &&
	grep -qxF "lock: locked at record 4, keys=2" "$D/report" &&
	t_pass "boot quote sha256:0,7,13: replayed to PCR 13, PCRs 0 and 7 reported" ||
	t_fail "boot quote sha256:0,7,13" "rc=$rc $(cat "$D/err" "$D/report")"
bverify boot --pcr-values "$D/boot.pcrs" --json >"$D/j" && python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
assert j["verdict"] == "trusted", j
assert j["quote"]["pcrs"] == {"0": sys.argv[2], "7": sys.argv[3], "13": sys.argv[4]}, j
' "$D/j" "$(pcr_of 0)" "$(pcr_of 7)" "$(pcr_of 13)" && t_pass "boot quote: JSON names every quoted PCR" ||
	t_fail "boot quote: JSON names every quoted PCR" "$(cat "$D/j")"
"$TPM_TOOL" pcrread sha256:0,7,13 >"$D/boot.txt" &&
	bverify boot --pcr-values "$D/boot.txt" >/dev/null 2>"$D/err" &&
	t_pass "boot quote: values as elfsig-tpm pcrread prints them" ||
	t_fail "boot quote: values as elfsig-tpm pcrread prints them" "$(cat "$D/err")"
expect boot-quote-needs-values 2 "elfsig-attest: $D/boot.msg: the quote covers sha256:0,7,13: give their values with --pcr-values*" \
	bverify boot
flip "$D/boot.pcrs" "$D/bad.pcrs" 0
expect boot-quote-forged-pcr0 6 "*bad.pcrs: these values of sha256:0,7,13 are not the quoted ones*" \
	bverify boot --pcr-values "$D/bad.pcrs"
# PCR 13's value in the file is the TPM's, so the file cannot vouch for a
# forged log: the replay still has to give it.
expect boot-quote-forged-log 7 "$NOREPLAY" "$ATTEST" verify --ak-pub "$D/ak.pem" \
	--msg "$D/boot.msg" --sig "$D/boot.sig" --nonce "$N" --log "$D/swapped.log" \
	--pcr-values "$D/boot.pcrs"
head -c 64 "$D/boot.pcrs" >"$D/short.pcrs"
expect boot-quote-values-short 5 "*short.pcrs: neither 96 bytes (the values of sha256:0,7,13*" \
	bverify boot --pcr-values "$D/short.pcrs"
sed 1d "$D/boot.txt" >"$D/short.txt"
expect boot-quote-values-other-pcrs 5 "*short.txt: line 1: expected sha256:0=<64 hex digits>*" \
	bverify boot --pcr-values "$D/short.txt"
bquote sha256:0,7 b07
expect boot-quote-without-13 6 "*b07.msg: the quote covers PCRs sha256:0,7, not PCR 13*" \
	bverify b07 --pcr-values "$D/b07.pcrs"
bquote sha1:13+sha256:0,13 mixed
expect boot-quote-two-banks 6 "*mixed.msg: the quote covers PCRs sha1:13+sha256:0,13, not PCR 13*" \
	bverify mixed --pcr-values "$D/mixed.pcrs"
# flip one byte: the last of the signature (S), one in the message
flip "$D/q.sig" "$D/bad.sig" -1
expect flipped-signature-byte 6 "*bad.sig: the quote's signature does not verify*" \
	"$ATTEST" verify --ak-pub "$D/ak.pem" --msg "$D/q.msg" --sig "$D/bad.sig" --nonce "$N" --log "$D/kernel.log"
flip "$D/q.msg" "$D/bad.msg" -1
expect flipped-message-byte 6 "*q.sig: the quote's signature does not verify*" \
	"$ATTEST" verify --ak-pub "$D/ak.pem" --msg "$D/bad.msg" --sig "$D/q.sig" --nonce "$N" --log "$D/kernel.log"
head -c 40 /dev/urandom >"$D/junk"
expect signature-not-tpmt 5 "*junk: not a marshalled TPMT_SIGNATURE" \
	"$ATTEST" verify --ak-pub "$D/ak.pem" --msg "$D/q.msg" --sig "$D/junk" --nonce "$N" --log "$D/kernel.log"
expect message-not-tpms-attest 5 "*junk: not a marshalled TPMS_ATTEST" \
	"$ATTEST" verify --ak-pub "$D/ak.pem" --msg "$D/junk" --sig "$D/q.sig" --nonce "$N" --log "$D/kernel.log"
expect ak-not-pem 5 "*junk: not a PEM public key*" \
	"$ATTEST" verify --ak-pub "$D/junk" --msg "$D/q.msg" --sig "$D/q.sig" --nonce "$N" --log "$D/kernel.log"
expect nonce-not-hex 2 "elfsig-attest: --nonce xyz: 1 to 64 bytes in hex" \
	"$ATTEST" verify --ak-pub "$D/ak.pem" --msg "$D/q.msg" --sig "$D/q.sig" --nonce xyz --log "$D/kernel.log"
expect tpm-unreachable 3 "*TPM not reachable at swtpm:host=127.0.0.1,port=1*" \
	"$ATTEST" quote --tcti swtpm:host=127.0.0.1,port=1 --ak-handle $AK --nonce "$N" --msg "$D/x.msg" --sig "$D/x.sig"
# no TPM device at all (tests/attest/vm.sh: a guest without a TPM)
expect no-tpm-no-quote 3 "elfsig-attest: no TPM: $D/no-tpmrm0 does not exist, so no quote can be made (the kernel's measurement log is kept, but without a TPM nothing attests it)" \
	"$ATTEST" quote --tcti "device:$D/no-tpmrm0" --ak-handle $AK --nonce "$N" --msg "$D/x.msg" --sig "$D/x.sig"
TPM2TOOLS_TCTI=device:$D/no-tpmrm0 expect no-tpm-no-ak 3 "elfsig-attest: no TPM: $D/no-tpmrm0 does not exist, so no attestation key can be made*" \
	"$ATTEST" ak --handle $AK --pub "$D/x.pem"

# a key after the lock (a kernel that failed its contract): refused
"$KERNLOG" write --log "$D/late.log" --extend "key=$D/rogue.pem"
cat "$D/late.log" >>"$D/kernel.log"
"$ATTEST" quote --ak-handle $AK --nonce "$N" --msg "$D/q.msg" --sig "$D/q.sig"
expect key-after-lock 9 "elfsig-attest: record 5: key sha256:* (CN=rogue) admitted after the lock (record 4): the keyring did not stay locked" verify

# a ring never locked (PCR 15 here, so PCR 13 stays as it is)
"$KERNLOG" write --log "$D/open.log" --pcr 15 --extend init key="$D/rel.pem" mode=enforce
"$ATTEST" quote --ak-handle $AK --nonce "$N" --pcr 15 --msg "$D/o.msg" --sig "$D/o.sig"
expect never-locked 9 "elfsig-attest: the keyring was never locked: no elfsig-lock record in 3 records*" \
	"$ATTEST" verify --ak-pub "$D/ak.pem" --msg "$D/o.msg" --sig "$D/o.sig" --nonce "$N" --log "$D/open.log" --pcr 15
grep -qxF "lock: NOT LOCKED" "$T_TMP/out" && t_pass never-locked-reported || t_fail never-locked-reported

"$TPM_TOOL" evict --handle 0x81010002 >/dev/null
"$TPM_TOOL" evict --handle 0x81010003 >/dev/null
"$TPM_TOOL" evict --handle $AK >/dev/null && t_pass ak-evicted || t_fail ak-evicted
exit 0
