/* SPDX-License-Identifier: GPL-2.0-only */
/* Shim: struct_size(), which saturates at SIZE_MAX as the kernel's does. */
#ifndef KSHIM_LINUX_OVERFLOW_H
#define KSHIM_LINUX_OVERFLOW_H
#include "../kshim.h"
static inline size_t kshim_struct_size(size_t base, size_t n, size_t each)
{
	if (each && n > (SIZE_MAX - base) / each)
		return SIZE_MAX;
	return base + n * each;
}
#define struct_size(p, member, n) \
	kshim_struct_size(sizeof(*(p)), (n), sizeof(*(p)->member))
#endif
