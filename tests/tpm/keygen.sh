#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tpm/: TPM-resident signing keys, their certificates, and proof that the
# private key never leaves the TPM.
set -u
. "$(dirname "$0")/lib-tpm.sh"
tpm_need swtpm openssl tpm2_readpublic tpm2_getcap python3
[ -e /usr/lib/x86_64-linux-gnu/ossl-modules/tpm2.so ] ||
	openssl list -providers -provider tpm2 >/dev/null 2>&1 ||
	{ echo "SKIP: keygen.sh: OpenSSL tpm2 provider (tpm2-openssl) not installed"; exit 77; }
t_mktemp
tpm_start || { t_fail tpm-start "cannot start swtpm"; exit 0; }
T=$TPM_TOOL
D=$T_TMP/out
mkdir "$D" && cd "$D" || exit 1
PROV=(-provider tpm2 -provider default -propquery '?provider=tpm2')
echo "payload to sign" >"$T_TMP/data"

# ECC P-256 at a persistent handle, with a certificate and a CSR
out=$($T keygen --type ecc --handle 0x81000001 --subject "/CN=elfsig release/O=example" \
	--cert "$D/ecc.crt" --csr "$D/ecc.csr" 2>&1); rc=$?
[ $rc = 0 ] && [[ $out == *"0x81000001: attributes 0x00040072 fixedtpm|fixedparent|sensitivedataorigin|userwithauth|sign"* ]] &&
	t_pass keygen-ecc-handle || t_fail keygen-ecc-handle "rc=$rc $out"

# The key object as the TPM reports it (tpm2-tools, independent of us)
attrs=$(tpm2_readpublic -c 0x81000001 | awk '/^attributes:/ { getline; print $2; exit }')
[ "$attrs" = "fixedtpm|fixedparent|sensitivedataorigin|userwithauth|sign" ] &&
	t_pass key-is-fixedtpm-fixedparent || t_fail key-is-fixedtpm-fixedparent "attributes: $attrs"

# Certificate: self-signed, keyUsage digitalSignature only (critical),
# SKI present, public key = the TPM key's public key
text=$(openssl x509 -in "$D/ecc.crt" -noout -text)
if openssl verify -CAfile "$D/ecc.crt" "$D/ecc.crt" >/dev/null &&
	grep -A1 'X509v3 Key Usage: critical' <<<"$text" | grep -qx ' *Digital Signature' &&
	grep -q 'X509v3 Subject Key Identifier' <<<"$text" &&
	grep -q 'Subject: CN = elfsig release, O = example' <<<"$text"; then
	t_pass cert-self-signed-keyusage-ski
else
	t_fail cert-self-signed-keyusage-ski "$text"
fi
tpm2_readpublic -Q -c 0x81000001 -f pem -o "$T_TMP/tpmpub.pem"
openssl x509 -in "$D/ecc.crt" -noout -pubkey >"$T_TMP/certpub.pem"
cmp -s <(openssl pkey -pubin -in "$T_TMP/tpmpub.pem" -outform DER) \
	<(openssl pkey -pubin -in "$T_TMP/certpub.pem" -outform DER) &&
	t_pass cert-holds-tpm-public-key || t_fail cert-holds-tpm-public-key
openssl req -in "$D/ecc.csr" -noout -verify 2>&1 | grep -q 'verify OK' &&
	openssl req -in "$D/ecc.csr" -noout -text | grep -q 'Digital Signature' &&
	t_pass csr-verifies || t_fail csr-verifies

# openssl signs with the TPM key; the certificate's key verifies it;
# a changed payload does not verify (the check can fail)
if openssl pkeyutl "${PROV[@]}" -sign -inkey handle:0x81000001 -rawin -digest sha256 \
	-in "$T_TMP/data" -out "$T_TMP/sig" 2>"$T_TMP/err" &&
	openssl pkeyutl -verify -pubin -inkey "$T_TMP/certpub.pem" -rawin -digest sha256 \
		-in "$T_TMP/data" -sigfile "$T_TMP/sig" >/dev/null; then
	t_pass openssl-signs-with-handle-key
else
	t_fail openssl-signs-with-handle-key "$(cat "$T_TMP/err")"
fi
echo tampered >>"$T_TMP/data2"; cat "$T_TMP/data" >>"$T_TMP/data2"
openssl pkeyutl -verify -pubin -inkey "$T_TMP/certpub.pem" -rawin -digest sha256 \
	-in "$T_TMP/data2" -sigfile "$T_TMP/sig" >/dev/null 2>&1 &&
	t_fail tampered-payload-rejected || t_pass tampered-payload-rejected

# RSA-2048 as a TSS2 PRIVATE KEY file, with a certificate
out=$($T keygen --type rsa --out "$D/rsa.tss2.pem" --subject "/CN=elfsig rsa" --cert "$D/rsa.crt" 2>&1); rc=$?
[ $rc = 0 ] && head -1 "$D/rsa.tss2.pem" | grep -qx -- '-----BEGIN TSS2 PRIVATE KEY-----' &&
	t_pass keygen-rsa-tss2-pem || t_fail keygen-rsa-tss2-pem "rc=$rc $out"
# The file's public area says fixedTPM|fixedParent, sign, RSA 2048, and
# its parent is the owner hierarchy (SRK recreated from the template)
info=$(python3 - "$D/rsa.tss2.pem" <<'PY'
import base64, struct, sys
der = base64.b64decode("".join(l for l in open(sys.argv[1]) if not l.startswith("-----")))
def tlv(b, i):
    t = b[i]; l = b[i + 1]; i += 2
    if l & 0x80:
        n = l & 0x7f; l = int.from_bytes(b[i:i + n], "big"); i += n
    return t, b[i:i + l], i + l
t, seq, _ = tlv(der, 0)
items = []; i = 0
while i < len(seq):
    t, v, i = tlv(seq, i); items.append((t, v))
oid, parent, pub = items[0][1], items[-3][1], items[-2][1]
typ, nalg, attrs = struct.unpack(">HHI", pub[2:10])
print("oid=%s parent=%s type=%04x attrs=%08x" % (oid.hex(), parent.hex(), typ, attrs))
PY
)
[ "$info" = "oid=6781050a0103 parent=40000001 type=0001 attrs=00040072" ] &&
	t_pass tss2-file-fixedtpm-fixedparent-owner-parent || t_fail tss2-file-fixedtpm-fixedparent-owner-parent "$info"
openssl x509 -in "$D/rsa.crt" -noout -pubkey >"$T_TMP/rsapub.pem"
if openssl pkeyutl "${PROV[@]}" -sign -inkey "$D/rsa.tss2.pem" -rawin -digest sha256 \
	-in "$T_TMP/data" -out "$T_TMP/rsasig" 2>"$T_TMP/err" &&
	openssl pkeyutl -verify -pubin -inkey "$T_TMP/rsapub.pem" -rawin -digest sha256 \
		-in "$T_TMP/data" -sigfile "$T_TMP/rsasig" >/dev/null &&
	openssl verify -CAfile "$D/rsa.crt" "$D/rsa.crt" >/dev/null; then
	t_pass openssl-signs-with-tss2-file
else
	t_fail openssl-signs-with-tss2-file "$(cat "$T_TMP/err")"
fi

# RSA at a handle and ECC in a file: the other two combinations
$T keygen --type rsa --handle 0x81000003 >/dev/null && $T keygen --type ecc --out "$D/ecc.tss2.pem" >/dev/null &&
	tpm2_readpublic -c 0x81000003 | grep -q 'rsa' &&
	openssl pkeyutl "${PROV[@]}" -sign -inkey "$D/ecc.tss2.pem" -rawin -digest sha256 \
		-in "$T_TMP/data" -out /dev/null 2>/dev/null &&
	t_pass keygen-rsa-handle-ecc-file || t_fail keygen-rsa-handle-ecc-file

# No private key material anywhere: keygen wrote exactly what was asked,
# only certificates, a CSR and TSS2 (TPM-wrapped) keys.
files=$(cd "$D" && find . -mindepth 1 -printf '%P\n' | sort | tr '\n' ' ')
[ "$files" = "ecc.crt ecc.csr ecc.tss2.pem rsa.crt rsa.tss2.pem " ] &&
	t_pass keygen-writes-only-requested-files || t_fail keygen-writes-only-requested-files "$files"
if grep -l -E -- '-----BEGIN ([A-Z]+ )?(ENCRYPTED )?PRIVATE KEY-----' "$D"/* | grep -v '\.tss2\.pem$' | grep -q . ||
	grep -h -- '-----BEGIN' "$D"/*.tss2.pem | grep -qv 'TSS2 PRIVATE KEY' ||
	openssl pkey -in "$D/rsa.tss2.pem" -noout 2>/dev/null; then
	t_fail no-plain-private-key "a plain private key was written or is readable without the TPM"
else
	t_pass no-plain-private-key
fi

# The wrapped key is bound to this TPM: another TPM cannot use it.
tpm_other tpm2state || t_fail key-unusable-on-other-tpm "second swtpm did not start"
if TPM2OPENSSL_TCTI=$OTHER_TCTI openssl pkeyutl "${PROV[@]}" -sign \
	-inkey "$D/rsa.tss2.pem" -rawin -digest sha256 -in "$T_TMP/data" -out "$T_TMP/x" 2>/dev/null; then
	t_fail key-unusable-on-other-tpm "another TPM signed with the key"
else
	# ...while the original TPM still can (so the failure is the TPM binding)
	openssl pkeyutl "${PROV[@]}" -sign -inkey "$D/rsa.tss2.pem" -rawin -digest sha256 \
		-in "$T_TMP/data" -out "$T_TMP/x" 2>/dev/null &&
		t_pass key-unusable-on-other-tpm || t_fail key-unusable-on-other-tpm "original TPM failed too"
fi

# Refusals: a taken handle, an existing key file, a non-persistent handle
msg=$($T keygen --handle 0x81000001 2>&1); rc=$?
[ $rc = 1 ] && [[ $msg == "elfsig-tpm: persistent handle 0x81000001 already holds an object"* ]] &&
	t_pass taken-handle-refused || t_fail taken-handle-refused "rc=$rc $msg"
cp "$D/rsa.tss2.pem" "$T_TMP/before"
msg=$($T keygen --out "$D/rsa.tss2.pem" 2>&1); rc=$?
[ $rc = 1 ] && [[ $msg == *"already exists, not overwriting a key"* ]] && cmp -s "$T_TMP/before" "$D/rsa.tss2.pem" &&
	t_pass existing-key-file-kept || t_fail existing-key-file-kept "rc=$rc $msg"
msg=$($T keygen --handle 0x80000001 2>&1); rc=$?
[ $rc = 1 ] && [[ $msg == *"not an owner persistent handle"* ]] &&
	t_pass transient-handle-refused || t_fail transient-handle-refused "rc=$rc $msg"
msg=$($T keygen --handle 0x81000005 --subject /CN=x 2>&1); rc=$?
[ $rc = 2 ] && t_pass subject-without-output-refused || t_fail subject-without-output-refused "$msg"

# evict frees the handle
$T evict --handle 0x81000003 && ! tpm2_readpublic -c 0x81000003 >/dev/null 2>&1 &&
	t_pass evict || t_fail evict
msg=$($T evict --handle 0x81000003 2>&1); rc=$?
[ $rc = 1 ] && [ "$msg" = "elfsig-tpm: no object at persistent handle 0x81000003" ] &&
	t_pass evict-missing || t_fail evict-missing "rc=$rc $msg"
[ -z "$(tpm2_getcap handles-transient)" ] && t_pass no-transient-left || t_fail no-transient-left
exit 0
