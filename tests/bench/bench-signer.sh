#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Signer benchmarks, each a ratio against a baseline measured in the same
# run (these machines are noisy). Prints a markdown report on stdout.
#
#   tests/bench/bench-signer.sh [--quick]
#
# 1. digest throughput: signelf digest vs sha256sum on a synthetic ELF of
#    256 MiB (page cache warm, both), interleaved runs, median ratio;
# 2. batch signing: one `signelf sign` over 1000 small static binaries vs a
#    loop of `evmctl ima_sign --key` over the same files;
# 3. peak memory (max RSS) of digest and sign for 64 MiB .. 1 GiB inputs.
set -eu
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/signer/fixtures.sh"
t_mktemp
fixtures_build
K=$FIX/keys
quick=false; [ "${1:-}" = --quick ] && quick=true
runs=7; nfiles=1000; sizes="64 256 1024"
$quick && { runs=3; nfiles=200; sizes="16 64"; }

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

echo "# signer benchmarks ($(date -u +%Y-%m-%d), $(nproc) cores, $(uname -r))"
echo
echo "Command: \`tests/bench/bench-signer.sh${1:+ $1}\`"
echo

# 1. Digest throughput.
big=$T_TMP/big.elf
$ELFCRAFT synth "$big" 256
cat "$big" > /dev/null
: > "$T_TMP/r"
for _ in $(seq "$runs"); do
	a=$(now); sha256sum "$big" > /dev/null; b=$(now)
	"$SIGNELF" digest "$big" > /dev/null; c=$(now)
	openssl dgst -sha256 "$big" > /dev/null; d=$(now)
	echo "$a $b $c $d" | awk '{printf "%.4f %.4f %.4f %.4f %.4f\n", ($2-$1), ($3-$2), ($2-$1)/($3-$2), ($4-$3), ($4-$3)/($3-$2)}' >> "$T_TMP/r"
done
base=$(cut -d' ' -f1 "$T_TMP/r" | median); ours=$(cut -d' ' -f2 "$T_TMP/r" | median)
ratio=$(cut -d' ' -f3 "$T_TMP/r" | median)
ossl=$(cut -d' ' -f4 "$T_TMP/r" | median); ratio2=$(cut -d' ' -f5 "$T_TMP/r" | median)
echo "## Digest throughput (256 MiB synthetic ELF, $runs interleaved runs, medians)"
echo
echo "| tool | time (s) | MiB/s |"
echo "| --- | --- | --- |"
echo "| sha256sum (baseline) | $base | $(echo "256 / $base" | bc -l | xargs printf '%.0f') |"
echo "| openssl dgst -sha256 (same SHA-256 code as ours) | $ossl | $(echo "256 / $ossl" | bc -l | xargs printf '%.0f') |"
echo "| signelf digest | $ours | $(echo "256 / $ours" | bc -l | xargs printf '%.0f') |"
echo
echo "Throughput ratio signelf / sha256sum: **$(printf '%.3f' "$ratio")x** (target >= 0.95x);"
echo "signelf / openssl dgst: **$(printf '%.3f' "$ratio2")x** (the hash is the limit: read once, streamed)."
echo

# 2. Batch signing vs evmctl.
mkdir -p "$T_TMP/a" "$T_TMP/b"
for i in $(seq "$nfiles"); do
	cp "$FIX/bin/musl-static" "$T_TMP/a/f$i"
	cp "$FIX/bin/musl-static" "$T_TMP/b/f$i"
done
a=$(now)
"$SIGNELF" sign -k "$K/rsa2048.key" -c "$K/rsa2048.pem" "$T_TMP"/a/f*
b=$(now)
for f in "$T_TMP"/b/f*; do evmctl ima_sign --key "$K/rsa2048.key" "$f" >/dev/null 2>&1; done
c=$(now)
"$SIGNELF" verify -q -c "$K/rsa2048.pem" "$T_TMP"/a/f*
ok_evm=$(getfattr -n security.ima "$T_TMP/b/f1" 2>/dev/null | grep -c ima || true)
read -r ts te <<< "$(echo "$a $b $c" | awk '{printf "%.3f %.3f", $2-$1, $3-$2}')"
echo "## Batch signing ($nfiles static binaries of $(stat -c %s "$FIX/bin/musl-static") bytes, RSA-2048, SHA-256)"
echo
echo "| command | time (s) | files/s |"
echo "| --- | --- | --- |"
echo "| loop of \`evmctl ima_sign --key\` (baseline) | $te | $(echo "$nfiles / $te" | bc -l | xargs printf '%.0f') |"
echo "| one \`signelf sign\` (key loaded once) | $ts | $(echo "$nfiles / $ts" | bc -l | xargs printf '%.0f') |"
echo
echo "signelf is **$(echo "$te / $ts" | bc -l | xargs printf '%.1f')x** faster (target >= 2x);" \
     "every signed file verified; evmctl wrote security.ima: $([ "$ok_evm" -ge 1 ] && echo yes || echo no)."
echo

# 3. Peak memory as the input grows.
echo "## Peak memory (max RSS, KiB) as the input grows"
echo
echo "| input | signelf digest | signelf sign -o |"
echo "| --- | --- | --- |"
for mib in $sizes; do
	$ELFCRAFT synth "$T_TMP/m.elf" "$mib"
	d=$(/usr/bin/time -f %M "$SIGNELF" digest "$T_TMP/m.elf" 2>&1 >/dev/null | tail -1)
	s=$(/usr/bin/time -f %M "$SIGNELF" sign -k "$K/rsa2048.key" -c "$K/rsa2048.pem" \
		-o "$T_TMP/m.signed" "$T_TMP/m.elf" 2>&1 >/dev/null | tail -1)
	echo "| $mib MiB | $d | $s |"
	rm -f "$T_TMP/m.elf" "$T_TMP/m.signed"
done
