#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# signelf sign-deb on packages built here with dpkg-deb (every compressor,
# a hard link, a path past tar's 100 bytes, a package without ELF): every
# ELF member verifies, md5sum -c passes, everything else is the same
# (control, member list with modes and owners, ar member names); the
# package without ELF comes out byte for byte; malformed packages get one
# line, a non-zero exit and no output. Real Debian packages:
# tests/packaging/packages.sh.
set -u
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/fixtures.sh"
fixtures_init
command -v dpkg-deb >/dev/null || { echo "SKIP: sign-deb: dpkg-deb not installed"; exit 77; }
sdeb() { "$SIGNELF" sign-deb -q -k "$K/rsa2048.key" -c "$K/rsa2048.pem" "$@"; }

# A package tree: a static and a dynamic program (one with a hard link),
# a deep path, a script, a maintainer script and md5sums.
P=$T_TMP/pkg
long=usr/lib/elfsig-test/$(printf 'd%.0s' $(seq 1 60))/$(printf 'f%.0s' $(seq 1 60))
mkdir -p "$P/DEBIAN" "$P/usr/bin" "$P/usr/sbin" "$P/${long%/*}" "$P/usr/share/doc/elfsig-test"
cp "$FIX/bin/glibc-static" "$P/usr/bin/hello-static"
cp "$FIX/bin/glibc-dynamic" "$P/usr/bin/hello"
ln "$P/usr/bin/hello" "$P/usr/sbin/hello-link"
cp "$FIX/bin/glibc-dynamic" "$P/$long"
printf '#!/bin/sh\necho script\n' > "$P/usr/bin/script"
chmod 0755 "$P/usr/bin/script"
echo "a document" > "$P/usr/share/doc/elfsig-test/README"
chmod 4750 "$P/usr/bin/hello-static"
printf 'Package: elfsig-test\nVersion: 1.0\nArchitecture: amd64\nMaintainer: t <t@example.org>\nDescription: test\n' > "$P/DEBIAN/control"
printf '#!/bin/sh\nexit 0\n' > "$P/DEBIAN/postinst"
chmod 0755 "$P/DEBIAN/postinst"
(cd "$P" && find usr -type f -exec md5sum {} + > DEBIAN/md5sums)
mkdeb() { # OUT COMPRESSOR [TREE]
	dpkg-deb --root-owner-group -Z"$2" -b "${3:-$P}" "$1" >/dev/null 2>&1
}

# check_signed ORIG SIGNED NAME: what every signed package must satisfy.
check_signed() {
	local orig=$1 sig=$2 name=$3 x=$T_TMP/x.$3 n=0 bad=0 f
	rm -rf "$x"; mkdir -p "$x"
	dpkg-deb -x "$sig" "$x/root" && dpkg-deb -e "$sig" "$x/root/DEBIAN" || { t_fail "$name: dpkg-deb unpacks it"; return; }
	while read -r f; do
		n=$((n + 1))
		"$SIGNELF" verify --quiet --cert "$K/rsa2048.pem" "$f" || bad=$((bad + 1))
	done < <(find "$x/root/usr" -type f -exec sh -c 'head -c4 "$1" | grep -q ELF && echo "$1"' sh {} \;)
	# 3 files, 4 names: the hard link is one of them
	[ "$n" = 4 ] && [ "$bad" = 0 ] && t_pass "$name: the 3 ELF files (4 names) verify" ||
		t_fail "$name: the 3 ELF files (4 names) verify" "$n ELF names, $bad not verifying"
	(cd "$x/root" && md5sum --quiet -c DEBIAN/md5sums >/dev/null 2>&1) &&
		! cmp -s "$P/DEBIAN/md5sums" "$x/root/DEBIAN/md5sums" &&
		t_pass "$name: md5sum -c DEBIAN/md5sums passes (updated)" ||
		t_fail "$name: md5sum -c DEBIAN/md5sums passes (updated)"
	cmp -s <(dpkg-deb -I "$orig" control) <(dpkg-deb -I "$sig" control) &&
		cmp -s <(dpkg-deb --ctrl-tarfile "$orig" | tar -tv --full-time) \
		       <(dpkg-deb --ctrl-tarfile "$sig" | tar -tv --full-time) &&
		cmp -s "$x/root/DEBIAN/postinst" "$P/DEBIAN/postinst" &&
		t_pass "$name: control, maintainer scripts and control.tar members kept" ||
		t_fail "$name: control, maintainer scripts and control.tar members kept"
	# tar -tv: mode, owner, size, time, name: all but the ELF sizes equal.
	if diff <(dpkg-deb --fsys-tarfile "$orig" | tar -tv --full-time | awk '{$3 = ""; print}') \
		<(dpkg-deb --fsys-tarfile "$sig" | tar -tv --full-time | awk '{$3 = ""; print}') >/dev/null &&
	   [ "$(dpkg-deb --fsys-tarfile "$sig" | tar -tv | grep -c 'link to')" = 1 ] &&
	   [ "$(stat -c %a "$x/root/usr/bin/hello-static")" = 4750 ] &&
	   [ "$(stat -c %i "$x/root/usr/bin/hello")" = "$(stat -c %i "$x/root/usr/sbin/hello-link")" ]; then
		t_pass "$name: data.tar members, modes, owners, times and the hard link kept"
	else
		t_fail "$name: data.tar members, modes, owners, times and the hard link kept"
	fi
	[ "$(ar t "$orig" | tr '\n' ' ')" = "$(ar t "$sig" | tr '\n' ' ')" ] &&
		t_pass "$name: the ar members and their compression kept ($(ar t "$sig" | tail -n 1))" ||
		t_fail "$name: the ar members and their compression kept" "$(ar t "$sig" | tr '\n' ' ')"
	"$x/root/usr/bin/hello" | grep -q 'hello from a signed binary' &&
		t_pass "$name: the signed program runs" || t_fail "$name: the signed program runs"
}

for z in xz gzip zstd none; do
	command -v "${z/none/true}" >/dev/null || { t_skip "sign-deb $z" "$z not installed"; continue; }
	mkdeb "$T_TMP/t-$z.deb" "$z" || { t_fail "dpkg-deb -Z$z builds the test package"; continue; }
	cp "$T_TMP/t-$z.deb" "$T_TMP/t-$z.orig"
	if sdeb -o "$T_TMP/s-$z.deb" "$T_TMP/t-$z.deb" 2> "$T_TMP/err"; then
		t_pass "sign-deb -o: a -Z$z package"
		check_signed "$T_TMP/t-$z.deb" "$T_TMP/s-$z.deb" "-Z$z"
	else
		t_fail "sign-deb -o: a -Z$z package" "$(head -n 1 "$T_TMP/err")"
	fi
	cmp -s "$T_TMP/t-$z.deb" "$T_TMP/t-$z.orig" && t_pass "-Z$z: the input is untouched" ||
		t_fail "-Z$z: the input is untouched"
done

# In place, several packages, one key load; signing again is idempotent
# in what verifies.
cp "$T_TMP/t-xz.deb" "$T_TMP/a.deb"; cp "$T_TMP/t-gzip.deb" "$T_TMP/b.deb"
out=$("$SIGNELF" sign-deb -k "$K/rsa2048.key" -c "$K/rsa2048.pem" "$T_TMP/a.deb" "$T_TMP/b.deb" 2>&1)
[ "$(grep -c '3 ELF files signed, 4 md5sums lines updated' <<< "$out")" = 2 ] &&
	sdeb "$T_TMP/a.deb" && check_signed "$T_TMP/t-xz.deb" "$T_TMP/a.deb" "in place, twice" ||
	t_fail "sign-deb in place, two packages" "$out"

# No ELF: the package passes through unchanged.
N=$T_TMP/noelf
mkdir -p "$N/DEBIAN" "$N/usr/share/doc/noelf"
echo text > "$N/usr/share/doc/noelf/README"
printf 'Package: noelf\nVersion: 1\nArchitecture: all\nMaintainer: t <t@example.org>\nDescription: t\n' > "$N/DEBIAN/control"
mkdeb "$T_TMP/noelf.deb" xz "$N"
out=$("$SIGNELF" sign-deb -k "$K/rsa2048.key" -c "$K/rsa2048.pem" -o "$T_TMP/noelf.out" "$T_TMP/noelf.deb" 2>&1)
cmp -s "$T_TMP/noelf.deb" "$T_TMP/noelf.out" && [[ $out == *"0 ELF files signed"*unchanged* ]] &&
	t_pass "a package without ELF comes out byte for byte" ||
	t_fail "a package without ELF comes out byte for byte" "$out"

# Malformed packages: one line, a non-zero exit, no output, no temporary
# file left.
refused() { # NAME FILE
	run_cmd "$T_TMP/bad.out" "$SIGNELF" sign-deb -q -k "$K/rsa2048.key" -c "$K/rsa2048.pem" -o "$T_TMP/bad.out" "$2"
	clean_failure "$T_TMP/bad.out" "$T_TMP" && ! compgen -G "${TMPDIR:-/tmp}/elfsig-deb.*" >/dev/null &&
		t_pass "malformed: $1: one line, exit $RC ($(head -c 90 "$T_TMP/stderr"))" ||
		t_fail "malformed: $1: one line, a non-zero exit, nothing written" "exit $RC, $ERRLINES lines: $(head -n 2 "$T_TMP/stderr" | tr '\n' '|')"
}
D=$T_TMP/t-xz.deb
size=$(stat -c %s "$D")
head -c $((size / 2)) "$D" > "$T_TMP/m1"; refused "truncated" "$T_TMP/m1"
cp "$FIX/bin/glibc-static" "$T_TMP/m2"; refused "an ELF file, no package" "$T_TMP/m2"
printf '!<arch>\n' > "$T_TMP/m3"; refused "an empty archive" "$T_TMP/m3"
: > "$T_TMP/m4"; refused "an empty file" "$T_TMP/m4"
# data.tar.xz swapped for garbage of the same size
python3 - "$D" "$T_TMP/m5" <<'EOP'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
i = b.index(b"data.tar.xz")
size = int(b[i + 48:i + 58])
b[i + 60:i + 60 + size] = b"\x55" * size
open(sys.argv[2], "wb").write(b)
EOP
refused "data.tar.xz not xz" "$T_TMP/m5"
# a data.tar header checksum broken (an uncompressed package)
python3 - "$T_TMP/t-none.deb" "$T_TMP/m6" <<'EOP'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
i = b.index(b"data.tar")
b[i + 60 + 512 + 100] ^= 1  # the second member's mode
open(sys.argv[2], "wb").write(b)
EOP
[ -s "$T_TMP/t-none.deb" ] && refused "a tar header checksum" "$T_TMP/m6"
# a member size past the end of the archive
python3 - "$D" "$T_TMP/m7" <<'EOP'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
i = b.index(b"control.tar.xz")
b[i + 48:i + 58] = b"999999999 "
open(sys.argv[2], "wb").write(b)
EOP
refused "a member size past the end" "$T_TMP/m7"
# an unknown member between control and data
python3 - "$D" "$T_TMP/m8" <<'EOP'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
i = b.index(b"data.tar.xz")
hdr = b"extra".ljust(16) + b"0".ljust(12) + b"0".ljust(6) + b"0".ljust(6) + b"100644".ljust(8) + b"2".ljust(10) + b"`\n" + b"x\n"
b[i:i] = hdr
open(sys.argv[2], "wb").write(b)
EOP
refused "an unknown member" "$T_TMP/m8"
# A member that looks like an executable but is cut short: the package is
# refused, the line names the member.
M=$T_TMP/cut
mkdir -p "$M/DEBIAN" "$M/usr/bin"
head -c 4096 "$FIX/bin/glibc-static" > "$M/usr/bin/cut-short"
printf 'Package: cut\nVersion: 1\nArchitecture: amd64\nMaintainer: t <t@example.org>\nDescription: t\n' > "$M/DEBIAN/control"
mkdeb "$T_TMP/cut.deb" xz "$M"
refused "an ELF member cut short" "$T_TMP/cut.deb"
grep -q 'cut-short' "$T_TMP/stderr" && t_pass "the line names the member (cut-short)" ||
	t_fail "the line names the member (cut-short)" "$(cat "$T_TMP/stderr")"
run_cmd "$T_TMP/x" "$SIGNELF" sign-deb -k "$K/rsa2048.key" -c "$K/rsa2048.pem" -o "$T_TMP/x" "$D" "$D"
[ "$RC" = 4 ] && t_pass "sign-deb -o with two packages is a usage error" ||
	t_fail "sign-deb -o with two packages is a usage error" "exit $RC"
exit 0
