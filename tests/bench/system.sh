#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The real Debian 12 system of tests/system (make system-image), booted
# signed in require mode against the same system unsigned in elfsig=off,
# interleaved, under QEMU + swtpm (no KVM): boot time to multi-user
# (systemd-analyze), the verified copies and the kernel memory they hold
# after boot against the ELF files mapped and the processes' RSS, and a
# cold exec of python3 (its copies made and hashed) against sha256sum of
# the same files in the same guest.
#
#   tests/bench/system.sh [ROUNDS]     (default 3 boots of each)
#
# The unsigned system is the signed one's tree with every signature
# removed (signelf remove), written to its own ext4 image; the kernel, the
# initramfs and the TPM are the same. Not a test: nothing is asserted.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
ROUNDS=${1:-3}
B=${BUILD:-$TOP/build}
IMG=${ELFSIG_SYSTEM_IMAGE:-$TOP/build/system}
for f in "$IMG/disk.img" "$IMG/root/usr/bin/python3" "$B/signelf"; do
	[ -e "$f" ] || { echo "system.sh: $f missing (make system-image)" >&2; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "system.sh: needs root (the tree's files are root's)" >&2; exit 1; }
W=$(mktemp -d "${TMPDIR:-/tmp}/elfsig-bench-system.XXXXXX")
trap 'rm -rf "$W"' EXIT

# --- the unsigned twin --------------------------------------------------
U=$W/unsigned
mkdir -p "$U"
for f in vmlinuz initrd.img cmdline kernel.release ssh tpm; do ln -s "$IMG/$f" "$U/$f"; done
cp -a "$IMG/root" "$W/root"
# signelf remove refuses files that carry no signature (non-ELF, or ELF
# files sign --tree skipped), one line each: those lines are not wanted.
find "$W/root" -type f -print0 | xargs -0 -n 512 "$B/signelf" remove 2>/dev/null || true
left=$(find "$W/root" -type f -print0 | xargs -0 -n 512 "$B/signelf" show 2>/dev/null | grep -c '^signer' || true)
[ "$left" = 0 ] || { echo "system.sh: $left files still signed in the unsigned twin" >&2; exit 1; }
mkfs.ext4 -q -F -L elfsig-root -d "$W/root" "$U/disk.img" 3G
rm -rf "$W/root"

# --- what the guest reports: one "B name=value" line each ----------------
# shellcheck disable=SC2016 # guest code
cat > "$W/guest.sh" <<'EOF'
#!/bin/sh
b() { echo "B $1=$2"; }
now() { date +%s%N; }
b analyze "$(systemd-analyze time 2>/dev/null | head -1)"
b mode "$(cat /proc/sys/fs/elfsig/mode)"
b cache "$(cat /proc/sys/fs/elfsig/cache_stats)"
for k in MemTotal MemAvailable Unevictable Mlocked Shmem; do
	b "$k" "$(awk -v k="$k:" '$1 == k {print $2}' /proc/meminfo)"
done
b rss "$(ps -eo rss= | awk '{s += $1} END {print s}')"
b procs "$(ps -e --no-headers | wc -l)"
# Every file some process maps executable, and the bytes of those files.
cat /proc/[0-9]*/maps 2>/dev/null | awk '$2 ~ /x/ && $6 ~ /^\// {print $6}' | sort -u > /tmp/xfiles
b xfiles "$(wc -l < /tmp/xfiles)"
b xbytes "$(while read -r f; do [ -f "$f" ] && stat -c %s "$f"; done < /tmp/xfiles | awk '{s += $1} END {print s + 0}')"
b sha256 "$(awk '$1 == "name" {n = $3} $1 == "driver" {d = $3} $1 == "priority" && n == "sha256" {print $3, d}' /proc/crypto | sort -n | tail -1 | cut -d' ' -f2)"
# A cold exec: python3 with its libraries, the cache of verified copies
# emptied first (cache_kb to 0 and back), against a warm one and against
# sha256sum of the same files.
P=$(readlink -f /usr/bin/python3)
files="$P $(ldd "$P" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\/.*ld-linux/ {print $1}' | xargs -n1 readlink -f | sort -u | tr '\n' ' ')"
# shellcheck disable=SC2086 # a list of paths
b pybytes "$(stat -L -c %s $files | awk '{s += $1} END {print s}')"
kb=$(cat /proc/sys/fs/elfsig/cache_kb)
cold= warm= sha=
for i in 1 2 3 4 5; do
	echo 0 > /proc/sys/fs/elfsig/cache_kb; echo "$kb" > /proc/sys/fs/elfsig/cache_kb
	t0=$(now); "$P" -S -c 0; t1=$(now); cold="$cold $(( (t1 - t0) / 1000 ))"
	t0=$(now); "$P" -S -c 0; t1=$(now); warm="$warm $(( (t1 - t0) / 1000 ))"
	# shellcheck disable=SC2086
	t0=$(now); sha256sum $files > /dev/null; t1=$(now); sha="$sha $(( (t1 - t0) / 1000 ))"
done
med() { echo "$@" | tr ' ' '\n' | sort -n | sed -n 3p; }
# shellcheck disable=SC2086
b cold_us "$(med $cold)"
# shellcheck disable=SC2086
b warm_us "$(med $warm)"
# shellcheck disable=SC2086
b sha_us "$(med $sha)"
EOF

# secs "Startup finished in 2.1s (kernel) + ... = 1min 3.2s": the total
# and each part, in seconds.
secs() { # TEXT -> "total kernel initrd userspace"
	awk '
	function tosec(s,   t, n, i, v) {
		t = 0; n = split(s, p, " ")
		for (i = 1; i <= n; i++) {
			v = p[i]
			if (v ~ /min$/) t += 60 * substr(v, 1, length(v) - 3)
			else if (v ~ /ms$/) t += substr(v, 1, length(v) - 2) / 1000
			else if (v ~ /s$/) t += substr(v, 1, length(v) - 1)
		}
		return t
	}
	{
		sub(/^Startup finished in /, "")
		n = split($0, part, / \+ | = /)
		k = i = u = 0
		for (j = 1; j <= n; j++) {
			x = part[j]
			if (x ~ /\(kernel\)/) { sub(/ \(kernel\)/, "", x); k = tosec(x) }
			else if (x ~ /\(initrd\)/) { sub(/ \(initrd\)/, "", x); i = tosec(x) }
			else if (x ~ /\(userspace\)/) { sub(/ \(userspace\)/, "", x); u = tosec(x) }
			else tot = tosec(x)
		}
		printf "%.2f %.2f %.2f %.2f\n", tot, k, i, u
	}' <<< "$1"
}

run() { # NAME MODE IMAGE
	local out=$W/$1.$r
	"$TOP/tests/system/boot" --image "$3" --mode "$2" --add "$W/guest.sh" \
		--cmd /opt/added/guest.sh --log "$W/console" > "$out" 2> "$out.err" || {
		echo "system.sh: the $1 boot failed: $(tail -2 "$out.err" | tr '\n' ' ')" >&2; exit 1; }
	sed -n 's/^boot: up in \([0-9]*\) s.*/B up=\1/p' "$out.err" >> "$out"
}
for r in $(seq "$ROUNDS"); do
	run signed require "$IMG"
	run unsigned off "$U"
done

# --- the table -------------------------------------------------------------
val() { sed -n "s/^B $2=//p" "$1" | tail -1; }
med() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
col() { # NAME FIELD -> median over the rounds
	for r in $(seq "$ROUNDS"); do val "$W/$1.$r" "$2"; done | med
}
boot_col() { # NAME INDEX(1 total .. 4 userspace)
	for r in $(seq "$ROUNDS"); do secs "$(val "$W/$1.$r" analyze)" | cut -d' ' -f"$2"; done | med
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf (b > 0) ? "%.2fx" : "-", a / b}'; }
echo "# tests/bench/system.sh $ROUNDS: $(date -u +%F), kernel $(cat "$IMG/kernel.release"), medians of $ROUNDS interleaved boots each"
echo "# guest: QEMU TCG, 1 vCPU, ${ELFSIG_SYSTEM_MEMORY:-1024} MiB; SHA-256 driver in the guest: $(val "$W/signed.1" sha256)"
echo
echo "| what | signed, require | unsigned, off | ratio |"
echo "| --- | --- | --- | --- |"
for i in 1 2 3 4; do
	name=$(echo "total kernel initrd userspace" | cut -d' ' -f"$i")
	s=$(boot_col signed "$i"); u=$(boot_col unsigned "$i")
	# No initrd phase where the initramfs runs no systemd (initramfs-tools):
	# systemd-analyze then counts the initramfs in the kernel's time.
	[ "$s" = 0.00 ] && [ "$u" = 0.00 ] && continue
	echo "| systemd-analyze: $name (s) | $s | $u | $(ratio "$s" "$u") |"
done
s=$(col signed up); u=$(col unsigned up)
echo "| ssh answers after (s, host clock, 3 s polls) | $s | $u | $(ratio "$s" "$u") |"
for f in MemAvailable Unevictable Mlocked Shmem rss; do
	s=$(col signed "$f"); u=$(col unsigned "$f")
	echo "| $f after boot (kB) | $s | $u | $(ratio "$s" "$u") |"
done
for f in procs xfiles; do
	echo "| $f | $(col signed "$f") | $(col unsigned "$f") | |"
done
s=$(col signed xbytes); u=$(col unsigned xbytes)
echo "| bytes of the files mapped executable (kB) | $((s / 1024)) | $((u / 1024)) | |"
echo "| verified copies after boot (cache_stats) | $(val "$W/signed.1" cache) | $(val "$W/unsigned.1" cache) | |"
s=$(col signed cold_us); u=$(col unsigned cold_us)
echo "| python3 -S -c 0, cache emptied first (ms) | $((s / 1000)) | $((u / 1000)) | $(ratio "$s" "$u") |"
s=$(col signed warm_us); u=$(col unsigned warm_us)
echo "| python3 -S -c 0, again (ms) | $((s / 1000)) | $((u / 1000)) | $(ratio "$s" "$u") |"
sh=$(col signed sha_us)
echo "| sha256sum of python3, its libraries and ld.so: $(( $(val "$W/signed.1" pybytes) / 1024 )) kB (ms) | $((sh / 1000)) | $(( $(col unsigned sha_us) / 1000 )) | |"
cs=$(col signed cold_us); ws=$(col signed warm_us)
echo
echo "Cold exec's cost over a warm one in require mode: $(( (cs - ws) / 1000 )) ms, $(ratio "$((cs - ws))" "$sh") sha256sum of the same files."
