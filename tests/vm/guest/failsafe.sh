# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# The fail-safe lock of .elfsig, run inside the guest by
# tests/vm/test-kernel.sh, one boot per case (the lock is one way):
#   elfsig_failsafe=arm   a holder of the lock-on-close file is SIGKILLed
#   elfsig_failsafe=pid1  no loader ran; PID 1 execs a second stage
#                         (tests/vm/run --stage2, this same script)
# Verdicts as in cases.sh; the run ends with ELFSIG-DONE.

T=/opt/t
P=$T/probe
ARM=/sys/kernel/security/elfsig/lock-on-close
mountpoint -q /sys/kernel/security ||
	mount -t securityfs securityfs /sys/kernel/security
CASE=arm
case " $(cat /proc/cmdline) " in
*" elfsig_failsafe=pid1 "*) CASE=pid1 ;;
esac

pass() { echo "ELFSIG-RESULT: PASS: failsafe $CASE: $1"; }
fail() { echo "ELFSIG-RESULT: FAIL: failsafe $CASE: $1: $2"; }
oneline() { echo "$1" | tr '\n' ' '; }
lockval() { read -r _l < /proc/sys/fs/elfsig/lock; echo "$_l"; }
nkeys() { keyctl rlist %keyring:.elfsig | wc -w; }
padd_elfsig() { keyctl padd asymmetric "" %keyring:.elfsig < "$1" > /dev/null 2>&1; }
expect_klog() {
	case "$($P dmesg)" in
	*"elfsig: $2"*) pass "$1" ;;
	*) fail "$1" "no log line 'elfsig: $2'" ;;
	esac
}
runs() { # NAME BINARY: a signed binary runs, verified
	OUT=$($P exec "$2" 2>&1)
	case "$OUT" in
	*hello*"RESULT exit 0"*) pass "$1" ;;
	*) fail "$1" "$(oneline "$OUT")" ;;
	esac
}
after_lock() { # the keyring is locked, with the one key added before
	[ "$(lockval)" = 1 ] && pass "$1: .elfsig is locked" || fail "$1: .elfsig is locked" "lock reads $(lockval)"
	if padd_elfsig $T/late.der; then fail "$1: a later keyctl padd is refused" "it was added"; else pass "$1: a later keyctl padd is refused"; fi
	[ "$(nkeys)" = 1 ] && pass "$1: the key added before stays" || fail "$1: the key added before stays" "$(nkeys) keys"
	runs "$1: a binary signed by that key runs" $T/hello.p256
}

if [ $$ = 1 ]; then
	# Stage 2: PID 1's second exec, as when an initramfs hands over.
	after_lock "PID 1 exec'd again"
	expect_klog "log: locked by PID 1" "keyring locked (PID 1 left the initramfs): 1 key"
	$P dmesg | while IFS= read -r l; do echo "KMSG: $l"; done
	echo "ELFSIG-DONE"
	sync
	poweroff -f
	exit 0
fi

[ "$(lockval)" = 0 ] && pass "unlocked at boot" || fail "unlocked at boot" "lock reads $(lockval)"
padd_elfsig $T/certs/p256.der && pass "a key is added before the lock" || fail "a key is added before the lock" "padd failed"

case $CASE in
arm)
	OUT=$($P run-as 1000 /bin/busybox cat $ARM 2>&1)
	case "$OUT" in
	*"RESULT exit 0"*) fail "uid 1000 cannot open lock-on-close" "$(oneline "$OUT")" ;;
	*) pass "uid 1000 cannot open lock-on-close" ;;
	esac
	[ "$(lockval)" = 0 ] && pass "control: a failed open does not lock" || fail "control: a failed open does not lock" "lock reads $(lockval)"
	# The holder stands in for the loader: it arms, then is killed.
	sleep 60 3< $ARM &
	H=$!
	sleep 1
	[ "$(lockval)" = 0 ] && pass "armed: not locked while the holder lives" || fail "armed: not locked while the holder lives" "lock reads $(lockval)"
	expect_klog "log: armed" "lock-on-close armed by pid $H"
	kill -9 $H
	wait $H 2>/dev/null
	after_lock "holder SIGKILLed while armed"
	expect_klog "log: locked on close" "keyring locked (lock-on-close): 1 key"
	;;
pid1)
	[ "$(lockval)" = 0 ] && pass "stage 1 (the initramfs): not locked" || fail "stage 1 (the initramfs): not locked" "lock reads $(lockval)"
	;;
esac
[ $CASE = arm ] && $P dmesg | while IFS= read -r l; do echo "KMSG: $l"; done
[ $CASE = arm ] && echo "ELFSIG-DONE"
exit 0
