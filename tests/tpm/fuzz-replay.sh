#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tpm/: replay the sealed-object parser's seed corpus (and any regression
# inputs in tests/tpm/data) through the fuzz harness, ordinary build.
set -u
. "$(dirname "$0")/lib-tpm.sh"
bin=$BUILD/fuzz/replay-tpm-sealed
[ -x "$bin" ] || { t_fail fuzz-replay "$bin not built"; exit 0; }
out=$("$bin" "$TOP/tests/tpm/data" 2>&1); rc=$?
[ $rc = 0 ] && [[ $out == *" 0 unreadable"* ]] && t_pass "fuzz-replay: $out" ||
	t_fail fuzz-replay "rc=$rc $out"
exit 0
