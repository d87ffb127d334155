#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/attest/vm.sh on the second target, linux-source-6.1 (make kernel-6.1).
export KERNEL=${KERNEL:-$(cd "$(dirname "$0")/../.." && pwd)/build/kernel/bzImage-tiny-6.1}
exec "$(dirname "$0")/vm.sh"
