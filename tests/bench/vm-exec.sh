#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# exec + exit of a ~2 MiB signed static binary against the same binary
# unsigned, interleaved, in one boot of the test kernel (QEMU, no KVM);
# then a cold signed exec against busybox sha256sum of the same bytes.
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
RUNS=${1:-200}
# shellcheck source=tests/bench/vm-bench-lib.sh
. "$TOP/tests/bench/vm-bench-lib.sh"
vm_bench_setup vm-exec "$BUILD/vm/benchloop"
echo "# bench binary: $(stat -c %s "$W/t/bench") bytes unsigned, $(stat -c %s "$W/t/bench.signed") signed; $RUNS runs each, interleaved"
cat > "$W/script" <<EOS
keyctl padd asymmetric "" %keyring:.elfsig < /opt/t/c.der > /dev/null
echo 1 > /proc/sys/fs/elfsig/lock
/opt/t/bench.signed && echo "signed bench runs"
echo "BENCH phase: cache on"
/opt/t/benchloop $RUNS /opt/t/bench.signed /opt/t/bench
echo "BENCH cache_stats: \$(cat /proc/sys/fs/elfsig/cache_stats)"
echo 0 > /proc/sys/fs/elfsig/cache_kb
echo "BENCH phase: cache off"
/opt/t/benchloop $RUNS /opt/t/bench.signed /opt/t/bench
echo "BENCH cache_stats: \$(cat /proc/sys/fs/elfsig/cache_stats)"
# A cold exec (cache off) next to hashing the same bytes in the guest:
# a script that runs busybox sha256sum on the signed file (its cost
# includes starting the shell), and the shell alone.
printf '#!/bin/sh\nexec /bin/busybox sha256sum /opt/t/bench.signed > /dev/null\n' > /tmp/sha
printf '#!/bin/sh\nexec /bin/busybox true\n' > /tmp/shtrue
chmod 755 /tmp/sha /tmp/shtrue
echo "BENCH phase: cold signed exec vs sha256sum of it"
/opt/t/benchloop $RUNS /opt/t/bench.signed /tmp/sha
/opt/t/benchloop $RUNS /tmp/sha /tmp/shtrue
EOS
"$TOP/tests/vm/run" --kernel "$KERNEL" --add "$W/t:t" --script "$W/script" \
	--timeout 1200 | grep -E '^(BENCH|signed bench|ELFSIG-VM: up)'
