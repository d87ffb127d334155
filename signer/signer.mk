# SPDX-License-Identifier: GPL-2.0-only
# signer/: libelfsig (static and shared; signer/lib/, its public headers in
# include/elfsig/) and signelf (signer/cli/).

SIGNER_LIB_SRCS := signer/lib/util.c signer/lib/algs.c signer/lib/elf.c signer/lib/digest.c \
		   signer/lib/write.c signer/lib/der.c signer/lib/pkcs7.c \
		   signer/lib/key.c signer/lib/sign.c signer/lib/note.c \
		   signer/lib/tree.c signer/lib/deb.c
SIGNER_CMD_SRCS := signer/cli/signelf.c signer/cli/cmd_common.c signer/cli/cmd_sign.c \
		   signer/cli/cmd_verify.c signer/cli/cmd_show.c signer/cli/cmd_digest.c \
		   signer/cli/cmd_attach.c signer/cli/cmd_remove.c signer/cli/cmd_sign_deb.c
SIGNER_LIB_OBJS := $(SIGNER_LIB_SRCS:%.c=$(O)/%.o) $(COMMON_OBJS)
SIGNER_CMD_OBJS := $(SIGNER_CMD_SRCS:%.c=$(O)/%.o)
SIGNER_LIBS     := -lcrypto

$(O)/libelfsig.a: $(SIGNER_LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

# Its exports are versioned (LIBELFSIG_0) by the version script.
$(O)/libelfsig.so.0: $(SIGNER_LIB_OBJS) signer/lib/libelfsig.map
	$(CC) -shared -Wl,-soname,libelfsig.so.0 -Wl,--version-script=signer/lib/libelfsig.map \
		$(LDFLAGS:-pie=) -o $@ $(SIGNER_LIB_OBJS) $(SIGNER_LIBS)

$(O)/libelfsig.so: $(O)/libelfsig.so.0
	ln -sf libelfsig.so.0 $@

$(O)/signelf: $(SIGNER_CMD_OBJS) $(O)/libelfsig.a
	$(CC) $(LDFLAGS) -o $@ $(SIGNER_CMD_OBJS) $(O)/libelfsig.a $(SIGNER_LIBS)

PROGRAMS += $(O)/signelf $(O)/libelfsig.so $(O)/libelfsig.a

SIGNER_SUITES := tests/signer/test-api.sh tests/signer/test-roundtrip.sh \
		 tests/signer/test-tamper.sh tests/signer/test-keys.sh \
		 tests/signer/test-hostile.sh tests/signer/test-inputs.sh \
		 tests/signer/test-tree.sh tests/signer/test-note.sh \
		 tests/signer/test-tree-tpm.sh tests/signer/test-tree-race.sh \
		 tests/signer/test-tree-swap.sh tests/signer/test-metadata.sh \
		 tests/signer/test-names.sh \
		 tests/signer/test-sign-deb.sh tests/signer/test-pkcs11.sh \
		 tests/signer/test-fuzz-replay.sh
CHECK_SUITES  += $(SIGNER_SUITES)
ASAN_SUITES   += $(SIGNER_SUITES)
# The parsers' fuzz harnesses: tests/signer/fuzz/, built by
# tests/fuzz/fuzz.mk (make fuzz-signer; test-fuzz-replay.sh replays them).
