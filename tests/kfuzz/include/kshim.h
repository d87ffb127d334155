/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kshim.h - the few kernel types and helpers fs/elfsig/parse.c uses, in
 * userspace, so the kernel's own parser runs under libFuzzer and ASan
 * unmodified (tests/kfuzz/). Only what parse.c needs; nothing more.
 */
#ifndef KSHIM_H
#define KSHIM_H

#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;
typedef uint16_t __le16;
typedef uint32_t __le32;
typedef uint32_t __be32;
typedef long long kernel_loff_t;
#define loff_t kernel_loff_t

#define __packed __attribute__((packed))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define GFP_KERNEL 0
#define PAGE_SIZE 4096UL
/* The kernel's, for a power of two. */
#define __round_mask(x, y) ((__typeof__(x))((y) - 1))
#define round_up(x, y) ((((x) - 1) | __round_mask(x, y)) + 1)
#define be32_to_cpu(x) be32toh(x)
#define le32_to_cpu(x) le32toh(x)
/* The kernel's one-argument form. */
#undef static_assert
#define static_assert(expr, ...) _Static_assert(expr, #expr)

#endif
