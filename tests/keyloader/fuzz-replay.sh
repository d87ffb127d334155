#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Replay the keyloader fuzz seeds (and regression inputs, if any) through
# the harness with the ordinary build (and the sanitizer one in check-asan).
set -u
. "$(dirname "$0")/lib-kl.sh"
. "$(dirname "$0")/fuzz/seeds.sh"
kl_need openssl
t_mktemp
kl_fuzz_seeds "$T_TMP/seeds" || { echo "FAIL: fuzz seeds: could not make"; exit 1; }
bin=$BUILD/fuzz/replay-keyloader
dirs=("$T_TMP/seeds")
[ -d "$TOP/tests/keyloader/fuzz/regressions" ] && dirs+=("$TOP/tests/keyloader/fuzz/regressions")
if [ ! -x "$bin" ]; then
	t_fail "fuzz replay keyloader" "$bin not built"
elif out=$("$bin" "${dirs[@]}" 2>&1); then
	t_pass "fuzz replay keyloader: $(echo "$out" | tail -1)"
else
	t_fail "fuzz replay keyloader" "$(echo "$out" | tail -3 | tr '\n' ' ')"
fi
exit 0
