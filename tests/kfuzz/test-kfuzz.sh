#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The kernel's own parser (fs/elfsig/parse.c, built for userspace with
# ASan + UBSan) over the seed corpus, every regression input and the
# hostile corpus, differentially against libelfsig.
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
exit 0
