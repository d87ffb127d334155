# SPDX-License-Identifier: GPL-2.0-only
# common/: plumbing shared by signer/, tpm/ and keyloader/ (common.h),
# linked into libelfsig and libelfsig-tpm (and through the latter into the
# keyloader), hidden.

COMMON_SRCS := common/common.c common/cmd.c
COMMON_OBJS := $(COMMON_SRCS:%.c=$(O)/%.o)

# One version for the whole project (common_version()): the VERSION file.
ELFSIG_VERSION := $(shell cat VERSION)
VERSION_DEF    := -DELFSIG_VERSION='"$(ELFSIG_VERSION)"'
CPPFLAGS       += $(VERSION_DEF)
$(O)/common/cmd.o: VERSION
