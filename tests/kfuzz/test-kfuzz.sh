#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The kernel's own parser (fs/elfsig/parse.c, built for userspace with
# ASan + UBSan) over the seed corpus, every regression input and the
# hostile corpus, differentially against libelfsig: the section table,
# the PKCS#7 shape, the ELFSIG note, and a library's headers as mmap()
# reads them in a task of either class.
set -u
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/signer/fixtures.sh"
. "$TOP/tests/fuzz/seeds.sh"
fixtures_init
fuzz_seeds || { t_fail "kfuzz: seeds"; exit 0; }
bin=$BUILD/kfuzz/replay-kernel-parse
[ -x "$bin" ] || { t_fail "kfuzz: $bin not built"; exit 0; }

dirs=("$SEEDS/kernel-parse")
[ -d "$TOP/tests/kfuzz/regressions" ] && dirs+=("$TOP/tests/kfuzz/regressions")
if out=$("$bin" "${dirs[@]}" 2>&1); then
	t_pass "kernel parser over $(echo "$out" | head -1)"
else
	t_fail "kernel parser over the corpus" "$(echo "$out" | tail -3 | tr '\n' ' ')"
fi
# The differential check has teeth: the signed seeds were seen as signed
# by both parsers, and the hostile ones refused.
signed=$(echo "$out" | sed -n 's/.* \([0-9]*\) signed files agreed.*/\1/p')
refused=$(echo "$out" | sed -n 's/.*unsigned, \([0-9]*\) refused.*/\1/p')
nseed=$(find "$SEEDS/kernel-parse" -name 'tiny-*' -o -name 'tiny32-*' -o -name 'aarch64-*' | wc -l)
[ "${signed:-0}" -ge "$nseed" ] && t_pass "kernel parser and libelfsig agree on all $nseed signed seeds" ||
	t_fail "kernel parser and libelfsig agree on the signed seeds" "$out"
# ELF32 (the compat loader's files, headers widened by the kernel's
# elfsig_widen_headers())
signed32=$(echo "$out" | sed -n 's/.* \([0-9]*\) of them ELF32.*/\1/p')
nseed32=$(find "$SEEDS/kernel-parse" -name 'tiny32-*' | wc -l)
[ "$nseed32" -gt 0 ] && [ "${signed32:-0}" -ge "$nseed32" ] &&
	t_pass "kernel parser and libelfsig agree on all $nseed32 signed ELF32 seeds" ||
	t_fail "kernel parser and libelfsig agree on the signed ELF32 seeds" "$nseed32 seeds; $out"
[ "${refused:-0}" -ge 40 ] && t_pass "kernel parser refuses $refused hostile inputs without a sanitizer report" ||
	t_fail "kernel parser refuses the hostile inputs" "$out"
# The ELFSIG note parser (elfsig_note_flags()): the malformed regression
# inputs refused, and libelfsig agreeing wherever it parsed the file.
notes=$(echo "$out" | sed -n 's/^kernel note parser: \([0-9]*\) files read.*/\1/p')
bad=$(echo "$out" | sed -n 's/.* \([0-9]*\) malformed;.*/\1/p')
nagree=$(echo "$out" | sed -n 's/.*malformed; \([0-9]*\) agreed.*/\1/p')
[ "${bad:-0}" -ge 3 ] && [ "${nagree:-0}" -ge "$nseed" ] &&
	t_pass "kernel note parser: $notes files read, $bad malformed, $nagree agreed with libelfsig" ||
	t_fail "kernel note parser refuses the malformed notes and agrees with libelfsig" "$out"
# The library header reader (elfsig_read_headers()): every file read as
# both classes; libelfsig's reading of the signed seeds' headers agreed
# with, ELF32 ones included, and so was the exec path's.
hdr=$(echo "$out" | sed -n 's/^kernel header reader: //p')
h32=$(echo "$hdr" | sed -n 's/.*, \([0-9]*\) as ELF32.*/\1/p')
hlib=$(echo "$hdr" | sed -n 's/.*; \([0-9]*\) agreed with libelfsig.*/\1/p')
hexec=$(echo "$hdr" | sed -n 's/.*, \([0-9]*\) with the exec path.*/\1/p')
[ "${hlib:-0}" -ge "$nseed" ] && [ "${h32:-0}" -ge "$nseed32" ] &&
	[ "${hexec:-0}" -ge "$nseed" ] &&
	t_pass "kernel header reader: $hdr" ||
	t_fail "kernel header reader agrees with libelfsig and the exec path" "$out"
# Each hand-made header input, read by a task of either class: read,
# refused by the reader's checks, short (the file ends before the
# headers) or unreadable (a range kernel_read() refuses).
hdr_bad=()
hdr_n=0
while read -r f r64 r32 short unreadable lib exec; do
	want="$r64 read as ELF64, $r32 as ELF32, $((2 - r64 - r32)) refused ($short short, $unreadable unreadable); $lib agreed with libelfsig, $exec with the exec path"
	got=$("$bin" "$TOP/tests/kfuzz/regressions/$f" 2>&1 | sed -n 's/^kernel header reader: //p')
	hdr_n=$((hdr_n + 1))
	[ "$got" = "$want" ] || hdr_bad+=("$f: got \"$got\", want \"$want\";")
done <<'EOF'
hdr-ok			1 0 0 0 1 1
hdr32-ok		0 1 0 0 1 1
hdr-msb-host-order	1 0 0 0 0 1
hdr-class-none		0 0 0 0 0 0
hdr-phentsize-elf32	0 0 0 0 0 0
hdr32-phentsize-elf64	0 0 0 0 0 0
hdr-phnum-zero		0 0 0 0 0 0
hdr32-phnum-zero	0 0 0 0 0 0
hdr-pht-over-bound	0 0 0 0 0 0
hdr32-pht-over-bound	0 0 0 0 0 0
hdr-phoff-negative	0 0 0 0 0 0
hdr-phoff-wraps		0 0 0 1 0 0
hdr-phoff-past-eof	0 0 1 0 0 0
hdr32-phoff-max		0 0 1 0 0 0
hdr-pht-cut		0 0 1 0 0 0
hdr32-pht-cut		0 0 1 0 0 0
hdr-ehdr-cut		0 0 1 0 0 0
EOF
[ ${#hdr_bad[@]} -eq 0 ] &&
	t_pass "kernel header reader: $hdr_n hand-made header inputs read or refused as expected" ||
	t_fail "kernel header reader on the hand-made header inputs" "${hdr_bad[*]}"
exit 0
