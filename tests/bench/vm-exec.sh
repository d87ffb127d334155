#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# exec + exit of a ~2 MiB signed static binary against the same binary
# unsigned, interleaved, in one boot of the test kernel (QEMU, no KVM).
#
#   tests/bench/vm-exec.sh [RUNS]     (default 200 runs of each)
#
# Prints the guest's BENCH lines: median/mean/p10/p90 in microseconds per
# fork+exec+exit, and the ratio of the medians (signed / unsigned), twice:
# with the verified-image cache (the default: every signed exec after the
# first is a hit), then with it off (fs.elfsig.cache_kb=0: every signed
# exec copies and hashes the image). Not a test: no timing is asserted
# anywhere.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
RUNS=${1:-200}
KERNEL=${ELFSIG_VM_KERNEL:-$BUILD/kernel/bzImage-tiny}

for f in "$KERNEL" "$BUILD/signelf" "$BUILD/vm/bench" "$BUILD/vm/benchloop"; do
	[ -e "$f" ] || { echo "vm-exec: $f missing (make kernel vm-prereqs)" >&2; exit 1; }
done
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/t"
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$W/k.pem" 2>/dev/null
openssl req -new -x509 -key "$W/k.pem" -days 1 -subj "/CN=elfsig bench" \
	-addext keyUsage=digitalSignature -out "$W/c.pem" 2>/dev/null
openssl x509 -in "$W/c.pem" -outform DER -out "$W/t/c.der"
cp "$BUILD/vm/bench" "$BUILD/vm/benchloop" "$W/t/"
"$BUILD/signelf" sign --key "$W/k.pem" --cert "$W/c.pem" -o "$W/t/bench.signed" "$W/t/bench" >/dev/null
echo "# bench binary: $(stat -c %s "$W/t/bench") bytes unsigned, $(stat -c %s "$W/t/bench.signed") signed; $RUNS runs each, interleaved"
cat > "$W/script" <<EOS
keyctl padd asymmetric "" %keyring:.elfsig < /opt/t/c.der > /dev/null
keyctl restrict_keyring %keyring:.elfsig
/opt/t/bench.signed && echo "signed bench runs"
echo "BENCH phase: cache on"
/opt/t/benchloop $RUNS /opt/t/bench.signed /opt/t/bench
echo "BENCH cache_stats: \$(cat /proc/sys/fs/elfsig/cache_stats)"
echo 0 > /proc/sys/fs/elfsig/cache_kb
echo "BENCH phase: cache off"
/opt/t/benchloop $RUNS /opt/t/bench.signed /opt/t/bench
echo "BENCH cache_stats: \$(cat /proc/sys/fs/elfsig/cache_stats)"
EOS
"$TOP/tests/vm/run" --kernel "$KERNEL" --add "$W/t:t" --script "$W/script" \
	--timeout 1200 | grep -E '^(BENCH|signed bench|ELFSIG-VM: up)'
