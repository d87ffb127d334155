# SPDX-License-Identifier: GPL-2.0-only
# The patched test kernel and its QEMU + swtpm tests.
#
#   make kernel         build/kernel/bzImage-tiny (incremental)
#   make kernel-kasan   build/kernel/bzImage-kasan (KASAN + UBSAN)
#   make check-kasan-vm the malformed-input cases on the KASAN kernel

.PHONY: kernel kernel-kasan vm-prereqs check-kasan-vm

kernel:
	@kernel/build-kernel.sh tiny

kernel-kasan:
	@kernel/build-kernel.sh kasan

CHECK_PREREQS += kernel
CHECK_SUITES  += tests/vm/test-kernel.sh
KASAN_SUITES  := tests/vm/test-kernel-kasan.sh

check-kasan-vm: deps kernel-kasan
	@$(MAKE) --no-print-directory all
	@tests/run $(KASAN_SUITES)
