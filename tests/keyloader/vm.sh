#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The key loader on the patched kernel, in QEMU, with the guest's own swtpm
# kept across boots:
#   boot 1  enrols the release certificates under an enrolment authority,
#           with a signed PCR policy for the guest's PCR state;
#   boot 2  loads them from the initramfs: the signed program runs, one
#           signed by an unenrolled key is refused, the keyring is locked,
#           the load is measured and logged;
#   boot 3  the initramfs measures something else (a flag on the kernel
#           command line, standing for an update): nothing loads, the
#           keyring is still locked and the signed program is refused;
#   boot 4  the loader is SIGKILLed after it armed the kernel's
#           lock-on-close: the kernel locks .elfsig, a later add fails;
#   boot 5  the "update" of boot 3, with a PCR policy for it that the host
#           signed from a prediction (no TPM write): the keys load;
#   boot 6  back to the old state (a fallback boot): the keys load;
#   boot 7  the old state's PCR policy removed: nothing loads;
#   boot 8  the authority revokes the old state: the policy and the new
#           state's PCR policy signed again under generation 1 (on the
#           host); the first boot with them raises the guest's rollback
#           counter (epoch 0 -> 1);
#   boot 9  the old state's PCR policy (generation 0) restored, the old
#           state booted: it loads nothing (exit 13, rollback).
# The kernel admits only certificates of the test platform CA
# (CONFIG_ELFSIG_TRUSTED_KEYS): every certificate here is issued by it.
# Guest verdicts come back over the serial console as PASS:/FAIL: lines.
set -u
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/signer/fixtures.sh"
. "$TOP/tests/tpm/lib-tpm.sh"
fixtures_init
VMRUN=${VMRUN:-$TOP/tests/vm/run}
KERNEL=${KERNEL:-$TOP/build/kernel/bzImage-tiny}
[ -r "$KERNEL" ] || { t_fail "vm: kernel" "no kernel at $KERNEL (make kernel)"; exit 0; }

W=$T_TMP
mkdir -p "$W/stage/etc/elfsig/certs" "$W/opt" "$W/tpm"
"$TOP/tests/vm/stage-loader" "$W/stage" "$BUILD/elfsig-keyloader" \
	"$BUILD/elfsig-enroll" "$BUILD/elfsig-tpm" ||
	{ t_fail "vm: stage the loader"; exit 0; }

# Keys: the release key is enrolled, the other is only dropped in; the
# enrolment authority signs the policy and the PCR policies.
CA=$TOP/kernel/platform-ca.sh
"$CA" issue "$K/rsa2048.key" "$W/opt/release.pem" release &&
"$CA" issue "$K/rsa3072.key" "$W/opt/unenrolled.pem" unenrolled ||
	{ t_fail "vm: certificates from the platform CA" "kernel/platform-ca.sh failed (make kernel)"; exit 0; }
openssl x509 -in "$W/opt/unenrolled.pem" -outform DER -out "$W/opt/unenrolled.der"
"$SIGNELF" sign --key "$K/rsa2048.key" --cert "$W/opt/release.pem" \
	-o "$W/opt/hello.signed" "$FIX/bin/musl-static" >/dev/null
"$SIGNELF" sign --key "$K/rsa3072.key" --cert "$W/opt/unenrolled.pem" \
	-o "$W/opt/hello.unenrolled" "$FIX/bin/musl-static" >/dev/null
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$W/opt/auth.key" 2>/dev/null
# A second release key that never left a (host) TPM: ECDSA P-256.
if tpm_start && "$BUILD/elfsig-tpm" keygen --type ecc --out "$W/tpmkey.tss2.pem" \
	--subject "/CN=tpm release" --cert "$W/tpmkey.self.pem" >/dev/null &&
   openssl x509 -in "$W/tpmkey.self.pem" -pubkey -noout > "$W/tpmkey.pub" &&
   "$CA" issue "$W/tpmkey.pub" "$W/opt/tpmkey.pem" "tpm release" &&
   "$SIGNELF" sign --key "$W/tpmkey.tss2.pem" --cert "$W/opt/tpmkey.pem" \
	-o "$W/opt/hello.tpm" "$FIX/bin/musl-static"; then
	t_pass "vm: a program signed by a TPM-resident key"
else
	t_fail "vm: a program signed by a TPM-resident key"
fi

# boot VMNAME SCRIPT [RUN-ARGS...]: boot, keep the console in $W/VMNAME.log.
boot() {
	local name=$1 script=$2; shift 2
	"$VMRUN" --kernel "$KERNEL" --tpmstate "$W/tpm" --root "$W/stage" \
		--add "$W/opt:t" --script "$script" --timeout 120 "$@" \
		> "$W/$name.log" 2>&1
	local rc=$?
	if grep -qE 'BUG:|Oops|WARNING:|KASAN|UBSAN|Kernel panic' "$W/$name.log"; then
		t_fail "vm $name: kernel log clean" "$(grep -m1 -E 'BUG:|Oops|WARNING:|KASAN|UBSAN|panic' "$W/$name.log")"
	fi
	grep -q '^ELFSIG-VM: script exit' "$W/$name.log" ||
		t_fail "vm $name: boot ran the script" "exit $rc: $(tail -3 "$W/$name.log" | tr '\n' ' ')"
	# The guest's verdicts.
	grep -E '^(PASS|FAIL|SKIP): ' "$W/$name.log" | sed "s/^\(PASS\|FAIL\|SKIP\): /\1: vm $name: /"
}

# shellcheck disable=SC2016 # guest code, expanded in the guest
common='
export TPM2TOOLS_TCTI=device:/dev/tpmrm0
mkdir -p /run && mount -t tmpfs tmpfs /run
T=/opt/t
ok() { echo "PASS: $1"; }
ko() { echo "FAIL: $1: $2"; }
nkeys() { keyctl rlist %keyring:.elfsig 2>/dev/null | wc -w; }
'

# --- boot 1: enrol against this machine's own PCR state ----------------
ENROLMENT="policy policy.sig policy.sealed authority.pem counter counter.sig pcr-policies/boot.pcrpol"
cat > "$W/enrol.sh" <<EOF
$common
mkdir -p /tmp/e/pcr-policies
/usr/sbin/elfsig-enroll create \$T/release.pem \$T/tpmkey.pem --dir /tmp/e \
	--authority-key \$T/auth.key --pcrs sha256:0,2,4,7 && ok "enrol" || ko enrol "exit \$?"
mv /tmp/e/pcr-policies/*.pcrpol /tmp/e/pcr-policies/boot.pcrpol
for f in $ENROLMENT; do
	echo "ELFSIG-FILE-BEGIN \$f"; base64 /tmp/e/\$f; echo "ELFSIG-FILE-END"
done
echo "ELFSIG-FILE-BEGIN pcrs"; /usr/sbin/elfsig-tpm pcrread sha256:0,2,4,7 | base64; echo "ELFSIG-FILE-END"
EOF
boot enrol "$W/enrol.sh"
mkdir -p "$W/stage/etc/elfsig/pcr-policies"
for f in $ENROLMENT pcrs; do
	dest=$W/stage/etc/elfsig/$f
	[ "$f" = pcrs ] && dest=$W/boot.pcrs
	awk -v f="$f" '$1 == "ELFSIG-FILE-BEGIN" && $2 == f {on=1; next}
		on && /^ELFSIG-FILE-END/ {on=0} on' "$W/enrol.log" | base64 -d > "$dest"
done
if [ -s "$W/stage/etc/elfsig/policy.sealed" ] && [ -s "$W/stage/etc/elfsig/pcr-policies/boot.pcrpol" ] &&
   openssl dgst -sha256 -verify "$W/stage/etc/elfsig/authority.pem" \
	-signature "$W/stage/etc/elfsig/policy.sig" "$W/stage/etc/elfsig/policy" >/dev/null &&
   grep -q "$(openssl x509 -in "$W/opt/release.pem" -outform DER | sha256sum | cut -c1-64)" "$W/stage/etc/elfsig/policy"; then
	t_pass "vm enrol: the signed policy, the sealed object and a PCR policy came back from the guest"
else
	t_fail "vm enrol: the signed policy, the sealed object and a PCR policy came back from the guest"
fi
cp "$W/opt/release.pem" "$W/stage/etc/elfsig/certs/release.pem"
cp "$W/opt/tpmkey.pem" "$W/stage/etc/elfsig/certs/tpmkey.pem"
cp "$W/opt/unenrolled.pem" "$W/stage/etc/elfsig/certs/dropped-in.pem"

# --- boot 2 and 3: the loader runs first, as from the initramfs --------
cat > "$W/load.sh" <<EOF
$common
if grep -q elfsig_test_measure /proc/cmdline; then
	# A different early-boot state: measured before the loader runs.
	/usr/sbin/elfsig-tpm pcrextend --pcr 7 --data "test flag" >/dev/null
fi
/usr/sbin/elfsig-keyloader --kmsg /dev/kmsg > /tmp/loader.out 2>&1
rc=\$?
echo "loader exit \$rc: \$(cat /tmp/loader.out)"
n=\$(nkeys)
if keyctl padd asymmetric "" %keyring:.elfsig < \$T/unenrolled.der >/dev/null 2>&1; then
	ko "keyring locked: add after the loader" "a key was added"
else
	ok "keyring locked: add after the loader fails"
fi
[ "\$(nkeys)" = "\$n" ] && ok "no key added after the lock" || ko "no key added after the lock" "\$(nkeys) keys"
echo "measurement: \$(/usr/sbin/elfsig-tpm pcrread sha256:13)"
echo "event log:"; cat /run/elfsig/keyloader.log 2>/dev/null | sed 's/^/  /'
out=\$(\$T/hello.signed 2>&1); rc_signed=\$?
out2=\$(\$T/hello.unenrolled 2>&1); rc_unenrolled=\$?
out3=\$(\$T/hello.tpm 2>&1); rc_tpm=\$?
expect=load
grep -q elfsig_test_measure /proc/cmdline && expect=refuse
grep -q elfsig_test_expect=load /proc/cmdline && expect=load
grep -q elfsig_test_expect=refuse /proc/cmdline && expect=refuse
# A revoked generation: refused by the rollback counter (exit 13).
want=5
grep -q elfsig_test_expect=rollback /proc/cmdline && { expect=refuse; want=13; }
grep "enrolment unsealed under\|rollback counter\|revoked" /tmp/loader.out
if [ \$expect = refuse ]; then
	[ "\$rc" = \$want ] && ok "changed PCR state: loader reports the refusal (exit \$want)" ||
		ko "changed PCR state: loader exit \$want" "exit \$rc"
	[ "\$n" = 0 ] && ok "changed PCR state: no key loaded" || ko "changed PCR state: no key loaded" "\$n keys"
	# 126: the exec refused (no key for its signer: nothing is copied), >= 128: killed
	{ [ "\$rc_signed" = 126 ] || [ "\$rc_signed" -ge 128 ]; } && ok "changed PCR state: the signed program is refused (\$rc_signed)" ||
		ko "changed PCR state: the signed program is refused" "exit \$rc_signed: \$out"
else
	# 1: loaded every enrolled key, refused a file (the dropped-in one).
	[ "\$rc" = 1 ] && ok "loader: enrolled keys loaded, a file refused (exit 1)" ||
		ko "loader: enrolled keys loaded, a file refused (exit 1)" "exit \$rc"
	[ "\$n" = 2 ] && ok "exactly the two enrolled keys are loaded" || ko "exactly the two enrolled keys are loaded" "\$n keys"
	[ "\$rc_tpm" = 0 ] && [ "\$out3" = "hello from a signed binary" ] &&
		ok "the program signed by the TPM key runs" || ko "the program signed by the TPM key runs" "exit \$rc_tpm: \$out3"
	grep -q "dropped-in" /tmp/loader.out && ok "the dropped-in certificate is named and refused" ||
		ko "the dropped-in certificate is named and refused" "\$(cat /tmp/loader.out)"
	[ "\$rc_signed" = 0 ] && [ "\$out" = "hello from a signed binary" ] &&
		ok "the signed program runs" || ko "the signed program runs" "exit \$rc_signed: \$out"
	{ [ "\$rc_unenrolled" = 126 ] || [ "\$rc_unenrolled" -ge 128 ]; } && ok "a program signed by an unenrolled key is refused (\$rc_unenrolled)" ||
		ko "a program signed by an unenrolled key is refused" "exit \$rc_unenrolled: \$out2"
	# The kernel measures (patch 12): the loader extends no PCR.
	grep -q "the kernel measures .elfsig" /tmp/loader.out &&
		ok "the loader leaves the measurement to the kernel" ||
		ko "the loader leaves the measurement to the kernel" "\$(cat /tmp/loader.out)"
	[ ! -s /run/elfsig/keyloader.log ] && ok "the loader writes no event log of its own" ||
		ko "the loader writes no event log of its own" "\$(head -2 /run/elfsig/keyloader.log)"
fi
# The kernel's log and PCR 13, for the host to replay.
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
echo "ELFSIG-FILE-BEGIN klog"; base64 /sys/kernel/security/elfsig/binary_measurements; echo "ELFSIG-FILE-END"
echo "ELFSIG-PCR13 \$(cat /sys/class/tpm/tpm0/pcr-sha256/13)"
dmesg | grep -i elfsig | tail -5 | sed 's/^/  kmsg: /'
EOF
boot load "$W/load.sh"
boot changed "$W/load.sh" --append elfsig_test_measure=1

# The kernel's log is the whole story of PCR 13: the loader added nothing.
# kreplay NAME KEYS: the log replays to the guest's PCR 13 and names KEYS
# keys (the enrolled ones, never the dropped-in one), then the lock.
kreplay() {
	local name=$1 pcr
	awk '$1 == "ELFSIG-FILE-BEGIN" && $2 == "klog" {on=1; next}
		on && /^ELFSIG-FILE-END/ {on=0} on' "$W/$name.log" | tr -d '\r' |
		base64 -d > "$W/$name.klog" 2>/dev/null
	pcr=$(sed -n 's/^ELFSIG-PCR13 \([0-9A-Fa-f]*\).*/\1/p' "$W/$name.log" | tr 'A-F' 'a-f')
	"$BUILD/elfsig-attest" log --log "$W/$name.klog" > "$W/$name.report" 2>&1
	if [ -n "$pcr" ] && grep -q "replay to PCR 13 sha256 $pcr" "$W/$name.report"; then
		t_pass "vm $name: PCR 13 is exactly the replay of the kernel's log (no userspace extend)"
	else
		t_fail "vm $name: PCR 13 is exactly the replay of the kernel's log" "pcr $pcr: $(tr '\n' ';' < "$W/$name.report")"
	fi
	if [ "$(grep -c '^key: sha256:' "$W/$name.report")" = "$2" ] &&
	   grep -q "^lock: locked at record $(($2 + 2)), keys=$2" "$W/$name.report" &&
	   ! grep -q "$(openssl x509 -in "$W/opt/unenrolled.pem" -outform DER | sha256sum | cut -c1-64)" "$W/$name.report"; then
		t_pass "vm $name: the kernel's log names the $2 loaded keys and the lock"
	else
		t_fail "vm $name: the kernel's log names the $2 loaded keys and the lock" "$(tr '\n' ';' < "$W/$name.report")"
	fi
}
kreplay load 2
kreplay changed 0

# --- boot 4: the loader is killed after it armed the kernel's lock ------
# It is stopped as soon as the kernel logs the arming (it would otherwise
# finish and lock by itself), checked to be still unlocked, then killed.
cat > "$W/kill.sh" <<EOF
$common
lockval() { cat /proc/sys/fs/elfsig/lock; }
/usr/sbin/elfsig-keyloader > /tmp/loader.out 2>&1 &
pid=\$!
i=0
until dmesg | grep -q "lock-on-close armed by pid \$pid " || [ \$i -ge 2000 ]; do i=\$((i + 1)); done
kill -STOP \$pid
if [ "\$(lockval)" = 1 ]; then
	echo "SKIP: the loader locked before it could be stopped"
else
	ok "the loader armed lock-on-close and is stopped before its own lock"
	kill -KILL \$pid; kill -CONT \$pid; wait \$pid
	[ "\$(lockval)" = 1 ] && ok "loader SIGKILLed while armed: .elfsig is locked" ||
		ko "loader SIGKILLed while armed: .elfsig is locked" "lock reads \$(lockval)"
	dmesg | grep -q "elfsig: keyring locked (lock-on-close)" &&
		ok "the kernel logs the lock on close" || ko "the kernel logs the lock on close" "\$(dmesg | grep elfsig: | tail -3)"
	if keyctl padd asymmetric "" %keyring:.elfsig < \$T/unenrolled.der >/dev/null 2>&1; then
		ko "after the killed loader: keyctl padd refused" "a key was added"
	else
		ok "after the killed loader: keyctl padd refused"
	fi
fi
dmesg | grep -i elfsig | tail -5 | sed 's/^/  kmsg: /'
EOF
boot killed "$W/kill.sh"

# --- boot 5-7: an update approved by a signature, the fallback, revocation
# The "update" extends SHA-256("test flag") into PCR 7 of the sha256 bank:
# predicted here from boot 1's values and signed on the host, where the
# authority key is, with no TPM.
python3 - "$W/boot.pcrs" > "$W/updated.pcrs" <<'PY'
import hashlib, sys
for line in open(sys.argv[1]):
    k, v = line.strip().split("=")
    if k == "sha256:7":
        v = hashlib.sha256(bytes.fromhex(v) + hashlib.sha256(b"test flag").digest()).hexdigest()
    print(f"{k}={v}")
PY
sealed_before=$(sha256sum < "$W/stage/etc/elfsig/policy.sealed")
if TPM2TOOLS_TCTI=swtpm:host=127.0.0.1,port=1 "$BUILD/elfsig-enroll" sign-pcr-policy \
	--dir "$W/stage/etc/elfsig" --authority-key "$W/opt/auth.key" \
	--pcr-values "$W/updated.pcrs" -o "$W/stage/etc/elfsig/pcr-policies/updated.pcrpol" >/dev/null; then
	t_pass "vm: the host signs a PCR policy for the predicted state, without a TPM"
else
	t_fail "vm: the host signs a PCR policy for the predicted state, without a TPM"
fi
boot updated "$W/load.sh" --append "elfsig_test_measure=1 elfsig_test_expect=load"
grep -q "enrolment unsealed under /etc/elfsig/pcr-policies/updated.pcrpol" "$W/updated.log" &&
	t_pass "vm updated: the enrolment opened under the new state's PCR policy" ||
	t_fail "vm updated: the enrolment opened under the new state's PCR policy"
boot fallback "$W/load.sh"
grep -q "enrolment unsealed under /etc/elfsig/pcr-policies/boot.pcrpol" "$W/fallback.log" &&
	t_pass "vm fallback: the old state still opens under its PCR policy" ||
	t_fail "vm fallback: the old state still opens under its PCR policy"
[ "$(sha256sum < "$W/stage/etc/elfsig/policy.sealed")" = "$sealed_before" ] &&
	t_pass "vm: the update took no TPM write (the sealed object is the one of boot 1)" ||
	t_fail "vm: the update took no TPM write"
mv "$W/stage/etc/elfsig/pcr-policies/boot.pcrpol" "$W/boot.pcrpol.gen0"
boot revoked "$W/load.sh" --append elfsig_test_expect=refuse

# --- boot 8-9: revoke the old state for good (rollback protection) -----
# The authority signs the still-valid files (the policy, the new state's
# PCR policy) again under generation 1, on the host without a TPM; the
# guest's first boot with them raises its counter. Then the old state's
# file comes back (a restored image): it opens nothing.
if "$BUILD/elfsig-enroll" resign --dir "$W/stage/etc/elfsig" \
	--authority-key "$W/opt/auth.key" --generation 1 >/dev/null &&
   grep -q "^generation 1$" "$W/stage/etc/elfsig/policy" &&
   grep -q "^generation 1$" "$W/stage/etc/elfsig/pcr-policies/updated.pcrpol"; then
	t_pass "vm: the host signs the files again under generation 1, without a TPM"
else
	t_fail "vm: the host signs the files again under generation 1, without a TPM"
fi
boot advanced "$W/load.sh" --append "elfsig_test_measure=1 elfsig_test_expect=load"
grep -q "rollback counter 0x0100e15f: epoch 0 -> 1: files of an older generation are refused from now on" "$W/advanced.log" &&
	t_pass "vm advanced: the first boot with generation 1 raises the guest's epoch to 1" ||
	t_fail "vm advanced: the first boot with generation 1 raises the guest's epoch to 1" \
		"$(grep -m3 'loader exit\|rollback' "$W/advanced.log" | tr '\n' ' ')"
cp "$W/boot.pcrpol.gen0" "$W/stage/etc/elfsig/pcr-policies/boot.pcrpol"
boot restored "$W/load.sh" --append elfsig_test_expect=rollback
grep -q "boot.pcrpol: refused: generation 0 is revoked on this machine (epoch 1)" "$W/restored.log" &&
	t_pass "vm restored: the old state's PCR policy (generation 0) is refused as revoked" ||
	t_fail "vm restored: the old state's PCR policy (generation 0) is refused as revoked" \
		"$(grep -m3 'loader exit\|revoked' "$W/restored.log" | tr '\n' ' ')"
exit 0
