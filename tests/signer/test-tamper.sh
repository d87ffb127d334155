#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Every signed byte is signed: change any field of the ELF header (but the
# four section-table fields), any field of any program header, or any byte
# of any PT_LOAD, and the signature no longer verifies.
set -u
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/fixtures.sh"
fixtures_init

# tampered SIGNED DIR: one copy per signed field or segment byte, each with
# one byte inverted, named KIND:NAME:OFFSET.
tampered() {
	$ELFCRAFT fields "$1" | python3 -c '
import os, sys
src, out = sys.argv[1], sys.argv[2]
data = open(src, "rb").read()
for line in sys.stdin:
    kind, name, off, size = line.split()
    off, size = int(off), int(size)
    if kind in ("ehdr", "phdr"):
        offs = [off]
    elif kind == "load":
        offs = sorted({off, off + size // 2, off + size - 1})
    else:
        continue
    for o in offs:
        d = bytearray(data)
        d[o] ^= 0xff
        open(os.path.join(out, "%s:%s:%d" % (kind, name, o)), "wb").write(d)
' "$1" "$2"
}

for b in glibc-static musl-static-pie i386-static busybox-s390x s390x-be64 ppc32-be32; do
	s=$T_TMP/$b.signed
	fix_sign rsa2048 "$FIX/bin/$b" "$s" || { t_fail "$b: sign"; continue; }
	rm -rf "$T_TMP/t"; mkdir "$T_TMP/t"
	tampered "$s" "$T_TMP/t"
	bad=0 total=0
	for t in "$T_TMP"/t/*; do
		IFS=: read -r kind name o <<< "${t##*/}"
		"$SIGNELF" verify -q -c "$K/rsa2048.pem" "$t"
		rc=$?
		total=$((total + 1))
		# 1: bad signature; 3: no longer well-formed. Never 0, never a crash.
		# A segment byte outside the ELF header must give a bad signature.
		if { [ $rc != 1 ] && [ $rc != 3 ]; } ||
		   { [ "$kind" = load ] && [ "$o" -ge 64 ] && [ $rc != 1 ]; }; then
			bad=$((bad + 1))
			echo "  $b: $name at $o: exit $rc" >&2
		fi
	done
	[ "$bad" = 0 ] && [ "$total" -gt 20 ] &&
		t_pass "$b: all $total tampered copies rejected" ||
		t_fail "$b: tampered copies rejected" "$bad of $total accepted or crashed"

	# The four section-table fields are outside the digest.
	$ELFCRAFT fields "$s" | awk '$1 == "unsigned" {print $2}' | sort > "$T_TMP/u"
	printf 'e_shentsize\ne_shnum\ne_shoff\ne_shstrndx\n' > "$T_TMP/u.want"
	cmp -s "$T_TMP/u" "$T_TMP/u.want" &&
		[ "$("$SIGNELF" digest "$s" | cut -d' ' -f1)" = "$("$SIGNELF" digest "$FIX/bin/$b" | cut -d' ' -f1)" ] &&
		t_pass "$b: only the four section-table fields differ from the unsigned digest input" ||
		t_fail "$b: only the four section-table fields are unsigned"
done
exit 0
