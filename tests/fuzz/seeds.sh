# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# Seed corpora for the fuzz harnesses, made from real binaries at run time.
# Sourced after tests/signer/fixtures.sh; fills $SEEDS/<harness>/.

fuzz_seeds() {
	local b s stamp
	SEEDS=${SEEDS:-$TOP/build/fuzz/seeds}
	# Made again whenever this script changes (a corpus made by an older
	# one lacks the seeds a newer test counts on).
	stamp=$(sha256sum < "${BASH_SOURCE[0]}") || return 1
	[ "$(cat "$SEEDS/.done" 2>/dev/null)" = "$stamp" ] && return 0
	rm -rf "$SEEDS"; mkdir -p "$SEEDS"/{elf,sections,pkcs7,rewrite}
	# shellcheck disable=SC2016 # assembly, not shell
	printf '\t.globl _start\n\t.text\n_start:\tmov $60, %%eax\n\txor %%edi, %%edi\n\tsyscall\n' \
		> "$FIX/src/tiny.s"
	as -o "$FIX/src/tiny.o" "$FIX/src/tiny.s" && ld -o "$FIX/bin/tiny" "$FIX/src/tiny.o"
	# The same for i386 (ELF32 little-endian: the compat loader's files).
	# shellcheck disable=SC2016 # assembly, not shell
	printf '\t.globl _start\n\t.text\n_start:\tmov $1, %%eax\n\txor %%ebx, %%ebx\n\tint $0x80\n' \
		> "$FIX/src/tiny32.s"
	as --32 -o "$FIX/src/tiny32.o" "$FIX/src/tiny32.s" &&
		ld -m elf_i386 -o "$FIX/bin/tiny32" "$FIX/src/tiny32.o" || return 1
	# The same with the ELFSIG flags note of <elfsig/note.h>, for the note
	# parser.
	printf '#include <elfsig/note.h>\nELFSIG_NOTE_ANON_EXEC();\n' > "$FIX/src/note.c"
	gcc -c -I"$TOP/include" -o "$FIX/src/note.o" "$FIX/src/note.c" &&
		ld -o "$FIX/bin/tiny-note" "$FIX/src/tiny.o" "$FIX/src/note.o" &&
		gcc -m32 -c -I"$TOP/include" -o "$FIX/src/note32.o" "$FIX/src/note.c" &&
		ld -m elf_i386 -o "$FIX/bin/tiny32-note" "$FIX/src/tiny32.o" "$FIX/src/note32.o" ||
		return 1
	for b in tiny tiny32 tiny-note tiny32-note s390x-be64 ppc32-be32 aarch64; do
		for k in rsa2048 p256; do
			s=$SEEDS/elf/$b-$k
			fix_sign $k "$FIX/bin/$b" "$s" || return 1
			cp "$s" "$SEEDS/sections/"; cp "$s" "$SEEDS/rewrite/"
			"$SIGNELF" show --json "$s" | python3 -c '
import json, sys
d = json.load(sys.stdin)
data = open(sys.argv[1], "rb").read()
open(sys.argv[2], "wb").write(data[d["section_offset"]:d["section_offset"] + d["section_size"]])
' "$s" "$SEEDS/pkcs7/$b-$k.der"
		done
		cp "$FIX/bin/$b" "$SEEDS/rewrite/$b-unsigned"
	done
	# Hostile variants of a small signed file seed every harness too.
	$ELFCRAFT hostile "$SEEDS/elf/tiny-rsa2048" "$SEEDS/hostile" > /dev/null
	for s in "$SEEDS"/hostile/*; do
		cp "$s" "$SEEDS/elf/h-${s##*/}"; cp "$s" "$SEEDS/sections/h-${s##*/}"
	done
	rm -rf "$SEEDS/hostile"
	# and of a small signed ELF32 file
	$ELFCRAFT hostile "$SEEDS/elf/tiny32-rsa2048" "$SEEDS/hostile" > /dev/null
	for s in "$SEEDS"/hostile/*; do
		cp "$s" "$SEEDS/elf/h32-${s##*/}"; cp "$s" "$SEEDS/sections/h32-${s##*/}"
	done
	rm -rf "$SEEDS/hostile"
	# The kernel parser harness reads native little-endian files: ELF64,
	# and ELF32 as the compat loader does.
	mkdir -p "$SEEDS/kernel-parse"
	cp "$SEEDS"/elf/tiny-* "$SEEDS"/elf/tiny32-* "$SEEDS"/elf/aarch64-* "$SEEDS"/elf/h-* \
		"$SEEDS"/elf/h32-* "$SEEDS/kernel-parse/"
	echo "$stamp" > "$SEEDS/.done"
}
