# SPDX-License-Identifier: GPL-2.0-only
# Fuzz harnesses: libFuzzer builds (make fuzz) and replay builds that run
# the seed corpus and every regression input in make check.

FUZZ_HARNESSES := elf sections pkcs7 rewrite
FUZZ_SECONDS   ?= 60
FUZZ_CC        ?= clang
FUZZ_DIR       := build/fuzz
FUZZ_FLAGS     := -g -O1 -fsanitize=fuzzer,address,undefined \
		  -fno-sanitize-recover=undefined -D_GNU_SOURCE \
		  -Iinclude -Icommon/lib -Isigner/lib -Itests/fuzz

REPLAY_BINS := $(FUZZ_HARNESSES:%=$(O)/fuzz/replay-%)

$(O)/fuzz/replay-%: $(O)/tests/fuzz/fuzz_%.o $(O)/tests/fuzz/standalone.o $(O)/libelfsig.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(SIGNER_LIBS)

$(O)/tests/fuzz/%.o: CPPFLAGS += -Isigner/lib -Itests/fuzz

$(FUZZ_DIR)/fuzz-%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.h $(SIGNER_LIB_SRCS) $(COMMON_SRCS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(SIGNER_LIB_SRCS) $(COMMON_SRCS) -lcrypto

.PHONY: fuzz fuzz-build fuzz-signer
fuzz-build: $(FUZZ_HARNESSES:%=$(FUZZ_DIR)/fuzz-%)

fuzz-signer: deps fuzz-build all
	@tests/fuzz/run-fuzz $(FUZZ_SECONDS) $(FUZZ_HARNESSES)

# make fuzz FUZZ_SECONDS=N: every harness of every component (each .mk
# adds its target to FUZZ_TARGETS) for N seconds from its seed corpus.
FUZZ_TARGETS := fuzz-signer $(FUZZ_TARGETS)
fuzz: $(FUZZ_TARGETS)

CHECK_PREREQS += $(REPLAY_BINS)
CHECK_SUITES  += tests/fuzz/test-replay.sh
ASAN_SUITES   += tests/fuzz/test-replay.sh
PROGRAMS      += $(REPLAY_BINS)
