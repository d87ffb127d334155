#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Memory held by running copies of one signed binary, in one boot of the
# test kernel (QEMU, no KVM): N processes of the ~2 MiB signed bench
# binary (tests/vm/guest/bench.c, which reads all its pages and sleeps
# when given an argument), with the verified-image cache (they share one
# copy, made by a warm-up exec) and with it off (fs.elfsig.cache_kb=0:
# each exec makes its own copy). The baseline is the same N processes of
# the unsigned binary, in the same boot.
#
#   tests/bench/vm-memory.sh [N]     (default 20)
#
# Prints one BENCH line per case: the growth of Unevictable and of used
# memory (MemTotal - MemAvailable) in KiB while the N processes run.
# Not a test: nothing is asserted.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
N=${1:-20}
# shellcheck source=tests/bench/vm-bench-lib.sh
. "$TOP/tests/bench/vm-bench-lib.sh"
vm_bench_setup vm-memory
echo "# bench binary: $(stat -c %s "$W/t/bench") bytes; $N processes per case"
cat > "$W/script" <<EOS
keyctl padd asymmetric "" %keyring:.elfsig < /opt/t/c.der > /dev/null
echo 1 > /proc/sys/fs/elfsig/lock
kb() { awk -v k="\$1:" '\$1 == k { print \$2 }' /proc/meminfo; }
used() { echo \$(( \$(kb MemTotal) - \$(kb MemAvailable) )); }
# measure NAME BINARY: N sleeping copies, growth while they run (after
# one warm-up exec, so that a cached copy exists before they start)
measure() {
	\$2
	sync; echo 3 > /proc/sys/vm/drop_caches
	u0=\$(kb Unevictable) m0=\$(used)
	i=0
	while [ \$i -lt $N ]; do \$2 sleep & i=\$((i + 1)); done
	sleep 3
	u1=\$(kb Unevictable) m1=\$(used)
	kill \$(jobs -p) 2>/dev/null; wait 2>/dev/null
	echo "BENCH \$1 n=$N unevictable_kib=\$((u1 - u0)) used_kib=\$((m1 - m0))"
}
measure unsigned /opt/t/bench
measure signed-cache-on /opt/t/bench.signed
echo 0 > /proc/sys/fs/elfsig/cache_kb
measure signed-cache-off /opt/t/bench.signed
EOS
"$TOP/tests/vm/run" --kernel "$KERNEL" --add "$W/t:t" --script "$W/script" \
	--memory 512 --timeout 600 | grep -E '^BENCH'
