#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# signelf sign --tree vs one `signelf sign` per file, over a tree of real
# ELF files of this host (executables from /usr/bin, libraries from
# /usr/lib/x86_64-linux-gnu): interleaved runs, medians, the ratio. With a
# file key, and with a TPM key (swtpm) where the key load per file is
# what --tree saves. Prints a markdown report on stdout.
#
#   tests/bench/bench-tree.sh [NFILES [RUNS]]     (default 200 files, 3 runs)
set -eu
. "$(dirname "$0")/../tpm/lib-tpm.sh"
. "$TOP/tests/signer/fixtures.sh"
t_mktemp
fixtures_build
K=$FIX/keys
nfiles=${1:-200} runs=${2:-3}

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# The tree: half executables, half libraries, each a real ELF with PT_LOAD.
mkdir -p "$T_TMP/src/bin" "$T_TMP/src/lib"
pick() { # DIR N DEST
	find "$1" -maxdepth 1 -type f -size -4M | sort | while read -r f; do
		[ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] &&
			readelf -lW "$f" 2>/dev/null | grep -q ' LOAD ' && echo "$f"
	done | head -n "$2" | xargs cp -t "$3"
}
pick /usr/bin $((nfiles / 2)) "$T_TMP/src/bin"
pick /usr/lib/x86_64-linux-gnu $((nfiles - nfiles / 2)) "$T_TMP/src/lib"
n=$(find "$T_TMP/src" -type f | wc -l)
bytes=$(du -sb "$T_TMP/src" | cut -f1)

# bench NAME KEY CERT: fills ROWS with "tree-seconds loop-seconds ratio".
bench() {
	local key=$2 cert=$3 r a b c
	: > "$T_TMP/r"
	for r in $(seq "$runs"); do
		rm -rf "$T_TMP/t" "$T_TMP/l"
		cp -a "$T_TMP/src" "$T_TMP/t"; cp -a "$T_TMP/src" "$T_TMP/l"
		sync
		a=$(now)
		"$SIGNELF" sign --key "$key" --cert "$cert" --tree "$T_TMP/t" > "$T_TMP/summary"
		b=$(now)
		find "$T_TMP/l" -type f | sort | while read -r f; do
			"$SIGNELF" sign --key "$key" --cert "$cert" "$f"
		done
		c=$(now)
		echo "$a $b $c" | awk '{printf "%.3f %.3f %.2f\n", $2-$1, $3-$2, ($3-$2)/($2-$1)}' >> "$T_TMP/r"
		[ "$r" = 1 ] && find "$T_TMP/t" "$T_TMP/l" -type f -print0 |
			xargs -0 "$SIGNELF" verify -q --cert "$cert"
	done
	ROW="| $1 | $(cut -d' ' -f1 "$T_TMP/r" | median) | $(cut -d' ' -f2 "$T_TMP/r" | median) | **$(cut -d' ' -f3 "$T_TMP/r" | median)x** |"
}

echo "# signelf sign --tree ($(date -u +%Y-%m-%d), $(nproc) cores, $(uname -r))"
echo
echo "Command: \`tests/bench/bench-tree.sh $nfiles $runs\`; $n real ELF files of this host"
echo "($((bytes / 1048576)) MiB: executables from /usr/bin, libraries from /usr/lib/x86_64-linux-gnu),"
echo "$runs interleaved runs, medians; every signed file verified afterwards."
echo
echo "| key | \`--tree\` (s) | one \`signelf sign\` per file (s) | ratio |"
echo "| --- | --- | --- | --- |"
bench "RSA-2048 file" "$K/rsa2048.key" "$K/rsa2048.pem"; echo "$ROW"
if command -v swtpm >/dev/null && tpm_start; then
	$TPM_TOOL keygen --type rsa --out "$T_TMP/tpm.pem" --subject /CN=bench --cert "$T_TMP/tpm.crt" >/dev/null
	bench "RSA-2048 in swtpm (TSS2 key file)" "$T_TMP/tpm.pem" "$T_TMP/tpm.crt"; echo "$ROW"
fi
echo
echo "Summary line of the last \`--tree\` run: \`$(sed "s|$T_TMP/||" "$T_TMP/summary")\`"
