#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The kernel suite, every mode, on the second target: linux-source-6.1
# with the 6.12 series and the 6.1 delta, kernel/delta-6.1/ (make
# kernel-6.1).
export ELFSIG_VM_KERNEL=${ELFSIG_VM_KERNEL:-$(cd "$(dirname "$0")/../.." && pwd)/build/kernel/bzImage-tiny-6.1}
exec "$(dirname "$0")/test-kernel.sh"
