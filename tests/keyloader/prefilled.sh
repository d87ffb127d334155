#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A keyring that holds keys before the loader runs: the loader says how
# many before it loads, names after the lock every key it did not load
# itself (one line each), exits 12 (--foreign-keys fail, the default) or
# keeps its status (--foreign-keys warn), and locks the keyring whatever
# happens. Against a real swtpm and the real kernel keyring (a session
# keyring of its own in place of .elfsig).
set -u
. "$(dirname "$0")/lib-kl.sh"

kl_loader_suite 4

# setup NAME PREFILL...: k1 and k2 enrolled into $D, a fresh keyring $KR
# holding the certificates PREFILL... (k3, k1, ...) or, for "ring", a
# nested keyring.
setup() {
	D=$T_TMP/$1; shift
	mkdir -p "$D/certs"
	cp "$T_TMP/k1.pem" "$T_TMP/k2.der" "$D/certs/"
	(cd "$T_TMP" && "$ENROLL" create -d "$D" -K "$T_TMP/auth.key" k1.pem k2.der) \
		>"$D/enroll.out" 2>&1 || return 1
	KR=$(keyctl newring "kr-$(basename "$D")" @s) || return 1
	local p
	for p in "$@"; do
		case $p in
		ring) keyctl newring nested "$KR" >/dev/null || return 1 ;;
		*)    keyctl padd asymmetric "" "$KR" < "$T_TMP/$p.der" >/dev/null || return 1 ;;
		esac
	done
}

# run NAME RC NKEYS NFOREIGN [LOADER OPTIONS]: the loader into $KR; its
# exit status, the keys (any type) left in $KR, $KR locked, and exactly
# NFOREIGN "was not loaded by this run" lines.
run() {
	local name=$1 rc=$2 n=$3 nf=$4 got gotf err; shift 4
	timeout 30 "$KL" -d "$D" -k "$KR" -l "$D/events" --kmsg "$D/kmsg" "$@" >"$D/out" 2>&1
	RC=$?
	got=$(keyctl rdescribe "$KR" >/dev/null && keyctl list "$KR" | grep -c '^ *[0-9]*: ')
	gotf=$(grep -c "was not loaded by this run: trusted, but not from the enrolment\$" "$D/out")
	err=$(keyctl padd asymmetric "" "$KR" < "$T_TMP/k4.der" 2>&1 >/dev/null)
	if [ "$RC" != "$rc" ]; then
		t_fail "$name" "exit $RC, expected $rc: $(tr '\n' '|' < "$D/out")"
	elif [ "$got" != "$n" ]; then
		t_fail "$name" "$got keys in the keyring, expected $n: $(keyctl list "$KR" | tr '\n' '|')"
	elif [[ $err != *"Operation not permitted"* ]]; then
		t_fail "$name" "keyring not locked: $err"
	elif [ "$gotf" != "$nf" ]; then
		t_fail "$name" "$gotf foreign-key lines, expected $nf: $(tr '\n' '|' < "$D/out")"
	else
		t_pass "$name"
	fi
}

# line NAME GLOB: a line of the last run matches GLOB.
line() {
	local l
	while IFS= read -r l; do
		# shellcheck disable=SC2053 # a glob on purpose
		[[ $l == $2 ]] && { t_pass "$1"; return; }
	done < "$D/out"
	t_fail "$1" "no line '$2' in: $(tr '\n' '|' < "$D/out")"
}

# 1. A clean keyring: nothing reported, status 0.
if setup clean; then
	run "empty keyring: both keys load, nothing foreign, status 0" 0 2 0
	if grep -q "before loading" "$D/out"; then
		t_fail "empty keyring: no 'before loading' line" "$(tr '\n' '|' < "$D/out")"
	else
		t_pass "empty keyring: no 'before loading' line"
	fi
else
	t_fail "setup clean" "$(cat "$D/enroll.out")"
fi

# 2. A foreign certificate placed before the loader: named, status 12.
if setup foreign k3; then
	id=$(keyctl list "$KR" | sed -n 's/^ *\([0-9]*\): .*elfsig test k3.*/\1/p')
	run "a pre-filled foreign key: status 12, enrolled keys still loaded, locked" 12 3 1
	line "the foreign key is named, with its description" \
		"elfsig-keyloader: keyring $KR: key $id asymmetric 'elfsig test k3:*' was not loaded by this run: trusted, but not from the enrolment"
	line "the loader says how many keys were there before it loaded" \
		"elfsig-keyloader: keyring $KR already holds 1 key before loading (each named after the lock)"
	line "the final line gives status 12" \
		"elfsig-keyloader: 2 keys loaded into $KR, keyring locked (exit 12: foreign-keys)"
	grep -q "elfsig-locked keys=2 status=foreign-keys\$" "$D/events" &&
		t_pass "the final event records status foreign-keys" ||
		t_fail "the final event records status foreign-keys" "$(cat "$D/events")"
	grep -q "^<3>elfsig-keyloader: keyring $KR: key $id .*was not loaded by this run" "$D/kmsg" &&
		t_pass "the foreign key's line goes to the kernel log as an error" ||
		t_fail "the foreign key's line goes to the kernel log as an error" "$(cat "$D/kmsg")"
else
	t_fail "setup foreign" "$(cat "$D/enroll.out")"
fi

# 3. --foreign-keys warn: reported, status kept.
if setup warn k3; then
	run "--foreign-keys warn: the key named, status 0" 0 3 1 --foreign-keys warn
	grep -q "^<4>elfsig-keyloader: keyring $KR: key .*was not loaded by this run" "$D/kmsg" &&
		t_pass "--foreign-keys warn: logged as a warning" ||
		t_fail "--foreign-keys warn: logged as a warning" "$(cat "$D/kmsg")"
else
	t_fail "setup warn" "$(cat "$D/enroll.out")"
fi

# 4. Two foreign keys and a nested keyring: one line each.
if setup several k3 k4 ring; then
	run "two foreign keys and a nested keyring: three lines, status 12" 12 5 3
	line "a nested keyring is named as a keyring" \
		"elfsig-keyloader: keyring $KR: key * keyring 'nested' was not loaded by this run*"
else
	t_fail "setup several" "$(cat "$D/enroll.out")"
fi

# 5. An enrolled certificate placed before the loader is replaced by the
# loader's own add (the same description): nothing foreign is left.
if setup enrolled k1; then
	before=$(keyctl list "$KR" | sed -n 's/^ *\([0-9]*\): .*/\1/p')
	run "a pre-placed enrolled key is replaced by the loader's own: status 0" 0 2 0
	if keyctl list "$KR" | grep -q "^ *$before: "; then
		t_fail "the pre-placed key is no longer linked" "$(keyctl list "$KR" | tr '\n' '|')"
	else
		t_pass "the pre-placed key is no longer linked"
	fi
else
	t_fail "setup enrolled" "$(cat "$D/enroll.out")"
fi

# 6. A failure before the load keeps its own status; the foreign key is
# still named.
if setup unsigned k3; then
	rm "$D/policy.sig"
	run "foreign key and an unsigned policy: status 3 kept, the key named" 3 1 1
else
	t_fail "setup unsigned" "$(cat "$D/enroll.out")"
fi

# 7. A foreign key outranks "partial" (an enrolled certificate missing).
if setup partial k3; then
	rm "$D/certs/k2.der"
	run "foreign key and a missing enrolled cert: status 12 over 1" 12 2 1
else
	t_fail "setup partial" "$(cat "$D/enroll.out")"
fi

# 8. A bad --foreign-keys value: usage error, keyring locked anyway.
if setup badopt k3; then
	run "--foreign-keys maybe: status 2, keyring locked, key named" 2 1 1 --foreign-keys maybe
	line "--foreign-keys maybe: one line says what is expected" \
		"elfsig-keyloader: --foreign-keys: expected 'fail' or 'warn'"
else
	t_fail "setup badopt" "$(cat "$D/enroll.out")"
fi
exit 0
