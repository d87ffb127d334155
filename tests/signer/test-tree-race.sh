#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# signelf sign --tree against a tree whose owner races it: while the tree
# is signed over and over, a directory in it is swapped, as fast as a
# process can, with a symbolic link to a directory outside the tree that
# holds files of the same names (an ELF file and its hard link). The
# files outside must never change and never gain a temporary file; the
# files inside end up signed or untouched, never half-written (a name
# whose file changed under the walk is refused, so two names of one file
# may end up apart: one signed, one not, and the run says so).
set -u
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/fixtures.sh"
fixtures_init
R=$T_TMP/tree
P=$T_TMP/protected
ROUNDS=${ELFSIG_RACE_ROUNDS:-150}

mkdir -p "$R/d/sub" "$P"
cp /usr/bin/true "$R/d/sub/victim"
ln "$R/d/sub/victim" "$R/d/sub/alias"
cp /usr/bin/true "$P/victim"
ln "$P/victim" "$P/alias"
before=$(sha256sum "$P/victim" | cut -d' ' -f1)
ino_before=$(stat -c %i "$P/victim")
ln -s "$P" "$T_TMP/link"

# The racer: rename(2)s in a tight loop, d/sub <-> the link to $P.
python3 - "$R/d" "$T_TMP/link" "$T_TMP/stop" <<'PY' &
import os, sys
d, link, stop = sys.argv[1:]
sub, real, lnk = d + "/sub", d + "/sub.real", d + "/sub.link"
os.symlink(os.readlink(link), lnk)
n = 0
while not os.path.exists(stop):
    try:
        os.rename(sub, real); os.rename(lnk, sub)
        os.rename(sub, lnk); os.rename(real, sub)
    except OSError:
        pass
    n += 1
print(n, file=open(stop + ".n", "w"))
PY
racer=$!

signed=0 refused=0 other=0
for _ in $(seq "$ROUNDS"); do
	out=$("$SIGNELF" sign --tree "$R" --force -k "$K/rsa2048.key" -c "$K/rsa2048.pem" 2>&1)
	case "$out" in
	*"changed since the walk"*|*"changed while being"*|*"no longer names"*) refused=$((refused + 1)) ;;
	*"signed 1"*|*"signed 2"*) signed=$((signed + 1)) ;;
	*) other=$((other + 1)); [ "$other" = 1 ] && echo "# other: $out" ;;
	esac
done
touch "$T_TMP/stop"
wait "$racer"
swaps=$(cat "$T_TMP/stop.n" 2>/dev/null || echo 0)
echo "# $ROUNDS runs against $swaps swaps: $signed signed, $refused refused a changed file, $other other"

name="the racer swapped the directory while the tree was signed"
[ "$swaps" -gt "$ROUNDS" ] && t_pass "$name" || t_fail "$name" "$swaps swaps"

name="a file outside the tree, reachable through the swapped directory, is never rewritten"
after=$(sha256sum "$P/victim" | cut -d' ' -f1)
if [ "$after" = "$before" ] && [ "$(stat -c %i "$P/victim")" = "$ino_before" ] &&
   [ "$(stat -c %h "$P/victim")" = 2 ] && ! "$SIGNELF" verify -c "$K/rsa2048.pem" "$P/victim" >/dev/null 2>&1; then
	t_pass "$name"
else
	t_fail "$name" "$(ls -li "$P")"
fi

name="no temporary file is left outside the tree"
left=$(find "$P" -name '.*elfsig-*' | head -3)
[ -z "$left" ] && t_pass "$name" || t_fail "$name" "$left"

# Put the directory back whatever state the racer left it in.
[ -d "$R/d/sub.real" ] && { rm -f "$R/d/sub"; mv "$R/d/sub.real" "$R/d/sub"; }
name="inside the tree: each name is signed or untouched, never torn"
torn=
for f in "$R/d/sub/victim" "$R/d/sub/alias"; do
	"$SIGNELF" verify -c "$K/rsa2048.pem" "$f" >/dev/null 2>&1 || cmp -s "$f" /usr/bin/true || torn+=" $f"
done
[ -z "$torn" ] && t_pass "$name" || t_fail "$name" "$torn"

name="no temporary file is left in the tree"
left=$(find "$R" -name '.*elfsig-*' | head -3)
[ -z "$left" ] && t_pass "$name" || t_fail "$name" "$left"

name="some runs signed the tree (the race does not stop all work)"
[ "$signed" -gt 0 ] && t_pass "$name" || t_fail "$name" "0 of $ROUNDS"
exit 0
