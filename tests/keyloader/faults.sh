#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# TPM faults say what they are: the loader's exit status follows the cause
# (a TPM or transport fault is 4, never the rollback status 13), the
# watchdog fires whatever signal mask the parent left, and a FIFO named as
# an input is refused at once. Against a real swtpm, the real keyring, a
# TPM interposer (tests/tools/tpmproxy.py) and a TPM that never answers.
set -u
. "$(dirname "$0")/lib-kl.sh"

kl_loader_suite 3 tpm2_createprimary tpm2_flushcontext
TPM_TOOL=$BUILD/elfsig-tpm
ATTEST=$BUILD/elfsig-attest
PROXY=$TOP/tests/tools/tpmproxy.py
swport=${TPM2TOOLS_TCTI##*port=}

D=$T_TMP/e
mkdir -p "$D/certs"
cp "$T_TMP/k1.pem" "$T_TMP/k2.pem" "$D/certs/"
(cd "$T_TMP" && "$ENROLL" create -d "$D" -K "$T_TMP/auth.key" k1.pem k2.pem) \
	>"$T_TMP/create.out" 2>&1 || { t_fail "create" "$(cat "$T_TMP/create.out")"; exit 1; }
kl_load base
kl_expect "the enrolment loads on its TPM" 0 2

# proxy NAME ARGS...: tests/tools/tpmproxy.py ARGS...; sets PPORT.
proxy() {
	local pf=$T_TMP/$1.port; shift
	python3 "$PROXY" "$pf" "$@" 2>"$pf.err" &
	t_on_exit "kill $! 2>/dev/null"
	for _ in $(seq 1 100); do [ -s "$pf" ] && break; sleep 0.05; done
	PPORT=$(cat "$pf" 2>/dev/null)
	[ -n "$PPORT" ]
}

# 1. Another TPM user holds every transient object slot: a TPM fault
# (4), named as such, not a rollback (13) sending the operator to
# rebind the counter. Freed, the same files load.
for i in 1 2 3; do
	tpm2_createprimary -C o -G ecc -c "$T_TMP/hog$i.ctx" >/dev/null 2>&1
done
if tpm2_createprimary -C o -G ecc -c "$T_TMP/hog4.ctx" >/dev/null 2>&1; then
	t_fail "slot exhaustion: setup" "a fourth transient object still fits"
fi
kl_load slots
kl_expect "slots taken by another TPM user: exit 4 (tpm-error), 0 keys, locked" 4 0 \
	"elfsig-keyloader: *TPM out of object or session slots*: no key loaded (a TPM fault, not *"
grep -q "rollback\|elfsig-enroll counter" "$D/out" &&
	t_fail "slot exhaustion: no rollback advice" "$(tr '\n' '|' < "$D/out")" ||
	t_pass "slot exhaustion: no line speaks of rollback or rebinding the counter"
tpm2_flushcontext -t >/dev/null 2>&1
kl_load freed
kl_expect "the slots freed: the same files load" 0 2

# 2. A forged NV_Read response (one byte of the counter's value flipped
# between the swtpm and the loader): the response HMAC of the session
# salted with the pinned SRK fails: a TPM/transport fault (4), not a
# rollback.
if proxy flip "$swport" --flip 0x14e; then
	kl_load forged -T "swtpm:host=127.0.0.1,port=$PPORT"
	kl_expect "forged NV_Read response: exit 4 (tpm-error), 0 keys, locked" 4 0 \
		"elfsig-keyloader: rollback counter 0x*: cannot be read: TPM authorisation or response authentication failed: no key loaded (a TPM fault, not a rollback*"
	grep -q "^flipped byte 16 of the response to 0x14e" "$T_TMP/flip.port.log" &&
		t_pass "forged NV_Read: the proxy did alter the NV_Read response" ||
		t_fail "forged NV_Read: the proxy altered nothing" "$(cat "$T_TMP/flip.port.log")"
	grep -q "rollback counter .*elfsig-enroll counter" "$D/out" &&
		t_fail "forged NV_Read: no rebinding advice" "$(tr '\n' '|' < "$D/out")" ||
		t_pass "forged NV_Read: no line sends the operator to rebind the counter"
else
	t_fail "forged NV_Read" "the proxy did not start: $(cat "$T_TMP/flip.port.err")"
fi
# The same proxy passing everything through: the files load (the proxy
# itself is transparent, the flip is what failed).
if proxy pass "$swport" --flip 0; then
	kl_load passthrough -T "swtpm:host=127.0.0.1,port=$PPORT"
	kl_expect "through the proxy altering nothing: both keys load" 0 2
fi

# 3. The parent blocked SIGALRM (the mask survives exec) and the TPM
# never answers: the watchdog still fires.
blocked() {
	python3 -c 'import os, signal, sys
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
os.execv(sys.argv[1], sys.argv[1:])' "$@"
}
if proxy silent 0 --silent; then
	KR=$(keyctl newring kr-blocked @s)
	timeout 40 bash -c "$(declare -f blocked); blocked \"\$@\"" _ \
		"$KL" -d "$D" -k "$KR" --kmsg none -T "swtpm:host=127.0.0.1,port=$PPORT" \
		--timeout 2 >"$D/out" 2>&1
	RC=$?
	kl_expect "SIGALRM blocked by the parent, silent TPM: the watchdog fires (exit 10), 0 keys, locked" 10 0 \
		"elfsig-keyloader: timed out: keyring locked, exiting"
	timeout 40 bash -c "$(declare -f blocked); blocked \"\$@\"" _ \
		"$TPM_TOOL" srkname --tcti "swtpm:host=127.0.0.1,port=$PPORT" --timeout 2 \
		>"$T_TMP/tool.out" 2>&1
	rc=$?
	[ "$rc" = 3 ] && grep -qx "elfsig-tpm: TPM not reachable at swtpm:host=127.0.0.1,port=$PPORT: no answer within 2 s" "$T_TMP/tool.out" &&
		t_pass "SIGALRM blocked, silent TPM: elfsig-tpm's watchdog fires (exit 3, one line)" ||
		t_fail "SIGALRM blocked: elfsig-tpm" "exit $rc: $(cat "$T_TMP/tool.out")"
else
	t_fail "silent TPM" "the stand-in did not start"
fi

# 4. A FIFO named as an input: refused at once (no writer ever comes;
# timeout's 124 would be a hang), one line.
mkfifo "$T_TMP/fifo"
# OpenSSL that cannot hash (only the null provider active, as a broken
# or hostile OPENSSL_CONF leaves it): the policy's digest cannot be
# taken, and the loader says so and loads nothing, instead of going on
# with a digest it never computed.
printf '%s\n' 'openssl_conf = openssl_init' '[openssl_init]' \
	'providers = provider_sect' '[provider_sect]' 'null = null_sect' \
	'[null_sect]' 'activate = 1' > "$T_TMP/nosha.cnf"
OPENSSL_CONF=$T_TMP/nosha.cnf kl_load nosha
kl_expect "no SHA-256 in OpenSSL: exit 3 (input), 0 keys, locked, the cause named" 3 0 \
	"elfsig-keyloader: cannot compute a SHA-256 digest*"

# refused NAME LINE CMD...: CMD exits non-zero, not 124, and says LINE.
refused() {
	local name=$1 line=$2; shift 2
	timeout 20 "$@" >"$T_TMP/fifo.out" 2>&1
	local rc=$?
	if [ "$rc" = 0 ] || [ "$rc" = 124 ]; then
		t_fail "$name" "exit $rc: $(cat "$T_TMP/fifo.out")"
	elif ! grep -qxF "$line" "$T_TMP/fifo.out"; then
		t_fail "$name" "exit $rc: $(cat "$T_TMP/fifo.out")"
	else
		t_pass "$name (exit $rc)"
	fi
}
refused "elfsig-tpm unseal --in FIFO: refused" \
	"elfsig-tpm: $T_TMP/fifo: not a regular file" \
	"$TPM_TOOL" unseal --in "$T_TMP/fifo" --out "$T_TMP/secret"
refused "elfsig-tpm unseal --tss FIFO FIFO: refused" \
	"elfsig-tpm: $T_TMP/fifo: not a regular file" \
	"$TPM_TOOL" unseal --tss "$T_TMP/fifo" "$T_TMP/fifo" --pcrs sha256:0 --out "$T_TMP/secret"
refused "elfsig-attest verify --log FIFO: refused" \
	"elfsig-attest: $T_TMP/fifo: not a regular file" \
	"$ATTEST" verify --ak-pub "$T_TMP/fifo" --msg "$T_TMP/fifo" --sig "$T_TMP/fifo" \
	--nonce 00 --log "$T_TMP/fifo"
refused "elfsig-enroll add FIFO: refused" \
	"elfsig-enroll: $T_TMP/fifo: not a regular file" \
	"$ENROLL" add -d "$D" -K "$T_TMP/auth.key" "$T_TMP/fifo"
[ ! -e "$T_TMP/secret" ] && t_pass "nothing written after a refused input" ||
	t_fail "nothing written after a refused input"

exit 0
