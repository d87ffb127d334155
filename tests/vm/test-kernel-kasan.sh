#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The enforce-mode cases, malformed files included, on the KASAN + UBSAN
# kernel (make kernel-kasan): any report fails the suite.
export ELFSIG_VM_KERNEL=${ELFSIG_VM_KERNEL:-$(cd "$(dirname "$0")/../.." && pwd)/build/kernel/bzImage-kasan}
export ELFSIG_VM_MODES=${ELFSIG_VM_MODES:-enforce}
export ELFSIG_VM_TIMEOUT=${ELFSIG_VM_TIMEOUT:-1500}
export ELFSIG_VM_EXPECT_KASAN=1
# KASAN's shadow and the 64 MiB big binary: the initramfs no longer
# unpacks in 512 MiB ("Initramfs unpacking failed: write error").
export ELFSIG_VM_MEMORY=${ELFSIG_VM_MEMORY:-1024}
exec "$(dirname "$0")/test-kernel.sh"
