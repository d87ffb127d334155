#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The kernel's own measurement of .elfsig (kernel patch 12), on a real
# boot of the patched kernel with swtpm as its TPM, checked by the host's
# elfsig-attest against a quote made in the guest:
#   boot "clean"    a release certificate added, the keyring locked, the
#                   mode tightened after the lock (booted permissive,
#                   then enforce): the guest quotes PCR 13
#                   with elfsig-attest and sends the quote, the AK's
#                   public key, the kernel's log and its PCR 13 values
#                   over the console; the host verifies (trusted, the key
#                   listed, mode and lock shown), replays the log in the
#                   sha256 and sha1 banks against the guest's PCR values,
#                   and checks the records (one per admitted key, its
#                   sha256 the certificate's fingerprint);
#   boot "foreign"  another CA-issued certificate added before the
#                   "loader" adds the release one: the verifier names it
#                   as not in the allow list (exit 8). What the kernel
#                   refused (a self-signed certificate, a link of an
#                   existing key, anything after the lock) is not in the
#                   log;
#   boot "notpm"    the guest has no TPM at all (tests/vm/run --no-tpm):
#                   a key added before the loader, then the real loader on
#                   an enrolment sealed on the host: it exits 4
#                   (tpm-error), loads nothing and locks; the kernel's log
#                   still records the key, the mode and the lock, and says
#                   it keeps them for a TPM that may come;
#                   elfsig-attest quote says no quote can be made (exit 3).
# KERNEL= chooses the kernel (tests/attest/vm-6.1.sh: the 6.1 one).
set -u
. "$(dirname "$0")/lib-attest.sh"
. "$TOP/tests/signer/fixtures.sh"
attest_need base64 sha256sum
fixtures_init
VMRUN=${VMRUN:-$TOP/tests/vm/run}
KERNEL=${KERNEL:-$TOP/build/kernel/bzImage-tiny}
[ -r "$KERNEL" ] || { t_fail "vm: kernel" "no kernel at $KERNEL (make kernel)"; exit 0; }

W=$T_TMP
mkdir -p "$W/stage" "$W/opt"
"$TOP/tests/vm/stage-loader" "$W/stage" "$ATTEST" ||
	{ t_fail "vm: stage elfsig-attest"; exit 0; }
CA=$TOP/kernel/platform-ca.sh
"$CA" issue "$K/rsa2048.key" "$W/release.pem" release &&
"$CA" issue "$K/rsa3072.key" "$W/foreign.pem" foreign ||
	{ t_fail "vm: certificates from the platform CA" "kernel/platform-ca.sh failed (make kernel)"; exit 0; }
for c in release foreign; do
	openssl x509 -in "$W/$c.pem" -outform DER -out "$W/opt/$c.der"
done
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$W/self.key" -subj /CN=self \
	-days 30 -outform DER -out "$W/opt/self.der" 2>/dev/null
fp() { printf 'sha256:%s' "$(sha256sum < "$W/opt/$1.der" | cut -c1-64)"; }
FP_REL=$(fp release)
FP_FOREIGN=$(fp foreign)
fp release > "$W/allow"; echo >> "$W/allow"

# The guest: $1 = "foreign" adds the foreign certificate first.
# shellcheck disable=SC2016 # guest code, expanded in the guest
cat > "$W/guest.sh" <<'EOF'
export TPM2TOOLS_TCTI=device:/dev/tpmrm0
T=/opt/t
ok() { echo "PASS: $1"; }
ko() { echo "FAIL: $1: $2"; }
mount -t securityfs securityfs /sys/kernel/security
L=/sys/kernel/security/elfsig/binary_measurements
nonce=$(sed -n 's/.*elfsig_test_nonce=\([0-9a-f]*\).*/\1/p' /proc/cmdline)
if grep -q elfsig_test_foreign /proc/cmdline; then
	# Before the loader: a certificate the platform CA issued, but that
	# no enrolment names; and a self-signed one, refused by the kernel.
	keyctl padd asymmetric "" %keyring:.elfsig < $T/foreign.der > /dev/null &&
		ok "a key added before the loader" || ko "a key added before the loader" "padd failed"
	keyctl padd asymmetric "" %keyring:.elfsig < $T/self.der > /dev/null 2>&1 &&
		ko "a self-signed certificate is refused" "it was added" ||
		ok "a self-signed certificate is refused"
fi
# The "loader": its key, then the lock.
keyctl padd asymmetric "" %keyring:.elfsig < $T/release.der > /dev/null &&
	ok "the release key is added" || ko "the release key is added" "padd failed"
x=$(keyctl padd asymmetric "" @s < $T/release.der)
keyctl link "$x" %keyring:.elfsig > /dev/null 2>&1 &&
	ko "a link of an existing key is refused" "it was linked" ||
	ok "a link of an existing key is refused"
echo 1 > /proc/sys/fs/elfsig/lock
keyctl padd asymmetric "" %keyring:.elfsig < $T/foreign.der > /dev/null 2>&1 &&
	ko "no key after the lock" "added" || ok "no key after the lock"
echo enforce > /proc/sys/fs/elfsig/mode
n=$(keyctl rlist %keyring:.elfsig | wc -w)
echo "keys in .elfsig: $n"
/usr/sbin/elfsig-attest ak --handle 0x81010001 --pub /tmp/ak.pem > /dev/null &&
/usr/sbin/elfsig-attest quote --ak-handle 0x81010001 --nonce "$nonce" \
	--msg /tmp/q.msg --sig /tmp/q.sig && ok "quote in the guest" || ko "quote in the guest" "exit $?"
cat $L > /tmp/log.bin && ok "binary_measurements is readable" || ko "binary_measurements is readable" "cat failed"
p=$(sed -n 's/.*elfsig_test_pcr=\([0-9]*\).*/\1/p' /proc/cmdline)
cat /sys/class/tpm/tpm0/pcr-sha256/${p:-13} > /tmp/pcr256
cat /sys/class/tpm/tpm0/pcr-sha1/${p:-13} > /tmp/pcr1
for f in ak.pem q.msg q.sig log.bin pcr256 pcr1; do
	echo "ELFSIG-FILE-BEGIN $f"; base64 /tmp/$f; echo "ELFSIG-FILE-END"
done
# Every PCR of both banks, as evmctl reads them.
for b in sha1 sha256; do
	i=0
	while [ $i -le 23 ]; do
		echo "ELFSIG-PCR $b $i $(cat /sys/class/tpm/tpm0/pcr-$b/$i)"; i=$((i + 1))
	done
done
# The keys' descriptions, as the kernel named them (elfsig-attest
# computes the same from the certificates, to tell a replaced key).
for k in $(keyctl rlist %keyring:.elfsig); do
	echo "ELFSIG-DESC $(keyctl rdescribe "$k" | cut -d';' -f5-)"
done
dmesg | grep 'elfsig:' | sed 's/^/  kmsg: /'
# What the console (loglevel 4) does not show: lockdep and WARN splats.
dmesg | grep -E 'BUG:|WARNING:|KASAN|UBSAN|Call Trace|possible .*locking'
EOF

# boot NAME [RUN-ARGS...]: boot, keep the console in $W/NAME.log, pull the
# guest's files into $W/NAME/.
boot() {
	local name=$1 f; shift
	mkdir -p "$W/$name"
	"$VMRUN" --kernel "$KERNEL" --root "$W/stage" --add "$W/opt:t" \
		--script "$W/guest.sh" --timeout 180 "$@" > "$W/$name.log" 2>&1
	if grep -qE 'BUG:|Oops|WARNING:|KASAN|UBSAN|Kernel panic|Call Trace' "$W/$name.log"; then
		t_fail "vm $name: kernel log clean" "$(grep -m1 -E 'BUG:|Oops|WARNING:|KASAN|UBSAN|Kernel panic|Call Trace' "$W/$name.log")"
	fi
	grep -q '^ELFSIG-VM: script exit' "$W/$name.log" ||
		t_fail "vm $name: boot ran the script" "$(tail -3 "$W/$name.log" | tr '\n' ' ')"
	grep -E '^(PASS|FAIL|SKIP): ' "$W/$name.log" | sed "s/^\(PASS\|FAIL\|SKIP\): /\1: vm $name: /"
	for f in ak.pem q.msg q.sig log.bin pcr256 pcr1; do
		awk -v f="$f" '$1 == "ELFSIG-FILE-BEGIN" && $2 == f {on=1; next}
			on && /^ELFSIG-FILE-END/ {on=0} on' "$W/$name.log" | tr -d '\r' |
			base64 -d > "$W/$name/$f" 2>/dev/null
	done
}

# records LOG: one line per record, "pcr event sha256(buf) buf-or-length",
# parsed independently of elfsig-attest; the sha1 and sha256 replays.
records() {
	python3 - "$1" <<'PY'
import hashlib, struct, sys
d = open(sys.argv[1], "rb").read()
o, p1, p256 = 0, bytes(20), bytes(32)
while o < len(d):
    pcr, sha1 = struct.unpack_from("<I", d, o)[0], d[o + 4:o + 24]
    nl = struct.unpack_from("<I", d, o + 24)[0]
    name = d[o + 28:o + 28 + nl]
    o += 28 + nl
    tl = struct.unpack_from("<I", d, o)[0]
    t = d[o + 4:o + 4 + tl]
    o += 4 + tl
    assert name == b"ima-buf" and hashlib.sha1(t).digest() == sha1
    fields, q = [], 0
    while q < len(t):
        fl = struct.unpack_from("<I", t, q)[0]
        fields.append(t[q + 4:q + 4 + fl])
        q += 4 + fl
    dng, ev, buf = fields
    assert dng[:8] == b"sha256:\0" and dng[8:] == hashlib.sha256(buf).digest()
    ev = ev.rstrip(b"\0").decode()
    shown = buf.decode() if ev != ".elfsig" else "der:%d" % len(buf)
    print(pcr, ev, "sha256:" + hashlib.sha256(buf).hexdigest(), shown)
    p1 = hashlib.sha1(p1 + sha1).digest()
    p256 = hashlib.sha256(p256 + hashlib.sha256(t).digest()).digest()
print("replay-sha1", p1.hex())
print("replay-sha256", p256.hex())
PY
}

# check NAME KEYS: what every boot's log must show, KEYS keys admitted.
check() {
	local name=$1 D=$W/$1 pcr
	if records "$D/log.bin" > "$D/records" 2> "$D/records.err"; then
		t_pass "vm $name: the log parses as ima-buf records, each d-ng the sha256 of its buf"
	else
		t_fail "vm $name: the log parses as ima-buf records" "$(tail -1 "$D/records.err")"
		return
	fi
	pcr=$(tr 'A-F' 'a-f' < "$D/pcr256")
	grep -qx "replay-sha256 $pcr" "$D/records" &&
		t_pass "vm $name: the log replays to the guest's PCR 13, sha256 bank" ||
		t_fail "vm $name: the log replays to the guest's PCR 13, sha256 bank" "pcr $pcr, $(grep replay "$D/records")"
	pcr=$(tr 'A-F' 'a-f' < "$D/pcr1")
	grep -qx "replay-sha1 $pcr" "$D/records" &&
		t_pass "vm $name: the log replays to the guest's PCR 13, sha1 bank" ||
		t_fail "vm $name: the log replays to the guest's PCR 13, sha1 bank" "pcr $pcr, $(grep replay "$D/records")"
	head -1 "$D/records" | grep -qx '13 elfsig-init sha256:[0-9a-f]* elfsig log v1 pcr=13' &&
		t_pass "vm $name: record 0 is elfsig-init for PCR 13" ||
		t_fail "vm $name: record 0 is elfsig-init for PCR 13" "$(head -1 "$D/records")"
	"$ATTEST" log --log "$D/log.bin" > "$D/attest-log" 2>&1 &&
		grep -q "replay to PCR 13 sha256 $(tr 'A-F' 'a-f' < "$D/pcr256")" "$D/attest-log" &&
		t_pass "vm $name: elfsig-attest log replays it to the guest's PCR 13" ||
		t_fail "vm $name: elfsig-attest log replays it to the guest's PCR 13" "$(cat "$D/attest-log")"
	# After the lock: the lock, then only the mode record the guest made.
	awk '$1 != "replay-sha1" && $1 != "replay-sha256" {print $2, $4}' "$D/records" |
		sed -n '/^elfsig-mode mode=permissive/,$p' > "$D/after-lock"
	printf 'elfsig-mode mode=permissive\nelfsig-lock keys=%s\nelfsig-mode mode=enforce\n' "$2" | cmp -s - "$D/after-lock" &&
		t_pass "vm $name: no .elfsig record after the lock (keys=$2, then the mode change)" ||
		t_fail "vm $name: no .elfsig record after the lock" "$(tr '\n' ';' < "$D/after-lock")"
	[ "$(grep -c '^13 \.elfsig ' "$D/records")" = "$2" ] &&
		t_pass "vm $name: one .elfsig record per admitted key ($2)" ||
		t_fail "vm $name: one .elfsig record per admitted key ($2)" "$(grep -c '^13 \.elfsig ' "$D/records")"
	grep -q "keys in .elfsig: $2\$" "$W/$name.log" &&
		t_pass "vm $name: the keyring holds as many keys as the log names" ||
		t_fail "vm $name: the keyring holds as many keys as the log names" "$(grep 'keys in .elfsig' "$W/$name.log")"
}

# --- clean boot: verified ------------------------------------------------
N=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
boot clean --append "elfsig=permissive elfsig_test_nonce=$N"
D=$W/clean
check clean 1
grep -q "^13 \.elfsig $FP_REL der:" "$D/records" &&
	t_pass "vm clean: the key's record: sha256 of its buf is the certificate's fingerprint" ||
	t_fail "vm clean: the key's record: sha256 of its buf is the certificate's fingerprint" "$(cat "$D/records")"
"$ATTEST" verify --ak-pub "$D/ak.pem" --msg "$D/q.msg" --sig "$D/q.sig" --nonce "$N" \
	--log "$D/log.bin" --allow "$W/allow" > "$D/report" 2>&1; rc=$?
[ $rc = 0 ] && grep -qxF "verdict: trusted" "$D/report" &&
	t_pass "vm clean: elfsig-attest verify: the guest's quote and log are trusted" ||
	t_fail "vm clean: elfsig-attest verify: trusted" "exit $rc: $(tr '\n' ';' < "$D/report")"
grep -q "^key: $FP_REL .*release.* (record 1)" "$D/report" &&
	t_pass "vm clean: the report lists the key" || t_fail "vm clean: the report lists the key" "$(tr '\n' ';' < "$D/report")"
grep -q "^mode: " "$D/report" && grep -qxF "lock: locked at record 3, keys=1" "$D/report" &&
	t_pass "vm clean: the report shows the mode and the lock" ||
	t_fail "vm clean: the report shows the mode and the lock" "$(tr '\n' ';' < "$D/report")"
if command -v tpm2_checkquote > /dev/null; then
	tpm2_checkquote -Q -u "$D/ak.pem" -m "$D/q.msg" -s "$D/q.sig" -q "$N" -g sha256 &&
		t_pass "vm clean: tpm2_checkquote accepts the guest's quote" ||
		t_fail "vm clean: tpm2_checkquote accepts the guest's quote"
fi
# evmctl (ima-evm-utils) replays the kernel's own log to the guest's PCRs.
if command -v evmctl > /dev/null; then
	for b in sha1 sha256; do
		tr -d '\r' < "$W/clean.log" | awk -v b=$b '$1 == "ELFSIG-PCR" && $2 == b {printf "PCR-%02d: %s\n", $3, tolower($4)}' > "$D/pcrs-$b"
	done
	evmctl ima_measurement --pcrs sha1,"$D/pcrs-sha1" --pcrs sha256,"$D/pcrs-sha256" \
		"$D/log.bin" > "$D/evm" 2>&1 && grep -q "Matched per TPM bank" "$D/evm" &&
		t_pass "vm clean: evmctl ima_measurement replays the kernel's log to the guest's PCRs" ||
		t_fail "vm clean: evmctl ima_measurement replays the kernel's log" "$(tail -3 "$D/evm" | tr '\n' ';')"
fi
# The verifier refuses the same evidence with another nonce.
"$ATTEST" verify --ak-pub "$D/ak.pem" --msg "$D/q.msg" --sig "$D/q.sig" \
	--nonce "00$N" --log "$D/log.bin" > /dev/null 2>&1; rc=$?
[ $rc = 6 ] && t_pass "vm clean: another nonce is refused (exit 6)" ||
	t_fail "vm clean: another nonce is refused (exit 6)" "exit $rc"

# --- a key added before the loader: named, not in the allow list --------
N=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
boot foreign --append "elfsig=permissive elfsig_test_nonce=$N elfsig_test_foreign=1"
D=$W/foreign
check foreign 2
"$ATTEST" verify --ak-pub "$D/ak.pem" --msg "$D/q.msg" --sig "$D/q.sig" --nonce "$N" \
	--log "$D/log.bin" --allow "$W/allow" > "$D/report" 2> "$D/err"; rc=$?
[ $rc = 8 ] && grep -q "key $FP_FOREIGN (.*foreign.*) is not in the allow list" "$D/err" &&
	t_pass "vm foreign: the pre-loader key is named, not in the allow list (exit 8)" ||
	t_fail "vm foreign: the pre-loader key is named, not in the allow list (exit 8)" "exit $rc: $(cat "$D/err")"
grep -q "^key: $FP_FOREIGN .* NOT ALLOWED$" "$D/report" && grep -q "^key: $FP_REL " "$D/report" &&
	t_pass "vm foreign: the report lists both keys, the foreign one NOT ALLOWED" ||
	t_fail "vm foreign: the report lists both keys" "$(tr '\n' ';' < "$D/report")"
# The descriptions elfsig-attest derives (to tell a replaced key) are the
# ones the kernel gave the keys.
"$ATTEST" log --log "$D/log.bin" --json > "$D/json" 2>&1
sed -n 's/^ELFSIG-DESC //p' "$W/foreign.log" | sort > "$D/desc-kernel"
python3 -c 'import json, sys; [print(k["description"]) for k in json.load(open(sys.argv[1]))["keys"]]' \
	"$D/json" 2>/dev/null | sort > "$D/desc-attest"
[ "$(wc -l < "$D/desc-kernel")" = 2 ] && cmp -s "$D/desc-kernel" "$D/desc-attest" &&
	t_pass "vm foreign: elfsig-attest derives the key descriptions the kernel gave (keyctl rdescribe)" ||
	t_fail "vm foreign: elfsig-attest derives the key descriptions the kernel gave" \
		"kernel: $(tr '\n' ';' < "$D/desc-kernel") attest: $(tr '\n' ';' < "$D/desc-attest")"
grep -q "$(fp self)" "$D/records" &&
	t_fail "vm foreign: the refused self-signed certificate is not in the log" "it is" ||
	t_pass "vm foreign: the refused self-signed certificate is not in the log"

# --- no TPM at all: the log is kept, nothing can attest it ---------------
# The enrolment is made on the host (any TPM: the guest never gets to
# unseal it), so that the loader in the guest reaches its TPM step.
if tpm_start > "$W/notpm-swtpm.err" 2>&1 && mkdir -p "$W/notpm-e" &&
   openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$W/auth.key" 2>/dev/null &&
   "$BUILD/elfsig-enroll" create "$W/release.pem" --dir "$W/notpm-e" \
	--authority-key "$W/auth.key" --pcrs sha256:0,2,4,7 > "$W/notpm-enrol.out" 2>&1; then
	mkdir -p "$W/stage-notpm/etc/elfsig/certs"
	cp -a "$W/stage/." "$W/stage-notpm/"
	"$TOP/tests/vm/stage-loader" "$W/stage-notpm" "$BUILD/elfsig-keyloader"
	cp -a "$W/notpm-e/." "$W/stage-notpm/etc/elfsig/"
	cp "$W/release.pem" "$W/stage-notpm/etc/elfsig/certs/"
	t_pass "vm notpm: an enrolment for the loader, made on the host"
else
	t_fail "vm notpm: an enrolment for the loader, made on the host" "$(cat "$W/notpm-swtpm.err" "$W/notpm-enrol.out" 2>/dev/null | tail -1)"
fi
# shellcheck disable=SC2016 # guest code, expanded in the guest
cat > "$W/notpm.sh" <<'EOF'
export TPM2TOOLS_TCTI=device:/dev/tpmrm0
T=/opt/t
ok() { echo "PASS: $1"; }
ko() { echo "FAIL: $1: $2"; }
mkdir -p /run && mount -t tmpfs tmpfs /run
mount -t securityfs securityfs /sys/kernel/security
if [ -e /dev/tpm0 ] || [ -e /dev/tpmrm0 ] || [ -e /sys/class/tpm/tpm0 ]; then
	ko "the guest has no TPM" "$(ls /dev/tpm* /sys/class/tpm 2>&1 | tr '\n' ' ')"
else
	ok "the guest has no TPM"
fi
keyctl padd asymmetric "" %keyring:.elfsig < $T/foreign.der > /dev/null &&
	ok "a key added before the loader" || ko "a key added before the loader" "padd failed"
/usr/sbin/elfsig-keyloader --kmsg /dev/kmsg > /tmp/loader.out 2>&1; rc=$?
sed 's/^/  loader: /' /tmp/loader.out
[ $rc = 4 ] && ok "the loader without a TPM: exit 4 (tpm-error)" ||
	ko "the loader without a TPM: exit 4 (tpm-error)" "exit $rc"
n=$(keyctl rlist %keyring:.elfsig | wc -w)
[ "$n" = 1 ] && ok "the loader without a TPM loads no key (only the one added before it is there)" ||
	ko "the loader without a TPM loads no key" "$n keys"
keyctl padd asymmetric "" %keyring:.elfsig < $T/release.der > /dev/null 2>&1 &&
	ko "the loader without a TPM still locks the keyring" "an add succeeded" ||
	ok "the loader without a TPM still locks the keyring"
/usr/sbin/elfsig-attest quote --ak-handle 0x81010001 --nonce 00 \
	--msg /tmp/q.msg --sig /tmp/q.sig > /tmp/quote.out 2>&1; rc=$?
sed 's/^/  quote: /' /tmp/quote.out
[ $rc = 3 ] && [ "$(wc -l < /tmp/quote.out)" = 1 ] &&
	grep -q '^elfsig-attest: no TPM: /dev/tpmrm0 does not exist, so no quote can be made' /tmp/quote.out &&
	ok "elfsig-attest quote: no TPM, no quote can be made (exit 3, one line)" ||
	ko "elfsig-attest quote: no TPM, no quote can be made (exit 3, one line)" "exit $rc: $(cat /tmp/quote.out)"
cat /sys/kernel/security/elfsig/binary_measurements > /tmp/log.bin &&
	ok "binary_measurements is readable" || ko "binary_measurements is readable" "cat failed"
echo "ELFSIG-FILE-BEGIN log.bin"; base64 /tmp/log.bin; echo "ELFSIG-FILE-END"
dmesg | grep 'elfsig:' | sed 's/^/  kmsg: /'
dmesg | grep -E 'BUG:|WARNING:|KASAN|UBSAN|Call Trace|possible .*locking'
EOF
mkdir -p "$W/notpm"
"$VMRUN" --kernel "$KERNEL" --no-tpm --root "$W/stage-notpm" --add "$W/opt:t" \
	--script "$W/notpm.sh" --timeout 180 > "$W/notpm.log" 2>&1
grep -qE 'BUG:|Oops|WARNING:|KASAN|UBSAN|Kernel panic|Call Trace' "$W/notpm.log" &&
	t_fail "vm notpm: kernel log clean" "$(grep -m1 -E 'BUG:|Oops|WARNING:|KASAN|UBSAN|Kernel panic|Call Trace' "$W/notpm.log")"
grep -q '^ELFSIG-VM: script exit' "$W/notpm.log" ||
	t_fail "vm notpm: boot ran the script" "$(tail -3 "$W/notpm.log" | tr '\n' ' ')"
grep -E '^(PASS|FAIL|SKIP): ' "$W/notpm.log" | sed "s/^\(PASS\|FAIL\|SKIP\): /\1: vm notpm: /"
D=$W/notpm
awk '$1 == "ELFSIG-FILE-BEGIN" && $2 == "log.bin" {on=1; next}
	on && /^ELFSIG-FILE-END/ {on=0} on' "$W/notpm.log" | base64 -d > "$D/log.bin" 2>/dev/null
records "$D/log.bin" > "$D/records" 2>&1
awk '$1 !~ /^replay/ {print $1, $2, ($2 == ".elfsig" ? $3 : $4)}' "$D/records" > "$D/events"
printf '13 elfsig-init elfsig\n13 .elfsig %s\n13 elfsig-mode mode=enforce\n13 elfsig-lock keys=1\n' "$FP_FOREIGN" |
	cmp -s - "$D/events" &&
	t_pass "vm notpm: without a TPM the kernel's log still records the key, the mode and the lock" ||
	t_fail "vm notpm: the kernel's log records the key, the mode and the lock" "$(tr '\n' ';' < "$D/events")"
grep -q 'kmsg: .*elfsig: no TPM yet: the log is kept, PCR 13 is extended once one appears' "$W/notpm.log" &&
	t_pass "vm notpm: the kernel says it keeps the log for a TPM that may come" ||
	t_fail "vm notpm: the kernel says it keeps the log for a TPM that may come" "$(grep 'kmsg:' "$W/notpm.log" | tr '\n' ';')"
"$ATTEST" log --log "$D/log.bin" > "$D/attest-log" 2>&1; rc=$?
[ $rc = 0 ] && grep -q '^log: 4 records replay to PCR 13 sha256 [0-9a-f]* (not verified: no quote)$' "$D/attest-log" &&
	grep -q "^key: $FP_FOREIGN " "$D/attest-log" && grep -qxF 'lock: locked at record 3, keys=1' "$D/attest-log" &&
	t_pass "vm notpm: elfsig-attest log reads it, and says it is not verified" ||
	t_fail "vm notpm: elfsig-attest log reads it, and says it is not verified" "exit $rc: $(tr '\n' ';' < "$D/attest-log")"

# --- adds racing the lock: N is the key admissions before the lock -----
# shellcheck disable=SC2016 # guest code, expanded in the guest
cat > "$W/race.sh" <<'EOF'
T=/opt/t
mount -t securityfs securityfs /sys/kernel/security
for i in 1 2 3; do
	(while keyctl padd asymmetric "" %keyring:.elfsig < $T/release.der > /dev/null 2>&1; do :; done) &
done
sleep 2
echo 1 > /proc/sys/fs/elfsig/lock
wait
base64 /sys/kernel/security/elfsig/binary_measurements > /tmp/log.b64
echo "ELFSIG-FILE-BEGIN log.bin"; cat /tmp/log.b64; echo "ELFSIG-FILE-END"
echo "ELFSIG-FILE-BEGIN pcr256"; base64 /sys/class/tpm/tpm0/pcr-sha256/13; echo "ELFSIG-FILE-END"
dmesg | grep -E 'BUG:|WARNING:|KASAN|UBSAN|Call Trace|possible .*locking'
EOF
mkdir -p "$W/race"
"$VMRUN" --kernel "$KERNEL" --add "$W/opt:t" --script "$W/race.sh" --timeout 180 > "$W/race.log" 2>&1
for f in log.bin pcr256; do
	awk -v f="$f" '$1 == "ELFSIG-FILE-BEGIN" && $2 == f {on=1; next}
		on && /^ELFSIG-FILE-END/ {on=0} on' "$W/race.log" | tr -d '\r' | base64 -d > "$W/race/$f" 2>/dev/null
done
D=$W/race
records "$D/log.bin" > "$D/records" 2>&1
pcr=$(tr 'A-F' 'a-f' < "$D/pcr256")
nkeys=$(sed -n '/ elfsig-lock /q; / \.elfsig /p' "$D/records" | wc -l)
if grep -qx "replay-sha256 $pcr" "$D/records" && [ "$nkeys" -gt 1 ] &&
   grep -q "^13 elfsig-lock sha256:[0-9a-f]* keys=$nkeys\$" "$D/records" &&
   ! sed -n '/ elfsig-lock /,$p' "$D/records" | grep -q ' \.elfsig '; then
	t_pass "vm race: three adders racing the lock: keys=$nkeys is the key records before it, none after, the log replays"
else
	t_fail "vm race: adders racing the lock" "$nkeys keys before the lock: $(grep -v ' \.elfsig ' "$D/records" | tr '\n' ';')"
fi
# Each add of the same certificate replaced the key before it: one key,
# listed once, keys=N the admissions.
"$ATTEST" log --log "$D/log.bin" > "$D/attest-log" 2>&1; rc=$?
[ $rc = 0 ] && [ "$(grep -c '^key: ' "$D/attest-log")" = 1 ] &&
	grep -q "^key: $FP_REL .*(record 1, added again: $nkeys admissions, the last at record [0-9]*, one key)\$" "$D/attest-log" &&
	grep -q "^lock: locked at record [0-9]*, keys=$nkeys (key admissions: 1 certificate, 0 of them replaced)\$" "$D/attest-log" &&
	t_pass "vm race: elfsig-attest lists the re-added key once, keys=$nkeys counted as admissions" ||
	t_fail "vm race: elfsig-attest lists the re-added key once" "exit $rc: $(tr '\n' ';' < "$D/attest-log")"
grep -qE 'BUG:|Oops|WARNING:|KASAN|UBSAN|Kernel panic|Call Trace' "$W/race.log" &&
	t_fail "vm race: kernel log clean" "$(grep -m1 -E 'BUG:|Oops|WARNING:|KASAN|UBSAN|Kernel panic|Call Trace' "$W/race.log")"

# --- the PCR: elfsig_pcr=14 is taken, 16 (resettable) is refused --------
boot pcr14 --append "elfsig_pcr=14 elfsig_test_pcr=14 elfsig_test_nonce=00"
D=$W/pcr14
records "$D/log.bin" > "$D/records" 2>&1
pcr=$(tr 'A-F' 'a-f' < "$D/pcr256")
head -1 "$D/records" | grep -qx '14 elfsig-init sha256:[0-9a-f]* elfsig log v1 pcr=14' &&
	grep -qx "replay-sha256 $pcr" "$D/records" &&
	[ "$(awk '$1 != 14 && $1 !~ /^replay/' "$D/records")" = "" ] &&
	t_pass "vm pcr14: elfsig_pcr=14: every record is for PCR 14, and replays to it" ||
	t_fail "vm pcr14: elfsig_pcr=14" "pcr14 $pcr: $(tr '\n' ';' < "$D/records")"
"$ATTEST" log --pcr 14 --log "$D/log.bin" > "$D/attest-log" 2>&1 &&
	grep -q "replay to PCR 14 sha256 $pcr" "$D/attest-log" &&
	t_pass "vm pcr14: elfsig-attest log --pcr 14 replays it" ||
	t_fail "vm pcr14: elfsig-attest log --pcr 14 replays it" "$(cat "$D/attest-log")"
boot pcr16 --append "elfsig_pcr=16 elfsig_test_nonce=00"
D=$W/pcr16
records "$D/log.bin" > "$D/records" 2>&1
head -1 "$D/records" | grep -qx '13 elfsig-init sha256:[0-9a-f]* elfsig log v1 pcr=13' &&
	grep -q "elfsig_pcr=16 refused" "$W/pcr16.log" &&
	t_pass "vm pcr16: elfsig_pcr=16 (resettable) is refused, the log stays on PCR 13" ||
	t_fail "vm pcr16: elfsig_pcr=16 is refused" "$(head -1 "$D/records"); $(grep elfsig_pcr "$W/pcr16.log")"
exit 0
