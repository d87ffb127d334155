#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# elfsig-keyloader wall time for 1, 10 and 100 enrolled keys against swtpm
# on the host (target: <= 0.5 s for 100 keys). Prints a markdown report.
# An enrolment is signed by an authority key and unsealed under a signed
# PCR policy (PolicyAuthorize); a baseline from before the authority is
# enrolled and run with its own options (sealed to one PCR state).
#
#   tests/bench/keyloader.sh [--quick] [--baseline DIR]
#
# Each run: a fresh keyring, the whole loader process (TPM connect, SRK,
# unseal, certificate parsing, N add_key, N+1 events measured, event log,
# lock). Distinct RSA-2048 certificates (the host kernel lacks ECDSA).
# With --baseline, DIR holds an elfsig-keyloader and elfsig-enroll of
# another build (e.g. the previous commit's): each enrols its own copy of
# the same policy, the runs of the two alternate against the same swtpm,
# and the report gives both medians and their ratio.
set -eu
. "$(dirname "$0")/../keyloader/lib-kl.sh"
if [ -z "${KL_IN_SESSION:-}" ]; then
	KL_IN_SESSION=1 exec keyctl session - "$0" "$@" 2>/dev/null
fi
runs=9 base='' args=''
while [ $# -gt 0 ]; do
	case $1 in
	--quick) runs=3; args="$args --quick" ;;
	--baseline) base=$(cd "$2" && pwd); shift; args="$args --baseline $base" ;;
	*) echo "usage: $0 [--quick] [--baseline DIR]" >&2; exit 2 ;;
	esac
	shift
done
t_mktemp
kl_swtpm_start
for i in $(seq 100); do kl_cert "c$i"; done
kl_authority auth

# signed BIN: does this build's tool know the enrolment authority?
signed() { "$1" --help 2>/dev/null | grep -q -- '--dir'; }

# enrol ENROLL DIR CERT...: enrol into DIR with that build's interface.
enrol() {
	local enroll=$1 d=$2; shift 2
	if signed "$enroll"; then
		"$enroll" create -d "$d" -K "$T_TMP/auth.key" -s "$d/sealed" "$@" >/dev/null
	else
		"$enroll" create -p "$d/policy" -s "$d/sealed" "$@" >/dev/null
	fi
}

# loader_args LOADER DIR: the options that point LOADER at DIR.
loader_args() {
	if signed "$1"; then
		echo "-d $2 -s $2/sealed"
	else
		echo "-p $2/policy -s $2/sealed -c $2/certs"
	fi
}

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# timed_run LOADER DIR N: one run, its wall time appended to DIR/times.
timed_run() {
	local kl=$1 d=$2 n=$3 kr a b got
	kr=$(keyctl newring "bench" @s)
	# shellcheck disable=SC2046 # word splitting wanted (no spaces in $d)
	set -- $(loader_args "$kl" "$d")
	a=$(now)
	"$kl" "$@" -k "$kr" -l "$d/events" --kmsg none 2>/dev/null
	b=$(now)
	got=$(kl_keys "$kr")
	[ "$got" = "$n" ] || { echo "error: $kl: $got keys loaded, expected $n" >&2; exit 1; }
	keyctl unlink "$kr" @s >/dev/null
	echo "$a $b" | awk '{printf "%.4f\n", $2 - $1}' >> "$d/times"
}

# tpm_commands LOADER DIR: TPM commands one run sends (writes that start
# with a TPM2 command tag, 0x8001 or 0x8002), counted with strace.
tpm_commands() {
	local kr
	kr=$(keyctl newring "bench" @s)
	# shellcheck disable=SC2046 # word splitting wanted (no spaces in $2)
	strace -f -e trace=write,sendto -o "$2/strace" "$1" $(loader_args "$1" "$2") \
		-k "$kr" -l "$2/events" --kmsg none >/dev/null 2>&1
	keyctl unlink "$kr" @s >/dev/null
	grep -cE '(write|sendto)\([0-9]+, "\\200\\[12]' "$2/strace"
}

echo "# elfsig-keyloader benchmark ($(date -u +%Y-%m-%d), $(nproc) cores, $(uname -r), swtpm $(swtpm --version 2>&1 | sed -n 's/.*version \([0-9.]*\).*/\1/p'))"
echo
echo "Command: \`tests/bench/keyloader.sh$args\` ($runs runs per row, median; min and max)"
echo
if [ -n "$base" ]; then
	echo "| enrolled keys | baseline median (s) | this build median (s) | this build min / max (s) | this build / baseline |"
else
	echo "| enrolled keys | wall time median (s) | min (s) | max (s) | median / keys (ms) |"
fi
echo "| --- | --- | --- | --- | --- |"
cmds=
for n in 1 10 100; do
	d=$T_TMP/n$n
	mkdir -p "$d/certs"
	certs=()
	for i in $(seq "$n"); do
		cp "$T_TMP/c$i.der" "$d/certs/"
		certs+=("$T_TMP/c$i.der")
	done
	enrol "$ENROLL" "$d" "${certs[@]}"
	: > "$d/times"
	if [ -n "$base" ]; then
		mkdir -p "$d/base"
		ln -s "$d/certs" "$d/base/certs"
		enrol "$base/elfsig-enroll" "$d/base" "${certs[@]}"
		: > "$d/base/times"
	fi
	for _ in $(seq "$runs"); do
		[ -z "$base" ] || timed_run "$base/elfsig-keyloader" "$d/base" "$n"
		timed_run "$KL" "$d" "$n"
	done
	med=$(median < "$d/times")
	min=$(sort -g "$d/times" | head -n 1)
	max=$(sort -g "$d/times" | tail -n 1)
	if command -v strace >/dev/null; then
		cmds="$cmds| $n | $([ -z "$base" ] || echo "$(tpm_commands "$base/elfsig-keyloader" "$d/base") | ")$(tpm_commands "$KL" "$d") |
"
	fi
	if [ -n "$base" ]; then
		bmed=$(median < "$d/base/times")
		echo "| $n | $bmed | $med | $min / $max | $(awk -v m="$med" -v b="$bmed" 'BEGIN {printf "%.2f", m / b}') |"
	else
		echo "| $n | $med | $min | $max | $(awk -v m="$med" -v n="$n" 'BEGIN {printf "%.2f", 1000 * m / n}') |"
	fi
done
if [ -n "$cmds" ]; then
	echo
	echo "TPM commands per run (strace):"
	echo
	if [ -n "$base" ]; then
		echo "| enrolled keys | baseline | this build |"
		echo "| --- | --- | --- |"
	else
		echo "| enrolled keys | TPM commands |"
		echo "| --- | --- |"
	fi
	printf '%s' "$cmds"
fi
