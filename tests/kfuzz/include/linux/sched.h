/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSHIM_LINUX_SCHED_H
#define KSHIM_LINUX_SCHED_H
static inline void cond_resched(void) { }
#endif
