# SPDX-License-Identifier: GPL-2.0-only
# common/: plumbing shared by the components: error lines, files, hex, the
# programs' subcommand tables (common.h), private keys (key.h) and
# certificates (cert.h), all in common/lib/: common/ has no program.
# COMMON_SRCS (LGPL) are linked into libelfsig and libelfsig-tpm, hidden;
# libelfsig-common.a holds them all, with the certificate parser (GPL, so
# never in libelfsig), for the programs.

COMMON_SRCS := $(addprefix common/lib/,common.c cmd.c key.c engine.c)
COMMON_OBJS := $(COMMON_SRCS:%.c=$(O)/%.o)
COMMON_ALL_SRCS := $(COMMON_SRCS) common/lib/cert.c
COMMON_ALL_OBJS := $(COMMON_ALL_SRCS:%.c=$(O)/%.o)

$(O)/libelfsig-common.a: $(COMMON_ALL_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

# One version for the whole project (common_version()): the VERSION file.
ELFSIG_VERSION := $(shell cat VERSION)
VERSION_DEF    := -DELFSIG_VERSION='"$(ELFSIG_VERSION)"'
CPPFLAGS       += $(VERSION_DEF)
$(O)/common/lib/cmd.o: VERSION
