#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# exec + exit of a signed glibc-linked program (tests/vm/guest/dynprobe.c)
# with its ld.so and libc signed, against the same program unsigned (the
# same ld.so and libc files, mapped from the files), interleaved, in one
# boot of the test kernel (QEMU, no KVM); then first execs (the cache
# emptied before each: the program, ld.so and libc copied and hashed
# once) against busybox sha256sum of the same three files, then that
# first exec taken apart (emptying the cache, and a first exec alone),
# and execs with the cache off (libc copied at each of ld.so's mappings
# of it) against sha256sum.
#
#   tests/bench/vm-dyn.sh [RUNS]     (default 200 runs of each)
#
# Prints the guest's BENCH lines (tests/vm/guest/benchloop.c): median/
# mean/p10/p90 in microseconds per fork+exec+exit, and the ratio of the
# medians. Not a test: no timing is asserted anywhere.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
RUNS=${1:-200}
# shellcheck source=tests/bench/vm-bench-lib.sh
. "$TOP/tests/bench/vm-bench-lib.sh"
vm_bench_setup vm-dyn "$BUILD/vm/benchloop" "$BUILD/vm/dynprobe"
sign() { "$BUILD/signelf" sign --key "$W/k.pem" --cert "$W/c.pem" -o "$1" "$2" >/dev/null; }
R=$W/root
mkdir -p "$R/lib64" "$R/lib/x86_64-linux-gnu"
sign "$R/lib64/ld-linux-x86-64.so.2" "$(readlink -f /lib64/ld-linux-x86-64.so.2)"
sign "$R/lib/x86_64-linux-gnu/libc.so.6" "$(readlink -f /lib/x86_64-linux-gnu/libc.so.6)"
sign "$W/t/dynprobe.signed" "$BUILD/vm/dynprobe"
echo "# dynprobe $(stat -c %s "$W/t/dynprobe.signed"), ld.so $(stat -c %s "$R/lib64/ld-linux-x86-64.so.2"), libc $(stat -c %s "$R/lib/x86_64-linux-gnu/libc.so.6") bytes signed; $RUNS runs each, interleaved"
cat > "$W/script" <<EOS
keyctl padd asymmetric "" %keyring:.elfsig < /opt/t/c.der > /dev/null
echo 1 > /proc/sys/fs/elfsig/lock
/opt/t/dynprobe.signed whoami
echo "BENCH phase: cache on (signed dynamic vs unsigned dynamic)"
/opt/t/benchloop $RUNS /opt/t/dynprobe.signed /opt/t/dynprobe
echo "BENCH cache_stats: \$(cat /proc/sys/fs/elfsig/cache_stats)"
printf '#!/bin/sh\nexec /bin/busybox sha256sum /opt/t/dynprobe.signed /lib64/ld-linux-x86-64.so.2 /lib/x86_64-linux-gnu/libc.so.6 > /dev/null\n' > /tmp/sha
printf '#!/bin/sh\nexec /bin/busybox true\n' > /tmp/shtrue
# A first exec: the cache emptied (cache_kb to 0 and back) by the
# script that then execs the program, so the program, ld.so and libc are
# each copied and verified once, and libc's later mappings are hits.
kb=\$(cat /proc/sys/fs/elfsig/cache_kb)
printf '#!/bin/sh\necho 0 > /proc/sys/fs/elfsig/cache_kb\necho %s > /proc/sys/fs/elfsig/cache_kb\nexec /opt/t/dynprobe.signed\n' "\$kb" > /tmp/first
# Taken apart: a script that empties the cache (freeing the copies the
# run before made) and execs the unsigned program, then the signed
# program exec'd directly into the empty cache (a first exec, nothing
# else); and the script's baseline, the shell exec'ing the unsigned one.
printf '#!/bin/sh\necho 0 > /proc/sys/fs/elfsig/cache_kb\necho %s > /proc/sys/fs/elfsig/cache_kb\nexec /opt/t/dynprobe\n' "\$kb" > /tmp/empty
printf '#!/bin/sh\nexec /opt/t/dynprobe\n' > /tmp/shun
chmod 755 /tmp/sha /tmp/shtrue /tmp/first /tmp/empty /tmp/shun
echo "BENCH phase: first exec (cache emptied before each) vs sha256sum of the program, ld.so and libc"
/opt/t/benchloop $RUNS /tmp/first /tmp/sha
echo "BENCH phase: taken apart: emptying the cache (then the unsigned program), and a first exec alone"
/opt/t/benchloop $RUNS /tmp/empty /opt/t/dynprobe.signed
/opt/t/benchloop $RUNS /tmp/shun /opt/t/dynprobe
echo "BENCH cache_stats: \$(cat /proc/sys/fs/elfsig/cache_stats)"
echo 0 > /proc/sys/fs/elfsig/cache_kb
echo "BENCH phase: cache off (every mapping of libc copied and verified again) vs sha256sum"
/opt/t/benchloop $RUNS /opt/t/dynprobe.signed /tmp/sha
/opt/t/benchloop $RUNS /tmp/sha /tmp/shtrue
echo "BENCH cache_stats: \$(cat /proc/sys/fs/elfsig/cache_stats)"
EOS
"$TOP/tests/vm/run" --kernel "$KERNEL" --root "$R" --add "$W/t:t" --script "$W/script" \
	--timeout 1800 | grep -E '^(BENCH|verified|unverified|ELFSIG-VM: up)'
