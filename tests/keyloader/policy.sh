#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Hostile policy files and certificate files: each is refused with one
# line naming the file, never crashes (run under ASan in check-asan), never
# hangs. No TPM needed: parsing happens before any TPM access.
set -u
. "$(dirname "$0")/lib-kl.sh"

kl_need openssl python3 timeout
[ -x "$ENROLL" ] || { echo "FAIL: build: $ENROLL missing"; exit 1; }
t_mktemp
kl_cert k1 && kl_cert k2 && kl_authority auth || { echo "FAIL: openssl: certs"; exit 1; }
FP1=$(kl_fp k1)
FP2=$(kl_fp k2)
AFP=$(openssl pkey -pubin -in "$T_TMP/auth.pub" -outform DER | sha256sum | cut -d' ' -f1)
SRK=000b$(printf machine | sha256sum | cut -d' ' -f1)	# a machine's SRK name
H="elfsig-policy 4\nauthority sha256:$AFP\ngeneration 7\nsrk $SRK"	# a version 4 header

good_policy() {
	printf "# reviewed\n$H\npcrs sha256:0,2,4,7\nmeasure-pcr 13\n\n# CN=one\nkey sha256:%s\nkey sha256:%s\n" "$FP1" "$FP2"
}

# refused NAME FILE PATTERN: `show` fails (status 1) with one message that
# matches PATTERN.
refused() {
	local name=$1 file=$2 pat=$3 out rc
	out=$(timeout 20 "$ENROLL" show -p "$file" 2>&1); rc=$?
	if [ "$rc" != 1 ]; then
		t_fail "$name" "exit $rc: $out"
	elif ! grep -q -- "$pat" <<<"$out"; then
		t_fail "$name" "message '$out' does not match '$pat'"
	else
		t_pass "$name"
	fi
}

P=$T_TMP/policy
good_policy > "$P"
out=$("$ENROLL" show -p "$P" 2>&1)
if grep -q "policy version 4, PCRs sha256:0,2,4,7, measured into PCR 13, 2 keys" <<<"$out" &&
   grep -q "authority sha256:$AFP" <<<"$out" && grep -q "^generation 7 " <<<"$out" &&
   grep -q "sha256:$FP1 CN=one" <<<"$out" && grep -q "sha256:$FP2 \$" <<<"$out"; then
	t_pass "a valid policy parses, subject comments attach to their key"
else
	t_fail "a valid policy parses" "$out"
fi

# shellcheck disable=SC2059 # the callers pass the format on purpose
case_file() { printf "$@" > "$P"; }
case_file 'pcrs sha256:0\nelfsig-policy 4\nmeasure-pcr 13\n'
refused "header not first" "$P" ':1: expected "elfsig-policy 4"'
case_file 'elfsig-policy 5\npcrs sha256:0\nmeasure-pcr 13\n'
refused "unknown version" "$P" "unsupported policy version '5' (this is version 4)"
case_file 'elfsig-policy 3\nauthority sha256:%s\npcrs sha256:0\nmeasure-pcr 13\n' "$AFP"
refused "version 3 without its generation" "$P" 'missing "generation" line'
case_file 'elfsig-policy 4\nauthority sha256:%s\ngeneration 1\npcrs sha256:0\nmeasure-pcr 13\n' "$AFP"
refused "version 4 without its machine" "$P" 'missing "srk" line'
case_file 'elfsig-policy 3\nauthority sha256:%s\ngeneration 1\nsrk %s\npcrs sha256:0\nmeasure-pcr 13\n' "$AFP" "$SRK"
refused "an srk line in version 3" "$P" ":4: unknown directive 'srk'"
case_file "$H\\nsrk $SRK\\npcrs sha256:0\\nmeasure-pcr 13\\n"
refused "two srk lines" "$P" ':5: second "srk" line'
for s in "${SRK:4}" "0004${SRK:4:40}" "${SRK}00" "000c${SRK:4}" "${SRK:0:66}zz"; do
	case_file 'elfsig-policy 4\nauthority sha256:%s\ngeneration 1\nsrk %s\npcrs sha256:0\nmeasure-pcr 13\n' "$AFP" "$s"
	refused "srk '${s:0:12}...' refused" "$P" ":4: expected \"srk <the machine's TPM storage root key name, 68 hex digits>\""
done
case_file "$H\\ngeneration 8\\npcrs sha256:0\\nmeasure-pcr 13\\n"
refused "two generation lines" "$P" ':5: second "generation" line'
for g in 007 -1 1000000001 x 99999999999; do
	case_file 'elfsig-policy 3\nauthority sha256:%s\ngeneration %s\npcrs sha256:0\nmeasure-pcr 13\n' "$AFP" "$g"
	refused "generation '$g' refused" "$P" ':3: expected "generation N" (0..1000000000)'
done
case_file 'elfsig-policy 2\nauthority sha256:%s\ngeneration 1\npcrs sha256:0\nmeasure-pcr 13\n' "$AFP"
refused "version 2 knows no generation" "$P" ":3: unknown directive 'generation'"
case_file 'elfsig-policy 2\npcrs sha256:0\nmeasure-pcr 13\n'
refused "version 2 without its authority" "$P" 'missing "authority" line'
case_file "$H\\nauthority sha256:$AFP\\npcrs sha256:0\\nmeasure-pcr 13\\n"
refused "two authority lines" "$P" ':5: second "authority" line'
case_file 'elfsig-policy 2\nauthority sha1:%s\npcrs sha256:0\nmeasure-pcr 13\n' "$AFP"
refused "bad authority line" "$P" ':2: expected "authority sha256:'
case_file 'elfsig-policy 1\nauthority sha256:%s\npcrs sha256:0\nmeasure-pcr 13\n' "$AFP"
refused "version 1 knows no authority" "$P" ":2: unknown directive 'authority'"
case_file 'elfsig-policy 1\npcrs sha256:0\npcrs sha256:1\nmeasure-pcr 13\n'
refused "two pcrs lines" "$P" ':3: second "pcrs" line'
for sel in sha999:1 sha256:24 sha256: 'sha256:0,,1' sha256:99999999999; do
	case_file 'elfsig-policy 1\npcrs %s\nmeasure-pcr 13\n' "$sel"
	refused "bad PCR selection $sel" "$P" ":2: bad PCR selection"
done
case_file 'elfsig-policy 1\npcrs sha256:0,13\nmeasure-pcr 13\n'
refused "measurement PCR inside the sealed selection" "$P" "is in the sealed selection"
for m in 16 23 24 -1 1x 0013; do
	case_file 'elfsig-policy 1\npcrs sha256:0\nmeasure-pcr %s\n' "$m"
	refused "measurement PCR $m refused" "$P" "measurement PCR\|:3: bad PCR index"
done
case_file 'elfsig-policy 1\npcrs sha256:0\n'
refused "measure-pcr missing" "$P" 'missing "measure-pcr" line'
for k in "sha256:${FP1:0:62}" "sha256:${FP1}00" "sha1:$FP1" "$FP1" "sha256:${FP1:0:62}zz" "sha256:"; do
	case_file 'elfsig-policy 1\npcrs sha256:0\nmeasure-pcr 13\nkey %s\n' "$k"
	refused "bad key line '${k:0:12}...'" "$P" ':4: expected "key sha256:'
done
case_file 'elfsig-policy 1\npcrs sha256:0\nmeasure-pcr 13\nkey sha256:%s\nkey sha256:%s\n' "$FP1" "$FP1"
refused "a key listed twice" "$P" ":5: key listed twice"
# The systemd .pcrsig opt-in: both lines or neither, once, version 3.
case_file "$H\\npcrs sha256:0\\nmeasure-pcr 13\\npcrsig-key sha256:$FP1\\npcrsig-pcrs sha256:11\\n"
"$ENROLL" show -p "$P" 2>&1 | grep -q "^accepts systemd .pcrsig PCR policies of the key sha256:$FP1 for sha256:11 " &&
	t_pass "the pcrsig opt-in parses and show names it" ||
	t_fail "the pcrsig opt-in parses and show names it" "$("$ENROLL" show -p "$P" 2>&1)"
case_file "$H\\npcrs sha256:0\\nmeasure-pcr 13\\npcrsig-key sha256:$FP1\\n"
refused "pcrsig-key without pcrsig-pcrs" "$P" '"pcrsig-key" and "pcrsig-pcrs" go together'
case_file "$H\\npcrs sha256:0\\nmeasure-pcr 13\\npcrsig-pcrs sha256:11\\n"
refused "pcrsig-pcrs without pcrsig-key" "$P" '"pcrsig-key" and "pcrsig-pcrs" go together'
case_file "$H\\npcrs sha256:0\\nmeasure-pcr 13\\npcrsig-key sha256:$FP1\\npcrsig-key sha256:$FP2\\npcrsig-pcrs sha256:11\\n"
refused "two pcrsig-key lines" "$P" ':8: second "pcrsig-key" line'
for sel in sha1:11 sha256:16 sha256:23 sha256:; do
	case_file "$H\\npcrs sha256:0\\nmeasure-pcr 13\\npcrsig-key sha256:$FP1\\npcrsig-pcrs $sel\\n"
	refused "pcrsig-pcrs $sel refused" "$P" ":8: bad PCR selection '$sel' (sha256, PCRs 0..15)"
done
case_file "$H\\npcrs sha256:0\\nmeasure-pcr 13\\npcrsig-key sha256:$FP1\\npcrsig-pcrs sha256:11,13\\n"
refused "measurement PCR in the pcrsig selection" "$P" "measurement PCR 13 is in the pcrsig selection"
case_file 'elfsig-policy 2\nauthority sha256:%s\npcrs sha256:0\nmeasure-pcr 13\npcrsig-key sha256:%s\n' "$AFP" "$FP1"
refused "version 2 knows no pcrsig-key" "$P" ":5: unknown directive 'pcrsig-key'"
case_file 'elfsig-policy 1\npcrs sha256:0\nmeasure-pcr 13\ninclude /etc/shadow\n'
refused "unknown directive" "$P" ":4: unknown directive 'include'"
case_file 'elfsig-policy 1\r\npcrs sha256:0\r\nmeasure-pcr 13\r\n'
refused "CRLF line ends" "$P" ":1: control character 0x0d"
case_file 'elfsig-policy 1\npcrs sha256:0\nmeasure-pcr 13\n# a\0b\n'
refused "NUL byte in a comment" "$P" ":4: control character 0x00"
{ printf 'elfsig-policy 1\npcrs sha256:0\nmeasure-pcr 13\n# '; head -c 2000 /dev/zero | tr '\0' x; echo; } > "$P"
refused "line longer than 1024 bytes" "$P" ":4: line longer than 1024"
: > "$P"
refused "empty file" "$P" "not an elfsig policy"
head -c 4096 /dev/urandom > "$P"
refused "random bytes" "$P" "policy"
python3 - "$P" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("elfsig-policy 1\npcrs sha256:0\nmeasure-pcr 13\n")
    while f.tell() <= 1024 * 1024:
        f.write("#" * 1000 + "\n")
PY
refused "file larger than 1 MiB" "$P" "larger than 1048576 bytes"
python3 - "$P" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("elfsig-policy 1\npcrs sha256:0\nmeasure-pcr 13\n")
    for i in range(4097):
        f.write("key sha256:%064x\n" % i)
PY
refused "more than 4096 keys" "$P" "more than 4096 keys"
good_policy > "$T_TMP/real"
ln -sf "$T_TMP/real" "$P"
refused "policy is a symbolic link" "$P" "cannot open"
rm -f "$P"; mkfifo "$P"
refused "policy is a FIFO (no hang)" "$P" "not a regular file"
rm -f "$P"; mkdir "$P"
refused "policy is a directory" "$P" "not a regular file"

# The canonical writer round-trips: create's output parses to the same keys.
# (create needs a TPM for sealing; the writer is tested through the loader
# suite. Here: certificates are refused before any TPM access.)
cert_refused() {
	local name=$1 file=$2 pat=$3 out rc
	out=$(TPM2TOOLS_TCTI=swtpm:host=127.0.0.1,port=1 timeout 20 \
		"$ENROLL" create -d "$T_TMP" -K "$T_TMP/auth.key" -p "$T_TMP/newpolicy" \
		-s "$T_TMP/newsealed" "$file" 2>&1); rc=$?
	if [ "$rc" != 1 ] || [ -e "$T_TMP/newpolicy" ]; then
		t_fail "$name" "exit $rc: $out"
	elif ! grep -q -- "$pat" <<<"$out"; then
		t_fail "$name" "message '$out' does not match '$pat'"
	else
		t_pass "$name"
	fi
}
C=$T_TMP/cert
head -c 200 "$T_TMP/k1.der" > "$C"; cert_refused "truncated DER" "$C" "not an X.509 certificate"
{ cat "$T_TMP/k1.der"; echo junk; } > "$C"; cert_refused "DER with trailing bytes" "$C" "bytes after the certificate"
cat "$T_TMP/k1.pem" "$T_TMP/k2.pem" > "$C"; cert_refused "two certificates in one PEM" "$C" "more than one PEM block"
cp "$T_TMP/k1.key" "$C"; cert_refused "a private key, not a certificate" "$C" "not a CERTIFICATE"
{ echo '-----BEGIN CERTIFICATE-----'; echo 'Proc-Type: 4,ENCRYPTED'; echo 'DEK-Info: AES-128-CBC,00000000000000000000000000000000'; echo; sed -n '2,$p' "$T_TMP/k1.pem"; } > "$C"
cert_refused "PEM with headers" "$C" "PEM headers"
{ echo '-----BEGIN CERTIFICATE-----'; head -c 100000 /dev/zero | base64; echo '-----END CERTIFICATE-----'; } > "$C"
cert_refused "certificate file over 64 KiB" "$C" "larger than 65536 bytes"
head -c 3000 /dev/urandom > "$C"; cert_refused "random bytes" "$C" "not an X.509 certificate\|PEM"
: > "$C"; cert_refused "empty file" "$C" "empty file"
rm -f "$C"; mkfifo "$C"; cert_refused "a FIFO (no hang)" "$C" "not a regular file"

# show --json: one valid JSON object for any subject bytes (a quote, a
# backslash, bytes that are not UTF-8, U+2028; the parser refuses control
# bytes), the same
# keys and fields as the text.
rm -rf "$P"
printf "$H\npcrs sha256:0,2,4,7\nmeasure-pcr 13\n\n# CN=a\"b\\\\c d\377e\342\200\250f\nkey sha256:%s\nkey sha256:%s\n" "$FP1" "$FP2" > "$P"
out=$("$ENROLL" show --json -p "$P" 2>&1); rc=$?
if [ "$rc" = 0 ] && python3 - "$out" "$FP1" "$FP2" "$AFP" "$SRK" <<'PY'
import json, sys
out, fp1, fp2, afp, srk = sys.argv[1:]
assert out.count("\n") == 0, "one line"
j = json.loads(out)
assert j["version"] == 4 and j["pcrs"] == "sha256:0,2,4,7" and j["measure_pcr"] == 13, j
assert j["generation"] == 7 and j["authority"] == "sha256:" + afp and j["srk"] == srk, j
assert [k["fingerprint"] for k in j["keys"]] == ["sha256:" + fp1, "sha256:" + fp2], j
assert j["keys"][0]["subject"] == 'CN=a"b\\\\c d\\377e\\342\\200\\250f', repr(j["keys"][0]["subject"])
assert j["keys"][1]["subject"] == "", j
PY
then
	t_pass "show --json: valid JSON for any subject bytes, the same fields"
else
	t_fail "show --json" "exit $rc: $out"
fi
out=$("$ENROLL" show --json -p "$T_TMP/nonexistent" 2>/dev/null); rc=$?
[ "$rc" = 1 ] && [ -z "$out" ] && t_pass "show --json on a missing policy: status 1, nothing on stdout" ||
	t_fail "show --json on a missing policy" "exit $rc: $out"
out=$("$ENROLL" add --json -p "$P" k1.pem 2>&1); rc=$?
[ "$rc" = 2 ] && [[ $out == "elfsig-enroll: --json: only with show and check"* ]] &&
	t_pass "--json with another command: usage error" || t_fail "--json with another command" "exit $rc: $out"

exit 0
