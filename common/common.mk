# SPDX-License-Identifier: GPL-2.0-only
# common/: plumbing shared by signer/, tpm/ and keyloader/ (common.h),
# linked into libelfsig and libelfsig-tpm (and through the latter into the
# keyloader), hidden.

COMMON_SRCS := common/common.c common/cmd.c
COMMON_OBJS := $(COMMON_SRCS:%.c=$(O)/%.o)
