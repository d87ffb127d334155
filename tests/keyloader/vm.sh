#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The key loader on the patched kernel, in QEMU, with the guest's own swtpm
# kept across boots:
#   boot 1  enrols the release certificate against the guest's PCR state;
#   boot 2  loads it from the initramfs: the signed program runs, one signed
#           by an unenrolled key is killed, the keyring is locked, the load
#           is measured and logged;
#   boot 3  the initramfs measures something else (a flag on the kernel
#           command line): nothing loads, the keyring is still locked and
#           the signed program is killed;
#   boot 4  the loader is SIGKILLed after it armed the kernel's
#           lock-on-close: the kernel locks .elfsig, a later add fails.
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

# Keys: the release key is enrolled, the other is only dropped in.
CA=$TOP/kernel/platform-ca.sh
"$CA" issue "$K/rsa2048.key" "$W/opt/release.pem" release &&
"$CA" issue "$K/rsa3072.key" "$W/opt/unenrolled.pem" unenrolled ||
	{ t_fail "vm: certificates from the platform CA" "kernel/platform-ca.sh failed (make kernel)"; exit 0; }
openssl x509 -in "$W/opt/unenrolled.pem" -outform DER -out "$W/opt/unenrolled.der"
"$SIGNELF" sign --key "$K/rsa2048.key" --cert "$W/opt/release.pem" \
	-o "$W/opt/hello.signed" "$FIX/bin/musl-static" >/dev/null
"$SIGNELF" sign --key "$K/rsa3072.key" --cert "$W/opt/unenrolled.pem" \
	-o "$W/opt/hello.unenrolled" "$FIX/bin/musl-static" >/dev/null
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
cat > "$W/enrol.sh" <<EOF
$common
/usr/sbin/elfsig-enroll create \$T/release.pem \$T/tpmkey.pem --policy /tmp/policy \
	--sealed /tmp/policy.sealed --pcrs sha256:0,2,4,7 && ok "enrol" || ko enrol "exit \$?"
for f in policy policy.sealed; do
	echo "ELFSIG-FILE-BEGIN \$f"; base64 /tmp/\$f; echo "ELFSIG-FILE-END"
done
EOF
boot enrol "$W/enrol.sh"
for f in policy policy.sealed; do
	awk -v f="$f" '$1 == "ELFSIG-FILE-BEGIN" && $2 == f {on=1; next}
		on && /^ELFSIG-FILE-END/ {on=0} on' "$W/enrol.log" | base64 -d > "$W/stage/etc/elfsig/$f"
done
if [ -s "$W/stage/etc/elfsig/policy.sealed" ] && grep -q "$(openssl x509 -in "$W/opt/release.pem" -outform DER | sha256sum | cut -c1-64)" "$W/stage/etc/elfsig/policy"; then
	t_pass "vm enrol: policy and sealed digest came back from the guest"
else
	t_fail "vm enrol: policy and sealed digest came back from the guest"
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
if grep -q elfsig_test_measure /proc/cmdline; then
	[ "\$rc" = 5 ] && ok "changed PCR state: loader reports the mismatch (exit 5)" ||
		ko "changed PCR state: loader exit 5" "exit \$rc"
	[ "\$n" = 0 ] && ok "changed PCR state: no key loaded" || ko "changed PCR state: no key loaded" "\$n keys"
	[ "\$rc_signed" -ge 128 ] && ok "changed PCR state: the signed program is killed (\$rc_signed)" ||
		ko "changed PCR state: the signed program is killed" "exit \$rc_signed: \$out"
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
	[ "\$rc_unenrolled" -ge 128 ] && ok "a program signed by an unenrolled key is killed (\$rc_unenrolled)" ||
		ko "a program signed by an unenrolled key is killed" "exit \$rc_unenrolled: \$out2"
	grep -q locked /run/elfsig/keyloader.log && ok "the event log records the lock" ||
		ko "the event log records the lock" "no log"
fi
dmesg | grep -i elfsig | tail -5 | sed 's/^/  kmsg: /'
EOF
boot load "$W/load.sh"
boot changed "$W/load.sh" --append elfsig_test_measure=1

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
exit 0
