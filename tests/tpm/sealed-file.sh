#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tpm/: hostile sealed-object files are refused with one clear line.
set -u
. "$(dirname "$0")/lib-tpm.sh"
tpm_need swtpm tpm2_getrandom python3
t_mktemp
tpm_start || { t_fail tpm-start "cannot start swtpm"; exit 0; }
T=$TPM_TOOL
D=$T_TMP

echo -n "s3cret" >"$D/secret"
$T seal --pcrs sha256:0,7 --in "$D/secret" --out "$D/good" || { t_fail seal; exit 0; }
[ "$($T unseal --in "$D/good")" = s3cret ] && t_pass valid-file-unseals || t_fail valid-file-unseals

# bad NAME PATTERN: unseal of $D/NAME exits 5 with one matching line
bad() {
	local err rc
	err=$(timeout 15 "$T" unseal --in "$D/$1" 2>&1 >/dev/null); rc=$?
	# shellcheck disable=SC2053
	if [ $rc = 5 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && [[ $err == $2 ]]; then
		t_pass "$1"
	else
		t_fail "$1" "rc=$rc: $err"
	fi
}

# Offsets in the v2 layout (docs/tpm.md): 0 magic, 8 version, 10 flags,
# 12 TPML_PCR_SELECTION (10 bytes), 22 two PCR values (64), 86 the SRK's
# TPM2B_NAME (2 + 34), 122 TPM2B_PUBLIC.
python3 - "$D" <<'PY'
import struct, sys
d = sys.argv[1]
g = open(d + "/good", "rb").read()
def w(name, data): open(d + "/" + name, "wb").write(data)
w("empty", b"")
w("short-header", g[:7])
w("wrong-magic", b"ELFSIGXX" + g[8:])
w("version-4", g[:8] + struct.pack(">H", 4) + g[10:])
# Version 3 (PolicyAuthorize) starts with the authority key's name where
# version 2 has the PCR selection: a v2 body under a v3 header is refused.
w("v3-header-v2-body", g[:8] + struct.pack(">H", 3) + b"\0\0" + g[12:])
# Version 1 (before the SRK name): the same without the name. It still
# parses and unseals; written back, it stays version 1.
assert g[8:10] == b"\0\2" and g[86:88] == b"\0\x22" and g[88:90] == b"\0\x0b"
w("v1", g[:8] + struct.pack(">H", 1) + g[10:86] + g[122:])
w("v1-with-name", g[:8] + struct.pack(">H", 1) + g[10:])
name = 86
w("srk-name-size-ffff", g[:name] + struct.pack(">H", 0xffff) + g[name + 2:])
w("srk-name-size-zero", g[:name] + struct.pack(">H", 0) + g[name + 2:])
w("srk-name-short", g[:name] + struct.pack(">H", 22) + g[name + 2:name + 24] + g[122:])
w("srk-name-unknown-alg", g[:name + 2] + struct.pack(">H", 0x0099) + g[name + 4:])
w("truncated-srk-name", g[:100])
w("unknown-flags", g[:10] + struct.pack(">H", 0x8001) + g[12:])
w("two-banks", g[:12] + struct.pack(">I", 2) + g[16:])
w("huge-bank-count", g[:12] + struct.pack(">I", 0xffffffff) + g[16:])
w("unknown-bank", g[:16] + struct.pack(">H", 0x0099) + g[18:])
w("select-size-200", g[:18] + bytes([200]) + g[19:])
w("no-pcr-selected", g[:19] + b"\0\0\0" + g[22:])
w("truncated-values", g[:40])
pub = 122
w("public-size-ffff", g[:pub] + struct.pack(">H", 0xffff) + g[pub + 2:])
w("public-size-zero", g[:pub] + struct.pack(">H", 0) + g[pub + 2:])
psz = struct.unpack(">H", g[pub:pub + 2])[0]
priv = pub + 2 + psz
w("private-size-ffff", g[:priv] + struct.pack(">H", 0xffff) + g[priv + 2:])
w("private-size-short", g[:priv] + struct.pack(">H", 4) + g[priv + 2:])
w("trailing-byte", g + b"\0")
w("oversized-file", g + b"\0" * 9000)
# userWithAuth set (attributes at public + 2 type + 2 nameAlg)
a = pub + 2 + 4
attrs = struct.unpack(">I", g[a:a + 4])[0] | 0x40
w("userwithauth-object", g[:a] + struct.pack(">I", attrs) + g[a + 4:])
# a signing key's type instead of a sealed data object
w("not-keyedhash", g[:pub + 2] + struct.pack(">H", 0x0001) + g[pub + 4:])
PY
bad empty "elfsig-tpm: sealed object: truncated (0 bytes, the header alone is 12)"
bad short-header "elfsig-tpm: sealed object: truncated (7 bytes*"
bad wrong-magic "elfsig-tpm: sealed object: bad magic, not an elfsig sealed-object file"
bad version-4 "elfsig-tpm: sealed object: unsupported format version 4 (this is version 3)"
bad v3-header-v2-body "elfsig-tpm: sealed object: malformed authority key name (0 bytes)"
bad v1-with-name "elfsig-tpm: sealed object: malformed public area"
bad srk-name-size-ffff "elfsig-tpm: sealed object: storage root key name size 65535 exceeds the * bytes left"
bad srk-name-size-zero "elfsig-tpm: sealed object: malformed storage root key name (0 bytes)"
bad srk-name-short "elfsig-tpm: sealed object: malformed storage root key name (22 bytes)"
bad srk-name-unknown-alg "elfsig-tpm: sealed object: malformed storage root key name (34 bytes)"
bad truncated-srk-name "elfsig-tpm: sealed object: storage root key name size 34 exceeds the 12 bytes left"
bad unknown-flags "elfsig-tpm: sealed object: unknown flags 0x8001"
bad two-banks "elfsig-tpm: sealed object: PCR selection must name exactly one bank"
bad huge-bank-count "elfsig-tpm: sealed object: PCR selection must name exactly one bank"
bad unknown-bank "elfsig-tpm: sealed object: malformed PCR selection"
bad select-size-200 "elfsig-tpm: sealed object: malformed PCR selection"
bad no-pcr-selected "elfsig-tpm: sealed object: malformed PCR selection"
bad truncated-values "elfsig-tpm: sealed object: truncated in the PCR values*"
bad public-size-ffff "elfsig-tpm: sealed object: public area size 65535 exceeds the * bytes left"
bad public-size-zero "elfsig-tpm: sealed object: malformed public area"
bad private-size-ffff "elfsig-tpm: sealed object: private area size 65535 exceeds the * bytes left"
bad private-size-short "elfsig-tpm: sealed object: * unexpected bytes after the private area"
bad trailing-byte "elfsig-tpm: sealed object: 1 unexpected bytes after the private area"
bad oversized-file "elfsig-tpm: $D/oversized-file: sealed object: file larger than 8192 bytes"
bad userwithauth-object "elfsig-tpm: sealed object: refused, it can be opened without the PCR policy*"
bad not-keyedhash "elfsig-tpm: sealed object: *public area*"

[ "$($T unseal --in "$D/v1")" = s3cret ] && t_pass v1-file-still-unseals ||
	t_fail v1-file-still-unseals

# The tpm2-tools pair (unseal --tss) goes through the same checks.
$T seal --pcrs sha256:0,7 --in "$D/secret" --out "$D/g2" --export-tss "$D/p.pub" "$D/p.priv"
head -c 20 "$D/p.pub" >"$D/p.pub.trunc"
head -c 3000000 /dev/zero >"$D/huge"
tss_bad() {
	local name=$1 want=$2 pat=$3 err rc; shift 3
	err=$(timeout 15 "$T" unseal --pcrs sha256:0,7 --tss "$@" 2>&1 >/dev/null); rc=$?
	# shellcheck disable=SC2053
	if [ $rc = "$want" ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && [[ $err == $pat ]]; then
		t_pass "$name"
	else
		t_fail "$name" "rc=$rc: $err"
	fi
}
tss_bad tss-truncated-public 5 "elfsig-tpm: sealed object: public area size * exceeds the * bytes left" "$D/p.pub.trunc" "$D/p.priv"
tss_bad tss-huge-public 1 "elfsig-tpm: $D/huge: larger than 1024 bytes" "$D/huge" "$D/p.priv"
tss_bad tss-swapped-files 5 "elfsig-tpm: sealed object: *" "$D/p.priv" "$D/p.pub"
[ "$($T unseal --pcrs sha256:0,7 --tss "$D/p.pub" "$D/p.priv")" = s3cret ] &&
	t_pass tss-pair-valid || t_fail tss-pair-valid

# Every truncation of a valid file is refused cleanly.
size=$(stat -c %s "$D/good"); ok=1
for n in $(seq 0 $((size - 1))); do
	head -c "$n" "$D/good" >"$D/trunc"
	err=$("$T" unseal --in "$D/trunc" 2>&1 >/dev/null); rc=$?
	if [ $rc != 5 ] || [ "$(printf '%s\n' "$err" | wc -l)" != 1 ]; then
		ok=0; break
	fi
done
[ $ok = 1 ] && t_pass "every-truncation-refused-$size" || t_fail every-truncation-refused "at $n bytes: rc=$rc $err"

# Random single-byte corruption: never a crash, never the secret, always
# one line; the TPM itself rejects tampered private areas.
python3 - "$D" <<'PY'
import random, sys
d = sys.argv[1]; g = bytearray(open(d + "/good", "rb").read())
random.seed(4)
for i in range(150):
    b = bytearray(g); p = random.randrange(len(b)); b[p] ^= 1 << random.randrange(8)
    open("%s/flip%03d" % (d, i), "wb").write(b)
PY
ok=1; why=
for f in "$D"/flip*; do
	out=$(timeout 15 "$T" unseal --in "$f" 2>"$D/err"); rc=$?
	lines=$(wc -l <"$D/err")
	if [ $rc -ge 124 ] || { [ $rc != 0 ] && [ "$lines" != 1 ]; }; then
		ok=0; why="$f rc=$rc $(cat "$D/err")"; break
	fi
	# A flipped bit in the recorded PCR values changes only the message.
	if [ $rc = 0 ] && [ "$out" != s3cret ]; then ok=0; why="$f unsealed '$out'"; break; fi
done
[ $ok = 1 ] && t_pass random-bit-flips-150 || t_fail random-bit-flips-150 "$why"
[ -z "$(tpm2_getcap handles-transient)" ] && t_pass no-transient-after-hostile ||
	t_fail no-transient-after-hostile
exit 0
