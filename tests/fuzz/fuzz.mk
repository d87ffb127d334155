# SPDX-License-Identifier: GPL-2.0-only
# Every component's fuzz harnesses, by one rule (fuzz_harness below): a
# libFuzzer build (make fuzz) and a replay build that make check runs over
# the seeds and every regression input. A component's harnesses live in
# tests/<component>/fuzz/; what they share is here: the replay driver
# (standalone.c), fuzz_common.h, the runner (run-fuzz) and the ELF seed
# corpus (seeds.sh, also the kernel parser's: tests/kfuzz/kfuzz.mk).

FUZZ_SECONDS   ?= 60
FUZZ_CC        ?= clang
FUZZ_DIR       := build/fuzz
FUZZ_FLAGS     := -g -O1 -fsanitize=fuzzer,address,undefined \
		  -fno-sanitize-recover=undefined -D_GNU_SOURCE \
		  -Iinclude -Icommon/lib -Isigner/lib -Itests/fuzz

# $(call fuzz_harness,NAME,HARNESS,SOURCES,ARCHIVES,LIBS,CPPFLAGS):
# $(FUZZ_DIR)/fuzz-NAME, the libFuzzer build of HARNESS with the library
# SOURCES compiled in, and $(O)/fuzz/replay-NAME, HARNESS with standalone.c
# linked against the component's ARCHIVES; both link LIBS, and HARNESS is
# compiled with CPPFLAGS.
define fuzz_harness
$(FUZZ_DIR)/fuzz-$(1): $(2) $(3) tests/fuzz/fuzz_common.h \
		$$(wildcard $(addsuffix *.h,$(sort $(dir $(2) $(3)))))
	@mkdir -p $$(dir $$@)
	$$(FUZZ_CC) $$(FUZZ_FLAGS) $(6) -o $$@ $$< $(3) $(5)

$(O)/fuzz/replay-$(1): $(2:%.c=$(O)/%.o) $(O)/tests/fuzz/standalone.o $(4)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(LDFLAGS) -o $$@ $(2:%.c=$(O)/%.o) $(O)/tests/fuzz/standalone.o $(4) $(5)

$(2:%.c=$(O)/%.o): CPPFLAGS += $(6)
CHECK_PREREQS += $(O)/fuzz/replay-$(1)
endef

$(O)/tests/fuzz/standalone.o: CPPFLAGS += -Isigner/lib -Itests/fuzz

# signer: the ELF parser, the section table, PKCS#7, the rewriter.
SIGNER_FUZZ := elf sections pkcs7 rewrite
$(foreach h,$(SIGNER_FUZZ),$(eval $(call fuzz_harness,$(h),tests/signer/fuzz/fuzz_$(h).c,\
	$(SIGNER_LIB_SRCS) $(COMMON_SRCS),$(O)/libelfsig.a,$(SIGNER_LIBS),-Isigner/lib -Itests/fuzz)))

# tpm: the sealed-object file parser.
$(eval $(call fuzz_harness,tpm-sealed,tests/tpm/fuzz/fuzz_sealed.c,\
	$(TPM_LIB_SRCS) $(COMMON_SRCS),$(O)/libelfsig-tpm.a,$(TPM_LIBS),-Itpm/lib $(TPM_CFLAGS)))

# keyloader: its parsers (policy, certificates, PCR policies, counter...).
$(eval $(call fuzz_harness,keyloader,tests/keyloader/fuzz/fuzz_keyloader.c,\
	$(KL_LIB_SRCS) $(TPM_LIB_SRCS) $(COMMON_ALL_SRCS),\
	$(O)/libelfsig-keyloader.a $(O)/libelfsig-common.a $(O)/libelfsig-tpm.a,\
	$(filter-out $(O)/libelfsig-common.a $(O)/libelfsig-tpm.a,$(KL_LIBS)),\
	-Itpm/lib -Ikeyloader/lib $(KL_CFLAGS)))

.PHONY: fuzz fuzz-build fuzz-signer fuzz-tpm fuzz-keyloader
fuzz-build: $(SIGNER_FUZZ:%=$(FUZZ_DIR)/fuzz-%)

fuzz-signer: deps fuzz-build all
	@tests/fuzz/run-fuzz $(FUZZ_SECONDS) $(SIGNER_FUZZ)

# make fuzz-tpm FUZZ_SECONDS=N: the seeds are the checked-in sealed files.
fuzz-tpm: $(FUZZ_DIR)/fuzz-tpm-sealed
	@mkdir -p build/fuzz/corpus-tpm-sealed
	TSS2_LOG=all+none $(FUZZ_DIR)/fuzz-tpm-sealed -max_total_time=$(FUZZ_SECONDS) \
		-max_len=9000 build/fuzz/corpus-tpm-sealed tests/tpm/data

fuzz-keyloader: $(FUZZ_DIR)/fuzz-keyloader
	@rm -rf build/fuzz/seeds-keyloader
	@bash -c '. tests/keyloader/fuzz/seeds.sh && kl_fuzz_seeds build/fuzz/seeds-keyloader'
	@mkdir -p build/fuzz/corpus-keyloader build/fuzz/crashes/keyloader
	$(FUZZ_DIR)/fuzz-keyloader -max_total_time=$(FUZZ_SECONDS) \
		-max_len=70000 -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix=build/fuzz/crashes/keyloader/ \
		build/fuzz/corpus-keyloader build/fuzz/seeds-keyloader

# make fuzz FUZZ_SECONDS=N: every harness of every component for N seconds
# from its seed corpus (tests/kfuzz/kfuzz.mk adds the kernel's parser).
FUZZ_TARGETS := fuzz-signer fuzz-tpm fuzz-keyloader $(FUZZ_TARGETS)
fuzz: $(FUZZ_TARGETS)

PROGRAMS += $(SIGNER_FUZZ:%=$(O)/fuzz/replay-%)
