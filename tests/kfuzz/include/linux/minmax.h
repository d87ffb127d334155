/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSHIM_LINUX_MINMAX_H
#define KSHIM_LINUX_MINMAX_H
#define min_t(type, a, b) ((type)(a) < (type)(b) ? (type)(a) : (type)(b))
#define max_t(type, a, b) ((type)(a) > (type)(b) ? (type)(a) : (type)(b))
#endif
