// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_pkcs7.c - the signature blob checks (`signelf attach`) and the
 * format v1 DER shape walker on arbitrary bytes.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elfsig_pkcs7_view view;

	fuzz_quiet();
	/* The DER shape walker alone, then the whole check (OpenSSL first). */
	(void)elfsig_pkcs7_shape(data, size, "fuzz");
	(void)elfsig_pkcs7_check(data, size, "fuzz", &view);
	return 0;
}
