#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The enforce-mode cases, malformed files included, on the KASAN + UBSAN
# kernel (make kernel-kasan): any report fails the suite.
export ELFSIG_VM_KERNEL=${ELFSIG_VM_KERNEL:-$(cd "$(dirname "$0")/../.." && pwd)/build/kernel/bzImage-kasan}
export ELFSIG_VM_MODES=${ELFSIG_VM_MODES:-enforce}
export ELFSIG_VM_TIMEOUT=${ELFSIG_VM_TIMEOUT:-1500}
exec "$(dirname "$0")/test-kernel.sh"
