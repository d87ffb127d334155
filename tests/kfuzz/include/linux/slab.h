/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shim: the allocator; kmalloc_array fails on overflow as the kernel's
 * does, kvmalloc as kmalloc (no vmalloc fallback to tell apart here).
 */
#ifndef KSHIM_LINUX_SLAB_H
#define KSHIM_LINUX_SLAB_H
#include "../kshim.h"
static inline void *kmalloc(size_t n, int gfp) { return malloc(n); }
static inline void *kmalloc_array(size_t n, size_t size, int gfp)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return malloc(n * size);
}
static inline void kfree(const void *p) { free((void *)p); }
static inline void *kvmalloc(size_t n, int gfp) { return malloc(n); }
static inline void kvfree(const void *p) { free((void *)p); }
#endif
