# SPDX-License-Identifier: GPL-2.0-only
# Helpers for the attest/ suites: the emulated kernel log, test keys, and
# the one-line-and-exit-code check every refusal gets.
# shellcheck shell=bash
# shellcheck source=../tpm/lib-tpm.sh
. "$(dirname "${BASH_SOURCE[0]}")/../tpm/lib-tpm.sh"

ATTEST=${ATTEST:-$BUILD/elfsig-attest}
# shellcheck disable=SC2034 # read by the suites
KERNLOG=$TOP/tests/attest/kernlog.py

# attest_need TOOL...: exit 77 when a tool the suite needs is missing.
attest_need() {
	local t
	for t in python3 openssl "$@"; do
		command -v "$t" >/dev/null 2>&1 || {
			echo "SKIP: $(basename "$0"): $t not installed"; exit 77; }
	done
	[ -x "$ATTEST" ] || { echo "FAIL: $(basename "$0"): $ATTEST not built"; exit 1; }
}

# attest_cert NAME SUBJECT: a self-signed P-256 certificate $T_TMP/NAME.pem;
# prints its fingerprint as elfsig-enroll computes it.
attest_cert() {
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
		-keyout "$T_TMP/$1.key" -out "$T_TMP/$1.pem" -subj "$2" -days 30 2>/dev/null
	printf 'sha256:%s\n' "$(openssl x509 -in "$T_TMP/$1.pem" -outform DER |
		sha256sum | cut -d' ' -f1)"
}

# expect NAME RC PATTERN CMD...: CMD exits RC and prints exactly one line
# on stderr, matching the glob PATTERN.
expect() {
	local name=$1 rc=$2 pat=$3 got err
	shift 3
	"$@" >"$T_TMP/out" 2>"$T_TMP/err"; got=$?
	err=$(cat "$T_TMP/err")
	if [ "$got" != "$rc" ]; then
		t_fail "$name" "exit $got, not $rc: $err"
	elif [ "$(wc -l <"$T_TMP/err")" != 1 ]; then
		t_fail "$name" "not one line on stderr: $err"
	else
		# shellcheck disable=SC2254 # PATTERN is a glob
		case $err in
		$pat) t_pass "$name" ;;
		*) t_fail "$name" "stderr: $err" ;;
		esac
	fi
}
