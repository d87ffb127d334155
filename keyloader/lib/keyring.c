// SPDX-License-Identifier: GPL-2.0-only
/* keyring.c - find the .elfsig keyring, add certificates, lock it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include <keyutils.h>

#include "kl_keyring.h"
#include "kl_util.h"

/*
 * The kernel's .elfsig is locked by the kernel (docs/kernel.md,
 * "Provenance"): fs.elfsig.lock, and a lock-on-close file whose last
 * close locks it however this process ends. Any other keyring (the
 * tests') is locked with KEYCTL_RESTRICT_KEYRING.
 */
#define KL_LOCK_SYSCTL		"/proc/sys/fs/elfsig/lock"
#define KL_SECURITYFS		"/sys/kernel/security"
#define KL_LOCK_ON_CLOSE	KL_SECURITYFS "/elfsig/lock-on-close"

/* The kernel's .elfsig, once kl_keyring_resolve() has met it. */
static int32_t kernel_keyring;
/* Held open until exit: the kernel locks .elfsig when it closes. */
static int armed_fd = -1;

/*
 * /proc/keys lists the keys the caller may view, one a line:
 *   "%08x %s %5d %4s %08x %5d %5d %-9.9s %s: %s"
 *    id   flags usage expiry perm uid gid type description: summary
 * Only the kernel can create a keyring whose name starts with '.', so a
 * match on such a name is the kernel's keyring (keyutils'
 * find_key_by_type_and_desc() resolves "%:.name" the same way).
 */
int kl_keyring_find_in(FILE *f, const char *name, int32_t *id)
{
	char line[1024];
	size_t nlen = strlen(name);
	int found = 0, err = 0;

	while (fgets(line, sizeof(line), f)) {
		char type[16];
		unsigned int kid;
		int off = 0;
		const char *desc;

		if (!strchr(line, '\n') && !feof(f)) {
			int c;

			/* Overlong line: not ours (names are short); skip it. */
			while ((c = fgetc(f)) != EOF && c != '\n')
				;
			continue;
		}
		if (sscanf(line, "%x %*s %*d %*s %*x %*d %*d %15s %n", &kid,
			   type, &off) != 2 || off <= 0)
			continue;
		if (strcmp(type, "keyring") || kid == 0 || kid > INT32_MAX)
			continue;
		desc = line + off;
		if (strncmp(desc, name, nlen) || desc[nlen] != ':')
			continue;
		if (found++) {
			kl_err("keyring %s: more than one in /proc/keys", name);
			err = -ENOTUNIQ;
			break;
		}
		*id = (int32_t)kid;
	}
	if (!err && !found) {
		kl_err("keyring %s: not found (kernel without elfsig support?)",
		       name);
		err = -ENOKEY;
	}
	return err;
}

int kl_keyring_find(const char *name, int32_t *id)
{
	FILE *f;
	int err;

	f = fopen("/proc/keys", "re");
	if (!f) {
		err = -errno;
		kl_err("/proc/keys: %s", strerror(errno));
		return err;
	}
	err = kl_keyring_find_in(f, name, id);
	fclose(f);
	return err;
}

int kl_keyring_check_description(const char *d)
{
	static const char *const shared[] = { "_uid.", "_uid_ses.", "_persistent." };
	const char *name;
	size_t i;

	/* "type;uid;gid;perm;description" */
	if (strncmp(d, "keyring;", 8)) {
		kl_err("'%.60s' is not a keyring", d);
		return -ENOTDIR;
	}
	name = strrchr(d, ';') + 1;
	for (i = 0; i < ARRAY_SIZE(shared); i++) {
		if (!strncmp(name, shared[i], strlen(shared[i]))) {
			kl_err("refusing to lock %.60s: every process of that user shares it (use a keyring of your own, e.g. in a keyctl session)",
			       name);
			return -EINVAL;
		}
	}
	return 0;
}

/* Locking is irreversible: never the keyring a whole user shares. */
static int check_keyring(int32_t id, const char *spec)
{
	char *desc = NULL;
	int err;

	if (keyctl_describe_alloc(id, &desc) < 0) {
		err = -errno;
		kl_err("keyring %s: %s", spec, strerror(errno));
		return err;
	}
	err = kl_keyring_check_description(desc);
	/* Only the kernel can make a keyring whose name starts with '.'. */
	if (!err && !strcmp(strrchr(desc, ';') + 1, KL_DEFAULT_KEYRING))
		kernel_keyring = id;
	free(desc);
	return err;
}

int kl_keyring_resolve(const char *spec, int32_t *id)
{
	static const struct { const char *name; int32_t id; } special[] = {
		{ "@t", KEY_SPEC_THREAD_KEYRING },
		{ "@p", KEY_SPEC_PROCESS_KEYRING },
		{ "@s", KEY_SPEC_SESSION_KEYRING },
		{ "@u", KEY_SPEC_USER_KEYRING },
		{ "@us", KEY_SPEC_USER_SESSION_KEYRING },
	};
	unsigned long v;
	char *end;
	size_t i;
	long r;

	int err;

	if (!strncmp(spec, "%:", 2)) {
		err = kl_keyring_find(spec + 2, id);
		return err ? err : check_keyring(*id, spec);
	}
	for (i = 0; i < ARRAY_SIZE(special); i++) {
		if (strcmp(spec, special[i].name))
			continue;
		r = keyctl_get_keyring_ID(special[i].id, 0);
		if (r < 0) {
			kl_err("keyring %s: %s", spec, strerror(errno));
			return -errno;
		}
		*id = (int32_t)r;
		return check_keyring(*id, spec);
	}
	errno = 0;
	v = strtoul(spec, &end, 0);
	if (errno || end == spec || *end || v == 0 || v > INT32_MAX) {
		kl_err("keyring '%s': expected an ID, @s/@u/@us/@p/@t or %%:NAME",
		       spec);
		return -EINVAL;
	}
	*id = (int32_t)v;
	return check_keyring(*id, spec);
}

int kl_keyring_add(int32_t keyring, const uint8_t *der, size_t len,
		   int32_t *key)
{
	key_serial_t k;

	/* An empty description lets the asymmetric key type name the key
	 * from the certificate (as `keyctl padd asymmetric ""`). */
	k = add_key("asymmetric", "", der, len, keyring);
	if (k < 0)
		return -errno;
	*key = k;
	return 0;
}

int kl_keyring_arm(int32_t keyring)
{
	if (keyring != kernel_keyring || armed_fd >= 0)
		return 0;
	armed_fd = open(KL_LOCK_ON_CLOSE, O_RDONLY | O_CLOEXEC);
	/* An initramfs may not have mounted securityfs yet (systemd does,
	 * initramfs-tools does not): mount it where it belongs. */
	if (armed_fd < 0 && errno == ENOENT &&
	    mount("securityfs", KL_SECURITYFS, "securityfs",
		  MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) == 0)
		armed_fd = open(KL_LOCK_ON_CLOSE, O_RDONLY | O_CLOEXEC);
	if (armed_fd < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

/* Async-signal-safe: the watchdog calls it. */
int kl_keyring_lock(int32_t keyring)
{
	char c = '0';
	int fd;

	if (keyring == kernel_keyring) {
		fd = open(KL_LOCK_SYSCTL, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			if (read(fd, &c, 1) != 1)
				c = '0';
			close(fd);
			if (c == '1')
				return -EEXIST;
			fd = open(KL_LOCK_SYSCTL, O_WRONLY | O_CLOEXEC);
		}
		if (fd >= 0) {
			ssize_t n = write(fd, "1\n", 2);
			int err = n == 2 ? 0 : n < 0 ? -errno : -EIO;

			close(fd);
			return err;
		}
		if (errno != ENOENT)
			return -errno;
		/* A kernel without fs.elfsig.lock: restricting is its lock. */
	}
	if (keyctl_restrict_keyring(keyring, NULL, NULL) < 0)
		return -errno;
	return 0;
}

void kl_ring_keys_free(struct kl_ring_key *keys, size_t n)
{
	size_t i;

	for (i = 0; keys && i < n; i++)
		free(keys[i].desc);
	free(keys);
}

int kl_keyring_list(int32_t keyring, struct kl_ring_key **out, size_t *nout)
{
	struct kl_ring_key *keys = NULL;
	key_serial_t *ids = NULL;
	size_t n, i;
	long len;
	int err;

	*out = NULL;
	*nout = 0;
	len = keyctl_read_alloc(keyring, (void **)&ids);
	if (len < 0) {
		err = -errno;
		kl_err("cannot list keyring %d: %s", keyring, strerror(errno));
		return err;
	}
	n = (size_t)len / sizeof(*ids);
	keys = calloc(n ? n : 1, sizeof(*keys));
	if (!keys) {
		free(ids);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		keys[i].id = ids[i];
		/* "type;uid;gid;perm;description"; a key we may not view
		 * is still listed, by its serial. */
		if (keyctl_describe_alloc(ids[i], &keys[i].desc) < 0)
			keys[i].desc = NULL;
	}
	free(ids);
	*out = keys;
	*nout = n;
	return 0;
}
