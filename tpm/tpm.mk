# SPDX-License-Identifier: GPL-2.0-only
# tpm/: libelfsig-tpm (static, tpm/lib/) and the elfsig-tpm tool (tpm/cli/).

TPM_PKGS     := tss2-esys tss2-rc tss2-mu tss2-tctildr libcrypto
TPM_CFLAGS   := $(shell pkg-config --cflags $(TPM_PKGS) 2>/dev/null)
TPM_LIBS     := $(shell pkg-config --libs $(TPM_PKGS) 2>/dev/null)

TPM_LIB_SRCS := $(addprefix tpm/lib/,error.c context.c srk.c session.c \
		pcr.c seal.c sealed_file.c keygen.c cert.c quote.c authorize.c nv.c)
TPM_CMD_SRCS := $(addprefix tpm/cli/,elfsig-tpm.c cmd_keygen.c cmd_seal.c \
		cmd_unseal.c cmd_pcrread.c cmd_pcrextend.c cmd_evict.c \
		cmd_srkname.c)
TPM_LIB_OBJS := $(TPM_LIB_SRCS:%.c=$(O)/%.o) $(COMMON_OBJS)
TPM_CMD_OBJS := $(TPM_CMD_SRCS:%.c=$(O)/%.o)
# What the programs that talk to the TPM share (tpm/cli/tpm_cli.h):
# elfsig-tpm's and elfsig-attest's options, files and exit codes.
TPM_CLI_OBJS := $(O)/tpm/cli/cli.o

$(TPM_LIB_OBJS) $(TPM_CMD_OBJS) $(TPM_CLI_OBJS): CPPFLAGS += $(TPM_CFLAGS)

$(O)/libelfsig-tpm.a: $(TPM_LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(O)/elfsig-tpm: $(TPM_CMD_OBJS) $(TPM_CLI_OBJS) $(O)/libelfsig-tpm.a
	$(CC) $(LDFLAGS) -o $@ $(TPM_CMD_OBJS) $(TPM_CLI_OBJS) $(O)/libelfsig-tpm.a $(TPM_LIBS)

PROGRAMS += $(O)/elfsig-tpm $(O)/libelfsig-tpm.a

TPM_SUITES := tests/tpm/symbols.sh tests/tpm/sealed-file.sh \
	      tests/tpm/seal.sh tests/tpm/errors.sh tests/tpm/interop.sh \
	      tests/tpm/keygen.sh tests/tpm/sign-elf.sh tests/tpm/unit.sh \
	      tests/tpm/fuzz-replay.sh
CHECK_SUITES += $(TPM_SUITES)
# Not under ASan: symbols.sh lists the archive's exported symbols, to which
# the sanitizer build adds its own.
TPM_ASAN_EXCLUDE := tests/tpm/symbols.sh
ASAN_SUITES  += $(filter-out $(TPM_ASAN_EXCLUDE),$(TPM_SUITES))

# Unit tests against a fake ESAPI (link-time --wrap): error paths swtpm
# does not produce, and flushing on every one of them.
TPM_WRAPPED := Tss2_TctiLdr_Initialize Tss2_TctiLdr_Finalize Esys_Initialize \
	       Esys_Finalize Esys_CreatePrimary Esys_Create Esys_Load \
	       Esys_StartAuthSession Esys_TRSess_SetAttributes Esys_PolicyPCR \
	       Esys_PolicyGetDigest Esys_Unseal Esys_PCR_Read Esys_PCR_Extend \
	       Esys_TR_FromTPMPublic Esys_TR_Close Esys_FlushContext \
	       Esys_EvictControl Esys_ReadPublic Esys_GetCapability \
	       Esys_TR_GetName Esys_LoadExternal Esys_VerifySignature \
	       Esys_PolicyAuthorize Esys_NV_ReadPublic Esys_NV_Read \
	       Esys_NV_Increment Esys_NV_DefineSpace
$(O)/tests/tpm/unit/mock-esys.o: CPPFLAGS += $(TPM_CFLAGS)
$(O)/tests/tpm/unit/mock-esys: $(O)/tests/tpm/unit/mock-esys.o $(O)/libelfsig-tpm.a
	$(CC) $(LDFLAGS) $(TPM_WRAPPED:%=-Wl,--wrap=%) -o $@ $^ $(TPM_LIBS)

CHECK_PREREQS += $(O)/tests/tpm/unit/mock-esys
# The sealed-object parser's fuzz harness: tests/tpm/fuzz/, built by
# tests/fuzz/fuzz.mk (make fuzz-tpm; tests/tpm/fuzz-replay.sh replays it).
