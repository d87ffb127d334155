#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# C unit tests of the keyloader library (no TPM, no keyring needed).
set -u
. "$(dirname "$0")/lib-kl.sh"
for t in keyring-find common-read pcr-gen-tbs; do
	bin=$BUILD/keyloader-unit/$t
	if [ ! -x "$bin" ]; then
		t_fail "unit $t" "$bin not built"
		continue
	fi
	"$bin" || t_fail "unit $t" "exited $?"
done
exit 0
