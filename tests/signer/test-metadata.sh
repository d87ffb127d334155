#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# What an in-place sign keeps of a file and what it does not, as the
# metadata table of docs/guide.md says: holes, ACLs, other extended
# attributes and chattr attributes are kept; security.ima and security.evm
# are dropped (they describe the old content); the mtime is the signing's;
# an immutable file is refused; another hard link keeps the old file.
set -u
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/fixtures.sh"
fixtures_init
SIGN=(-k "$K/rsa2048.key" -c "$K/rsa2048.pem")
D=$T_TMP/m
mkdir -p "$D"

# A program with a 4 MiB zero-filled, page-aligned .data array, its zero
# pages then turned into holes: a sparse ELF file, as some build systems
# and file systems leave them.
cat > "$T_TMP/big.c" <<'EOC'
#include <stdio.h>
__attribute__((aligned(4096))) char big[4 << 20] = { 1 };
int main(void) { puts(big[0] == 1 ? "sparse ok" : "bad"); return 0; }
EOC
gcc -O2 -static -o "$D/sparse" "$T_TMP/big.c" || { t_fail "build the sparse fixture"; exit 0; }
fallocate --dig-holes "$D/sparse"
alloc() { echo $(( $(stat -c %b "$1") * $(stat -c %B "$1") )); }
size=$(stat -c %s "$D/sparse") before=$(alloc "$D/sparse")
if [ "$before" -lt $((size - (2 << 20))) ]; then
	"$SIGNELF" sign "${SIGN[@]}" "$D/sparse" && after=$(alloc "$D/sparse")
	[ -n "${after:-}" ] && [ "$after" -le $((before + (64 << 10))) ] &&
		"$SIGNELF" verify -q -c "$K/rsa2048.pem" "$D/sparse" &&
		[ "$("$D/sparse")" = "sparse ok" ] &&
		t_pass "a sparse file stays sparse (allocated $before -> ${after:-?} bytes of $size) and verifies" ||
		t_fail "a sparse file stays sparse" "allocated $before -> ${after:-?} bytes of $size"
else
	t_skip "a sparse file stays sparse" "this file system made no holes ($before of $size bytes allocated)"
fi

# Extended attributes: an ACL (system.posix_acl_access, in its binary
# form), a user.* one, and IMA's and EVM's (root only).
cp "$FIX/bin/glibc-static" "$D/x"
python3 - "$D/x" <<'EOP' > "$T_TMP/xattrs.set"
import os, struct, sys
f = sys.argv[1]
# ACL v2: user::rw-, user:1234:r--, group::r--, mask::r--, other::r--
acl = struct.pack("<I", 2) + b"".join(struct.pack("<HHI", t, p, i) for t, p, i in
      ((1, 6, 0xffffffff), (2, 4, 1234), (4, 4, 0xffffffff), (0x10, 4, 0xffffffff), (0x20, 4, 0xffffffff)))
done = []
for name, val in (("system.posix_acl_access", acl), ("user.elfsig-test", b"kept"),
                  ("security.ima", bytes.fromhex("0404") + bytes(32)),
                  ("security.evm", bytes.fromhex("02") + bytes(20))):
    try:
        os.setxattr(f, name, val)
        done.append(name)
    except OSError:
        pass
print(" ".join(done))
EOP
set_ok=$(cat "$T_TMP/xattrs.set")
xget() { python3 -c 'import os,sys
try: print(os.getxattr(sys.argv[1], sys.argv[2]).hex())
except OSError: print("none")' "$1" "$2"; }
declare -A was
for n in system.posix_acl_access user.elfsig-test; do was[$n]=$(xget "$D/x" "$n"); done
"$SIGNELF" sign "${SIGN[@]}" "$D/x" || t_fail "sign a file with extended attributes"
for n in system.posix_acl_access user.elfsig-test; do
	case " $set_ok " in
	*" $n "*)
		[ "$(xget "$D/x" "$n")" = "${was[$n]}" ] && [ "${was[$n]}" != none ] &&
			t_pass "in place: $n kept" || t_fail "in place: $n kept" "$(xget "$D/x" "$n")" ;;
	*) t_skip "in place: $n kept" "this file system or user cannot set it" ;;
	esac
done
for n in security.ima security.evm; do
	case " $set_ok " in
	*" $n "*)
		[ "$(xget "$D/x" "$n")" = none ] &&
			t_pass "in place: $n dropped (it describes the old content)" ||
			t_fail "in place: $n dropped (it describes the old content)" "$(xget "$D/x" "$n")" ;;
	*) t_skip "in place: $n dropped" "setting security.* needs root" ;;
	esac
done

# chattr attributes: nodump (d) and noatime (A) are kept; an immutable
# file (i) is refused with one line and left as it was.
cp "$FIX/bin/glibc-static" "$D/c"
if chattr +dA "$D/c" 2>/dev/null; then
	"$SIGNELF" sign "${SIGN[@]}" "$D/c"
	flags=$(lsattr -d "$D/c" | cut -d' ' -f1)
	case $flags in
	*d*A*|*A*d*) t_pass "in place: chattr +d +A kept ($flags)" ;;
	*) t_fail "in place: chattr +d +A kept" "$flags" ;;
	esac
	cp "$FIX/bin/glibc-static" "$D/i"
	if chattr +i "$D/i" 2>/dev/null; then
		t_on_exit "chattr -i '$D/i' 2>/dev/null"
		"$SIGNELF" sign "${SIGN[@]}" "$D/i" 2>"$T_TMP/err"; rc=$?
		[ $rc != 0 ] && [ "$(wc -l < "$T_TMP/err")" = 1 ] && cmp -s "$D/i" "$FIX/bin/glibc-static" &&
			[ -z "$(find "$D" -name '.*elfsig-*')" ] &&
			t_pass "in place: an immutable file is refused, one line, untouched" ||
			t_fail "in place: an immutable file is refused, one line, untouched" "rc=$rc $(cat "$T_TMP/err")"
		chattr -i "$D/i"
	else
		t_skip "in place: an immutable file is refused" "chattr +i needs CAP_LINUX_IMMUTABLE"
	fi
else
	t_skip "in place: chattr attributes kept" "this file system has no chattr attributes"
fi

# mtime: the content changed, so the time is the signing's (make and
# rsync see it); another hard link keeps the old, unsigned file.
cp "$FIX/bin/glibc-static" "$D/t"; touch -d '2001-01-01 00:00:00' "$D/t"
ln "$D/t" "$D/t-link"
"$SIGNELF" sign "${SIGN[@]}" "$D/t"
[ "$(stat -c %Y "$D/t")" -gt "$(date -d '2001-01-02' +%s)" ] &&
	t_pass "in place: the mtime is the signing's" || t_fail "in place: the mtime is the signing's"
"$SIGNELF" verify -q -c "$K/rsa2048.pem" "$D/t-link"; rc=$?
[ $rc = 2 ] && [ "$(stat -c %i "$D/t")" != "$(stat -c %i "$D/t-link")" ] &&
	t_pass "in place: another hard link keeps the old, unsigned file" ||
	t_fail "in place: another hard link keeps the old, unsigned file" "verify rc=$rc"
exit 0
