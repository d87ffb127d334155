#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Replay the fuzz seed corpus and every regression input through each
# harness with the ordinary build (and, from check-asan, the sanitizer one).
set -u
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/signer/fixtures.sh"
. "$TOP/tests/fuzz/seeds.sh"
fixtures_build && fuzz_seeds || { echo "FAIL: fuzz seeds: could not build"; exit 1; }

for h in elf sections pkcs7 rewrite; do
	bin=$BUILD/fuzz/replay-$h
	dirs=("$SEEDS/$h")
	[ -d "$TOP/tests/signer/fuzz/regressions/$h" ] && dirs+=("$TOP/tests/signer/fuzz/regressions/$h")
	if out=$("$bin" "${dirs[@]}" 2>&1); then
		t_pass "fuzz replay $h: $(echo "$out" | tail -1)"
	else
		t_fail "fuzz replay $h" "$(echo "$out" | tail -3 | tr '\n' ' ')"
	fi
done
exit 0
