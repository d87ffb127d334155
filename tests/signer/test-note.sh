#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The ELFSIG flags note: programs built with and without <elfsig/note.h>
# (dynamic, static, i386, big-endian s390x), what show says, the warning
# sign gives, a note outside every PT_LOAD, malformed notes.
set -u
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/fixtures.sh"
fixtures_init
INC=$TOP/include
sign() { "$SIGNELF" sign -k "$K/rsa2048.key" -c "$K/rsa2048.pem" "$@"; }

cat > "$T_TMP/jit.c" <<'EOC'
#include <stdio.h>
#include <elfsig/note.h>
ELFSIG_NOTE_ANON_EXEC();
int main(void) { puts("a JIT"); return 0; }
EOC
cat > "$T_TMP/plain.c" <<'EOC'
#include <stdio.h>
int main(void) { puts("no JIT"); return 0; }
EOC

builds="dynamic: static:-static"
if t_probe gcc-m32 gcc -m32 -o "$T_TMP/probe32" "$T_TMP/plain.c"; then
	builds+=" i386-dynamic:-m32 i386-static:-m32_-static"
else
	t_skip "note: i386 programs" "gcc -m32 cannot link here"
fi
for b in $builds; do
	name=${b%%:*} flags=${b#*:}; flags=${flags//_/ }
	# shellcheck disable=SC2086 # the flags are words
	if ! gcc -O2 $flags -I"$INC" -o "$T_TMP/jit-$name" "$T_TMP/jit.c" ||
	   ! gcc -O2 $flags -o "$T_TMP/plain-$name" "$T_TMP/plain.c"; then
		t_fail "note $name: build"; continue
	fi
	sign "$T_TMP/jit-$name" 2> "$T_TMP/err"; rc=$?
	[ $rc = 0 ] && [ "$(wc -l < "$T_TMP/err")" = 1 ] &&
		grep -q "warning: $T_TMP/jit-$name: carries ELFSIG_FLAG_ANON_EXEC" "$T_TMP/err" &&
		t_pass "note $name: sign warns once about ELFSIG_FLAG_ANON_EXEC" ||
		t_fail "note $name: sign warns once about ELFSIG_FLAG_ANON_EXEC" "rc=$rc $(cat "$T_TMP/err")"
	"$SIGNELF" show "$T_TMP/jit-$name" | grep -q '^  flags:      0x1 anon-exec' &&
		"$SIGNELF" show --json "$T_TMP/jit-$name" | grep -q '"note":"covered","flags":1}' &&
		t_pass "note $name: show prints the flags" ||
		t_fail "note $name: show prints the flags" "$("$SIGNELF" show "$T_TMP/jit-$name" | tail -1)"
	sign "$T_TMP/plain-$name" 2> "$T_TMP/err"; rc=$?
	[ $rc = 0 ] && [ ! -s "$T_TMP/err" ] &&
		"$SIGNELF" show "$T_TMP/plain-$name" | grep -q '^  flags:      none (no ELFSIG note)' &&
		"$SIGNELF" show --json "$T_TMP/plain-$name" | grep -q '"note":"absent","flags":0}' &&
		t_pass "note $name: without the macro, no warning and no flags" ||
		t_fail "note $name: without the macro, no warning and no flags" "rc=$rc $(cat "$T_TMP/err")"
	if t_probe "run-$name" "$T_TMP/plain-$name"; then
		[ "$("$T_TMP/jit-$name")" = "a JIT" ] && t_pass "note $name: the program runs" ||
			t_fail "note $name: the program runs"
	else
		t_skip "note $name: the program runs" "this host cannot run $name programs"
	fi
done

# The note is covered: flipping its flags word breaks the signature.
f=$T_TMP/jit-static
off=$(python3 - "$f" <<'EOP'
import sys
d = open(sys.argv[1], "rb").read()
i = d.find(b"\x07\x00\x00\x00\x04\x00\x00\x00\x01\x00\x00\x00ELFSIG\x00\x00")
assert i > 0 and d.find(b"ELFSIG\x00\x00", i + 13) < 0
print(i + 20)
EOP
)
cp "$f" "$T_TMP/flipped"
printf '\000' | dd of="$T_TMP/flipped" bs=1 seek="$off" conv=notrunc 2>/dev/null
"$SIGNELF" verify -q -c "$K/rsa2048.pem" "$f" && { "$SIGNELF" verify -q -c "$K/rsa2048.pem" "$T_TMP/flipped"; [ $? = 1 ]; } &&
	"$SIGNELF" show "$T_TMP/flipped" | grep -q '^  flags:      0x0$' &&
	t_pass "note: the signature covers the flags word (cleared: bad signature)" ||
	t_fail "note: the signature covers the flags word (cleared: bad signature)"

# Big-endian: the same macro's assembly in an s390x program.
cat > "$T_TMP/asm.c" <<'EOC'
#include <stdio.h>
#include <elfsig/note.h>
int main(void) { fputs(ELFSIG_NOTE_ASM(ELFSIG_NOTE_ANON_EXEC_BITS), stdout); return 0; }
EOC
if gcc -I"$INC" -o "$T_TMP/asm" "$T_TMP/asm.c" &&
   { printf '\t.globl _start\n\t.text\n_start:\tlghi %%r2,0\n\tsvc 1\n'; "$T_TMP/asm"; } > "$T_TMP/be.s" &&
   s390x-linux-gnu-as -o "$T_TMP/be.o" "$T_TMP/be.s" && s390x-linux-gnu-ld -o "$T_TMP/be" "$T_TMP/be.o"; then
	sign "$T_TMP/be" 2> "$T_TMP/err" && grep -q ANON_EXEC "$T_TMP/err" &&
		"$SIGNELF" show --json "$T_TMP/be" | grep -q '"note":"covered","flags":1}' &&
		python3 -c 'import sys; d=open(sys.argv[1],"rb").read(); i=d.find(b"ELFSIG\0"); sys.exit(d[i-12:i] != bytes.fromhex("000000070000000400000001") or d[i+8:i+12] != bytes.fromhex("00000001"))' "$T_TMP/be" &&
		t_pass "note s390x (big-endian): words in the file's byte order, flags read" ||
		t_fail "note s390x (big-endian): words in the file's byte order, flags read" "$(cat "$T_TMP/err")"
else
	t_fail "note s390x: build"
fi

# edit FILE PYTHON: change a copy of the static JIT program (ELF64 LE).
edit() {
	cp "$T_TMP/jit-static" "$1"; "$SIGNELF" remove "$1" 2>/dev/null
	python3 - "$1" "$2" <<'EOP'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
phoff, = struct.unpack_from("<Q", d, 0x20); phnum, = struct.unpack_from("<H", d, 0x38)
ph = [phoff + 56 * i for i in range(phnum)]
note = d.find(b"\x07\x00\x00\x00\x04\x00\x00\x00\x01\x00\x00\x00ELFSIG\x00\x00")
seg = [p for p in ph if struct.unpack_from("<I", d, p)[0] == 4 and
       struct.unpack_from("<Q", d, p + 8)[0] <= note <
       sum(struct.unpack_from("<QQQQ", d, p + 8)[::3])][0]
exec(sys.argv[2])
open(sys.argv[1], "wb").write(d)
EOP
}
# refused FILE WHAT: sign -o refuses it, one line with WHAT, no output.
refused() {
	rm -f "$T_TMP/out"
	sign -o "$T_TMP/out" "$1" 2> "$T_TMP/err"; rc=$?
	[ $rc = 3 ] && [ "$(wc -l < "$T_TMP/err")" = 1 ] && grep -q "$2" "$T_TMP/err" && [ ! -e "$T_TMP/out" ]
}
edit "$T_TMP/m1" 'struct.pack_into("<I", d, note + 4, 8); struct.pack_into("<Q", d, seg + 32, struct.unpack_from("<Q", d, seg + 32)[0] + 4)'
refused "$T_TMP/m1" "ELFSIG flags note of 8 bytes, not 4" &&
	t_pass "note: a flags note of 8 bytes is refused in one line" ||
	t_fail "note: a flags note of 8 bytes is refused in one line" "rc=$rc $(cat "$T_TMP/err")"
edit "$T_TMP/m2" 'struct.pack_into("<I", d, note, 0xfffffff0)'
refused "$T_TMP/m2" "extends past the segment" &&
	t_pass "note: a name size past the segment (would wrap in 32 bits) is refused" ||
	t_fail "note: a name size past the segment (would wrap in 32 bits) is refused" "rc=$rc $(cat "$T_TMP/err")"
edit "$T_TMP/m3" 'struct.pack_into("<Q", d, seg + 32, struct.unpack_from("<Q", d, seg + 32)[0] - 2)'
refused "$T_TMP/m3" "truncated note\|extends past the segment" &&
	t_pass "note: a note segment cut short is refused" ||
	t_fail "note: a note segment cut short is refused" "rc=$rc $(cat "$T_TMP/err")"
sed 's/^ELFSIG_NOTE_ANON_EXEC();/&\nELFSIG_NOTE(0);/' "$T_TMP/jit.c" > "$T_TMP/two.c"
gcc -static -I"$INC" -o "$T_TMP/two" "$T_TMP/two.c" && refused "$T_TMP/two" "2 ELFSIG flags notes" &&
	t_pass "note: two flags notes are refused" || t_fail "note: two flags notes are refused" "$(cat "$T_TMP/err")"
# The note moved outside every PT_LOAD (the segment now points at a copy
# at the end of the file; the one inside renamed): ignored by the
# kernel, so sign says so and show tells.
edit "$T_TMP/out-of-load" 'd += b"\0" * (-len(d) % 4); new = len(d); d += d[note:note + 24]; d[note + 12] = ord("X"); struct.pack_into("<QQQQQ", d, seg + 8, new, 0, 0, 24, 24)'
sign "$T_TMP/out-of-load" 2> "$T_TMP/err"; rc=$?
[ $rc = 0 ] && [ "$(wc -l < "$T_TMP/err")" = 1 ] && grep -q "outside every PT_LOAD" "$T_TMP/err" &&
	"$SIGNELF" show "$T_TMP/out-of-load" | grep -q "flags:      0x1 in an ELFSIG note outside every PT_LOAD or in a section no PT_NOTE maps: not covered" &&
	"$SIGNELF" show --json "$T_TMP/out-of-load" | grep -q '"note":"uncovered","flags":1}' &&
	t_pass "note: outside every PT_LOAD: sign warns, show says it is not covered" ||
	t_fail "note: outside every PT_LOAD: sign warns, show says it is not covered" "rc=$rc $(cat "$T_TMP/err")"
# The note in a .note section that no PT_NOTE maps (objcopy --add-section
# makes it SHT_NOTE, not allocated): the kernel never reads it.
python3 -c 'import struct, sys; sys.stdout.buffer.write(struct.pack("<III", 7, 4, 1) + b"ELFSIG\0\0" + struct.pack("<I", 1))' > "$T_TMP/note.bin"
name="note: in a .note section no PT_NOTE maps: sign warns, show says it is not covered"
if objcopy --add-section .note.elfsig="$T_TMP/note.bin" "$T_TMP/plain-static" "$T_TMP/sec-note" &&
   readelf -SW "$T_TMP/sec-note" | grep -q '\.note\.elfsig *NOTE'; then
	sign "$T_TMP/sec-note" 2> "$T_TMP/err"; rc=$?
	[ $rc = 0 ] && [ "$(wc -l < "$T_TMP/err")" = 1 ] && grep -q "in a section no PT_NOTE maps: not signed" "$T_TMP/err" &&
		"$SIGNELF" show "$T_TMP/sec-note" | grep -q "flags:      0x1 in an ELFSIG note outside every PT_LOAD or in a section no PT_NOTE maps: not covered" &&
		"$SIGNELF" show --json "$T_TMP/sec-note" | grep -q '"note":"uncovered","flags":1}' &&
		t_pass "$name" || t_fail "$name" "rc=$rc $(cat "$T_TMP/err")"
else
	t_fail "$name" "objcopy did not make a SHT_NOTE section"
fi
# Outside every PT_LOAD, even a malformed note only is looked at.
edit "$T_TMP/out-bad" 'd += b"\0" * (-len(d) % 4); new = len(d); d += d[note:note + 24]; d[note + 12] = ord("X"); struct.pack_into("<QQQQQ", d, seg + 8, new, 0, 0, 20, 20)'
sign "$T_TMP/out-bad" 2> "$T_TMP/err" && [ ! -s "$T_TMP/err" ] &&
	"$SIGNELF" show "$T_TMP/out-bad" | grep -q "flags:      none" &&
	t_pass "note: a malformed note outside every PT_LOAD is ignored" ||
	t_fail "note: a malformed note outside every PT_LOAD is ignored" "$(cat "$T_TMP/err")"
# Reserved bits (only bit 0 has a meaning): signed, with one warning.
edit "$T_TMP/reserved" 'struct.pack_into("<I", d, note + 20, 0x6)'
sign "$T_TMP/reserved" 2> "$T_TMP/err"; rc=$?
name="note: reserved flag bits: signed, one warning line naming them"
[ $rc = 0 ] && [ "$(wc -l < "$T_TMP/err")" = 1 ] && grep -q "reserved flag bits 0x6" "$T_TMP/err" &&
	"$SIGNELF" verify -q -c "$K/rsa2048.pem" "$T_TMP/reserved" &&
	t_pass "$name" || t_fail "$name" "rc=$rc $(cat "$T_TMP/err")"
# Another name or type is not ours: no flags, no refusal.
edit "$T_TMP/other" 'struct.pack_into("<I", d, note + 8, 2)'
sign "$T_TMP/other" 2> "$T_TMP/err" && [ ! -s "$T_TMP/err" ] &&
	"$SIGNELF" show "$T_TMP/other" | grep -q "flags:      none" &&
	t_pass "note: an ELFSIG note of another type is not the flags note" ||
	t_fail "note: an ELFSIG note of another type is not the flags note" "$(cat "$T_TMP/err")"

# An executable stack: the kernel kills such a verified process, so sign
# warns once; with the ANON_EXEC note (not a verified process) it does
# not; remove never warns.
if gcc -O2 -Wl,-z,execstack -o "$T_TMP/xs" "$T_TMP/plain.c" 2>/dev/null &&
   gcc -O2 -Wl,-z,execstack -I"$INC" -o "$T_TMP/xs-jit" "$T_TMP/jit.c" 2>/dev/null; then
	sign "$T_TMP/xs" 2> "$T_TMP/err"; rc=$?
	[ $rc = 0 ] && [ "$(wc -l < "$T_TMP/err")" = 1 ] &&
		grep -q "warning: $T_TMP/xs: asks for an executable stack" "$T_TMP/err" &&
		t_pass "note: sign warns once about an executable stack" ||
		t_fail "note: sign warns once about an executable stack" "rc=$rc $(cat "$T_TMP/err")"
	sign "$T_TMP/xs-jit" 2> "$T_TMP/err"; rc=$?
	[ $rc = 0 ] && [ "$(wc -l < "$T_TMP/err")" = 1 ] && grep -q "ELFSIG_FLAG_ANON_EXEC" "$T_TMP/err" &&
		t_pass "note: with the ANON_EXEC note, no executable stack warning" ||
		t_fail "note: with the ANON_EXEC note, no executable stack warning" "rc=$rc $(cat "$T_TMP/err")"
	"$SIGNELF" remove "$T_TMP/xs" 2> "$T_TMP/err" && [ ! -s "$T_TMP/err" ] &&
		t_pass "note: remove does not warn" || t_fail "note: remove does not warn" "$(cat "$T_TMP/err")"
else
	t_fail "note: build with -z execstack"
fi

# What the kernel refuses, signelf verify refuses: each malformed note
# stream of elfcraft.py notes, signed outside signelf (sign refuses them
# all), is malformed to verify (exit 3, one line); the well-formed one
# verifies. The VM suite runs the same files on the kernel.
cp "$T_TMP/jit-static" "$T_TMP/nbase" && sign "$T_TMP/nbase" 2>/dev/null &&
	mkdir "$T_TMP/nv" && $ELFCRAFT notes "$T_TMP/nbase" "$T_TMP/nv" > "$T_TMP/nvlist" ||
	t_fail "note: crafted note streams" "elfcraft.py notes failed"
while read -r v; do
	f=$T_TMP/nv/$v
	sign -o "$T_TMP/nv/$v.s" "$f" 2>/dev/null; src=$?
	if ! t_resign_raw "$f" "$K/rsa2048.key" "$K/rsa2048.pem"; then
		t_fail "note: $v: signed outside signelf"; continue
	fi
	"$SIGNELF" verify -c "$K/rsa2048.pem" "$f" > /dev/null 2> "$T_TMP/err"; rc=$?
	case $v in
	note-other) want_sign=0 want=0 ;;
	*) want_sign=3 want=3 ;;
	esac
	[ $src = $want_sign ] && [ $rc = $want ] &&
		{ [ $want = 0 ] || [ "$(wc -l < "$T_TMP/err")" = 1 ]; } &&
		t_pass "note: $v: sign exits $want_sign, verify of a signed one exits $want" ||
		t_fail "note: $v: sign exits $want_sign, verify of a signed one exits $want" "sign $src, verify $rc: $(cat "$T_TMP/err")"
done < "$T_TMP/nvlist"
[ "$(wc -l < "$T_TMP/nvlist")" = 5 ] && t_pass "note: five crafted note streams" ||
	t_fail "note: five crafted note streams" "$(cat "$T_TMP/nvlist")"
exit 0
