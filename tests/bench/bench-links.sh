#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# signelf sign --tree over a tree whose every file has another name outside
# it (a hard-link farm, an OSTree checkout) against a plain tree of as
# many files, in the same run: the other names are looked up in a hash
# table, so the ratio stays near 1 whatever the size. The files are small
# and not ELF: what is timed is the walk and its bookkeeping, not RSA.
# With BASELINE=path/to/another/signelf, that binary is timed on the same
# trees too (e.g. an older build). Prints a markdown report on stdout.
#
#   tests/bench/bench-links.sh [NFILES [RUNS]]    (default 100000 files, 3 runs)
set -eu
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/signer/fixtures.sh"
t_mktemp
fixtures_build
K=$FIX/keys
nfiles=${1:-100000} runs=${2:-3}

# make DIR N [LINKS]: N small files in 100 directories; with LINKS, each
# also linked into LINKS (outside the tree).
python3 - "$T_TMP/plain" "$nfiles" "" "$T_TMP/linked" "$T_TMP/elsewhere" <<'PY'
import os, sys
plain, n, _, linked, elsewhere = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
for root, links in ((plain, None), (linked, elsewhere)):
    for d in range(100):
        os.makedirs(f"{root}/d{d:02}", exist_ok=True)
        if links:
            os.makedirs(f"{links}/d{d:02}", exist_ok=True)
    for i in range(n):
        p = f"{root}/d{i % 100:02}/f{i:06}"
        with open(p, "w") as f:
            f.write(f"{i}\n")
        if links:
            os.link(p, f"{links}/d{i % 100:02}/f{i:06}")
PY

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# bench SIGNELF: ROW "plain-seconds linked-seconds ratio" (medians).
bench() {
	local bin=$1 a b c
	: > "$T_TMP/r"
	for _ in $(seq "$runs"); do
		a=$(now)
		"$bin" sign --tree "$T_TMP/plain" -k "$K/rsa2048.key" -c "$K/rsa2048.pem" > "$T_TMP/sum.plain"
		b=$(now)
		"$bin" sign --tree "$T_TMP/linked" -k "$K/rsa2048.key" -c "$K/rsa2048.pem" > "$T_TMP/sum.linked"
		c=$(now)
		echo "$a $b $c" | awk '{printf "%.3f %.3f %.2f\n", $2-$1, $3-$2, ($3-$2)/($2-$1)}' >> "$T_TMP/r"
	done
	ROW="$(cut -d' ' -f1 "$T_TMP/r" | median) | $(cut -d' ' -f2 "$T_TMP/r" | median) | **$(cut -d' ' -f3 "$T_TMP/r" | median)x**"
}

echo "# signelf sign --tree over hard-linked files ($(date -u +%Y-%m-%d), $(nproc) cores, $(uname -r))"
echo
echo "Command: \`tests/bench/bench-links.sh $nfiles $runs\`; $nfiles small non-ELF files in 100"
echo "directories, plain vs each file also linked outside the tree; $runs interleaved runs, medians."
echo
echo "| signelf | plain tree (s) | every file linked elsewhere (s) | ratio |"
echo "| --- | --- | --- | --- |"
bench "$SIGNELF"; echo "| this build | $ROW |"
if [ -n "${BASELINE:-}" ]; then
	bench "$BASELINE"; echo "| $BASELINE | $ROW |"
fi
echo
echo "Summary lines (this build): \`$(sed "s|$T_TMP/||" "$T_TMP/sum.plain")\`, \`$(sed "s|$T_TMP/||" "$T_TMP/sum.linked")\`"
