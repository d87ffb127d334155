# SPDX-License-Identifier: GPL-2.0-only
# The real-system tier: a Debian 12 system, every ELF signed, booted in
# require mode under QEMU + swtpm (docs/system.md).
#
#   make kernel-system   the system test kernel as Debian packages
#                        (build/kernel/system/)
#   make kernel-deb      linux-image packages from a full config:
#                        KCONFIG=FILE [PLATFORM_CA=FILE] (build/kernel/deb/)
#   make system-image    build/system/: the signed, enrolled image
#   make check-system    build it, boot it and run tests/system/test-system.sh
#                        (its own tier, in .ci/run: not part of make check)

.PHONY: kernel-system kernel-deb system-image check-system

kernel-system:
	@kernel/build-kernel.sh system

kernel-deb:
	@kernel/build-kernel.sh $(if $(KCONFIG),deb,system)

system-image: all kernel-system
	@tests/system/build-image

# The image's build exits 77 when Debian's archive is not reachable: the
# suite then skips and says so.
check-system: deps
	@$(MAKE) --no-print-directory all kernel-system
	@tests/system/build-image || [ $$? = 77 ]
	@tests/run tests/system/test-system.sh
