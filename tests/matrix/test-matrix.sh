#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The slower matrix: gcc and clang at -O0 and -O2 (each build runs the
# signer suites), valgrind memcheck on signelf, cppcheck and scan-build with
# zero findings, shellcheck on every script. One PASS/FAIL line per cell.
set -u
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1
t_mktemp
LOG=$T_TMP/log

# cell NAME CMD...: run CMD quietly; on failure show the end of its output.
cell() {
	local name=$1; shift
	if "$@" > "$LOG" 2>&1; then
		t_pass "$name"
	else
		t_fail "$name" "$(tail -5 "$LOG" | tr '\n' ' ' | cut -c1-400)"
	fi
}

# suites BUILD: the signer suites against one build; fails on any FAIL.
suites() {
	BUILD=$TOP/$1 tests/run tests/signer/test-roundtrip.sh tests/signer/test-hostile.sh \
		tests/signer/test-tamper.sh tests/signer/test-fuzz-replay.sh
}

for cc in gcc clang; do
	for opt in -O0 -O2; do
		o=build/matrix/$cc$opt
		cell "build $cc $opt (-Werror)" make -s O="$o" CC=$cc OPT=$opt \
			"$o/signelf" "$o/libelfsig.so" \
			"$o/fuzz/replay-elf" "$o/fuzz/replay-sections" \
			"$o/fuzz/replay-pkcs7" "$o/fuzz/replay-rewrite"
		cell "signer suites on $cc $opt" suites "$o"
	done
done

# valgrind memcheck: every subcommand, good and hostile input.
vg() { valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
	--show-leak-kinds=definite "$@"; }
memcheck() {
	. "$TOP/tests/signer/fixtures.sh"
	fixtures_build || return 1
	local k=$FIX/keys S=build/signelf rc
	vg "$S" sign -k "$k/rsa2048.key" -c "$k/rsa2048.pem" -o "$T_TMP/a" "$FIX/bin/musl-static" || return 1
	vg "$S" verify -c "$k/rsa2048.pem" "$T_TMP/a" || return 1
	vg "$S" show --json "$T_TMP/a" || return 1
	vg "$S" digest --message "$T_TMP/m" "$T_TMP/a" || return 1
	cp "$FIX/bin/i386-static" "$T_TMP/b"
	cp "$FIX/bin/s390x-be64" "$T_TMP/c"
	vg "$S" sign -k "$k/p256.key" -c "$k/p256.pem" "$T_TMP/b" "$T_TMP/c" || return 1
	vg "$S" remove "$T_TMP/b" || return 1
	$ELFCRAFT hostile "$T_TMP/a" "$T_TMP/h" > /dev/null
	for f in "$T_TMP"/h/*; do
		vg "$S" verify -q -c "$k/rsa2048.pem" "$f"; rc=$?
		[ "$rc" = 99 ] && { echo "memcheck error on $f"; return 1; }
		vg "$S" sign -k "$k/rsa2048.key" -c "$k/rsa2048.pem" -o "$T_TMP/o" "$f" 2>/dev/null; rc=$?
		[ "$rc" = 99 ] && { echo "memcheck error signing $f"; return 1; }
		rm -f "$T_TMP/o"
	done
	return 0
}
make -s all > /dev/null 2>&1
cell "valgrind memcheck: signelf on good and hostile files" memcheck

# The loader's own suite, with every loader run under memcheck.
loader_memcheck() {
	printf '#!/bin/sh
exec valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite "%s" "$@"\n' \
		"$TOP/build/elfsig-keyloader" > "$T_TMP/vg-keyloader"
	chmod +x "$T_TMP/vg-keyloader"
	KL=$T_TMP/vg-keyloader tests/run tests/keyloader/load.sh
}
[ -x build/elfsig-keyloader ] &&
	cell "valgrind memcheck: elfsig-keyloader through its load suite" loader_memcheck

# shellcheck disable=SC2046 # the optional directories, one word each
# variableScope is suppressed: the kernel's style, which this code follows,
# declares a function's variables at the top of it.
cell "cppcheck: zero findings" cppcheck --enable=warning,style,performance,portability \
	--inline-suppr --error-exitcode=1 -q -D_GNU_SOURCE -Iinclude -Icommon/lib -Isigner/lib -Itpm/lib -Itpm/cli \
	--suppress=missingIncludeSystem --suppress=variableScope \
	common signer tests/fuzz tests/signer/fuzz $(ls -d tpm keyloader attest 2>/dev/null)

scan() {
	rm -rf build/scan build/matrix/scan
	scan-build --status-bugs -o build/scan make -s O=build/matrix/scan CC=clang all
}
cell "clang scan-build: zero findings" scan

# The public headers' comments parse as kernel-doc with no warning. The
# script comes from the Linux source package (the kernel build needs it
# anyway); only scripts/kernel-doc is extracted.
kerneldoc() {
	local kd=build/matrix/kernel-doc
	if [ ! -x "$kd" ]; then
		mkdir -p build/matrix &&
		tar -xJf /usr/src/linux-source-6.12.tar.xz -O \
			linux-source-6.12/scripts/kernel-doc > "$kd.tmp" &&
		chmod +x "$kd.tmp" && mv "$kd.tmp" "$kd" || return 1
	fi
	local out
	# shellcheck disable=SC2046 # attest/ is optional, its headers one word each
	out=$("$kd" -none include/elfsig/elfsig.h tpm/lib/elfsig_tpm.h keyloader/lib/kl_*.h common/lib/*.h \
		$(ls attest/lib/*.h 2>/dev/null) 2>&1)
	[ -z "$out" ] || { echo "$out"; return 1; }
}
cell "kernel-doc: public headers without a warning" kerneldoc

shell_scripts() {
	{ git ls-files '*.sh'; git ls-files | xargs grep -lE '^#!.*(ba)?sh' 2>/dev/null; } | sort -u
}
# shellcheck disable=SC2046
cell "shellcheck: every script" shellcheck -x $(shell_scripts)
exit 0
