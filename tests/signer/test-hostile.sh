#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Hostile input: every malformed file gets one clear line and a non-zero
# exit from every command; never a crash, a partial output or a changed input.
set -u
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/fixtures.sh"
fixtures_init
CERT=$K/rsa2048.pem

check_file() { # FILE LABEL
	local f=$1 label=$2 before out=$T_TMP/out/o problems=
	before=$(sha "$f")
	rm -rf "$T_TMP/out"; mkdir -p "$T_TMP/out"

	run_cmd "$out" "$SIGNELF" verify -c "$CERT" "$f"
	{ [ "$RC" = 0 ] || ! clean_failure "$out" "$T_TMP/out"; } && problems+=" verify(rc=$RC,lines=$ERRLINES)"
	run_cmd "$out" "$SIGNELF" show "$f"
	[ "$RC" = 0 ] || clean_failure "$out" "$T_TMP/out" || problems+=" show(rc=$RC,lines=$ERRLINES)"
	run_cmd "$out" "$SIGNELF" digest "$f"
	[ "$RC" = 0 ] || clean_failure "$out" "$T_TMP/out" || problems+=" digest(rc=$RC,lines=$ERRLINES)"
	for cmd in sign remove; do
		if [ $cmd = sign ]; then
			run_cmd "$out" "$SIGNELF" sign -k "$K/rsa2048.key" -c "$CERT" -o "$out" "$f"
		else
			run_cmd "$out" "$SIGNELF" remove -o "$out" "$f"
		fi
		if [ "$RC" = 0 ]; then
			# Accepted (e.g. a garbage signature replaced): the result is sound.
			"$SIGNELF" digest "$out" >/dev/null 2>&1 ||
				problems+=" $cmd-output-unreadable"
		elif ! clean_failure "$out" "$T_TMP/out"; then
			problems+=" $cmd(rc=$RC,lines=$ERRLINES)"
		fi
	done
	# In place on a copy: a failure leaves the copy as it was.
	cp "$f" "$T_TMP/out/copy"
	"$SIGNELF" sign -k "$K/rsa2048.key" -c "$CERT" "$T_TMP/out/copy" 2>/dev/null ||
		cmp -s "$f" "$T_TMP/out/copy" || problems+=" in-place-failure-modified-file"
	[ "$(sha "$f")" = "$before" ] || problems+=" input-modified"
	if [ -z "$problems" ]; then
		t_pass "$label"
	else
		t_fail "$label" "$problems: $(head -c 300 "$T_TMP/stderr")"
	fi
}

total=0
for b in glibc-static i386-static s390x-be64; do
	fix_sign rsa2048 "$FIX/bin/$b" "$T_TMP/$b.signed" || { t_fail "$b: sign base"; continue; }
	mkdir -p "$T_TMP/h-$b"
	$ELFCRAFT hostile "$T_TMP/$b.signed" "$T_TMP/h-$b" >/dev/null
	for f in "$T_TMP/h-$b"/*; do
		check_file "$f" "hostile $b: ${f##*/}"
		total=$((total + 1))
	done
done
[ "$total" -ge 150 ] && t_pass "hostile corpus has $total files" ||
	t_fail "hostile corpus has $total files" "want at least 150"

# Files that are not what they seem.
: > "$T_TMP/empty"
check_file "$T_TMP/empty" "empty file"
mkdir "$T_TMP/dir"
run_cmd "$T_TMP/o" "$SIGNELF" verify -c "$CERT" "$T_TMP/dir"
clean_failure "$T_TMP/o" "$T_TMP" && t_pass "a directory" || t_fail "a directory" "rc=$RC"
run_cmd "$T_TMP/o" "$SIGNELF" sign -k "$K/rsa2048.key" -c "$CERT" "$T_TMP/missing"
clean_failure "$T_TMP/o" "$T_TMP" && t_pass "a missing file" || t_fail "a missing file" "rc=$RC"
run_cmd "$T_TMP/o" "$SIGNELF" verify -c "$CERT" /dev/null
clean_failure "$T_TMP/o" "$T_TMP" && t_pass "a device" || t_fail "a device" "rc=$RC"

# Unreadable input, as an unprivileged user.
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	mkdir -m 0777 "$T_TMP/nobody"
	cp "$FIX/bin/musl-static" "$T_TMP/nobody/secret"; chmod 000 "$T_TMP/nobody/secret"
	cp "$K/rsa2048.key" "$K/rsa2048.pem" "$T_TMP/nobody/"; chmod 644 "$T_TMP/nobody/"*.key
	run_cmd "$T_TMP/nobody/o" setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$SIGNELF" sign -k "$T_TMP/nobody/rsa2048.key" -c "$T_TMP/nobody/rsa2048.pem" \
		-o "$T_TMP/nobody/o" "$T_TMP/nobody/secret"
	clean_failure "$T_TMP/nobody/o" "$T_TMP/nobody" && grep -q 'Permission denied' "$T_TMP/stderr" &&
		t_pass "an unreadable file" || t_fail "an unreadable file" "rc=$RC $(cat "$T_TMP/stderr")"
	# A file in a directory the user cannot write: in place fails cleanly.
	cp "$FIX/bin/musl-static" "$T_TMP/locked"; chmod 755 "$T_TMP/locked"
	run_cmd "$T_TMP/none" setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$SIGNELF" sign -k "$T_TMP/nobody/rsa2048.key" -c "$T_TMP/nobody/rsa2048.pem" "$T_TMP/locked"
	clean_failure "$T_TMP/none" "$T_TMP" && cmp -s "$T_TMP/locked" "$FIX/bin/musl-static" &&
		t_pass "in place in an unwritable directory" ||
		t_fail "in place in an unwritable directory" "rc=$RC"
else
	t_skip "an unreadable file" "needs root and setpriv"
fi

# Read-only and full file systems.
if [ "$(id -u)" = 0 ] && mkdir "$T_TMP/ro" "$T_TMP/full" &&
   mount -t tmpfs -o ro,size=1m tmpfs "$T_TMP/ro" 2>/dev/null; then
	t_on_exit "umount '$T_TMP/ro'"
	run_cmd "$T_TMP/ro/o" "$SIGNELF" sign -k "$K/rsa2048.key" -c "$CERT" -o "$T_TMP/ro/o" "$FIX/bin/glibc-static"
	clean_failure "$T_TMP/ro/o" "$T_TMP/ro" && grep -q 'Read-only' "$T_TMP/stderr" &&
		t_pass "read-only output directory" || t_fail "read-only output directory" "rc=$RC $(cat "$T_TMP/stderr")"
	mount -t tmpfs -o size=256k tmpfs "$T_TMP/full"
	t_on_exit "umount '$T_TMP/full'"
	run_cmd "$T_TMP/full/o" "$SIGNELF" sign -k "$K/rsa2048.key" -c "$CERT" -o "$T_TMP/full/o" "$FIX/bin/glibc-static"
	clean_failure "$T_TMP/full/o" "$T_TMP/full" && grep -q 'No space left' "$T_TMP/stderr" &&
		[ -z "$(ls -A "$T_TMP/full")" ] &&
		t_pass "full disk: nothing half-written" || t_fail "full disk: nothing half-written" "rc=$RC $(cat "$T_TMP/stderr")"
	# In place on a full disk: the original stays whole.
	umount "$T_TMP/full"; mount -t tmpfs -o size=1100k tmpfs "$T_TMP/full"
	cp "$FIX/bin/glibc-static" "$T_TMP/full/f"
	run_cmd "$T_TMP/none" "$SIGNELF" sign -k "$K/rsa2048.key" -c "$CERT" "$T_TMP/full/f"
	clean_failure "$T_TMP/none" "$T_TMP/full" && cmp -s "$T_TMP/full/f" "$FIX/bin/glibc-static" &&
		t_pass "full disk in place: the original is intact" ||
		t_fail "full disk in place: the original is intact" "rc=$RC $(cat "$T_TMP/stderr")"
else
	t_skip "read-only and full file systems" "needs root to mount tmpfs"
fi

# Hostile detached signatures for attach.
bin=$FIX/bin/musl-static
"$SIGNELF" digest --message "$T_TMP/m" "$bin" >/dev/null
sign_cms() { openssl cms -sign -binary -noattr -outform DER -md sha256 -in "$T_TMP/m" "$@" 2>/dev/null; }
sign_cms -nocerts -signer "$CERT" -inkey "$K/rsa2048.key" -out "$T_TMP/good.der"
head -c 200 /dev/urandom > "$T_TMP/garbage.der"
head -c 70000 /dev/zero > "$T_TMP/huge.der"
cat "$T_TMP/good.der" "$T_TMP/garbage.der" > "$T_TMP/trailing.der"
sign_cms -nocerts -signer "$CERT" -inkey "$K/rsa2048.key" -signer "$K/p256.pem" -inkey "$K/p256.key" -out "$T_TMP/two.der"
sign_cms -nocerts -nodetach -signer "$CERT" -inkey "$K/rsa2048.key" -out "$T_TMP/embedded.der"
openssl cms -sign -binary -noattr -outform DER -md sha1 -nocerts -signer "$CERT" -inkey "$K/rsa2048.key" \
	-in "$T_TMP/m" -out "$T_TMP/sha1.der" 2>/dev/null
: > "$T_TMP/empty.der"
for s in garbage huge trailing two embedded sha1 empty; do
	run_cmd "$T_TMP/att" "$SIGNELF" attach -s "$T_TMP/$s.der" -o "$T_TMP/att" "$bin"
	clean_failure "$T_TMP/att" "$T_TMP" && t_pass "attach refuses a $s signature" ||
		t_fail "attach refuses a $s signature" "rc=$RC $(cat "$T_TMP/stderr")"
done
run_cmd "$T_TMP/att" "$SIGNELF" attach -s "$T_TMP/good.der" -o "$T_TMP/att" "$bin"
[ "$RC" = 0 ] && "$SIGNELF" verify -q -c "$CERT" "$T_TMP/att" &&
	t_pass "attach takes the good one" || t_fail "attach takes the good one"

# Usage errors: exit 4, one line.
for args in "" "sign" "sign -k x FILE" "verify FILE" "sign -k a -c b -o o f1 f2" \
	    "digest" "frobnicate" "sign --hash md5 -k a -c b f" "verify --bogus"; do
	# shellcheck disable=SC2086
	run_cmd "$T_TMP/none" "$SIGNELF" $args
	{ [ "$RC" = 4 ] && [ "$ERRLINES" -le 1 ] && { [ "$ERRLINES" = 1 ] || [ -z "$args" ]; }; } ||
	{ [ -z "$args" ] && [ "$RC" = 4 ]; } &&
		t_pass "usage error: 'signelf $args'" || t_fail "usage error: 'signelf $args'" "rc=$RC lines=$ERRLINES"
done
exit 0
