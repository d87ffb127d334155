#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The kernel series as code (kernel/refresh.sh): in scratch git trees of
# the pristine sources, every patch of each series applies in order with
# git am, one commit each, leaving nothing over; the patch files written
# back from the trees are the committed ones, byte for byte, and writing
# them twice gives the same bytes.
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=kernel/series.sh
. "$TOP/kernel/series.sh"

REFRESH=$TOP/kernel/refresh.sh
KDIR=$TOP/build/kernel

command -v git >/dev/null || { echo "test-series: git missing" >&2; exit 77; }
for v in 6.12 6.1; do
	if [ ! -r "$(series_tarball "$v")" ]; then
		t_fail "prerequisites" "$(series_tarball "$v") missing (make deps)"
		exit 0
	fi
done

t_mktemp

# regen OUT: both series from the committed files; says how long it took.
regen() {
	local start=$SECONDS
	if ! "$REFRESH" regen "$1" > "$T_TMP/regen.log" 2>&1; then
		sed 's/^/  /' "$T_TMP/regen.log"
		return 1
	fi
	echo "  (regenerated in $((SECONDS - start)) s)"
}

if ! regen "$T_TMP/a"; then
	t_fail "regenerate both series" "kernel/refresh.sh regen failed (above)"
	exit 0
fi

for v in 6.12 6.1; do
	d=$KDIR/scratch-$v
	want=$(series_steps "$v" | grep -c .)
	got=$(git -C "$d" rev-list --count refs/elfsig/base..HEAD)
	left=$(git -C "$d" status --porcelain --ignored --untracked-files=all | head -5)
	if [ "$got" = "$want" ] && [ -z "$left" ]; then
		t_pass "$v: the $want patches apply in order with git am, one commit each, nothing left over"
	else
		t_fail "$v: git am of the series" "$got commits for $want patches; left over: ${left:-nothing}"
	fi
done

# Format v1 has one home, the series' uapi header; the signer's copy must
# be that file byte for byte, on both kernels.
for v in 6.12 6.1; do
	name="$v: include/elfsig/uapi/linux/elfsig.h is the series' include/uapi/linux/elfsig.h"
	if git -C "$KDIR/scratch-$v" show HEAD:include/uapi/linux/elfsig.h > "$T_TMP/uapi-$v.h" 2>/dev/null &&
	   cmp -s "$T_TMP/uapi-$v.h" "$TOP/include/elfsig/uapi/linux/elfsig.h"; then
		t_pass "$name"
	else
		diff -u "$T_TMP/uapi-$v.h" "$TOP/include/elfsig/uapi/linux/elfsig.h" 2>&1 | head -20 | sed 's/^/  /'
		t_fail "$name" "differs: copy the header from the series (docs/format.md)"
	fi
done

for dir in kernel/patches kernel/delta-6.1/pre kernel/delta-6.1/post; do
	if diff -ru "$TOP/$dir" "$T_TMP/a/$dir" > "$T_TMP/diff" 2>&1; then
		t_pass "$dir: regenerates to the committed patches"
	else
		head -40 "$T_TMP/diff" | sed 's/^/  /'
		t_fail "$dir: regenerates to the committed patches" "differs (kernel/refresh.sh export, see docs/kernel.md)"
	fi
done

# The shape of the 6.12 series as a reviewer meets it, on the tree the
# committed patches make: no patch takes back more than a trace of what an
# earlier one added (kernel/series-stats.sh), and checkpatch --strict has
# nothing to say of any patch.
if "$TOP/kernel/series-stats.sh" "$KDIR/scratch-6.12" HEAD > "$T_TMP/stats" 2>&1; then
	back=$(sed -n 's/^taken back: \([0-9]*\) of \([0-9]*\) added lines.*/\1 \2/p' "$T_TMP/stats")
	read -r n added <<< "$back"
	if [ -n "$added" ] && [ "$((n * 100))" -le "$((added * 2))" ]; then
		t_pass "6.12: later patches take back at most 2% of the lines the series adds ($(tail -1 "$T_TMP/stats"))"
	else
		sed 's/^/  /' "$T_TMP/stats"
		t_fail "6.12: later patches take back at most 2% of the lines the series adds" "$(tail -1 "$T_TMP/stats")"
	fi
else
	sed 's/^/  /' "$T_TMP/stats"
	t_fail "6.12: kernel/series-stats.sh" "failed (above)"
fi
while read -r p; do
	name="6.12: checkpatch --strict is clean on $(basename "$p" .patch)"
	if (cd "$KDIR/scratch-6.12" && ./scripts/checkpatch.pl --strict --no-tree -q "$p") > "$T_TMP/cp" 2>&1; then
		t_pass "$name"
	else
		head -30 "$T_TMP/cp" | sed 's/^/  /'
		t_fail "$name" "checkpatch --strict (above)"
	fi
done < <(series_patches "$TOP/kernel/patches")

if regen "$T_TMP/b" && diff -r "$T_TMP/a" "$T_TMP/b" >/dev/null; then
	t_pass "export is deterministic: a second regeneration gives the same bytes"
else
	t_fail "export is deterministic" "a second regeneration differs from the first"
fi
exit 0
