#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Keys in a PKCS#11 token (a real SoftHSM2 token, reached as Debian 12
# reaches it: libp11's OpenSSL engine through p11-kit): RSA and ECDSA P-256
# keys made on the token sign, the result verifies; a wrong or missing PIN,
# a missing token or key, a host without any PKCS#11 support for OpenSSL
# each give one line and a non-zero exit, and no output is written.
set -u
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/fixtures.sh"

need() { # WHAT PACKAGE
	echo "SKIP: $(basename "$0"): $1 not found (Debian package $2)"; exit 77
}
command -v softhsm2-util >/dev/null 2>&1 || need softhsm2-util softhsm2
[ -e /usr/lib/softhsm/libsofthsm2.so ] || need libsofthsm2.so softhsm2
command -v pkcs11-tool >/dev/null 2>&1 || need pkcs11-tool opensc
openssl engine pkcs11 >/dev/null 2>&1 ||
	need "OpenSSL's pkcs11 engine" libengine-pkcs11-openssl
fixtures_init
D=$T_TMP
# Sanitizer builds: libp11's own exit-time blocks are not elfsig's leaks.
# (Their stacks go through libp11, which has no frame pointers: unwind
# slowly, or they stop at CRYPTO_zalloc.)
export LSAN_OPTIONS="suppressions=$TOP/tests/signer/lsan-libp11.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=0"
bin=$FIX/bin/glibc-dynamic

# A token of our own: SoftHSM2 reads its configuration from SOFTHSM2_CONF.
mkdir "$D/tokens"
printf 'directories.tokendir = %s\nobjectstore.backend = file\nlog.level = ERROR\n' \
	"$D/tokens" > "$D/softhsm2.conf"
export SOFTHSM2_CONF=$D/softhsm2.conf
PIN=4711
label=elfsig-test-$$
module=/usr/lib/softhsm/libsofthsm2.so
p11() { pkcs11-tool --module "$module" --token-label "$label" --login --pin "$PIN" "$@"; }
softhsm2-util --init-token --free --label "$label" --so-pin 87654321 --pin "$PIN" >/dev/null &&
	p11 --keypairgen --key-type rsa:2048 --label rsa --id 01 >/dev/null &&
	p11 --keypairgen --key-type EC:prime256v1 --label p256 --id 02 >/dev/null ||
	{ t_fail "token" "cannot make the SoftHSM2 token and its keys"; exit 0; }
uri() { echo "pkcs11:token=$label;object=$1;type=private${2:+;pin-value=$2}"; }
# The certificates, self-signed by the token keys themselves.
for k in rsa p256; do
	openssl req -new -x509 -engine pkcs11 -keyform engine -key "$(uri $k $PIN)" \
		-subj "/O=elfsig tests/CN=token $k" -days 30 \
		-addext keyUsage=digitalSignature -out "$D/$k.pem" >/dev/null 2>&1 ||
		{ t_fail "token" "cannot certify the token key $k"; exit 0; }
done

# one_line NAME RC-FILE ERR-FILE OUT PATTERN: a refusal: non-zero exit, one
# line on stderr matching PATTERN, no PIN in it, OUT not written.
one_line() {
	local name=$1 rc=$2 err=$3 out=$4 pat=$5
	if [ "$rc" = 0 ]; then t_fail "$name" "exit 0"
	elif [ "$(wc -l < "$err")" != 1 ]; then t_fail "$name" "$(wc -l < "$err") lines: $(tr '\n' '|' < "$err")"
	elif ! grep -q -- "$pat" "$err"; then t_fail "$name" "says: $(cat "$err")"
	elif grep -q "$PIN" "$err"; then t_fail "$name" "the message shows the PIN: $(cat "$err")"
	elif [ -e "$out" ]; then t_fail "$name" "$out written"
	else t_pass "$name"; fi
}

for k in rsa p256; do
	rm -f "$D/out"
	cp "$bin" "$D/in"
	if "$SIGNELF" sign -k "$(uri $k $PIN)" -c "$D/$k.pem" -o "$D/out" "$D/in" 2>"$D/err" &&
		"$SIGNELF" verify -q -c "$D/$k.pem" "$D/out" && cmp -s "$bin" "$D/in"; then
		t_pass "$k: a token key signs (pin-value in the URI), signelf verify accepts it"
	else
		t_fail "$k: a token key signs" "$(cat "$D/err")"
	fi
	# The signature is the token key's: another key's certificate refuses it.
	other=p256; [ $k = p256 ] && other=rsa
	"$SIGNELF" verify -q -c "$D/$other.pem" "$D/out" 2>/dev/null &&
		t_fail "$k: only the token key's certificate verifies it"
done

rm -f "$D/out"
ELFSIG_KEY_PASS=env:TOKEN_PIN TOKEN_PIN=$PIN \
	"$SIGNELF" sign -k "$(uri p256)" -c "$D/p256.pem" -o "$D/out" "$bin" </dev/null 2>"$D/err" &&
	"$SIGNELF" verify -q -c "$D/p256.pem" "$D/out" &&
	t_pass "the PIN from ELFSIG_KEY_PASS" || t_fail "the PIN from ELFSIG_KEY_PASS" "$(cat "$D/err")"
rm -f "$D/out"
echo "$PIN" > "$D/pinfile"
"$SIGNELF" sign -p "file:$D/pinfile" -k "$(uri rsa)" -c "$D/rsa.pem" -o "$D/out" "$bin" </dev/null 2>"$D/err" &&
	"$SIGNELF" verify -q -c "$D/rsa.pem" "$D/out" &&
	t_pass "the PIN from --key-pass file:" || t_fail "the PIN from --key-pass file:" "$(cat "$D/err")"

# pin-value in the URI comes first, then --key-pass/ELFSIG_KEY_PASS.
rm -f "$D/out"
ELFSIG_KEY_PASS=pass:1111 "$SIGNELF" sign -k "$(uri p256 $PIN)" -c "$D/p256.pem" -o "$D/out" "$bin" 2>"$D/err" &&
	"$SIGNELF" verify -q -c "$D/p256.pem" "$D/out" &&
	t_pass "pin-value in the URI before ELFSIG_KEY_PASS" ||
	t_fail "pin-value in the URI before ELFSIG_KEY_PASS" "$(cat "$D/err")"

# On a terminal, without a PIN given: the prompt (a pseudo-terminal
# answers it once it shows).
on_tty() { # PIN CMD...: run CMD on a pty, answer its PIN prompt; its exit
	python3 - "$@" <<'EOP'
import os, pty, sys, time
pin, cmd = sys.argv[1].encode(), sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(cmd[0], cmd)
out, deadline, sent = b"", time.time() + 30, False
while time.time() < deadline:
    try:
        chunk = os.read(fd, 1024)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
    if not sent and b"PIN" in out:
        time.sleep(0.2)
        os.write(fd, pin + b"\n")
        sent = True
_, status = os.waitpid(pid, 0)
sys.stderr.write(out.decode(errors="replace"))
sys.exit(os.waitstatus_to_exitcode(status) if sent else 99)
EOP
}
rm -f "$D/out"
on_tty "$PIN" "$SIGNELF" sign -k "$(uri p256)" -c "$D/p256.pem" -o "$D/out" "$bin" 2>"$D/err" &&
	"$SIGNELF" verify -q -c "$D/p256.pem" "$D/out" &&
	t_pass "the PIN from the prompt on a terminal" ||
	t_fail "the PIN from the prompt on a terminal" "$(tr '\r\n' '||' < "$D/err")"
rm -f "$D/out"
on_tty 1111 "$SIGNELF" sign -k "$(uri p256)" -c "$D/p256.pem" -o "$D/out" "$bin" 2>"$D/err"
rc=$?
[ $rc != 0 ] && [ $rc != 99 ] && grep -q "wrong PIN" "$D/err" && [ ! -e "$D/out" ] &&
	t_pass "a wrong PIN at the prompt: refused, nothing written" ||
	t_fail "a wrong PIN at the prompt: refused, nothing written" "rc=$rc $(tr '\r\n' '||' < "$D/err")"

# A tree, one token login for all of it.
mkdir -p "$D/tree/bin"
cp "$bin" "$D/tree/bin/a"; cp "$FIX/bin/musl-static" "$D/tree/bin/b"
if "$SIGNELF" sign -k "$(uri rsa $PIN)" -c "$D/rsa.pem" --tree "$D/tree" >/dev/null 2>"$D/err" &&
	"$SIGNELF" verify -q -c "$D/rsa.pem" "$D/tree/bin/a" "$D/tree/bin/b"; then
	t_pass "sign --tree with a token key"
else
	t_fail "sign --tree with a token key" "$(cat "$D/err")"
fi

rm -f "$D/out"
"$SIGNELF" sign -k "$(uri rsa 1111)" -c "$D/rsa.pem" -o "$D/out" "$bin" 2>"$D/err"
one_line "a wrong PIN in the URI" $? "$D/err" "$D/out" "wrong PIN"
ELFSIG_KEY_PASS=pass:1111 "$SIGNELF" sign -k "$(uri rsa)" -c "$D/rsa.pem" -o "$D/out" "$bin" 2>"$D/err"
one_line "a wrong PIN from ELFSIG_KEY_PASS" $? "$D/err" "$D/out" "wrong PIN"
"$SIGNELF" sign -k "$(uri rsa)" -c "$D/rsa.pem" -o "$D/out" "$bin" </dev/null 2>"$D/err"
one_line "no PIN and no terminal" $? "$D/err" "$D/out" "needs a PIN"
"$SIGNELF" sign -k "pkcs11:token=no-such-token;object=rsa;type=private;pin-value=$PIN" \
	-c "$D/rsa.pem" -o "$D/out" "$bin" 2>"$D/err"
one_line "a missing token" $? "$D/err" "$D/out" "no private key matches the URI"
"$SIGNELF" sign -k "$(uri no-such-key $PIN)" -c "$D/rsa.pem" -o "$D/out" "$bin" 2>"$D/err"
one_line "a wrong key label" $? "$D/err" "$D/out" "no private key matches the URI"
"$SIGNELF" sign -k "$(uri rsa $PIN)" -c "$D/p256.pem" -o "$D/out" "$bin" 2>"$D/err"
one_line "a certificate of another key (the PIN stays hidden)" $? "$D/err" "$D/out" \
	"pin-value=\*\*\*: the key does not match the certificate"
# Neither libp11's engine nor a PKCS#11 provider: OpenSSL looks for both in
# directories that hold neither.
mkdir "$D/empty"
OPENSSL_ENGINES=$D/empty OPENSSL_MODULES=$D/empty \
	"$SIGNELF" sign -k "$(uri rsa $PIN)" -c "$D/rsa.pem" -o "$D/out" "$bin" 2>"$D/err"
one_line "no engine nor provider: names the package" $? "$D/err" "$D/out" \
	"install libp11's engine (Debian package libengine-pkcs11-openssl)"

# In place: a refusal leaves the file as it was.
cp "$bin" "$D/inplace"
"$SIGNELF" sign -k "$(uri rsa 1111)" -c "$D/rsa.pem" "$D/inplace" 2>/dev/null
rc=$?
[ $rc != 0 ] && cmp -s "$bin" "$D/inplace" &&
	[ -z "$(find "$D" -maxdepth 1 -name '.inplace*' -o -maxdepth 1 -name 'inplace.*')" ] &&
	t_pass "a wrong PIN leaves a file signed in place untouched" ||
	t_fail "a wrong PIN leaves a file signed in place untouched" "rc=$rc"
exit 0
