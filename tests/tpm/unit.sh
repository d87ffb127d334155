#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tpm/: unit tests against a fake ESAPI (tests/tpm/unit/mock-esys.c).
set -u
. "$(dirname "$0")/lib-tpm.sh"
bin=$BUILD/tests/tpm/unit/mock-esys
[ -x "$bin" ] || { t_fail mock-esys "$bin not built (make $bin)"; exit 0; }
"$bin"; rc=$?
[ $rc = 0 ] || t_fail mock-esys "exited $rc"
exit 0
