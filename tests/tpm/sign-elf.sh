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

# Each TPM key failure names its cause, in one line, the file untouched:
# a key with a password, none given; the wrong one; a file that says
# emptyAuth TRUE for a key that has a password; a parent that is a
# transient handle (gone once the process that loaded it ended).
# one_line NAME PATTERN KEY [ARGS...]: signing fails with one line matching.
one_line() {
	local name=$1 pat=$2 key=$3 rc
	shift 3
	cp "$D/hello" "$D/ol"
	env -u TSS2_LOG "$SIGNELF" sign --key "$key" --cert "$D/pw.crt" "$@" "$D/ol" </dev/null 2>"$D/err"
	rc=$?
	[ "$rc" != 0 ] && [ "$(wc -l < "$D/err")" = 1 ] && grep -q -- "$pat" "$D/err" &&
		cmp -s "$D/ol" "$D/hello" && t_pass "$name" || t_fail "$name" "rc=$rc $(cat "$D/err")"
}
if command -v tpm2_encodeobject >/dev/null && tpm2_readpublic -c 0x81000010 >/dev/null 2>&1; then
	# noda: the wrong passwords below must not lock the TPM out.
	tpm2_create -Q -C 0x81000010 -G rsa2048 -p secret -u "$D/p.pub" -r "$D/p.priv" \
		-a 'fixedtpm|fixedparent|sensitivedataorigin|userwithauth|sign|noda' &&
		tpm2_flushcontext -t &&
		tpm2_encodeobject -C 0x81000010 -u "$D/p.pub" -r "$D/p.priv" -o "$D/pw.pem" &&
		tpm2_encodeobject -C 0x81000010 -u "$D/p.pub" -r "$D/p.priv" -p -o "$D/pw-empty.pem" &&
		openssl req -new -x509 -provider tpm2 -provider default -key "$D/pw.pem" \
			-passin pass:secret -subj /CN=password -out "$D/pw.crt" 2>/dev/null
	tpm2_flushcontext -t 2>/dev/null
	# The same key under the transient handle 0x80000000 (the PEM's parent
	# INTEGER rewritten; nothing else of the file changes).
	python3 - "$D/pw.pem" "$D/transient.pem" <<'EOP'
import base64, sys
lines = open(sys.argv[1]).read().splitlines()
der = base64.b64decode("".join(l for l in lines if not l.startswith("-----")))
def item(b, i):
    l = b[i + 1]; j = i + 2
    if l & 0x80:
        n = l & 0x7f; l = int.from_bytes(b[j:j + n], "big"); j += n
    return j + l
end = item(der, 0); i = 2 if der[1] < 0x80 else 2 + (der[1] & 0x7f)
parts = []
while i < end:
    j = item(der, i); parts.append(der[i:j]); i = j
parts = [bytes([2, 5, 0, 0x80, 0, 0, 0]) if p[0] == 2 else p for p in parts]
body = b"".join(parts)
n = len(body)
hdr = bytes([0x30, 0x82, n >> 8, n & 0xff])
b64 = base64.b64encode(hdr + body).decode()
with open(sys.argv[2], "w") as f:
    f.write("-----BEGIN TSS2 PRIVATE KEY-----\n")
    f.write("".join(b64[k:k + 64] + "\n" for k in range(0, len(b64), 64)))
    f.write("-----END TSS2 PRIVATE KEY-----\n")
EOP
	if [ -s "$D/pw.crt" ] && [ -s "$D/transient.pem" ]; then
		one_line "password key, no password given: says it needs one" \
			"the key needs a password" "$D/pw.pem"
		one_line "password key, wrong password: says wrong password" \
			"signing failed: wrong password?" "$D/pw.pem" --key-pass pass:nope
		one_line "password key in a file saying emptyAuth TRUE: says so" \
			"emptyAuth TRUE, but the key has a password" "$D/pw-empty.pem"
		one_line "parent is a transient handle: says so" \
			"its parent is the transient handle 0x80000000" "$D/transient.pem"
		cp "$D/hello" "$D/pw"
		"$SIGNELF" sign --key "$D/pw.pem" --cert "$D/pw.crt" --key-pass pass:secret "$D/pw" 2>"$D/err" &&
			"$SIGNELF" verify -q --cert "$D/pw.crt" "$D/pw" &&
			t_pass "password key, right password: signs" ||
			t_fail "password key, right password: signs" "$(cat "$D/err")"
	else
		t_fail "password key cases" "could not make the keys with tpm2-tools"
	fi
	tpm2_flushcontext -t 2>/dev/null
fi
[ -z "$(tpm2_getcap handles-transient)" ] && t_pass no-transient-left || t_fail no-transient-left
exit 0
