// SPDX-License-Identifier: GPL-2.0-only
/*
 * elfsig-init.c - the initramfs's first process: run the keyloader, then
 * the initramfs's own init.
 *
 * On a signed system the initramfs (made by the system's own
 * update-initramfs) holds signed copies of busybox, the shell and
 * udev. A signed ELF cannot run before .elfsig is locked (it fails with
 * "keyring not locked"), and initramfs-tools' /init is a "#!/bin/sh"
 * script, so the keyloader has to run before it, from a process that is
 * not signed. The initramfs-tools hook elfsig-init installs this program,
 * statically linked and with its signature removed, as /init, the loader
 * (signature removed too) as /usr/sbin/elfsig-keyloader, and the original
 * /init as /init.initramfs-tools. This program
 *   1. mounts /proc, /sys, securityfs and /dev (devtmpfs) for the loader,
 *   2. runs the loader and waits for it (the loader locks .elfsig in
 *      every outcome; if it cannot even be started, this program locks
 *      the keyring itself through /proc/sys/fs/elfsig/lock),
 *   3. moves the loader's event log to /elfsig-run (the initramfs's
 *      /init mounts a tmpfs over /run; the init-top script elfsig-init
 *      copies it back into /run/elfsig),
 *   4. unmounts what it mounted and execs /init.initramfs-tools with
 *      ELFSIG_EARLY=STATUS in the environment.
 * Nothing else runs before the lock: the kernel execs this program as
 * the first process, and it starts no other program than the loader.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define LOADER		"/usr/sbin/elfsig-keyloader"
#define NEXT_INIT	"/init.initramfs-tools"
#define LOCK_SYSCTL	"/proc/sys/fs/elfsig/lock"

static void say(const char *fmt, const char *arg, int err)
{
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	char line[256];

	snprintf(line, sizeof(line), "elfsig-init: %s%s%s%s\n", fmt, arg,
		 err ? ": " : "", err ? strerror(err) : "");
	if (fd >= 0) {
		if (write(fd, line, strlen(line)) < 0)
			fputs(line, stderr);
		close(fd);
	} else {
		fputs(line, stderr);
	}
}

struct mnt {
	const char *src, *dir, *type;
	int done;
};

static struct mnt mounts[] = {
	{ "proc", "/proc", "proc", 0 },
	{ "sysfs", "/sys", "sysfs", 0 },
	{ "securityfs", "/sys/kernel/security", "securityfs", 0 },
	{ "devtmpfs", "/dev", "devtmpfs", 0 },
};
#define NMOUNTS (sizeof(mounts) / sizeof(mounts[0]))

static void mount_all(void)
{
	size_t i;

	for (i = 0; i < NMOUNTS; i++) {
		mkdir(mounts[i].dir, 0755);
		if (mount(mounts[i].src, mounts[i].dir, mounts[i].type,
			  MS_NOSUID | MS_NOEXEC, NULL) == 0)
			mounts[i].done = 1;
		else if (errno != EBUSY)
			say("cannot mount ", mounts[i].dir, errno);
	}
}

static void umount_all(void)
{
	size_t i;

	for (i = NMOUNTS; i-- > 0;)
		if (mounts[i].done && umount2(mounts[i].dir, MNT_DETACH))
			say("cannot unmount ", mounts[i].dir, errno);
}

/* The fallback when the loader cannot run: lock the keyring empty. */
static void lock_keyring(void)
{
	int fd = open(LOCK_SYSCTL, O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, "1\n", 2) != 2)
		say("cannot lock .elfsig through " LOCK_SYSCTL, "", errno);
	if (fd >= 0)
		close(fd);
}

static int run_loader(void)
{
	char *const argv[] = { (char *)LOADER, NULL };
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0) {
		say("cannot fork", "", errno);
		return -1;
	}
	if (pid == 0) {
		execv(LOADER, argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		say("cannot run " LOADER, "", 0);
		return -1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
	char status[16];
	int rc;

	(void)argc;
	mount_all();
	mkdir("/run", 0755);
	mkdir("/run/elfsig", 0755);
	rc = run_loader();
	if (rc < 0) {
		lock_keyring();
		rc = 127;
	} else if (rc) {
		snprintf(status, sizeof(status), "%d", rc);
		say("elfsig-keyloader exited with status ", status, 0);
	}
	if (rename("/run/elfsig", "/elfsig-run") && errno != ENOENT)
		say("cannot move /run/elfsig", "", errno);
	umount_all();

	snprintf(status, sizeof(status), "%d", rc);
	setenv("ELFSIG_EARLY", status, 1);
	argv[0] = (char *)NEXT_INIT;
	execv(NEXT_INIT, argv);
	say("cannot exec " NEXT_INIT, "", errno);
	return 1;
}
