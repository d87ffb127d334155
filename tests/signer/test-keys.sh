#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Every key type and hash, signer identified both ways; the section's PKCS#7
# verifies with plain `openssl cms -verify`: the format is standard.
set -u
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/fixtures.sh"
fixtures_init
bin=$FIX/bin/musl-static

for key in rsa2048 rsa3072 rsa4096 p256 p384; do
	for hash in sha256 sha384 sha512; do
		for id in issuer keyid; do
			name="$key/$hash/$id"
			out=$T_TMP/s
			extra=(); [ $id = keyid ] && extra=(--keyid)
			rm -f "$out"
			if ! fix_sign "$key" "$bin" "$out" --hash "$hash" "${extra[@]}"; then
				t_fail "$name: sign"; continue
			fi
			json=$("$SIGNELF" show --json "$out")
			# The signature says what it was asked to say.
			python3 - "$json" "$hash" "$id" <<'EOP' || t_fail "$name: show reports hash and signer id"
import json, sys
d = json.loads(sys.argv[1])
assert d["hash"] == sys.argv[2], d
if sys.argv[3] == "keyid":
    assert d["skid"] and not d["issuer"], d
else:
    assert d["issuer"] and d["serial"] and not d["skid"], d
EOP
			"$SIGNELF" verify -q -c "$K/$key.pem" "$out" ||
				{ t_fail "$name: verify"; continue; }
			"$SIGNELF" digest --hash "$hash" --message "$T_TMP/msg" "$out" >/dev/null
			objcopy --dump-section .signature="$T_TMP/sig.der" "$out" "$T_TMP/discard"
			if openssl cms -verify -binary -inform DER -in "$T_TMP/sig.der" \
				-content "$T_TMP/msg" -certfile "$K/$key.pem" \
				-CAfile "$K/$key.pem" -purpose any -out /dev/null 2>"$T_TMP/err"; then
				t_pass "$name: signelf verify and openssl cms -verify accept it"
			else
				t_fail "$name: openssl cms -verify" "$(head -1 "$T_TMP/err")"
			fi
			# A different message (another hash's) must not verify.
			other=sha256; [ $hash = sha256 ] && other=sha512
			"$SIGNELF" digest --hash $other --message "$T_TMP/msg2" "$out" >/dev/null
			openssl cms -verify -binary -inform DER -in "$T_TMP/sig.der" \
				-content "$T_TMP/msg2" -certfile "$K/$key.pem" \
				-CAfile "$K/$key.pem" -purpose any -out /dev/null 2>/dev/null &&
				t_fail "$name: the algorithm is bound into the message"
		done
	done
done

# Trust: only the signer's certificate works; a directory of certificates.
fix_sign rsa2048 "$bin" "$T_TMP/a"
"$SIGNELF" verify -q -c "$K/rogue.pem" "$T_TMP/a"; rc=$?
[ $rc = 1 ] && t_pass "a key not trusted: exit 1" || t_fail "a key not trusted: exit 1" "rc=$rc"
"$SIGNELF" verify -c "$K/rogue.pem" "$T_TMP/a" 2>&1 | grep -q 'no trusted certificate matches' &&
	t_pass "a key not trusted: says so" || t_fail "a key not trusted: says so"
mkdir "$T_TMP/certs"; cp "$K/rogue.pem" "$K/p256.pem" "$K/rsa2048.pem" "$T_TMP/certs/"
echo "not a cert" > "$T_TMP/certs/README"
t_check "--certdir finds the signer" "$SIGNELF" verify -q --certdir "$T_TMP/certs" "$T_TMP/a"
openssl x509 -in "$K/rsa2048.pem" -outform DER -out "$T_TMP/rsa.der"
t_check "--cert takes DER" "$SIGNELF" verify -q -c "$T_TMP/rsa.der" "$T_TMP/a"
cat "$K/rogue.pem" "$K/rsa2048.pem" > "$T_TMP/bundle.pem"
t_check "--cert takes a PEM bundle" "$SIGNELF" verify -q -c "$T_TMP/bundle.pem" "$T_TMP/a"
"$SIGNELF" sign -k "$K/rogue.key" -c "$K/rsa2048.pem" -o "$T_TMP/b" "$bin" 2>"$T_TMP/err"; rc=$?
[ $rc != 0 ] && grep -q 'does not match' "$T_TMP/err" && [ ! -e "$T_TMP/b" ] &&
	t_pass "key and certificate that do not match: refused" ||
	t_fail "key and certificate that do not match: refused" "rc=$rc"
# A forged signature: an impostor certificate with the trusted one's issuer
# and serial, so the signer id matches, but another key made the signature.
serial=$(openssl x509 -in "$K/rsa2048.pem" -noout -serial | cut -d= -f2)
openssl req -new -x509 -key "$K/rogue.key" -subj "/O=elfsig tests/CN=rsa2048" \
	-set_serial "0x$serial" -days 30 -out "$T_TMP/impostor.pem" 2>/dev/null
"$SIGNELF" sign -k "$K/rogue.key" -c "$T_TMP/impostor.pem" -o "$T_TMP/f" "$bin"
"$SIGNELF" verify -q -c "$K/rsa2048.pem" "$T_TMP/f"; rc=$?
[ $rc = 1 ] && "$SIGNELF" verify -c "$K/rsa2048.pem" "$T_TMP/f" 2>&1 | grep -q 'bad signature' &&
	t_pass "forged signature under a trusted signer id: bad signature" ||
	t_fail "forged signature under a trusted signer id: bad signature" "rc=$rc"
"$SIGNELF" digest --message "$T_TMP/m" "$bin" >/dev/null
# Signed attributes (openssl's default) and embedded certificates: valid
# CMS, but not format v1 (the kernel refuses them), so attach refuses too.
openssl cms -sign -binary -nocerts -outform DER -md sha256 \
	-signer "$K/p256.pem" -inkey "$K/p256.key" -in "$T_TMP/m" -out "$T_TMP/attrs.der" 2>/dev/null
"$SIGNELF" attach -s "$T_TMP/attrs.der" -o "$T_TMP/g" "$bin" 2>"$T_TMP/err"; rc=$?
[ $rc = 3 ] && grep -q 'signed attributes' "$T_TMP/err" && [ ! -e "$T_TMP/g" ] &&
	t_pass "a signature with signed attributes is refused" ||
	t_fail "a signature with signed attributes is refused" "rc=$rc $(cat "$T_TMP/err")"
openssl cms -sign -binary -noattr -outform DER -md sha256 \
	-signer "$K/p256.pem" -inkey "$K/p256.key" -in "$T_TMP/m" -out "$T_TMP/certs.der" 2>/dev/null
"$SIGNELF" attach -s "$T_TMP/certs.der" -o "$T_TMP/g" "$bin" 2>"$T_TMP/err"; rc=$?
[ $rc = 3 ] && grep -q 'certificates' "$T_TMP/err" && [ ! -e "$T_TMP/g" ] &&
	t_pass "a signature carrying certificates is refused" ||
	t_fail "a signature carrying certificates is refused" "rc=$rc $(cat "$T_TMP/err")"
# A P-256 certificate whose key carries explicit curve parameters instead
# of the curve's OID: OpenSSL takes it, the kernel's X.509 parser does not,
# so neither sign nor verify may. The same key, named, as a control; both
# certificates share issuer and serial, so verify reaches the key check.
openssl ec -in "$K/p256.key" -param_enc explicit -out "$T_TMP/p256x.key" 2>/dev/null
for enc in named explicit; do
	kf=$K/p256.key; [ $enc = explicit ] && kf=$T_TMP/p256x.key
	openssl req -new -x509 -key "$kf" -subj "/CN=curve params" -set_serial 4711 \
		-days 30 -out "$T_TMP/p256-$enc.pem" 2>/dev/null
done
if openssl asn1parse -in "$T_TMP/p256-explicit.pem" | grep -q prime-field &&
   ! openssl asn1parse -in "$T_TMP/p256-named.pem" | grep -q prime-field; then
	t_pass "explicit curve parameters: openssl made the certificates"
else
	t_fail "explicit curve parameters: openssl made the certificates"
fi
"$SIGNELF" sign -k "$K/p256.key" -c "$T_TMP/p256-explicit.pem" -o "$T_TMP/x" "$bin" 2>"$T_TMP/err"; rc=$?
[ $rc != 0 ] && [ "$(wc -l < "$T_TMP/err")" = 1 ] && grep -q 'explicit curve parameters' "$T_TMP/err" &&
	[ ! -e "$T_TMP/x" ] &&
	t_pass "explicit curve parameters: sign refuses the certificate, one line" ||
	t_fail "explicit curve parameters: sign refuses the certificate, one line" "rc=$rc $(cat "$T_TMP/err")"
"$SIGNELF" sign -k "$T_TMP/p256x.key" -c "$T_TMP/p256-named.pem" -o "$T_TMP/x" "$bin" &&
	"$SIGNELF" verify -q -c "$T_TMP/p256-named.pem" "$T_TMP/x" &&
	t_pass "explicit curve parameters: only the certificate matters (key file explicit, certificate named: signs, verifies)" ||
	t_fail "explicit curve parameters: only the certificate matters (key file explicit, certificate named: signs, verifies)"
"$SIGNELF" verify -c "$T_TMP/p256-explicit.pem" "$T_TMP/x" >/dev/null 2>"$T_TMP/err"; rc=$?
[ $rc != 0 ] && [ "$(wc -l < "$T_TMP/err")" = 1 ] && grep -q 'explicit curve parameters' "$T_TMP/err" &&
	t_pass "explicit curve parameters: verify refuses the trusted certificate, one line" ||
	t_fail "explicit curve parameters: verify refuses the trusted certificate, one line" "rc=$rc $(cat "$T_TMP/err")"
exit 0
