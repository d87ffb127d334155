# SPDX-License-Identifier: GPL-2.0-only
# attest/: elfsig-attest, the platform team's verifier (docs/attestation.md).
# Its library parses the kernel's measurement log and verifies quotes; it
# uses common/ (the certificate parser) and tpm/ (the TPM layer, and the
# TPM programs' option and file helpers, tpm/cli/tpm_cli.h) only. The
# library is attest/lib/, the program attest/cli/.

ATTEST_LIB_SRCS := attest/lib/error.c attest/lib/log.c attest/lib/quote.c \
		   attest/lib/report.c
ATTEST_CMD_SRCS := $(addprefix attest/cli/,elfsig-attest.c cmd_attest_common.c \
		   cmd_ak.c cmd_quote.c cmd_verify.c cmd_log.c)
ATTEST_LIB_OBJS := $(ATTEST_LIB_SRCS:%.c=$(O)/%.o)
ATTEST_CMD_OBJS := $(ATTEST_CMD_SRCS:%.c=$(O)/%.o)

$(ATTEST_LIB_OBJS) $(ATTEST_CMD_OBJS): \
	CPPFLAGS += -Iattest/lib -Itpm/cli $(TPM_CFLAGS)

$(O)/libelfsig-attest.a: $(ATTEST_LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(O)/elfsig-attest: $(ATTEST_CMD_OBJS) $(TPM_CLI_OBJS) $(O)/libelfsig-attest.a \
		$(O)/libelfsig-common.a $(O)/libelfsig-tpm.a
	$(CC) $(LDFLAGS) -o $@ $(ATTEST_CMD_OBJS) $(TPM_CLI_OBJS) \
		$(O)/libelfsig-attest.a $(O)/libelfsig-common.a \
		$(O)/libelfsig-tpm.a $(TPM_LIBS)

PROGRAMS += $(O)/elfsig-attest

ATTEST_SUITES := tests/attest/log.sh tests/attest/quote.sh tests/attest/vm.sh
CHECK_SUITES  += $(ATTEST_SUITES)
# Not under ASan: vm.sh reads the kernel's own log, on a boot of the
# patched kernel (make kernel); tests/attest/vm-6.1.sh runs with make
# check-kernel-6.1.
ATTEST_ASAN_EXCLUDE := tests/attest/vm.sh
ASAN_SUITES   += $(filter-out $(ATTEST_ASAN_EXCLUDE),$(ATTEST_SUITES))
