# SPDX-License-Identifier: GPL-2.0-only
# The kernel's parser (fs/elfsig/parse.c of the patched source in
# build/kernel/src, compiled unmodified against tests/kfuzz/include) under
# libFuzzer + ASan (make fuzz-kernel), and its replay in make check. The
# harness is differential: libelfsig and the kernel must agree.

KSRC_ELFSIG ?= build/kernel/src/fs/elfsig
KFUZZ_CFLAGS := -D_GNU_SOURCE -Itests/kfuzz/include -Iinclude/elfsig \
		-iquote $(KSRC_ELFSIG) -Wno-unused-parameter

$(KSRC_ELFSIG)/parse.c: | kernel-source

$(FUZZ_DIR)/fuzz-kernel-parse: tests/kfuzz/kfuzz.c tests/kfuzz/kfuzz_lib.c tests/kfuzz/kfuzz_view.h \
		$(KSRC_ELFSIG)/parse.c $(SIGNER_LIB_SRCS) $(wildcard tests/kfuzz/include/*/*.h) \
		include/elfsig/uapi/linux/elfsig.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined $(KFUZZ_CFLAGS) \
		-c -o $@.k.o tests/kfuzz/kfuzz.c
	$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined $(KFUZZ_CFLAGS) \
		-c -o $@.p.o $(KSRC_ELFSIG)/parse.c
	$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined $(FUZZ_FLAGS) -o $@ $@.k.o $@.p.o \
		tests/kfuzz/kfuzz_lib.c $(SIGNER_LIB_SRCS) $(COMMON_SRCS) -lcrypto

# Replay build: the ordinary compiler, with ASan + UBSan, no libFuzzer.
$(O)/kfuzz/replay-kernel-parse: tests/kfuzz/kfuzz.c tests/kfuzz/kfuzz_lib.c tests/kfuzz/kfuzz_view.h \
		$(KSRC_ELFSIG)/parse.c tests/fuzz/standalone.c $(O)/libelfsig.a \
		$(wildcard tests/kfuzz/include/*.h tests/kfuzz/include/*/*.h) \
		include/elfsig/uapi/linux/elfsig.h
	@mkdir -p $(dir $@)
	$(CC) -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all \
		$(KFUZZ_CFLAGS) -c -o $@.k.o tests/kfuzz/kfuzz.c
	$(CC) -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all \
		$(KFUZZ_CFLAGS) -c -o $@.p.o $(KSRC_ELFSIG)/parse.c
	$(CC) -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all \
		-D_GNU_SOURCE -Iinclude -Isigner/lib -Itests/fuzz -o $@ $@.k.o $@.p.o \
		tests/kfuzz/kfuzz_lib.c tests/fuzz/standalone.c $(O)/libelfsig.a -lcrypto

.PHONY: fuzz-kernel
fuzz-kernel: deps all $(FUZZ_DIR)/fuzz-kernel-parse
	@tests/fuzz/run-fuzz $(FUZZ_SECONDS) kernel-parse

CHECK_PREREQS += $(O)/kfuzz/replay-kernel-parse
CHECK_SUITES  += tests/kfuzz/test-kfuzz.sh
fuzz: fuzz-kernel
