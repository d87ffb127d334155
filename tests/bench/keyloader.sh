#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# elfsig-keyloader wall time for 1, 10 and 100 enrolled keys against swtpm
# on the host (target: <= 0.5 s for 100 keys). Prints a markdown report.
#
#   tests/bench/keyloader.sh [--quick]
#
# Each run: a fresh keyring, the whole loader process (TPM connect, SRK,
# unseal, certificate parsing, N add_key, N+1 PCR extends, event log,
# lock). Distinct RSA-2048 certificates (the host kernel lacks ECDSA).
set -eu
. "$(dirname "$0")/../keyloader/lib-kl.sh"
if [ -z "${KL_IN_SESSION:-}" ]; then
	KL_IN_SESSION=1 exec keyctl session - "$0" "$@" 2>/dev/null
fi
runs=9; [ "${1:-}" = --quick ] && runs=3
t_mktemp
kl_swtpm_start
for i in $(seq 100); do kl_cert "c$i"; done

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

echo "# elfsig-keyloader benchmark ($(date -u +%Y-%m-%d), $(nproc) cores, $(uname -r), swtpm $(swtpm --version 2>&1 | sed -n 's/.*version \([0-9.]*\).*/\1/p'))"
echo
echo "Command: \`tests/bench/keyloader.sh${1:+ $1}\` ($runs runs per row, median; min and max)"
echo
echo "| enrolled keys | wall time median (s) | min (s) | max (s) | median / keys (ms) |"
echo "| --- | --- | --- | --- | --- |"
for n in 1 10 100; do
	d=$T_TMP/n$n
	mkdir -p "$d/certs"
	certs=()
	for i in $(seq "$n"); do
		cp "$T_TMP/c$i.der" "$d/certs/"
		certs+=("$T_TMP/c$i.der")
	done
	"$ENROLL" create -p "$d/policy" -s "$d/sealed" "${certs[@]}" >/dev/null
	: > "$d/times"
	for _ in $(seq "$runs"); do
		kr=$(keyctl newring "bench" @s)
		a=$(now)
		"$KL" -p "$d/policy" -s "$d/sealed" -c "$d/certs" -k "$kr" \
			-l "$d/events" --kmsg none 2>/dev/null
		b=$(now)
		got=$(kl_keys "$kr")
		[ "$got" = "$n" ] || { echo "error: $got keys loaded, expected $n" >&2; exit 1; }
		keyctl unlink "$kr" @s >/dev/null
		echo "$a $b" | awk '{printf "%.4f\n", $2 - $1}' >> "$d/times"
	done
	med=$(median < "$d/times")
	min=$(sort -g "$d/times" | head -n 1)
	max=$(sort -g "$d/times" | tail -n 1)
	echo "| $n | $med | $min | $max | $(awk -v m="$med" -v n="$n" 'BEGIN {printf "%.2f", 1000 * m / n}') |"
done
