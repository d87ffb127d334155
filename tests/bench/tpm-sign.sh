#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Batch-sign N static binaries with a TPM-resident key against swtpm, in
# one `signelf sign` (one provider context, one TPM connection for the
# batch). Prints a markdown report on stdout.
#
#   tests/bench/tpm-sign.sh [N] [RUNS]     (defaults: 1000 files, 3 runs)
#
# Share of time in the TPM, two ways:
#  - swtpm's own CPU time (utime+stime from /proc) over the batch's wall
#    time: the TPM computing;
#  - (TPM key wall - file key wall) / TPM key wall, same files, same
#    algorithm: everything the TPM adds (TCTI round trips included).
# Each is measured with the files on tmpfs (/dev/shm: no sync cost, so the
# TPM's share shows) and on the build disk (what a pipeline sees).
set -eu
. "$(dirname "$0")/../tpm/lib-tpm.sh"
n=${1:-1000}; runs=${2:-3}
SIGNELF=${SIGNELF:-$BUILD/signelf}
t_mktemp
tpm_start
D=$T_TMP
TK=$(getconf CLK_TCK)

cat >"$D/hello.c" <<'EOC'
#include <stdio.h>
int main(void) { puts("hello"); return 0; }
EOC
musl-gcc -O2 -static -o "$D/hello" "$D/hello.c" 2>/dev/null || gcc -O2 -static -o "$D/hello" "$D/hello.c"
size=$(stat -c %s "$D/hello")

"$TPM_TOOL" keygen --type ecc --handle 0x81000001 --subject /CN=bench-ecc --cert "$D/ecc.pem" >/dev/null
"$TPM_TOOL" keygen --type rsa --handle 0x81000002 --subject /CN=bench-rsa --cert "$D/rsa.pem" >/dev/null
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$D/fecc.key" 2>/dev/null
openssl req -new -x509 -key "$D/fecc.key" -subj /CN=file-ecc -days 30 -out "$D/fecc.pem" 2>/dev/null
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$D/frsa.key" 2>/dev/null
openssl req -new -x509 -key "$D/frsa.key" -subj /CN=file-rsa -days 30 -out "$D/frsa.pem" 2>/dev/null

swtpm_cpu() { awk '{ print $14 + $15 }' "/proc/$TPM_PID/stat"; }
now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

SHM=
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	SHM=$(mktemp -d /dev/shm/elfsig-bench.XXXXXX)
	t_on_exit "rm -rf $SHM"
fi

# batch DIR KEY CERT: wall seconds and swtpm CPU seconds for signing n
# files in DIR
batch() {
	local dir=$1/files c0 c1 t0 t1
	rm -rf "$dir"; mkdir "$dir"
	for i in $(seq "$n"); do cp "$D/hello" "$dir/f$i"; done
	sync
	c0=$(swtpm_cpu); t0=$(now)
	"$SIGNELF" sign --key "$2" --cert "$3" "$dir"/f* >/dev/null
	t1=$(now); c1=$(swtpm_cpu)
	"$SIGNELF" verify -q --cert "$3" "$dir/f1" "$dir/f$n"
	rm -rf "$dir"
	echo "$t0 $t1 $c0 $c1" | awk -v tk="$TK" '{ printf "%.3f %.3f\n", $2 - $1, ($4 - $3) / tk }'
}

echo "# TPM batch signing ($(date -u +%Y-%m-%d), $(nproc) cores, $(uname -r))"
echo
echo "Command: \`tests/bench/tpm-sign.sh $n $runs\`; $n copies of a ${size}-byte static"
echo "binary, one \`signelf sign\` per batch, swtpm $(swtpm --version 2>&1 | grep -o 'version [0-9.]*' | head -1 | cut -d' ' -f2) over TCP"
echo "on loopback, medians of $runs runs; load average at start: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "| files on | key | wall (s) | files/s | swtpm CPU (s) | TPM CPU share | same alg., file key: wall (s) | time added by the TPM |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for place in ${SHM:+tmpfs} disk; do
	dir=$D; [ "$place" = tmpfs ] && dir=$SHM
	for alg in ecc rsa; do
		: >"$D/r"
		for _ in $(seq "$runs"); do
			if [ $alg = ecc ]; then key=handle:0x81000001; else key=handle:0x81000002; fi
			read -r w c < <(batch "$dir" "$key" "$D/$alg.pem")
			read -r fw _ < <(batch "$dir" "$D/f$alg.key" "$D/f$alg.pem")
			echo "$w $c $fw" >>"$D/r"
		done
		w=$(cut -d' ' -f1 "$D/r" | median); c=$(cut -d' ' -f2 "$D/r" | median)
		fw=$(cut -d' ' -f3 "$D/r" | median)
		awk -v p="$place" -v a="$alg" -v w="$w" -v c="$c" -v fw="$fw" -v n="$n" 'BEGIN {
			name = (a == "ecc") ? "ECC P-256 (handle:)" : "RSA-2048 (handle:)";
			printf "| %s | %s | %.2f | %.0f | %.2f | %.0f%% | %.2f | %.0f%% |\n",
				p, name, w, n / w, c, 100 * c / w, fw, 100 * (w - fw) / w }'
	done
done
