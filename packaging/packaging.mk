# SPDX-License-Identifier: GPL-2.0-only
# packaging/: install, uninstall and the Debian packages, all from one
# table (packaging/files, read by packaging/files.sh).
#
#   make install   [DESTDIR=...] [PREFIX=/usr] [LIBDIR=...] ...
#   make uninstall [DESTDIR=...] [PREFIX=/usr]
#
# The initramfs-tools hook and the dracut module go under /usr whatever
# PREFIX is (those tools read nowhere else); the hook then finds the loader
# in PREFIX's sbin.

PREFIX       ?= /usr
BINDIR       ?= $(PREFIX)/bin
SBINDIR      ?= $(PREFIX)/sbin
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
MANDIR       ?= $(PREFIX)/share/man
BASHCOMPDIR  ?= $(PREFIX)/share/bash-completion/completions
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

INSTALL_ENV = O='$(O)' DESTDIR='$(DESTDIR)' PREFIX='$(PREFIX)' BINDIR='$(BINDIR)' \
	      SBINDIR='$(SBINDIR)' LIBDIR='$(LIBDIR)' INCLUDEDIR='$(INCLUDEDIR)' \
	      MANDIR='$(MANDIR)' BASHCOMPDIR='$(BASHCOMPDIR)' \
	      PKGCONFIGDIR='$(PKGCONFIGDIR)' VERSION='$(ELFSIG_VERSION)'

INSTALLED := $(O)/signelf $(O)/elfsig-tpm $(O)/elfsig-attest $(KL_HOOKS) \
	     $(O)/elfsig-keyloader $(O)/elfsig-enroll $(O)/libelfsig.so.0

.PHONY: install uninstall
install: $(INSTALLED)
	@$(INSTALL_ENV) packaging/files.sh install

uninstall:
	@$(INSTALL_ENV) packaging/files.sh uninstall

PACKAGING_SUITES := tests/packaging/version.sh tests/packaging/install.sh
CHECK_SUITES += $(PACKAGING_SUITES)
ASAN_SUITES  += $(PACKAGING_SUITES)
# The packages in a fresh bookworm chroot (~45 s, the Debian archive):
# make check only, not the host tier, not ASan (it builds its own).
CHECK_SUITES   += tests/packaging/packages.sh
NOT_HOST_SUITES += tests/packaging/packages.sh
# Signed packages from a local apt repository into a bookworm chroot
# (~70 s, the Debian archive): make check only, like packages.sh.
CHECK_SUITES   += tests/packaging/apt-repo.sh
NOT_HOST_SUITES += tests/packaging/apt-repo.sh

# The Debian packages, into build/deb/ (packaging/make-deb.sh).
.PHONY: deb
deb:
	@packaging/make-deb.sh
