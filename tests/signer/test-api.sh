#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The library's surface: only elfsig_* names exported; the header builds
# standalone; --help is complete for every subcommand.
set -u
. "$(dirname "$0")/../lib.sh"
t_mktemp

lib=$BUILD/libelfsig.so
if [ ! -f "$lib" ]; then
	t_fail "libelfsig.so exists" "$lib missing"; exit 0
fi
nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' > "$T_TMP/syms.ver"
# Every export carries the version node of signer/lib/libelfsig.map.
unver=$(grep -v '@@LIBELFSIG_0$' "$T_TMP/syms.ver" | tr '\n' ' ')
[ -z "$unver" ] && [ -s "$T_TMP/syms.ver" ] &&
	t_pass "every libelfsig export has the version LIBELFSIG_0" ||
	t_fail "every libelfsig export has the version LIBELFSIG_0" "without: $unver"
sed 's/@.*//' "$T_TMP/syms.ver" > "$T_TMP/syms"
bad=$(grep -v '^elfsig_' "$T_TMP/syms" | tr '\n' ' ')
n=$(wc -l < "$T_TMP/syms")
[ -z "$bad" ] && [ "$n" -gt 10 ] && t_pass "libelfsig exports only elfsig_* ($n symbols)" ||
	t_fail "libelfsig exports only elfsig_*" "unprefixed: $bad"

# Every ELFSIG_API declaration in the header is exported, and nothing else.
grep -o 'elfsig_[a-z0-9_]*(' "$TOP/include/elfsig/elfsig.h" | tr -d '(' | sort -u > "$T_TMP/decl"
sort -u "$T_TMP/syms" > "$T_TMP/syms.sorted"
diff "$T_TMP/decl" "$T_TMP/syms.sorted" > "$T_TMP/diff" &&
	t_pass "exports match the public header" ||
	t_fail "exports match the public header" "$(tr '\n' ' ' < "$T_TMP/diff")"

# A C program and a C++ one can use the header alone.
cp "$TOP/tests/signer/use-libelfsig.c" "$T_TMP/use.c"
san=; case $BUILD in */asan) san="-fsanitize=address,undefined" ;; esac
# shellcheck disable=SC2086
if cc -Wall -Werror $san -I"$TOP/include/elfsig" -o "$T_TMP/use" "$T_TMP/use.c" "$lib" -Wl,-rpath,"$BUILD" &&
   [ "$("$T_TMP/use" /bin/busybox)" = 32 ]; then
	t_pass "a program links against libelfsig.so"
else
	t_fail "a program links against libelfsig.so"
fi
# A key loaded and freed leaves the process able to hash (the default
# OpenSSL provider outlives the key), whether or not OpenSSL had activated
# it before.
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$T_TMP/life.key" 2>/dev/null
# shellcheck disable=SC2086
if cc -Wall -Werror $san -I"$TOP/include/elfsig" -o "$T_TMP/life" "$TOP/tests/signer/key-lifetime.c" "$lib" \
	-lcrypto -Wl,-rpath,"$BUILD"; then
	for first in "" first; do
		out=$("$T_TMP/life" "$T_TMP/life.key" /bin/busybox $first 2>&1) &&
			t_pass "digests work after elfsig_key_free()${first:+ (the default provider already active)}" ||
			t_fail "digests work after elfsig_key_free()${first:+ (the default provider already active)}" "$out"
	done
else
	t_fail "build tests/signer/key-lifetime.c against libelfsig.so"
fi
if command -v g++ >/dev/null; then
	cp "$T_TMP/use.c" "$T_TMP/use.cc"
	g++ -Wall -Werror -fsyntax-only -I"$TOP/include/elfsig" "$T_TMP/use.cc" &&
		t_pass "the header is C++-clean" || t_fail "the header is C++-clean"
fi

for c in sign verify show digest attach remove; do
	"$BUILD/signelf" "$c" --help > "$T_TMP/help" && grep -q "^Usage: signelf $c" "$T_TMP/help" &&
		t_pass "signelf $c --help" || t_fail "signelf $c --help"
done
"$BUILD/signelf" --help | grep -q 'Exit status' && t_pass "signelf --help lists exit codes" ||
	t_fail "signelf --help lists exit codes"
exit 0
