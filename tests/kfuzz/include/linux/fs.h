/* SPDX-License-Identifier: GPL-2.0-only */
/* Shim: a struct file is an fd and the size it had when opened. */
#ifndef KSHIM_LINUX_FS_H
#define KSHIM_LINUX_FS_H
#include "../kshim.h"

struct inode {
	u64 i_size;
};
struct file {
	int fd;
	struct inode inode;
};
struct linux_binprm;
struct key;

static inline struct inode *file_inode(struct file *f) { return &f->inode; }
static inline u64 i_size_read(const struct inode *i) { return i->i_size; }

static inline ssize_t kernel_read(struct file *f, void *buf, size_t len,
				  loff_t *pos)
{
	ssize_t n = pread(f->fd, buf, len, (off_t)*pos);

	if (n < 0)
		return -errno;
	*pos += n;
	return n;
}
#endif
