# SPDX-License-Identifier: GPL-2.0-only
# elfsig top-level Makefile.
#
#   make            build the programs into build/
#   make deps       install missing Debian packages (root)
#   make check      run every test suite (installs deps, builds first)
#   make check-host the host suites only: no kernel build, no QEMU
#   make demo       the end-to-end demonstration
#   make install    DESTDIR=..., PREFIX=/usr; make uninstall (packaging/)
#   make SANITIZE=1 ASan + UBSan build into build/asan/
#
# Components add themselves through */*.mk: PROGRAMS, CHECK_SUITES and
# CHECK_PREREQS.

CC       ?= gcc
AR       ?= ar
WERROR   ?= -Werror
OPT      ?= -O2

ifeq ($(SANITIZE),1)
O        ?= build/asan
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
HARDEN   := -fstack-protector-strong
else
O        ?= build
SANFLAGS :=
HARDEN   := -fstack-protector-strong
# _FORTIFY_SOURCE needs the optimiser; -O0 builds (check-matrix) go without.
ifneq ($(OPT),-O0)
HARDEN   += -D_FORTIFY_SOURCE=2
endif
endif

WARNINGS := -Wall -Wextra $(WERROR) -Wshadow -Wstrict-prototypes \
	    -Wmissing-prototypes -Wformat=2 -Wformat-security -Wvla \
	    -Wnull-dereference -Wpointer-arith -Wundef -Wcast-align \
	    -Wno-unused-parameter
CPPFLAGS += -D_GNU_SOURCE -Iinclude -Icommon/lib -Itpm/lib
CFLAGS   ?= $(OPT) -g
CFLAGS   += -std=gnu11 $(WARNINGS) $(HARDEN) $(SANFLAGS) -fPIC \
	    -fvisibility=hidden -MMD -MP
LDFLAGS  += -pie -Wl,-z,relro,-z,now -Wl,--as-needed $(SANFLAGS)

PROGRAMS      :=
CHECK_SUITES  :=
CHECK_PREREQS :=

.PHONY: all deps check check-host check-asan check-matrix demo clean distclean
all:

include common/common.mk
include signer/signer.mk
-include tpm/tpm.mk
-include keyloader/keyloader.mk
-include attest/attest.mk
-include packaging/packaging.mk
-include kernel/kernel.mk
-include tests/tests.mk
-include tests/system/system.mk

all: $(PROGRAMS)

deps:
	@scripts/install-deps

check: deps
	@$(MAKE) --no-print-directory all $(CHECK_PREREQS)
	@tests/run $(CHECK_SUITES)

# The fast tier for userspace work: every suite but those that boot the
# patched kernel (tests/vm/, */vm.sh) or rebuild the kernel series
# (tests/kernel/), nor those a component names in NOT_HOST_SUITES (the
# Debian packages in a chroot). `make check` stays the whole truth.
HOST_SUITES = $(filter-out tests/vm/% %/vm.sh tests/kernel/% $(NOT_HOST_SUITES),$(CHECK_SUITES))

check-host: deps
	@$(MAKE) --no-print-directory all local-prereqs
	@tests/run $(HOST_SUITES)

# The host suites again, built with ASan + UBSan (CI runs this too).
check-asan: deps
	@$(MAKE) --no-print-directory SANITIZE=1 all local-prereqs
	@BUILD=$(CURDIR)/build/asan tests/run $(ASAN_SUITES)

# Compilers x optimisation levels, sanitizers, valgrind, cppcheck,
# scan-build and shellcheck (CI runs this too).
check-matrix: deps
	@tests/run tests/matrix/test-matrix.sh

# The test prerequisites that live in this build tree (not the kernel).
.PHONY: local-prereqs
local-prereqs: $(filter $(O)/%,$(CHECK_PREREQS))

# Quiet, as make -s: one line a step (the kernel's build has its own log).
demo: deps
	@echo "demo: building elfsig (make -s all)"
	@$(MAKE) -s --no-print-directory all
	@echo "demo: building the patched kernel (make kernel)"
	@$(MAKE) -s --no-print-directory kernel
	@scripts/demo

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

clean:
	rm -rf build/asan build/obj $(O)/*.o $(PROGRAMS)
	find build \( -path build/kernel -o -path build/system \) -prune -o \( -name '*.o' -o -name '*.d' \) -type f -print 2>/dev/null | xargs rm -f

distclean:
	rm -rf build

# build/kernel holds a Linux tree (kernel/kernel.mk), build/system a Debian
# system (tests/system/system.mk); their files are not ours.
-include $(shell find $(O) \( -path build/kernel -o -path build/system \) -prune -o -name '*.d' -type f -print 2>/dev/null)
