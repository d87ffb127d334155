# SPDX-License-Identifier: GPL-2.0-only
# tpm/: libelfsig-tpm (static) and the elfsig-tpm tool.

TPM_PKGS     := tss2-esys tss2-rc tss2-mu tss2-tctildr libcrypto
TPM_CFLAGS   := $(shell pkg-config --cflags $(TPM_PKGS) 2>/dev/null)
TPM_LIBS     := $(shell pkg-config --libs $(TPM_PKGS) 2>/dev/null)

TPM_LIB_SRCS := tpm/error.c tpm/context.c tpm/srk.c tpm/session.c \
		tpm/pcr.c tpm/seal.c tpm/sealed_file.c tpm/keygen.c tpm/cert.c
TPM_CMD_SRCS := tpm/tool/elfsig-tpm.c tpm/tool/cmd_common.c \
		tpm/tool/cmd_keygen.c tpm/tool/cmd_seal.c \
		tpm/tool/cmd_unseal.c tpm/tool/cmd_pcrread.c \
		tpm/tool/cmd_pcrextend.c tpm/tool/cmd_evict.c
TPM_LIB_OBJS := $(TPM_LIB_SRCS:%.c=$(O)/%.o)
TPM_CMD_OBJS := $(TPM_CMD_SRCS:%.c=$(O)/%.o)

$(TPM_LIB_OBJS) $(TPM_CMD_OBJS): CPPFLAGS += $(TPM_CFLAGS)

$(O)/libelfsig-tpm.a: $(TPM_LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(O)/elfsig-tpm: $(TPM_CMD_OBJS) $(O)/libelfsig-tpm.a
	$(CC) $(LDFLAGS) -o $@ $(TPM_CMD_OBJS) $(O)/libelfsig-tpm.a $(TPM_LIBS)

PROGRAMS += $(O)/elfsig-tpm $(O)/libelfsig-tpm.a

TPM_SUITES := tests/tpm/symbols.sh tests/tpm/sealed-file.sh \
	      tests/tpm/seal.sh tests/tpm/errors.sh tests/tpm/interop.sh \
	      tests/tpm/keygen.sh
CHECK_SUITES += $(TPM_SUITES)
ASAN_SUITES  += tests/tpm/sealed-file.sh tests/tpm/seal.sh \
		tests/tpm/errors.sh tests/tpm/interop.sh
