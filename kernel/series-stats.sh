#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The shape of the kernel series, measured on a tree kernel/refresh.sh made:
# how many patches, how large, and how much of what the series adds a later
# patch of the same series takes out again (a series that is a development
# log rather than a submission shows it there).
#
#   kernel/series-stats.sh [TREE [REV]]   default build/kernel/git-6.12,
#                                         branch elfsig
#
# One line per patch: number, lines added, lines removed, and of the
# removed lines those an earlier patch of the series had added ("taken
# back", found with git blame on the parent commit). Then the totals:
# patches, median and largest patch (added + removed lines), and the share
# of the series' added lines taken back.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
TREE=${1:-$TOP/build/kernel/git-6.12}
REV=${2:-elfsig}

die() { echo "series-stats: $*" >&2; exit 1; }
g() { git -C "$TREE" "$@"; }

[ -d "$TREE" ] || die "$TREE: no such tree (make kernel-tree)"
base=$(g rev-parse -q --verify refs/elfsig/base) ||
	die "$TREE: no refs/elfsig/base (not a tree kernel/refresh.sh made)"
head=$(g rev-parse -q --verify "$REV^{commit}") || die "$TREE: no $REV"

# taken_back COMMIT: of the lines COMMIT removes, how many a commit after
# the base had added (blame on the parent names the commit that added
# each line; the base is one root commit, so any other origin is ours).
taken_back() {
	local c=$1 file ranges n=0 r
	while IFS=$'\t' read -r file ranges; do
		for r in $ranges; do
			n=$((n + $(g blame --line-porcelain -L "$r" "$c^" -- "$file" |
				awk -v b="$base" 'length($1) == 40 && $1 ~ /^[0-9a-f]+$/ && NF >= 3 && $1 != b { k++ } END { print k + 0 }')))
		done
	done < <(g diff -U0 --no-renames "$c^" "$c" | awk '
		/^--- a\// { f = substr($0, 7); next }
		/^--- / { f = ""; next }
		/^@@ / && f != "" {
			split($2, o, ","); s = substr(o[1], 2); c = (2 in o) ? o[2] : 1
			if (c > 0) r[f] = r[f] " " s "," (s + c - 1)
		}
		END { for (f in r) print f "\t" r[f] }')
	echo "$n"
}

i=0 tot_add=0 tot_back=0 sizes=()
printf '%-4s %7s %7s %7s  %s\n' "#" added removed back subject
while read -r c; do
	i=$((i + 1))
	read -r add del < <(g diff --numstat --no-renames "$c^" "$c" |
		awk '{ a += $1; d += $2 } END { print a + 0, d + 0 }')
	back=$(taken_back "$c")
	tot_add=$((tot_add + add)) tot_back=$((tot_back + back))
	sizes+=($((add + del)))
	printf '%04d %7d %7d %7d  %s\n' "$i" "$add" "$del" "$back" "$(g log -1 --format=%s "$c")"
done < <(g rev-list --reverse "$base..$head")

[ "$i" -gt 0 ] || die "$TREE: the series is empty"
read -r median max < <(printf '%s\n' "${sizes[@]}" | sort -n |
	awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)], v[NR] }')
echo "patches: $i; lines per patch: median $median, largest $max"
awk -v b="$tot_back" -v a="$tot_add" 'BEGIN {
	printf "taken back: %d of %d added lines (%.1f%%)\n", b, a, a ? 100 * b / a : 0 }'
