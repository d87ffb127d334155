#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# elfsig-enroll --platform-ca: create and add refuse a certificate that a
# kernel with CONFIG_ELFSIG_TRUSTED_KEYS, trusting those CA certificates,
# would refuse: one line naming the certificate and why, nothing written.
# Real OpenSSL certificates from kernel/platform-ca.sh (the tests' platform
# CA); a real swtpm for the enrolments that go through.
set -u
. "$(dirname "$0")/lib-kl.sh"

kl_need swtpm openssl tpm2_pcrread python3 timeout
[ -x "$ENROLL" ] || { echo "FAIL: build: $ENROLL missing"; exit 1; }
t_mktemp
PCA=$TOP/kernel/platform-ca.sh

# ca DIR: a platform CA in $T_TMP/DIR; issue DIR KEY OUT: a release cert.
ca() { ELFSIG_PLATFORM_CA_DIR=$T_TMP/$1 "$PCA" init >/dev/null; }
issue() { ELFSIG_PLATFORM_CA_DIR=$T_TMP/$1 "$PCA" issue "$T_TMP/$2" "$T_TMP/$3" "$2"; }
# leaf NAME [OPENSSL REQ OPTIONS]: a self-signed, non-CA signing cert.
leaf() {
	local n=$1; shift
	openssl req -x509 -key "$T_TMP/rel.key" -out "$T_TMP/$n.pem" -subj "/CN=$n" \
		-addext keyUsage=critical,digitalSignature \
		-addext basicConstraints=critical,CA:FALSE "$@" 2>/dev/null
}

{ ca ca && ca other &&
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$T_TMP/rel.key" 2>/dev/null &&
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$T_TMP/rel2.key" 2>/dev/null &&
  issue ca rel.key good.pem && issue ca rel2.key good2.der && issue other rel.key foreign.pem &&
  leaf self && leaf noakid -addext authorityKeyIdentifier=none -addext subjectKeyIdentifier=none &&
  kl_authority auth; } || { echo "FAIL: openssl: certificates"; exit 1; }
CA=$T_TMP/ca/platform-ca.pem
openssl x509 -in "$CA" -outform DER -out "$T_TMP/ca.der"
cat "$T_TMP/other/platform-ca.pem" "$CA" > "$T_TMP/bundle.pem"
# A flipped bit in the signature (the last bytes of the DER).
openssl x509 -in "$T_TMP/good.pem" -outform DER -out "$T_TMP/good.der"
python3 -c 'import sys; d=bytearray(open(sys.argv[1],"rb").read()); d[-3]^=1; open(sys.argv[2],"wb").write(d)' \
	"$T_TMP/good.der" "$T_TMP/tampered.der"
# Issued by the CA key but without authority key identifier.
openssl x509 -req -in <(openssl req -new -key "$T_TMP/rel.key" -subj /CN=plain 2>/dev/null) \
	-CA "$CA" -CAkey "$T_TMP/ca/platform-ca.key" -set_serial 7 -days 30 \
	-extfile <(printf 'keyUsage=critical,digitalSignature\nbasicConstraints=critical,CA:FALSE\nsubjectKeyIdentifier=none\nauthorityKeyIdentifier=none\n') \
	-out "$T_TMP/ca-noakid.pem" 2>/dev/null
# Issued by the CA, without digitalSignature.
openssl x509 -req -in <(openssl req -new -key "$T_TMP/rel.key" -subj /CN=nodigsig 2>/dev/null) \
	-CA "$CA" -CAkey "$T_TMP/ca/platform-ca.key" -set_serial 8 -days 30 \
	-extfile <(printf 'keyUsage=critical,keyEncipherment\nbasicConstraints=critical,CA:FALSE\nauthorityKeyIdentifier=keyid\n') \
	-out "$T_TMP/nodigsig.pem" 2>/dev/null

PRE="not vouched for by a platform CA"
# refused NAME LINE ARGS...: `create` exits 1 with exactly the one line
# LINE (a glob) on stderr, and writes nothing.
refused() {
	local name=$1 line=$2 d=$T_TMP/refused out rc; shift 2
	rm -rf "$d"; mkdir -p "$d"
	out=$(cd "$T_TMP" && "$ENROLL" create -d "$d" -K "$T_TMP/auth.key" "$@" 2>&1 >/dev/null); rc=$?
	# shellcheck disable=SC2053 # a glob on purpose
	if [ "$rc" != 1 ]; then
		t_fail "$name" "exit $rc: $out"
	elif [[ $out != $line ]]; then
		t_fail "$name" "expected one line '$line', got: $(tr '\n' '|' <<<"$out")"
	elif [ -n "$(ls -A "$d")" ]; then
		t_fail "$name" "files written: $(ls "$d")"
	else
		t_pass "$name"
	fi
}

P=(--platform-ca ca/platform-ca.pem)
refused "self-signed certificate refused" \
	"elfsig-enroll: self.pem: $PRE: its authority key identifier matches none of the 1 platform CA certificate (self-signed: CN=self)" \
	"${P[@]}" self.pem
refused "certificate of another CA refused" \
	"elfsig-enroll: foreign.pem: $PRE: its authority key identifier matches none of the 1 platform CA certificate (issued by another CA: *)" \
	"${P[@]}" foreign.pem
refused "self-signed certificate without AKID refused" \
	"elfsig-enroll: noakid.pem: $PRE: no authority key identifier, so the kernel cannot find its issuer" \
	"${P[@]}" noakid.pem
refused "CA-issued certificate without AKID refused (the kernel cannot find its issuer)" \
	"elfsig-enroll: ca-noakid.pem: $PRE: no authority key identifier, so the kernel cannot find its issuer" \
	"${P[@]}" ca-noakid.pem
refused "tampered signature refused" \
	"elfsig-enroll: tampered.der: $PRE: its signature does not verify with the key of CN=elfsig test platform CA,O=elfsig tests (ca/platform-ca.pem)" \
	"${P[@]}" tampered.der
refused "issuer that is not a CA refused" \
	"elfsig-enroll: self.pem: $PRE: its issuer CN=self (self.pem) is not a CA certificate (basicConstraints CA:TRUE, keyCertSign)" \
	--platform-ca self.pem self.pem
refused "the CA's own certificate refused (a CA, as the kernel refuses it)" \
	"elfsig-enroll: ca/platform-ca.pem: $PRE: a CA certificate; .elfsig takes release (digitalSignature) certificates" \
	"${P[@]}" ca/platform-ca.pem
refused "CA-issued certificate without digitalSignature refused" \
	"elfsig-enroll: nodigsig.pem: $PRE: no digitalSignature key usage; .elfsig takes release (digitalSignature) certificates" \
	"${P[@]}" nodigsig.pem
refused "a good certificate among bad ones: the bad one named, nothing enrolled" \
	"elfsig-enroll: foreign.pem: $PRE: *" "${P[@]}" good.pem foreign.pem
refused "a CA file that is not a certificate" \
	"elfsig-enroll: rel.key: no certificate in it*" --platform-ca rel.key good.pem
refused "a missing CA file" \
	"elfsig-enroll: nonexistent: cannot open: No such file or directory" \
	--platform-ca nonexistent good.pem

out=$("$ENROLL" show -d "$T_TMP" --platform-ca "$CA" 2>&1); rc=$?
[ "$rc" = 2 ] && grep -q "^elfsig-enroll: --platform-ca: only with create and add$" <<<"$out" &&
	t_pass "--platform-ca with another command: usage error" ||
	t_fail "--platform-ca with another command: usage error" "exit $rc: $out"

# Enrolments that go through need the TPM (create seals).
kl_swtpm_start || { echo "FAIL: swtpm: did not start"; exit 1; }
D=$T_TMP/enrol
mkdir -p "$D"
if out=$("$ENROLL" create -d "$D" -K "$T_TMP/auth.key" --platform-ca "$T_TMP/ca.der" \
		"$T_TMP/good.pem" 2>&1) && [ -s "$D/policy" ] &&
   grep -q "sha256:$(openssl x509 -in "$T_TMP/good.pem" -outform DER | sha256sum | cut -d' ' -f1)" "$D/policy"; then
	t_pass "CA-issued certificate enrolled (CA given as DER)"
else
	t_fail "CA-issued certificate enrolled (CA given as DER)" "$out"
fi
if out=$("$ENROLL" add -d "$D" -K "$T_TMP/auth.key" --platform-ca "$T_TMP/bundle.pem" \
		"$T_TMP/good2.der" 2>&1) &&
   grep -q "sha256:$(sha256sum < "$T_TMP/good2.der" | cut -d' ' -f1)" "$D/policy"; then
	t_pass "add: CA-issued certificate enrolled (CA in a PEM bundle)"
else
	t_fail "add: CA-issued certificate enrolled (CA in a PEM bundle)" "$out"
fi
cp "$D/policy" "$T_TMP/policy.before"
out=$("$ENROLL" add -d "$D" -K "$T_TMP/auth.key" --platform-ca "$CA" \
	"$T_TMP/self.pem" 2>&1); rc=$?
if [ "$rc" = 1 ] && [ "$(wc -l <<<"$out")" = 1 ] &&
   grep -q "^elfsig-enroll: $T_TMP/self.pem: $PRE: " <<<"$out" &&
   cmp -s "$D/policy" "$T_TMP/policy.before"; then
	t_pass "add: self-signed certificate refused, policy unchanged"
else
	t_fail "add: self-signed certificate refused, policy unchanged" "exit $rc: $out"
fi
if out=$("$ENROLL" add -d "$D" -K "$T_TMP/auth.key" "$T_TMP/self.pem" 2>&1) &&
   grep -q "sha256:$(openssl x509 -in "$T_TMP/self.pem" -outform DER | sha256sum | cut -d' ' -f1)" "$D/policy"; then
	t_pass "without --platform-ca: a self-signed certificate enrols as before"
else
	t_fail "without --platform-ca: a self-signed certificate enrols as before" "$out"
fi
exit 0
