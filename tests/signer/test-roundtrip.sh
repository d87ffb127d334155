#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Sign, verify, strip, re-sign and remove on real binaries of every kind.
set -u
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/fixtures.sh"
fixtures_init

for b in $FIX_BINS; do
	in=$FIX/bin/$b s=$T_TMP/$b.signed
	before=$(sha "$in")
	if ! fix_sign rsa2048 "$in" "$s"; then
		t_fail "$b: sign"; continue
	fi
	[ "$(sha "$in")" = "$before" ] && t_pass "$b: -o leaves the input untouched" ||
		t_fail "$b: -o leaves the input untouched"
	t_check "$b: verify" "$SIGNELF" verify -q --cert "$K/rsa2048.pem" "$s"

	# The digest agrees with an independent implementation (elfcraft.py).
	d1=$("$SIGNELF" digest "$s" | cut -d' ' -f1)
	d2=$($ELFCRAFT digest "$s")
	[ -n "$d1" ] && [ "$d1" = "$d2" ] && t_pass "$b: digest matches elfcraft" ||
		t_fail "$b: digest matches elfcraft" "$d1 != $d2"
	# Signing changes no loaded byte: the unsigned file has the same digest.
	[ "$("$SIGNELF" digest "$in" | cut -d' ' -f1)" = "$d1" ] &&
		t_pass "$b: signing moves no signed byte" ||
		t_fail "$b: signing moves no signed byte"
	[ "$(readelf -lW "$in" | grep -E '^\s+[A-Z]')" = "$(readelf -lW "$s" | grep -E '^\s+[A-Z]')" ] &&
		t_pass "$b: program headers unchanged" || t_fail "$b: program headers unchanged"

	strip=$(fix_strip "$b") objcopy=$(fix_objcopy "$b")
	cp "$s" "$T_TMP/x"; $strip "$T_TMP/x"
	t_check "$b: still valid after strip" "$SIGNELF" verify -q -c "$K/rsa2048.pem" "$T_TMP/x"
	cp "$s" "$T_TMP/y"; $strip --strip-debug "$T_TMP/y"
	t_check "$b: still valid after strip --strip-debug" "$SIGNELF" verify -q -c "$K/rsa2048.pem" "$T_TMP/y"
	cp "$s" "$T_TMP/z"
	if $objcopy --remove-section .comment "$T_TMP/z" 2>/dev/null; then
		t_check "$b: still valid after objcopy --remove-section .comment" \
			"$SIGNELF" verify -q -c "$K/rsa2048.pem" "$T_TMP/z"
	fi

	# LLVM's strip keeps no section it does not know: the signature goes
	# (docs/guide.md says so) unless it is kept by name.
	if command -v llvm-strip >/dev/null && command -v llvm-objcopy >/dev/null; then
		for tool in llvm-strip "llvm-objcopy --strip-all"; do
			cp "$s" "$T_TMP/l"
			if ! $tool "$T_TMP/l" 2>/dev/null; then
				# It refuses some static glibc programs (.rela.plt
				# linked to .symtab) and leaves the file alone.
				t_skip "$b: $tool" "$tool cannot process this file"
				continue
			fi
			"$SIGNELF" verify -q -c "$K/rsa2048.pem" "$T_TMP/l" 2>/dev/null
			rc=$?
			[ $rc = 2 ] && ! readelf -SW "$T_TMP/l" | grep -q '\.signature' &&
				t_pass "$b: $tool drops .signature (as documented)" ||
				t_fail "$b: $tool drops .signature (as documented)" "verify rc=$rc"
			cp "$s" "$T_TMP/l"; $tool --keep-section=.signature "$T_TMP/l"
			t_check "$b: $tool --keep-section=.signature: still valid" \
				"$SIGNELF" verify -q -c "$K/rsa2048.pem" "$T_TMP/l"
		done
	else
		t_skip "$b: llvm-strip" "llvm not installed"
	fi

	# Re-signing replaces: one .signature, stable size.
	cp "$s" "$T_TMP/r"
	"$SIGNELF" sign -k "$K/p256.key" -c "$K/p256.pem" "$T_TMP/r"
	n=$(readelf -SW "$T_TMP/r" | grep -c '\.signature')
	[ "$n" = 1 ] && t_pass "$b: re-sign keeps one .signature" ||
		t_fail "$b: re-sign keeps one .signature" "$n sections"
	"$SIGNELF" sign -k "$K/p256.key" -c "$K/p256.pem" "$T_TMP/r"
	sz1=$(stat -c %s "$T_TMP/r")
	"$SIGNELF" sign -k "$K/p256.key" -c "$K/p256.pem" "$T_TMP/r"
	sz2=$(stat -c %s "$T_TMP/r")
	[ $((sz2 - sz1)) -le 8 ] && [ $((sz1 - sz2)) -le 8 ] &&
		t_pass "$b: re-signing does not grow the file" ||
		t_fail "$b: re-signing does not grow the file" "$sz1 -> $sz2"
	t_check "$b: re-signed by P-256 verifies" "$SIGNELF" verify -q -c "$K/p256.pem" "$T_TMP/r"
	"$SIGNELF" verify -q -c "$K/rsa2048.pem" "$T_TMP/r"
	[ $? = 1 ] && t_pass "$b: the old signer no longer matches" ||
		t_fail "$b: the old signer no longer matches"

	# Remove, then it is unsigned and the loaded image is the same.
	"$SIGNELF" remove "$T_TMP/r"
	"$SIGNELF" verify -q -c "$K/p256.pem" "$T_TMP/r"
	[ $? = 2 ] && t_pass "$b: remove makes it unsigned" || t_fail "$b: remove makes it unsigned"
	[ "$("$SIGNELF" digest "$T_TMP/r" | cut -d' ' -f1)" = "$d1" ] &&
		t_pass "$b: remove moves no signed byte" || t_fail "$b: remove moves no signed byte"
	! readelf -SW "$T_TMP/r" | grep -q '\.signature' &&
		t_pass "$b: remove leaves no .signature" || t_fail "$b: remove leaves no .signature"

	if fix_native "$b" && ! fix_runs "$b"; then
		t_skip "$b: signed binary runs" "this host cannot run the unsigned $b fixture either (probe failed)"
	elif fix_native "$b"; then
		out=$("$s" 2>&1 </dev/null | head -1)
		if [ "$b" = busybox ]; then out=$("$s" echo hello from a signed binary); fi
		[ "$out" = "hello from a signed binary" ] && t_pass "$b: signed binary runs" ||
			t_fail "$b: signed binary runs" "got '$out'"
	fi
done

# In place: atomic, mode kept, follows symlinks, batch of several files.
cp "$FIX/bin/musl-static" "$T_TMP/a"; cp "$FIX/bin/musl-static" "$T_TMP/b"
chmod 4751 "$T_TMP/a"; ln -s a "$T_TMP/link"
"$SIGNELF" sign -k "$K/rsa3072.key" -c "$K/rsa3072.pem" "$T_TMP/link" "$T_TMP/b"
[ -L "$T_TMP/link" ] && t_pass "in place: a symlink stays a symlink" || t_fail "in place: a symlink stays a symlink"
[ "$(stat -c %a "$T_TMP/a")" = 4751 ] && t_pass "in place: mode kept" ||
	t_fail "in place: mode kept" "$(stat -c %a "$T_TMP/a")"
t_check "batch: both files signed" "$SIGNELF" verify -q -c "$K/rsa3072.pem" "$T_TMP/a" "$T_TMP/b"
left=$(find "$T_TMP" -name '.*elfsig-*' | wc -l)
[ "$left" = 0 ] && t_pass "no temporary file left behind" || t_fail "no temporary file left behind"
chown 12345:23456 "$T_TMP/b" 2>/dev/null &&
	"$SIGNELF" sign -k "$K/rsa3072.key" -c "$K/rsa3072.pem" "$T_TMP/b" &&
	[ "$(stat -c %u:%g "$T_TMP/b")" = 12345:23456 ] && t_pass "in place: owner kept" ||
	t_fail "in place: owner kept"

# No section table at all (as sstrip leaves a file): signing creates one.
python3 - "$FIX/bin/musl-static" "$T_TMP/nosht" <<'EOP'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
shoff = struct.unpack_from("<Q", d, 0x28)[0]
d = d[:shoff]                       # drop the table (it is last)
struct.pack_into("<Q", d, 0x28, 0)          # e_shoff
struct.pack_into("<HHH", d, 0x3a, 0, 0, 0)   # e_shentsize, e_shnum, e_shstrndx
open(sys.argv[2], "wb").write(d)
EOP
chmod +x "$T_TMP/nosht"
fix_sign rsa2048 "$T_TMP/nosht" "$T_TMP/nosht.signed" &&
	"$SIGNELF" verify -q -c "$K/rsa2048.pem" "$T_TMP/nosht.signed" &&
	[ "$(readelf -SW "$T_TMP/nosht.signed" | grep -c -E '\.shstrtab|\.signature')" = 2 ] &&
	[ "$("$T_TMP/nosht.signed")" = "hello from a signed binary" ] &&
	t_pass "a file without a section table: signed, a table made, still runs" ||
	t_fail "a file without a section table: signed, a table made, still runs"
"$SIGNELF" remove "$T_TMP/nosht.signed" && "$SIGNELF" verify -q -c "$K/rsa2048.pem" "$T_TMP/nosht.signed"
[ $? = 2 ] && t_pass "a file without a section table: remove" || t_fail "a file without a section table: remove"

# A batch with a bad file: the others are signed, the bad one untouched.
mkdir "$T_TMP/batch"
for i in 1 2 3; do cp "$FIX/bin/musl-static" "$T_TMP/batch/ok$i"; done
printf 'not an ELF file\n' > "$T_TMP/batch/bad"
"$SIGNELF" sign -k "$K/rsa2048.key" -c "$K/rsa2048.pem" "$T_TMP/batch/ok1" "$T_TMP/batch/bad" \
	"$T_TMP/batch/ok2" "$T_TMP/batch/ok3" 2>"$T_TMP/err"
rc=$?
[ $rc = 3 ] && [ "$(wc -l < "$T_TMP/err")" = 1 ] &&
	"$SIGNELF" verify -q -c "$K/rsa2048.pem" "$T_TMP"/batch/ok* &&
	[ "$(cat "$T_TMP/batch/bad")" = "not an ELF file" ] &&
	[ "$(find "$T_TMP/batch" -mindepth 1 | wc -l)" = 4 ] &&
	t_pass "batch: one bad file fails alone, the rest are signed" ||
	t_fail "batch: one bad file fails alone, the rest are signed" "rc=$rc"

# PT_INTERP: a dynamic executable and its libraries are signed like any
# other file (the kernel verifies the interpreter and every library too).
"$SIGNELF" sign -k "$K/rsa2048.key" -c "$K/rsa2048.pem" -o "$T_TMP/dyn" "$FIX/bin/glibc-dynamic" 2>"$T_TMP/err"
rc=$?
[ $rc = 0 ] && [ ! -s "$T_TMP/err" ] && "$SIGNELF" verify -q -c "$K/rsa2048.pem" "$T_TMP/dyn" &&
	[ "$("$T_TMP/dyn")" = "hello from a signed binary" ] &&
	t_pass "PT_INTERP: signed without --allow-interp, verifies, runs" ||
	t_fail "PT_INTERP: signed without --allow-interp, verifies, runs" "rc=$rc $(cat "$T_TMP/err")"
"$SIGNELF" show "$T_TMP/dyn" | grep -q 'interpreter: yes' &&
	t_pass "PT_INTERP: show names the interpreter" || t_fail "PT_INTERP: show names the interpreter"
rm -f "$T_TMP/dyn2"
fix_sign rsa2048 "$FIX/bin/glibc-dynamic" "$T_TMP/dyn2" --allow-interp 2>"$T_TMP/err" &&
	[ ! -s "$T_TMP/err" ] && cmp -s "$T_TMP/dyn" "$T_TMP/dyn2" &&
	t_pass "PT_INTERP: --allow-interp still accepted, and changes nothing" ||
	t_fail "PT_INTERP: --allow-interp still accepted, and changes nothing"
libc=$(ldd "$FIX/bin/glibc-dynamic" | awk '/libc.so/ {print $3}')
interp=$(readelf -lW "$FIX/bin/glibc-dynamic" | sed -n 's/.*interpreter: \(.*\)]/\1/p')
fix_sign p256 "$libc" "$T_TMP/libc.so.6" && fix_sign p256 "$interp" "$T_TMP/ld.so" &&
	"$SIGNELF" verify -q -c "$K/p256.pem" "$T_TMP/libc.so.6" "$T_TMP/ld.so" &&
	[ "$("$T_TMP/ld.so" --library-path "$T_TMP" "$FIX/bin/glibc-dynamic")" = "hello from a signed binary" ] &&
	t_pass "PT_INTERP: the real libc and ld.so signed, verified, and they still load a program" ||
	t_fail "PT_INTERP: the real libc and ld.so signed, verified, and they still load a program"

# show and --json
"$SIGNELF" show "$T_TMP/a" | grep -q 'issuer O = elfsig tests, CN = rsa3072\|issuer CN=rsa3072,O=elfsig tests' &&
	t_pass "show names the signer" || t_fail "show names the signer" "$("$SIGNELF" show "$T_TMP/a")"
"$SIGNELF" verify --json -c "$K/rsa3072.pem" "$T_TMP/a" "$FIX/bin/busybox" > "$T_TMP/j"
python3 - "$T_TMP/j" <<'EOP' && t_pass "verify --json: one object per file, statuses right" || t_fail "verify --json: one object per file, statuses right"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert [r["status"] for r in rows] == ["valid", "unsigned"], rows
assert rows[0]["hash"] == "sha256" and len(rows[0]["digest"]) == 64
EOP
"$SIGNELF" show --json "$T_TMP/a" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["section_size"] > 0 and d["hash"] == "sha256"' &&
	t_pass "show --json parses" || t_fail "show --json parses"

# External signer flow: digest --message, sign elsewhere, attach.
cp "$FIX/bin/glibc-static" "$T_TMP/ext"
"$SIGNELF" digest --hash sha384 --message "$T_TMP/msg" "$T_TMP/ext" >/dev/null
openssl cms -sign -binary -noattr -nocerts -outform DER -md sha384 \
	-signer "$K/p384.pem" -inkey "$K/p384.key" -in "$T_TMP/msg" -out "$T_TMP/ext.sig" 2>/dev/null
"$SIGNELF" attach --signature "$T_TMP/ext.sig" "$T_TMP/ext"
t_check "attach: an openssl-made signature verifies" "$SIGNELF" verify -q -c "$K/p384.pem" "$T_TMP/ext"
msglen=$(stat -c %s "$T_TMP/msg")
[ "$msglen" = 60 ] && [ "$(head -c 8 "$T_TMP/msg")" = ELFSIG01 ] &&
	t_pass "digest --message writes the 60-byte sha384 message" ||
	t_fail "digest --message writes the 60-byte sha384 message" "$msglen bytes"

exit 0
