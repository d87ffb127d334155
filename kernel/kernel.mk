# SPDX-License-Identifier: GPL-2.0-only
# The patched test kernel and its QEMU + swtpm tests.
#
#   make kernel          build/kernel/bzImage-tiny (incremental)
#   make kernel-kasan    build/kernel/bzImage-kasan (KASAN + UBSAN)
#   make kernel-6.1      build/kernel/bzImage-tiny-6.1 (linux-source-6.1)
#   make vm-prereqs      static guest helpers into build/vm/
#   make check-kasan-vm  the enforce-mode cases on the KASAN kernel
#   make check-kernel-6.1  the kernel suite on the 6.1 kernel
#   make kernel-tree     git trees of the series: build/kernel/git-{6.12,6.1}
#   make kernel-export   the patch files, written back from those trees
#   make kernel-series-check  fail when the committed patches are not what
#                        the trees make (kernel/refresh.sh; docs/kernel.md)
#   make kernel-prefix-check  build and boot each prefix of the 6.12 series
#                        (kernel/test-prefixes.sh; slow, not in make check)

.PHONY: kernel kernel-source kernel-kasan kernel-6.1 vm-prereqs check-kasan-vm check-kernel-6.1 \
	kernel-tree kernel-export kernel-series-check kernel-prefix-check

kernel:
	@kernel/build-kernel.sh tiny

# The patched 6.12 source alone (for the host suites that compile
# fs/elfsig/ in userspace): no kernel build.
kernel-source:
	@kernel/build-kernel.sh tiny --source

kernel-kasan:
	@kernel/build-kernel.sh kasan

# The second target: linux-source-6.1 with the 6.12 series and the 6.1
# delta (kernel/delta-6.1/).
kernel-6.1:
	@kernel/build-kernel.sh tiny-6.1

kernel-tree:
	@kernel/refresh.sh tree

kernel-export:
	@kernel/refresh.sh export

kernel-series-check:
	@kernel/refresh.sh check

# Each prefix 1..N of the series builds (tiny config) and boots; a
# kernel build per patch, so not part of make check.
kernel-prefix-check:
	@tests/run kernel/test-prefixes.sh

# Guest binaries must be static: the initramfs has no libc.
VM_GUEST := $(O)/vm/probe $(O)/vm/hello $(O)/vm/big $(O)/vm/benchloop $(O)/vm/fusesrv
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

# Verified dynamic processes (tests/vm/guest/cases.sh): a glibc-linked
# probe; the same with the ELFSIG note asking for anonymous executable
# memory (a JIT); the same with its interpreter at /opt/t/dyn/ld.so, for
# an unsigned or tampered ld.so; a small library to dlopen or preload.
DYN_CFLAGS := $(VM_CFLAGS) -fPIE -pie
$(O)/vm/dynprobe: tests/vm/guest/dynprobe.c
	@mkdir -p $(dir $@)
	$(CC) $(DYN_CFLAGS) -o $@ $<

$(O)/vm/dynprobe-jit: tests/vm/guest/dynprobe.c
	@mkdir -p $(dir $@)
	$(CC) $(DYN_CFLAGS) -DELFSIG_JIT -o $@ $<

$(O)/vm/dynprobe-ldx: tests/vm/guest/dynprobe.c
	@mkdir -p $(dir $@)
	$(CC) $(DYN_CFLAGS) -Wl,--dynamic-linker=/opt/t/dyn/ld.so -o $@ $<

$(O)/vm/dynmod.so: tests/vm/guest/dynmod.c
	@mkdir -p $(dir $@)
	$(CC) $(VM_CFLAGS) -fPIC -shared -o $@ $<

# The ANON_EXEC note at the end of a PT_NOTE of over 4096 bytes; an
# executable stack (-z execstack).
$(O)/vm/dynprobe-bignote: tests/vm/guest/dynprobe.c
	@mkdir -p $(dir $@)
	$(CC) $(DYN_CFLAGS) -DELFSIG_BIGNOTE -o $@ $<

$(O)/vm/dynprobe-xs: tests/vm/guest/dynprobe.c
	@mkdir -p $(dir $@)
	$(CC) $(DYN_CFLAGS) -Wl,-z,execstack -o $@ $<

# The i386 build, with the host's i386 ld.so and libc, where $(CC) -m32
# can link one (gcc-multilib); without it its VM cases skip.
$(O)/vm/dynprobe32: tests/vm/guest/dynprobe.c
	@mkdir -p $(dir $@)
	@if $(CC) -m32 $(DYN_CFLAGS) -o $@ $< 2> $@.err; then rm -f $@.err; \
	else rm -f $@; echo "dynprobe32: $(CC) -m32 cannot link here ($$(head -1 $@.err)); the i386 dynamic VM cases will skip"; fi

VM_DYN := $(O)/vm/dynprobe $(O)/vm/dynprobe-jit $(O)/vm/dynprobe-ldx $(O)/vm/dynmod.so \
	$(O)/vm/dynprobe-bignote $(O)/vm/dynprobe-xs $(O)/vm/dynprobe32
$(O)/vm/probe $(filter $(O)/vm/dynprobe%,$(VM_DYN)): tests/vm/guest/whoami.h tests/vm/guest/selfmem.h

# A static PIE (ET_DYN without PT_INTERP): mapped at a random load bias.
$(O)/vm/hello-pie: tests/vm/guest/hello.c
	@mkdir -p $(dir $@)
	$(CC) $(VM_CFLAGS) -static-pie -fPIE -o $@ $<

# A static i386 binary, for the compat ELF loader, where $(CC) -m32 can
# build one (gcc-multilib); without it the VM suite skips its cases.
$(O)/vm/hello32: tests/vm/guest/hello32.c
	@mkdir -p $(dir $@)
	@if $(CC) -m32 $(VM_CFLAGS) -static -o $@ $< 2> $@.err; then rm -f $@.err; \
	else rm -f $@; echo "hello32: $(CC) -m32 -static cannot build here ($$(head -1 $@.err)); the i386 VM cases will skip"; fi

vm-prereqs: $(VM_GUEST) $(VM_MUSL) $(VM_DYN) $(O)/vm/hello-dyn $(O)/vm/hello-pie $(O)/vm/hello32 $(O)/signelf

CHECK_PREREQS += kernel vm-prereqs
CHECK_SUITES  += tests/kernel/test-series.sh tests/vm/test-kernel.sh
KASAN_VM_SUITES := tests/vm/test-kernel-kasan.sh
KERNEL61_VM_SUITES := tests/vm/test-kernel-6.1.sh tests/attest/vm-6.1.sh

check-kasan-vm: deps
	@$(MAKE) --no-print-directory all kernel-kasan vm-prereqs
	@tests/run $(KASAN_VM_SUITES)

check-kernel-6.1: deps
	@$(MAKE) --no-print-directory all kernel-6.1 vm-prereqs
	@tests/run $(KERNEL61_VM_SUITES)
