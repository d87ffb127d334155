#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# signelf sign --tree on a tree of real Debian files: executables, libc,
# ld.so, a symbolic link, a hard link, non-ELF files, a .o, a core file, a
# read-only file; what is signed verifies, the rest is untouched.
set -u
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/fixtures.sh"
fixtures_init
R=$T_TMP/root
sign_tree() { "$SIGNELF" sign -k "$K/rsa2048.key" -c "$K/rsa2048.pem" "$@"; }

libc=$(ldd /bin/ls | awk '/libc.so/ {print $3}')
interp=$(readelf -lW /bin/ls | sed -n 's/.*interpreter: \(.*\)]/\1/p')
mkdir -p "$R/usr/bin" "$R/usr/lib" "$R/lib64" "$R/etc" "$R/obj" "$R/var/crash" "$T_TMP/outside"
for b in ls cat env sort; do cp "/usr/bin/$b" "$R/usr/bin/"; done
cp "$FIX/bin/glibc-static" "$FIX/bin/i386-static" "$R/usr/bin/"
cp "$libc" "$R/usr/lib/libc.so.6"
cp "$interp" "$R/lib64/ld-linux-x86-64.so.2"
ln -s ls "$R/usr/bin/dir"
cp /usr/bin/true "$T_TMP/outside/true"
ln -s ../../../outside/true "$R/usr/bin/true-out"
ln -s "$T_TMP/outside" "$R/outside-dir"
cp /usr/bin/true "$R/usr/bin/true"
ln "$R/usr/bin/true" "$R/usr/lib/true-hardlink"
printf 'not an ELF file\n' > "$R/etc/motd"
printf '#!/bin/sh\necho hi\n' > "$R/usr/bin/script"; chmod 755 "$R/usr/bin/script"
printf '\177EL' > "$R/etc/short"
printf 'int x = 1;\n' > "$T_TMP/x.c" && gcc -c -o "$R/obj/x.o" "$T_TMP/x.c"
# A core file: an ELF with PT_LOAD, but of type ET_CORE.
cp "$R/usr/bin/glibc-static" "$R/var/crash/core"
printf '\004\000' | dd of="$R/var/crash/core" bs=1 seek=16 conv=notrunc 2>/dev/null
cp /usr/bin/cat "$R/usr/bin/ro"; chmod 0555 "$R/usr/bin/ro"
chmod 4755 "$R/usr/bin/env"
chown 1234:5678 "$R/usr/bin/sort"
setfattr -n user.elfsig-test -v kept "$R/usr/bin/sort" 2>/dev/null && xattr=1 || xattr=0
command -v setcap >/dev/null && setcap cap_net_raw+ep "$R/usr/bin/cat" 2>/dev/null && cap=1 || cap=0
cp -a "$R" "$T_TMP/orig"

signable="usr/bin/ls usr/bin/cat usr/bin/env usr/bin/sort usr/bin/glibc-static usr/bin/i386-static
usr/lib/libc.so.6 lib64/ld-linux-x86-64.so.2 usr/bin/true usr/bin/ro"
untouched="etc/motd etc/short usr/bin/script obj/x.o var/crash/core"

sign_tree --tree "$R" > "$T_TMP/out" 2> "$T_TMP/err"; rc=$?
summary="$R: signed 10, skipped 9 (1 hard links to a signed file, 3 not ELF, 2 ELF but no executable or library, 3 not regular files), failed 0"
[ $rc = 0 ] && [ "$(cat "$T_TMP/out")" = "$summary" ] && [ ! -s "$T_TMP/err" ] &&
	t_pass "tree: one summary line, every count right, nothing on stderr" ||
	t_fail "tree: one summary line, every count right, nothing on stderr" "rc=$rc $(cat "$T_TMP/out" "$T_TMP/err")"
ok=1
for f in $signable usr/lib/true-hardlink; do
	"$SIGNELF" verify -q -c "$K/rsa2048.pem" "$R/$f" || { ok=0; echo "# not valid: $f"; }
done
[ $ok = 1 ] && t_pass "tree: every executable and library verifies (libc, ld.so, i386, dynamic, static)" ||
	t_fail "tree: every executable and library verifies (libc, ld.so, i386, dynamic, static)"
ok=1
for f in $untouched; do cmp -s "$R/$f" "$T_TMP/orig/$f" || { ok=0; echo "# changed: $f"; }; done
[ $ok = 1 ] && t_pass "tree: non-ELF files, a .o and a core file are untouched" ||
	t_fail "tree: non-ELF files, a .o and a core file are untouched"
[ -L "$R/usr/bin/dir" ] && [ -L "$R/usr/bin/true-out" ] && [ -L "$R/outside-dir" ] &&
	cmp -s "$T_TMP/outside/true" /usr/bin/true &&
	t_pass "tree: symbolic links stay links and what they point to outside is not signed" ||
	t_fail "tree: symbolic links stay links and what they point to outside is not signed"
[ "$(stat -c %i "$R/usr/bin/true")" = "$(stat -c %i "$R/usr/lib/true-hardlink")" ] &&
	[ "$(stat -c %h "$R/usr/bin/true")" = 2 ] &&
	t_pass "tree: a hard-linked file is signed once, both names still one file" ||
	t_fail "tree: a hard-linked file is signed once, both names still one file"
[ "$(stat -c %a "$R/usr/bin/env")" = 4755 ] && [ "$(stat -c %a "$R/usr/bin/ro")" = 555 ] &&
	[ "$(stat -c %u:%g "$R/usr/bin/sort")" = 1234:5678 ] &&
	t_pass "tree: mode (setuid, read-only) and owner kept" ||
	t_fail "tree: mode (setuid, read-only) and owner kept"
if [ "$xattr" = 1 ]; then
	[ "$(getfattr --only-values -n user.elfsig-test "$R/usr/bin/sort" 2>/dev/null)" = kept ] &&
		t_pass "tree: extended attributes kept" || t_fail "tree: extended attributes kept"
else
	t_skip "tree: extended attributes kept" "this file system takes no user.* attribute"
fi
if [ "$cap" = 1 ]; then
	getcap "$R/usr/bin/cat" | grep -q cap_net_raw &&
		t_pass "tree: file capabilities (security.capability) kept" ||
		t_fail "tree: file capabilities (security.capability) kept" "$(getcap "$R/usr/bin/cat")"
else
	t_skip "tree: file capabilities kept" "setcap is not possible here"
fi
[ -z "$(find "$R" "$T_TMP/outside" -name '.*elfsig-*')" ] && t_pass "tree: no temporary file left" ||
	t_fail "tree: no temporary file left"
d1=$("$SIGNELF" digest "$T_TMP/orig/usr/lib/libc.so.6" | cut -d' ' -f1)
d2=$("$SIGNELF" digest "$R/usr/lib/libc.so.6" | cut -d' ' -f1)
[ "$d1" = "$d2" ] && [ "$("$R/lib64/ld-linux-x86-64.so.2" --library-path "$R/usr/lib" "$R/usr/bin/ls" -d /)" = / ] &&
	t_pass "tree: signed libc and ld.so keep their image and still run ls" ||
	t_fail "tree: signed libc and ld.so keep their image and still run ls"

# Again: nothing to do; --force signs again; another key signs again.
sign_tree --tree "$R" > "$T_TMP/out"; rc=$?
[ $rc = 0 ] && grep -q "signed 0, skipped 19 (11 already signed by this key," "$T_TMP/out" &&
	t_pass "tree again: files signed by this key are left alone" ||
	t_fail "tree again: files signed by this key are left alone" "$(cat "$T_TMP/out")"
before=$(stat -c %i "$R/usr/bin/ls")
sign_tree --tree "$R" --force > "$T_TMP/out" && grep -q "signed 10, skipped 9 " "$T_TMP/out" &&
	[ "$(stat -c %i "$R/usr/bin/ls")" != "$before" ] &&
	t_pass "tree --force: signs them again" || t_fail "tree --force: signs them again" "$(cat "$T_TMP/out")"
sign_tree --tree "$R" --hash sha384 > "$T_TMP/out" && grep -q "signed 10," "$T_TMP/out" &&
	"$SIGNELF" show --json "$R/usr/bin/ls" | grep -q '"hash":"sha384"' &&
	t_pass "tree with another hash: signs again" || t_fail "tree with another hash: signs again" "$(cat "$T_TMP/out")"
"$SIGNELF" sign -k "$K/p256.key" -c "$K/p256.pem" --tree "$R" > "$T_TMP/out" &&
	grep -q "signed 10," "$T_TMP/out" && "$SIGNELF" verify -q -c "$K/p256.pem" "$R/usr/lib/libc.so.6" &&
	t_pass "tree with another key: signs again" || t_fail "tree with another key: signs again" "$(cat "$T_TMP/out")"

# A failure midway (the file size limit stops the largest file, libc, while
# it is written): the others are signed, libc is untouched, no temporary
# file is left, one line names it, the exit status says so.
rm -rf "$R"; cp -a "$T_TMP/orig" "$R"
limit=$(( $(stat -c %s "$R/usr/lib/libc.so.6") / 1024 - 16 ))
( trap '' XFSZ; ulimit -f "$limit"; sign_tree --tree "$R" ) > "$T_TMP/out" 2> "$T_TMP/err"; rc=$?
[ $rc != 0 ] && [ "$(wc -l < "$T_TMP/err")" = 1 ] && grep -q "usr/lib/libc.so.6: .*too large" "$T_TMP/err" &&
	cmp -s "$R/usr/lib/libc.so.6" "$T_TMP/orig/usr/lib/libc.so.6" &&
	[ -z "$(find "$R" -name '.*elfsig-*')" ] && grep -q "signed 9,.* failed 1$" "$T_TMP/out" &&
	"$SIGNELF" verify -q -c "$K/rsa2048.pem" "$R/usr/bin/ls" "$R/lib64/ld-linux-x86-64.so.2" &&
	t_pass "tree: a file that fails midway is left whole, one line names it, the rest is signed" ||
	t_fail "tree: a file that fails midway is left whole, one line names it, the rest is signed" \
		"rc=$rc $(cat "$T_TMP/err" "$T_TMP/out")"

# A malformed executable: one line naming it, the others signed.
rm -rf "$R"; cp -a "$T_TMP/orig" "$R"
head -c 2000 /usr/bin/ls > "$R/usr/bin/truncated"
sign_tree --tree "$R" > "$T_TMP/out" 2> "$T_TMP/err"; rc=$?
[ $rc = 3 ] && [ "$(wc -l < "$T_TMP/err")" = 1 ] && grep -q "usr/bin/truncated: " "$T_TMP/err" &&
	grep -q "signed 10,.* failed 1$" "$T_TMP/out" &&
	t_pass "tree: a malformed executable fails alone, in one line" ||
	t_fail "tree: a malformed executable fails alone, in one line" "rc=$rc $(cat "$T_TMP/err" "$T_TMP/out")"

# Too deep: reported, not entered, the rest signed.
rm -rf "$R"; mkdir -p "$R"; cp /usr/bin/true "$R/top"
deep=$R; for _ in $(seq 130); do deep=$deep/d; done
mkdir -p "$deep" && cp /usr/bin/true "$deep/bottom"
sign_tree --tree "$R" > "$T_TMP/out" 2> "$T_TMP/err"; rc=$?
[ $rc != 0 ] && [ "$(wc -l < "$T_TMP/err")" = 1 ] && grep -q "nested more than 128 directories" "$T_TMP/err" &&
	"$SIGNELF" verify -q -c "$K/rsa2048.pem" "$R/top" && cmp -s "$deep/bottom" /usr/bin/true &&
	t_pass "tree: absurd depth refused in one line, the rest signed" ||
	t_fail "tree: absurd depth refused in one line, the rest signed" "rc=$rc $(cat "$T_TMP/err")"

# Other file systems: not entered unless asked; a directory loop (a bind
# mount of an ancestor) is reported. Both need mounts: probe.
rm -rf "$R"; mkdir -p "$R/mnt" "$R/a/b"; cp /usr/bin/true "$R/top"
if t_probe mount mount -t tmpfs -o size=16m elfsig-test "$R/mnt"; then
	t_on_exit "umount '$R/mnt' 2>/dev/null"
	cp /usr/bin/true "$R/mnt/inner"
	sign_tree --tree "$R" > "$T_TMP/out" && grep -q "1 directories on other file systems" "$T_TMP/out" &&
		cmp -s "$R/mnt/inner" /usr/bin/true &&
		t_pass "tree: another file system is not entered" ||
		t_fail "tree: another file system is not entered" "$(cat "$T_TMP/out")"
	sign_tree --tree "$R" --cross-filesystems > "$T_TMP/out" &&
		"$SIGNELF" verify -q -c "$K/rsa2048.pem" "$R/mnt/inner" &&
		t_pass "tree --cross-filesystems: it is" || t_fail "tree --cross-filesystems: it is" "$(cat "$T_TMP/out")"
	umount "$R/mnt"
	if mount --bind "$R/a" "$R/a/b" 2>/dev/null; then
		t_on_exit "umount '$R/a/b' 2>/dev/null"
		sign_tree --tree "$R" --cross-filesystems > "$T_TMP/out" 2> "$T_TMP/err"; rc=$?
		[ $rc != 0 ] && grep -q "a/b: directory loop" "$T_TMP/err" && [ "$(wc -l < "$T_TMP/err")" = 1 ] &&
			t_pass "tree: a directory loop is reported in one line, not followed" ||
			t_fail "tree: a directory loop is reported in one line, not followed" "rc=$rc $(cat "$T_TMP/err")"
		umount "$R/a/b"
	else
		t_skip "tree: a directory loop" "bind mounts are not possible here"
	fi
else
	t_skip "tree: other file systems and loops" "mounting a tmpfs is not possible here"
fi

# Bad command lines and bad trees: one line, non-zero, nothing written.
sign_tree --tree "$T_TMP/none" > /dev/null 2> "$T_TMP/err"; rc=$?
[ $rc = 5 ] && [ "$(wc -l < "$T_TMP/err")" = 1 ] && t_pass "tree: a missing directory, one line" ||
	t_fail "tree: a missing directory, one line" "rc=$rc"
sign_tree --tree /usr/bin/true > /dev/null 2> "$T_TMP/err"; rc=$?
[ $rc = 5 ] && grep -q "not a directory" "$T_TMP/err" && t_pass "tree: a file is not a tree" ||
	t_fail "tree: a file is not a tree" "rc=$rc"
ln -s "$T_TMP/orig" "$T_TMP/link-root"
sign_tree --tree "$T_TMP/link-root" > /dev/null 2> "$T_TMP/err"; rc=$?
[ $rc = 5 ] && grep -q "symbolic link is not followed" "$T_TMP/err" &&
	cmp -s "$T_TMP/orig/usr/bin/ls" /usr/bin/ls && t_pass "tree: a symbolic link as the tree is not followed" ||
	t_fail "tree: a symbolic link as the tree is not followed" "rc=$rc"
for args in "--tree $R $R/top" "--tree $R -o $T_TMP/x" "--force $R/top" "--cross-filesystems $R/top"; do
	# shellcheck disable=SC2086 # the words are the test
	sign_tree $args > /dev/null 2> "$T_TMP/err"; rc=$?
	[ $rc = 4 ] && [ "$(wc -l < "$T_TMP/err")" = 1 ] && t_pass "usage: sign ${args//$T_TMP/T}" ||
		t_fail "usage: sign ${args//$T_TMP/T}" "rc=$rc"
done
exit 0
