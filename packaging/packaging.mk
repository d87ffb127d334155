# SPDX-License-Identifier: GPL-2.0-only
# packaging/: the project's version, install and the Debian packages.

PACKAGING_SUITES := tests/packaging/version.sh
CHECK_SUITES += $(PACKAGING_SUITES)
ASAN_SUITES  += $(PACKAGING_SUITES)
