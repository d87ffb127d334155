/* SPDX-License-Identifier: GPL-2.0-only */
/* error.h - the attest library's error lines (attest_set_error_callback()). */
#ifndef ELFSIG_ATTEST_ERROR_H
#define ELFSIG_ATTEST_ERROR_H

#include "common.h"

void attest_err(const char *fmt, ...)
	__attribute__((format(printf, 1, 2))) COMMON_INTERNAL;
void attest_err_ssl(const char *fmt, ...)
	__attribute__((format(printf, 1, 2))) COMMON_INTERNAL;

#endif
