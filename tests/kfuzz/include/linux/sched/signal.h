/* SPDX-License-Identifier: GPL-2.0-only */
/* Shim: no task here is ever killed. */
#ifndef KSHIM_LINUX_SCHED_SIGNAL_H
#define KSHIM_LINUX_SCHED_SIGNAL_H
#include <stdbool.h>
struct task_struct;
#define current ((struct task_struct *)0)
static inline bool fatal_signal_pending(struct task_struct *p) { return false; }
#endif
