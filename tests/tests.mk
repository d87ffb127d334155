# SPDX-License-Identifier: GPL-2.0-only
# Host test suites of the signer (the kernel, TPM and loader suites add
# themselves from their own .mk files).

SIGNER_SUITES := tests/signer/test-api.sh tests/signer/test-roundtrip.sh \
		 tests/signer/test-tamper.sh tests/signer/test-keys.sh \
		 tests/signer/test-hostile.sh tests/signer/test-inputs.sh \
		 tests/signer/test-tree.sh tests/signer/test-note.sh \
		 tests/signer/test-tree-tpm.sh tests/signer/test-tree-race.sh \
		 tests/signer/test-tree-swap.sh tests/signer/test-metadata.sh \
		 tests/signer/test-names.sh \
		 tests/signer/test-sign-deb.sh tests/signer/test-pkcs11.sh
CHECK_SUITES  += $(SIGNER_SUITES)
ASAN_SUITES   += $(SIGNER_SUITES)
CHECK_SUITES  += tests/docs/test-man.sh
CHECK_SUITES  += tests/docs/test-drift.sh
# docs/guide.md's shell blocks, run as written against a swtpm.
CHECK_SUITES  += tests/docs/test-guide.sh
# The loader on the patched kernel (needs make kernel: kernel/kernel.mk).
CHECK_SUITES  += tests/keyloader/vm.sh
-include tests/fuzz/fuzz.mk
-include tests/kfuzz/kfuzz.mk
