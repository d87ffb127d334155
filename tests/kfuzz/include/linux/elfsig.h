/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shim: the exec hooks are not part of the parser; format v1 is. The
 * uapi header is the project's copy (include/elfsig/uapi/, on the
 * include path), which tests/kernel/test-series.sh keeps equal to the
 * kernel's.
 */
#include "../kshim.h"
#include <uapi/linux/elfsig.h>
