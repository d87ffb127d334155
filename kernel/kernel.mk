# SPDX-License-Identifier: GPL-2.0-only
# The patched test kernel and its QEMU + swtpm tests.
#
#   make kernel          build/kernel/bzImage-tiny (incremental)
#   make kernel-kasan    build/kernel/bzImage-kasan (KASAN + UBSAN)
#   make vm-prereqs      static guest helpers into build/vm/
#   make check-kasan-vm  the enforce-mode cases on the KASAN kernel

.PHONY: kernel kernel-kasan vm-prereqs check-kasan-vm

kernel:
	@kernel/build-kernel.sh tiny

kernel-kasan:
	@kernel/build-kernel.sh kasan

# Guest binaries must be static: the initramfs has no libc.
VM_GUEST := $(O)/vm/probe $(O)/vm/hello $(O)/vm/big $(O)/vm/benchloop
VM_MUSL  := $(O)/vm/bench
VM_CFLAGS := -O2 -Wall -Wextra $(WERROR)

$(VM_GUEST): $(O)/vm/%: tests/vm/guest/%.c
	@mkdir -p $(dir $@)
	$(CC) $(VM_CFLAGS) -static -o $@ $<

$(VM_MUSL): $(O)/vm/%: tests/vm/guest/%.c
	@mkdir -p $(dir $@)
	musl-gcc $(VM_CFLAGS) -static -o $@ $<

# A dynamic copy: it has PT_INTERP, which a signed binary may not have.
$(O)/vm/hello-dyn: tests/vm/guest/hello.c
	@mkdir -p $(dir $@)
	$(CC) $(VM_CFLAGS) -o $@ $<

vm-prereqs: $(VM_GUEST) $(VM_MUSL) $(O)/vm/hello-dyn $(O)/signelf

CHECK_PREREQS += kernel vm-prereqs
CHECK_SUITES  += tests/vm/test-kernel.sh
KASAN_VM_SUITES := tests/vm/test-kernel-kasan.sh

check-kasan-vm: deps
	@$(MAKE) --no-print-directory all kernel-kasan vm-prereqs
	@tests/run $(KASAN_VM_SUITES)
