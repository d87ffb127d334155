#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# File names as an attacker picks them: 239-255 bytes long (a temporary
# name must still fit NAME_MAX), with newlines and a forged "signelf: ...:
# valid" line in them, not valid UTF-8. Every name is printed with one
# rule (signelf(1), NAMES): each message stays one line, and --json stays
# valid JSON that gives the exact bytes back.
set -u
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/fixtures.sh"
fixtures_init
BIN=$FIX/bin/glibc-static
SIGN=(-k "$K/rsa2048.key" -c "$K/rsa2048.pem")
D=$T_TMP/d
mkdir -p "$D"

# Long names: in place, one at a time and through --tree.
for len in 239 240 254 255; do
	name=$(printf 'n%.0s' $(seq "$len"))
	cp "$BIN" "$D/$name"
	t_check "in-place sign of a $len-byte name" "$SIGNELF" sign "${SIGN[@]}" "$D/$name"
	t_check "the $len-byte name verifies" "$SIGNELF" verify -q -c "$K/rsa2048.pem" "$D/$name"
done
mkdir -p "$T_TMP/long"
long=$(printf 'x%.0s' $(seq 255))
cp "$BIN" "$T_TMP/long/$long"; ln "$T_TMP/long/$long" "$T_TMP/long/y$(printf 'x%.0s' $(seq 254))"
out=$("$SIGNELF" sign --tree "$T_TMP/long" "${SIGN[@]}" 2>&1)
name="sign --tree over 255-byte names, one of them another name of the other"
case "$out" in *"signed 1, skipped 1 (1 hard links to a signed file), failed 0") t_pass "$name" ;; *) t_fail "$name" "$out" ;; esac
name="no temporary file is left beside the long names"
left=$(find "$D" "$T_TMP/long" -name '.*elfsig-*')
[ -z "$left" ] && t_pass "$name" || t_fail "$name" "$left"

# A name that forges a second line, and a malformed executable under it.
forged=$'evil\nsignelf: true: valid (sha256, signed by O=you)'
mkdir -p "$T_TMP/nl"
head -c 200 "$BIN" > "$T_TMP/nl/$forged"
"$SIGNELF" sign --tree "$T_TMP/nl" "${SIGN[@]}" >"$T_TMP/out" 2>"$T_TMP/err"
rc=$?
name="sign --tree: a failure under a forged name is one stderr line"
if [ "$rc" != 0 ] && [ "$(wc -l < "$T_TMP/err")" = 1 ] && grep -qF 'evil\nsignelf: true: valid' "$T_TMP/err"; then
	t_pass "$name"
else
	t_fail "$name" "rc=$rc $(cat -A "$T_TMP/err" | head -3 | tr '\n' '|')"
fi
name="sign --tree: the summary line is one line"
[ "$(wc -l < "$T_TMP/out")" = 1 ] && t_pass "$name" || t_fail "$name" "$(cat -A "$T_TMP/out")"

cp "$BIN" "$T_TMP/nl/ok$forged"
"$SIGNELF" sign "${SIGN[@]}" "$T_TMP/nl/ok$forged"
"$SIGNELF" verify -c "$K/rsa2048.pem" "$T_TMP/nl/ok$forged" "$T_TMP/nl/$forged" >"$T_TMP/out" 2>"$T_TMP/err"
name="verify: a valid file under a forged name is one stdout line, escaped"
if [ "$(wc -l < "$T_TMP/out")" = 1 ] && grep -qF 'okevil\nsignelf: true: valid' "$T_TMP/out"; then
	t_pass "$name"
else
	t_fail "$name" "$(cat -A "$T_TMP/out" | tr '\n' '|')"
fi
name="verify: a malformed file under a forged name is one stderr line"
[ "$(wc -l < "$T_TMP/err")" = 1 ] && t_pass "$name" || t_fail "$name" "$(cat -A "$T_TMP/err" | tr '\n' '|')"
"$SIGNELF" digest "$T_TMP/nl/ok$forged" > "$T_TMP/out"
name="digest: one line for a name with a newline"
[ "$(wc -l < "$T_TMP/out")" = 1 ] && t_pass "$name" || t_fail "$name" "$(cat -A "$T_TMP/out")"

# The escapes themselves, as ls -b writes them.
esc=$'a\\b\tc\001d\177e\xffg \xc3\xa9h\xe2\x80\xaei'
cp "$T_TMP/nl/ok$forged" "$T_TMP/$esc"
got=$("$SIGNELF" digest "$T_TMP/$esc" | sed 's/^[0-9a-f]*  //; s|.*/||')
want='a\\b\tc\001d\177e\377g éh\342\200\256i'
name="names print with C escapes: backslash, tab, control bytes, invalid UTF-8, bidi controls"
[ "$got" = "$want" ] && t_pass "$name" || t_fail "$name" "got '$got', want '$want'"

# JSON for any name: escaped text, and the exact bytes when it has escapes.
bad=$'\xff\xfe'"$forged"
cp "$T_TMP/nl/ok$forged" "$T_TMP/nl/$bad"
for cmd in verify show; do
	args=(); [ "$cmd" = verify ] && args=(-c "$K/rsa2048.pem")
	"$SIGNELF" "$cmd" --json "${args[@]}" "$T_TMP/nl/$bad" "$T_TMP/nl/ok$forged" "$T_TMP/nl/$forged" "$T_TMP/$esc" "$BIN" > "$T_TMP/json" 2>/dev/null
	name="$cmd --json: valid JSON for names with newlines and invalid UTF-8, name_b64 gives the bytes"
	if python3 - "$T_TMP/json" "$T_TMP/nl/$bad" "$T_TMP/nl/ok$forged" "$T_TMP/nl/$forged" "$T_TMP/$esc" "$BIN" <<'EOP'
import base64, json, os, sys
lines = open(sys.argv[1], "rb").read().split(b"\n")[:-1]
want = [os.fsencode(a) for a in sys.argv[2:]]
assert len(lines) == len(want), lines
for line, name in zip(lines, want):
    rec = json.loads(line.decode("utf-8"))
    if "name_b64" in rec:
        assert base64.b64decode(rec["name_b64"]) == name, rec
    else:
        assert rec["file"].encode() == name, rec
    assert "\n" not in rec["file"] and "\n" not in rec.get("error", ""), rec
assert all("name_b64" in json.loads(l) for l in lines[:4])
assert "name_b64" not in json.loads(lines[4])	# a plain name is itself
EOP
	then t_pass "$name"; else t_fail "$name" "$(head -c 400 "$T_TMP/json")"; fi
done
exit 0
