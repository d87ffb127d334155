// SPDX-License-Identifier: GPL-2.0-only
/*
 * fusesrv - a tiny FUSE server for elfsig's QEMU tests, on the raw
 * /dev/fuse protocol (no libfuse): it serves one file's bytes as N files
 * "0".."N-1" (distinct inodes) and can lie about them the ways a hostile
 * server would: a huge size, a size that grows at every request, other
 * bytes the second time a range is read, reads that stall.
 *
 *   fusesrv MNT STATS SRC [-n N] [-s BYTES] [-g BYTES] [-x ALT]
 *           [-w FROM -W TO -r FILE]
 *
 *   -n N      serve N files (default 1)
 *   -s BYTES  report BYTES as the size, not SRC's (reads past SRC's end
 *             give zeroes)
 *   -g BYTES  the size reported grows by BYTES at every READ and GETATTR;
 *             reads past SRC's end give 0xcc bytes
 *   -x ALT    open with direct I/O (every read reaches the server); a READ
 *             that starts below the highest offset already served gets
 *             ALT's bytes instead of SRC's
 *   -w/-W/-r  READs that start in [FROM, TO) get no answer until FILE
 *             exists (checked ten times a second)
 *
 * STATS is rewritten after every request: "reads N bytes N maxend N
 * swapped N stalled N stalledfiles N size N" (READs answered, bytes they
 * returned, the highest offset a READ asked for, READs given ALT's bytes,
 * READs waiting, files with a READ waiting, the size last reported). The server mounts MNT itself and exits when it
 * is unmounted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fuse.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define BUFSZ (1024 * 1024 + 4096)
#define MAXREAD (128 * 1024)
#define MAXSTALL 64

struct stalled {
	uint64_t unique, nodeid, off;
	uint32_t size;
};

static int fuse_fd = -1, src_fd = -1, alt_fd = -1, stats_fd = -1;
static unsigned int nfiles = 1;
static uint64_t src_size, size_fixed, grow, stall_from, stall_to;
static uint64_t n_reads, n_bytes, max_end, n_swapped, cur_size, hiwater;
static const char *release;
static struct stalled stalls[MAXSTALL];
static unsigned int n_stalls;
static unsigned char *rbuf;

/* How many files have a READ waiting. */
static unsigned int stalled_files(void)
{
	unsigned int i, j, n = 0;

	for (i = 0; i < n_stalls; i++) {
		for (j = 0; j < i && stalls[j].nodeid != stalls[i].nodeid; j++)
			;
		n += j == i;
	}
	return n;
}

static void stats(void)
{
	char line[224];
	int n;

	n = snprintf(line, sizeof(line),
		     "reads %llu bytes %llu maxend %llu swapped %llu stalled %u stalledfiles %u size %llu\n",
		     (unsigned long long)n_reads, (unsigned long long)n_bytes,
		     (unsigned long long)max_end, (unsigned long long)n_swapped,
		     n_stalls, stalled_files(), (unsigned long long)cur_size);
	if (pwrite(stats_fd, line, n, 0) != n || ftruncate(stats_fd, n))
		perror("fusesrv: stats");
}

/* One reply: the header and up to one payload. The kernel may refuse it
 * (an interrupted request): that is not the server's concern. */
static void reply(uint64_t unique, int error, const void *data, size_t len)
{
	struct fuse_out_header oh = {
		.len = sizeof(oh) + (error ? 0 : len),
		.error = error,
		.unique = unique,
	};
	struct iovec iov[2] = {
		{ &oh, sizeof(oh) },
		{ (void *)data, error ? 0 : len },
	};

	if (writev(fuse_fd, iov, 2) < 0 && errno != ENOENT)
		perror("fusesrv: reply");
}

static uint64_t file_size(void)
{
	if (grow)
		cur_size += grow;
	return cur_size;
}

static void fill_attr(uint64_t nodeid, struct fuse_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->ino = nodeid;
	a->mtime = a->ctime = a->atime = 1700000000;
	a->blksize = 4096;
	if (nodeid == FUSE_ROOT_ID) {
		a->mode = S_IFDIR | 0755;
		a->nlink = 2;
		return;
	}
	a->mode = S_IFREG | 0755;
	a->nlink = 1;
	a->size = file_size();
	a->blocks = (a->size + 511) / 512;
}

static int valid_file(uint64_t nodeid)
{
	return nodeid >= 2 && nodeid < 2 + (uint64_t)nfiles;
}

/* SRC's bytes (or ALT's), then the filler past their end. */
static ssize_t fill_read(int fd, uint64_t size, uint64_t off, uint32_t len)
{
	uint64_t have = off < size ? size - off : 0;
	ssize_t n = 0;

	if (have > len)
		have = len;
	if (have) {
		n = pread(fd, rbuf, have, off);
		if (n < 0)
			return -errno;
	}
	memset(rbuf + n, grow ? 0xcc : 0, len - n);
	return len;
}

static void do_read(uint64_t unique, uint64_t nodeid, uint64_t off, uint32_t size)
{
	uint64_t end, limit = cur_size;
	ssize_t n;
	int fd = src_fd;
	uint64_t fsize = src_size;

	if (!valid_file(nodeid)) {
		reply(unique, -ENOENT, NULL, 0);
		return;
	}
	if (size > MAXREAD)
		size = MAXREAD;
	if (grow)
		limit = file_size();
	if (off >= limit) {
		reply(unique, 0, NULL, 0);
		return;
	}
	if (size > limit - off)
		size = limit - off;
	end = off + size;
	if (alt_fd >= 0) {
		if (off < hiwater) {
			fd = alt_fd;
			n_swapped++;
		}
		if (end > hiwater)
			hiwater = end;
	}
	if (fd == alt_fd) {
		struct stat st;

		fsize = fstat(alt_fd, &st) ? 0 : (uint64_t)st.st_size;
	}
	n = fill_read(fd, fsize, off, size);
	if (n < 0) {
		reply(unique, (int)n, NULL, 0);
		return;
	}
	n_reads++;
	n_bytes += n;
	if (end > max_end)
		max_end = end;
	reply(unique, 0, rbuf, n);
}

static void release_stalls(void)
{
	unsigned int i;

	if (!n_stalls || access(release, F_OK))
		return;
	for (i = 0; i < n_stalls; i++)
		do_read(stalls[i].unique, stalls[i].nodeid, stalls[i].off,
			stalls[i].size);
	n_stalls = 0;
	stats();
}

static void do_init(uint64_t unique, const struct fuse_init_in *in)
{
	struct fuse_init_out out;

	memset(&out, 0, sizeof(out));
	out.major = FUSE_KERNEL_VERSION;
	out.minor = in->minor < FUSE_KERNEL_MINOR_VERSION ? in->minor :
		    FUSE_KERNEL_MINOR_VERSION;
	/* Readahead of 16 KiB: reads far from what the kernel asked for stay
	 * far from the header reads (the stall window). */
	out.max_readahead = 16384;
	if (grow)
		out.flags = in->flags & FUSE_AUTO_INVAL_DATA;
	out.max_background = 16;
	out.congestion_threshold = 12;
	out.max_write = 4096;
	out.time_gran = 1;
	reply(unique, 0, &out, sizeof(out));
}

static void do_lookup(uint64_t unique, uint64_t parent, const char *name)
{
	struct fuse_entry_out e;
	char *endp;
	unsigned long i;

	i = strtoul(name, &endp, 10);
	if (parent != FUSE_ROOT_ID || !*name || *endp || i >= nfiles) {
		reply(unique, -ENOENT, NULL, 0);
		return;
	}
	memset(&e, 0, sizeof(e));
	e.nodeid = 2 + i;
	e.generation = 1;
	fill_attr(e.nodeid, &e.attr);
	reply(unique, 0, &e, sizeof(e));
}

static int handle(const unsigned char *buf, size_t len)
{
	const struct fuse_in_header *ih = (const void *)buf;
	const void *arg = buf + sizeof(*ih);

	if (len < sizeof(*ih) || ih->len != len)
		return -1;
	switch (ih->opcode) {
	case FUSE_INIT:
		do_init(ih->unique, arg);
		break;
	case FUSE_LOOKUP:
		if (len == sizeof(*ih) || buf[len - 1])
			reply(ih->unique, -EINVAL, NULL, 0);
		else
			do_lookup(ih->unique, ih->nodeid, arg);
		break;
	case FUSE_GETATTR: {
		struct fuse_attr_out ao;

		memset(&ao, 0, sizeof(ao));
		fill_attr(ih->nodeid, &ao.attr);
		reply(ih->unique, 0, &ao, sizeof(ao));
		break;
	}
	case FUSE_OPEN:
	case FUSE_OPENDIR: {
		struct fuse_open_out oo;

		memset(&oo, 0, sizeof(oo));
		if (ih->opcode == FUSE_OPEN && alt_fd >= 0)
			oo.open_flags = FOPEN_DIRECT_IO;
		reply(ih->unique, 0, &oo, sizeof(oo));
		break;
	}
	case FUSE_READ: {
		const struct fuse_read_in *ri = arg;

		if (release && ri->offset >= stall_from && ri->offset < stall_to &&
		    n_stalls < MAXSTALL && access(release, F_OK)) {
			stalls[n_stalls++] = (struct stalled){
				ih->unique, ih->nodeid, ri->offset, ri->size };
			break;
		}
		do_read(ih->unique, ih->nodeid, ri->offset, ri->size);
		break;
	}
	case FUSE_READDIR:
		reply(ih->unique, 0, NULL, 0);
		break;
	case FUSE_STATFS: {
		struct fuse_statfs_out so;

		memset(&so, 0, sizeof(so));
		so.st.bsize = so.st.frsize = 4096;
		so.st.namelen = 255;
		reply(ih->unique, 0, &so, sizeof(so));
		break;
	}
	case FUSE_RELEASE:
	case FUSE_RELEASEDIR:
	case FUSE_FLUSH:
		reply(ih->unique, 0, NULL, 0);
		break;
	case FUSE_FORGET:
	case FUSE_BATCH_FORGET:
	case FUSE_INTERRUPT:	/* the stalled READ is answered later anyway */
		break;
	default:
		reply(ih->unique, -ENOSYS, NULL, 0);
		break;
	}
	return 0;
}

static int usage(void)
{
	fputs("usage: fusesrv MNT STATS SRC [-n N] [-s BYTES] [-g BYTES] [-x ALT]\n"
	      "               [-w FROM -W TO -r FILE]\n", stderr);
	return 2;
}

int main(int argc, char **argv)
{
	const char *mnt, *stats_path, *alt = NULL;
	struct stat st;
	char opts[160];
	int c;

	if (argc < 4)
		return usage();
	mnt = argv[1];
	stats_path = argv[2];
	optind = 4;
	while ((c = getopt(argc, argv, "n:s:g:x:w:W:r:")) != -1) {
		switch (c) {
		case 'n': nfiles = strtoul(optarg, NULL, 0); break;
		case 's': size_fixed = strtoull(optarg, NULL, 0); break;
		case 'g': grow = strtoull(optarg, NULL, 0); break;
		case 'x': alt = optarg; break;
		case 'w': stall_from = strtoull(optarg, NULL, 0); break;
		case 'W': stall_to = strtoull(optarg, NULL, 0); break;
		case 'r': release = optarg; break;
		default: return usage();
		}
	}
	if (!nfiles || nfiles > 1000)
		return usage();
	src_fd = open(argv[3], O_RDONLY);
	if (src_fd < 0 || fstat(src_fd, &st)) {
		perror(argv[3]);
		return 1;
	}
	src_size = st.st_size;
	cur_size = size_fixed ? size_fixed : src_size;
	if (alt) {
		alt_fd = open(alt, O_RDONLY);
		if (alt_fd < 0) {
			perror(alt);
			return 1;
		}
	}
	rbuf = malloc(MAXREAD);
	stats_fd = open(stats_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	fuse_fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (!rbuf || stats_fd < 0 || fuse_fd < 0) {
		perror("fusesrv: /dev/fuse");
		return 1;
	}
	snprintf(opts, sizeof(opts),
		 "fd=%d,rootmode=40000,user_id=0,group_id=0,allow_other,default_permissions",
		 fuse_fd);
	if (mount("fusesrv", mnt, "fuse", MS_NOSUID | MS_NODEV, opts)) {
		perror("fusesrv: mount");
		return 1;
	}
	stats();
	for (;;) {
		static unsigned char buf[BUFSZ];
		struct pollfd p = { .fd = fuse_fd, .events = POLLIN };
		ssize_t n;

		release_stalls();
		if (poll(&p, 1, n_stalls ? 100 : -1) < 0 && errno != EINTR)
			break;
		if (!(p.revents & (POLLIN | POLLERR | POLLHUP)))
			continue;
		n = read(fuse_fd, buf, sizeof(buf));
		if (n < 0) {
			if (errno == EINTR || errno == ENOENT)
				continue;
			if (errno != ENODEV)
				perror("fusesrv: read");
			break;
		}
		if (handle(buf, n))
			break;
		stats();
	}
	return 0;
}
