// SPDX-License-Identifier: GPL-2.0-only
/* error.c - the attest library's error callback and its two reporters. */
#include "attest.h"
#include "error.h"

COMMON_DEFINE_REPORTER(attest_set_error_callback, attest_error_cb, attest_err,
		       attest_err_ssl)
