#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tpm/ + signer/: sign ELF files with keys that live in the TPM; signelf
# verify and plain `openssl cms -verify` accept the result.
set -u
. "$(dirname "$0")/lib-tpm.sh"
tpm_need swtpm openssl objcopy tpm2_getcap
SIGNELF=${SIGNELF:-$BUILD/signelf}
[ -x "$SIGNELF" ] || { t_fail signelf "$SIGNELF not built"; exit 0; }
t_mktemp
tpm_start || { t_fail tpm-start "cannot start swtpm"; exit 0; }
T=$TPM_TOOL
D=$T_TMP

cat >"$D/hello.c" <<'EOC'
#include <stdio.h>
int main(void) { puts("hello from a TPM-signed binary"); return 0; }
EOC
if command -v musl-gcc >/dev/null; then
	musl-gcc -O2 -static -o "$D/hello" "$D/hello.c"
else
	gcc -O2 -static -o "$D/hello" "$D/hello.c"
fi || { t_fail build-fixture "cannot build a static binary"; exit 0; }

# Both key types, both key forms.
$T keygen --type ecc --handle 0x81000001 --subject "/CN=elfsig TPM ECC" --cert "$D/ecc.pem" >/dev/null &&
	$T keygen --type rsa --out "$D/rsa.tss2.pem" --subject "/CN=elfsig TPM RSA" --cert "$D/rsa.pem" >/dev/null &&
	$T keygen --type rsa --handle 0x81000002 --subject "/CN=elfsig TPM RSA handle" --cert "$D/rsah.pem" >/dev/null &&
	$T keygen --type ecc --out "$D/ecc.tss2.pem" --subject "/CN=elfsig TPM ECC file" --cert "$D/eccf.pem" >/dev/null ||
	{ t_fail keygen "could not create the TPM keys"; exit 0; }

# check NAME KEY CERT: sign, then both verifiers accept, and a tampered
# copy is refused by both.
check() {
	local name=$1 key=$2 cert=$3 f=$D/$1
	cp "$D/hello" "$f"
	if ! "$SIGNELF" sign --key "$key" --cert "$cert" "$f" 2>"$D/err"; then
		t_fail "$name: sign" "$(cat "$D/err")"; return
	fi
	"$SIGNELF" verify --cert "$cert" "$f" >/dev/null 2>&1 &&
		t_pass "$name: signelf verify" || t_fail "$name: signelf verify"
	"$SIGNELF" digest --message "$D/msg" "$f" >/dev/null &&
		objcopy --dump-section .signature="$D/sig.der" "$f" "$D/discard"
	if openssl cms -verify -binary -inform DER -in "$D/sig.der" -content "$D/msg" \
		-certfile "$cert" -CAfile "$cert" -purpose any -out /dev/null 2>"$D/err"; then
		t_pass "$name: openssl cms -verify"
	else
		t_fail "$name: openssl cms -verify" "$(head -1 "$D/err")"
	fi
	[ "$("$f")" = "hello from a TPM-signed binary" ] && t_pass "$name: still runs" ||
		t_fail "$name: still runs"
	# flip one byte of the program text: both verifiers must refuse
	cp "$f" "$f.bad"
	off=$(readelf -SW "$f" | sed 's/^ *\[ *[0-9]*\]//' | awk '$1 == ".text" { print $4; exit }')
	[ -n "$off" ] || { t_fail "$name: find .text"; return; }
	off=$((0x$off + 16))
	printf '\xcc' | dd of="$f.bad" bs=1 seek="$off" conv=notrunc 2>/dev/null
	"$SIGNELF" verify --cert "$cert" "$f.bad" >/dev/null 2>&1 &&
		t_fail "$name: tampered file refused" || t_pass "$name: tampered file refused"
	"$SIGNELF" digest --message "$D/msg.bad" "$f.bad" >/dev/null
	openssl cms -verify -binary -inform DER -in "$D/sig.der" -content "$D/msg.bad" \
		-certfile "$cert" -CAfile "$cert" -purpose any -out /dev/null 2>/dev/null &&
		t_fail "$name: cms refuses tampered digest" || t_pass "$name: cms refuses tampered digest"
}
check ecc-handle handle:0x81000001 "$D/ecc.pem"
check rsa-tss2-file "$D/rsa.tss2.pem" "$D/rsa.pem"
check rsa-handle handle:0x81000002 "$D/rsah.pem"
check ecc-tss2-file "$D/ecc.tss2.pem" "$D/eccf.pem"

# the other TPM key's certificate does not verify it
cp "$D/hello" "$D/x"
"$SIGNELF" sign --key handle:0x81000001 --cert "$D/ecc.pem" "$D/x" 2>/dev/null
"$SIGNELF" verify --cert "$D/rsa.pem" "$D/x" >/dev/null 2>&1 &&
	t_fail wrong-cert-refused || t_pass wrong-cert-refused

# A persistent handle that holds nothing: one line, the TPM's own reason.
# (lib-tpm.sh silences the TSS with TSS2_LOG; signelf quotes it when unset.)
cp "$D/hello" "$D/nokey"
out=$(env -u TSS2_LOG "$SIGNELF" sign --key handle:0x81000077 --cert "$D/ecc.pem" "$D/nokey" 2>&1)
rc=$?
[ "$rc" = 5 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] &&
	printf '%s' "$out" | grep -q "handle:0x81000077: cannot load the private key: TPM error 0x18b: .*handle" &&
	cmp -s "$D/nokey" "$D/hello" && t_pass "an empty handle: one line with the decoded TPM error" ||
	t_fail "an empty handle: one line with the decoded TPM error" "rc=$rc $out"

# A TSS2 PEM written by tpm2_encodeobject with emptyAuth false for a key
# whose auth value is empty: `--key-pass pass:` signs with it, as
# `openssl pkey -passin pass:` reads it; without any password and without
# a terminal, signelf never waits for one.
if command -v tpm2_encodeobject >/dev/null; then
	tpm2_createprimary -Q -C o -g sha256 -G ecc256:aes128cfb -c "$D/prim.ctx" &&
		tpm2_evictcontrol -Q -C o -c "$D/prim.ctx" 0x81000010 >/dev/null &&
		tpm2_flushcontext -t &&
		tpm2_create -Q -C 0x81000010 -G rsa2048 -u "$D/e.pub" -r "$D/e.priv" \
			-a 'fixedtpm|fixedparent|sensitivedataorigin|userwithauth|sign' &&
		tpm2_flushcontext -t &&
		tpm2_encodeobject -C 0x81000010 -u "$D/e.pub" -r "$D/e.priv" -p -o "$D/ea.pem" &&
		openssl req -new -x509 -provider tpm2 -provider default -key "$D/ea.pem" \
			-passin pass: -subj /CN=emptyauth -out "$D/ea.crt" 2>/dev/null
	tpm2_flushcontext -t 2>/dev/null
	if [ -s "$D/ea.crt" ]; then
		cp "$D/hello" "$D/ea"
		"$SIGNELF" sign --key "$D/ea.pem" --cert "$D/ea.crt" --key-pass pass: "$D/ea" 2>"$D/err" &&
			"$SIGNELF" verify -q --cert "$D/ea.crt" "$D/ea" &&
			t_pass "emptyAuth false, empty password: --key-pass pass: signs" ||
			t_fail "emptyAuth false, empty password: --key-pass pass: signs" "$(cat "$D/err")"
		cp "$D/hello" "$D/ea2"
		timeout 20 "$SIGNELF" sign --key "$D/ea.pem" --cert "$D/ea.crt" "$D/ea2" </dev/null 2>"$D/err"
		rc=$?
		[ "$rc" != 124 ] && { [ "$rc" = 0 ] || [ "$(wc -l < "$D/err")" = 1 ]; } &&
			t_pass "emptyAuth false, no password, no terminal: no wait" ||
			t_fail "emptyAuth false, no password, no terminal: no wait" "rc=$rc $(cat "$D/err")"
	else
		t_fail "emptyAuth false key" "could not make the key with tpm2-tools"
	fi
else
	t_skip "emptyAuth false key" "tpm2_encodeobject not installed"
fi
[ -z "$(tpm2_getcap handles-transient)" ] && t_pass no-transient-left || t_fail no-transient-left
exit 0
