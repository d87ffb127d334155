#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# One version for the project: every program prints the VERSION file's
# with -V and --version; elfsig-keyloader --version makes no keyring call,
# and only the option alone is a version request.
set -u
. "$(dirname "$0")/../lib.sh"
t_mktemp

want=$(cat "$TOP/VERSION")
for p in signelf elfsig-tpm elfsig-attest elfsig-keyloader elfsig-enroll; do
	for opt in -V --version; do
		out=$("$BUILD/$p" "$opt" 2>&1)
		rc=$?
		[ "$rc" = 0 ] && [ "$out" = "$p $want" ] &&
			t_pass "$p $opt prints '$p $want'" ||
			t_fail "$p $opt prints '$p $want'" "exit $rc: $out"
	done
done

if ! command -v strace >/dev/null; then
	t_skip "elfsig-keyloader --version makes no keyring call" "strace not installed"
	exit 0
fi
# kl_calls PATTERN ARGS...: the loader's exit status and how many of its
# keyring system calls match PATTERN (strace follows the program only:
# keyctl session joins its keyring before the exec).
kl_calls() {
	local pat=$1 rc
	shift
	# LeakSanitizer cannot run under ptrace (the ASan build).
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	keyctl session - strace -f -qq -e trace=keyctl,add_key,request_key \
		-o "$T_TMP/strace" "$BUILD/elfsig-keyloader" "$@" >/dev/null 2>&1
	rc=$?
	echo "$rc $(grep -cE "$pat" "$T_TMP/strace")"
}
read -r rc n < <(kl_calls '(keyctl|add_key|request_key)\(' --version)
[ "$rc" = 0 ] && [ "$n" = 0 ] &&
	t_pass "elfsig-keyloader --version makes no keyring call" ||
	t_fail "elfsig-keyloader --version makes no keyring call" "exit $rc, $n keyring calls"
# The control: the same count sees the lock of a bad command line.
read -r rc n < <(kl_calls KEYCTL_RESTRICT_KEYRING -k @s --kmsg none -l none \
	--timeout 5 --version)
[ "$rc" = 2 ] && [ "$n" -ge 1 ] &&
	t_pass "elfsig-keyloader --version with other options is a bad command line that locks" ||
	t_fail "elfsig-keyloader --version with other options is a bad command line that locks" "exit $rc, $n restrict calls"
exit 0
