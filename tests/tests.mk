# SPDX-License-Identifier: GPL-2.0-only
# The documentation's suites, and the fuzz harnesses' build; each
# component lists its own suites in its .mk file.

CHECK_SUITES  += tests/docs/test-man.sh
CHECK_SUITES  += tests/docs/test-drift.sh
# docs/guide.md's shell blocks, run as written against a swtpm.
CHECK_SUITES  += tests/docs/test-guide.sh
-include tests/fuzz/fuzz.mk
-include tests/kfuzz/kfuzz.mk
