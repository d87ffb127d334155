#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A hostile tree owner swaps a parent directory, at several depths, with a
# symbolic link to a copy of the tree outside it (renameat2 with
# RENAME_EXCHANGE, a racer process, as fast as it can) while signelf signs
# the tree (sign --tree) or one file in it (plain sign, in place). The copy
# outside has the same names, so a signer that resolves a path again
# anywhere would read or write there: every file outside must stay
# byte-for-byte and inode-for-inode as it was, and no temporary file may
# appear there. Inside, each file ends signed or untouched.
set -u
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/fixtures.sh"
fixtures_init
R=$T_TMP/tree
O=$T_TMP/outside
ROUNDS=${ELFSIG_RACE_ROUNDS:-40}
FILLERS=${ELFSIG_RACE_FILLERS:-300}
SWAP="python3 $TOP/tests/tools/dirswap.py"
SIGN=(-k "$K/rsa2048.key" -c "$K/rsa2048.pem")

# R/d/d/d: at each level FILLERS small files (the walk's time window), an
# ELF file, its hard link, and the next level; the same shape outside.
d=$R
for _ in 1 2 3; do
	d=$d/d
	mkdir -p "$d"
	for i in $(seq -w 1 "$FILLERS"); do echo "$i" > "$d/f$i"; done
	cp "$FIX/bin/glibc-static" "$d/victim"
	ln "$d/victim" "$d/zalias"
done
# Outside, another program under the same names: a mix-up shows in its digest.
make_outside() {
	local v
	rm -rf "$O"
	cp -a "$R" "$O"
	while read -r v; do
		cp "$FIX/bin/glibc-dynamic" "$v" && ln -f "$v" "${v%/victim}/zalias"
	done < <(find "$O" -name victim)
}
make_outside
manifest() { (cd "$1" && find . -printf '%p %i %n %s %y\n' | sort && find . -type f -exec sha256sum {} + | sort); }
manifest "$O" > "$T_TMP/outside.before"
inside_digest=$("$SIGNELF" digest "$FIX/bin/glibc-static" | cut -d' ' -f1)
outside_digest=$("$SIGNELF" digest "$FIX/bin/glibc-dynamic" | cut -d' ' -f1)

# own DIR DIGEST: the programs under DIR whose image is not DIGEST.
own() {
	local f
	while read -r f; do
		[ "$("$SIGNELF" digest "$f" 2>/dev/null | cut -d' ' -f1)" = "$2" ] || printf ' %s' "$f"
	done < <(find "$1" -name victim -o -name zalias)
}

# race DEPTH MODE: the directory at DEPTH swaps with a link to its copy
# outside while signelf runs ROUNDS times in MODE (tree or file).
race() {
	local depth=$1 mode=$2 rel="" out runs=0 refused=0 signed=0
	for _ in $(seq "$depth"); do rel=$rel/d; done
	rm -f "$T_TMP/stop" "$T_TMP/stop.ready"
	ln -sfn "$O$rel" "$R$rel.link"
	$SWAP "$R$rel" "$R$rel.link" "$T_TMP/stop" 100000000 > "$T_TMP/swaps" &
	local racer=$!
	for _ in $(seq 100); do [ -e "$T_TMP/stop.ready" ] && break; sleep 0.1; done
	for _ in $(seq "$ROUNDS"); do
		if [ "$mode" = tree ]; then
			out=$("$SIGNELF" sign --tree "$R" --force "${SIGN[@]}" 2>&1)
		else
			out=$("$SIGNELF" sign "${SIGN[@]}" "$R/d/d/d/victim" 2>&1)
		fi
		runs=$((runs + 1))
		case "$out" in
		*"changed since the walk"*|*"changed while being"*|*"no longer names"*|*"Too many levels"*|*"Not a directory"*)
			refused=$((refused + 1)) ;;
		esac
		case "$out" in *"signed "[1-9]*|"") signed=$((signed + 1)) ;; esac
	done
	touch "$T_TMP/stop"
	wait "$racer"
	rm -f "$R$rel.link"
	echo "# depth $depth, $mode: $runs runs against $(cat "$T_TMP/swaps") swaps: $signed signed something, $refused refused a changed directory"
	name="$mode, swap at depth $depth: the racer swapped the directory"
	[ "$(cat "$T_TMP/swaps")" -gt "$ROUNDS" ] && t_pass "$name" || t_fail "$name" "$(cat "$T_TMP/swaps") swaps"
	if [ "$mode" = tree ]; then
		name="$mode, swap at depth $depth: nothing outside the tree changed (0 writes outside)"
		manifest "$O" > "$T_TMP/outside.after"
		if cmp -s "$T_TMP/outside.before" "$T_TMP/outside.after"; then
			t_pass "$name"
		else
			t_fail "$name" "$(diff "$T_TMP/outside.before" "$T_TMP/outside.after" | head -5 | tr '\n' ' ')"
			# The next case starts from an outside tree as it was.
			make_outside
			manifest "$O" > "$T_TMP/outside.before"
		fi
	fi
	# A plain sign names a path: where one resolution of it lands, it may
	# sign; it must never put what it read from one directory in another.
	name="$mode, swap at depth $depth: every program is still its own, inside and outside"
	local bad
	bad="$(own "$R" "$inside_digest")$(own "$O" "$outside_digest")"
	[ -z "$bad" ] && t_pass "$name" || { t_fail "$name" "$bad"; make_outside; manifest "$O" > "$T_TMP/outside.before"; }
	name="$mode, swap at depth $depth: no temporary file left anywhere"
	local left
	left=$(find "$R" "$O" -name '.*elfsig-*' | head -3)
	[ -z "$left" ] && t_pass "$name" || t_fail "$name" "$left"
}

MODES=${ELFSIG_RACE_MODES:-tree file}
case " $MODES " in *" tree "*) for depth in 1 2 3; do race "$depth" tree; done ;; esac
case " $MODES " in *" file "*) race 1 file; race 3 file ;; esac

name="without a racer the whole tree signs and verifies"
out=$("$SIGNELF" sign --tree "$R" --force "${SIGN[@]}" 2>&1)
bad=""
while read -r f; do
	"$SIGNELF" verify -c "$K/rsa2048.pem" "$f" >/dev/null 2>&1 || bad+=" $f"
done < <(find "$R" -name victim -o -name zalias)
[ -z "$bad" ] && t_pass "$name" || t_fail "$name" "$out;$bad"
exit 0
