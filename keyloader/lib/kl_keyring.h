/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kl_keyring.h - the .elfsig keyring: find, add, arm, lock, list.
 */
#ifndef ELFSIG_KL_KEYRING_H
#define ELFSIG_KL_KEYRING_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define KL_DEFAULT_KEYRING	".elfsig"

/**
 * kl_keyring_find() - the keyring named @name, from /proc/keys
 * @name: e.g. ".elfsig"
 * @id:   out, its serial
 * Return: 0 and *@id, -ENOKEY if there is none, -ENOTUNIQ if several.
 */
int kl_keyring_find(const char *name, int32_t *id);
/** kl_keyring_find_in() - the same, over a /proc/keys-format stream. */
int kl_keyring_find_in(FILE *f, const char *name, int32_t *id);
/** kl_keyring_resolve() - a keyring ID, "@s"/"@u"/"@us"/"@p"/"@t", or
 * "%:NAME" (found by name); it must be a keyring, and not one that every
 * process of a user shares (kl_keyring_check_description).
 * Return: 0 or a negative errno. */
int kl_keyring_resolve(const char *spec, int32_t *id);
/** kl_keyring_check_description() - @desc as keyctl_describe() gives it:
 * a keyring, not a user's or user-session or persistent keyring (a
 * process without a session keyring gets the user-session one for @s).
 * Return: 0, -ENOTDIR or -EINVAL. */
int kl_keyring_check_description(const char *desc);
/** kl_keyring_add() - add_key("asymmetric", "", der) into @keyring.
 * Return: 0 and *@key, -EPERM when the keyring is locked, or -errno. */
int kl_keyring_add(int32_t keyring, const uint8_t *der, size_t len,
		   int32_t *key);
/** kl_keyring_arm() - for the kernel's .elfsig, open the kernel's
 * lock-on-close file and keep it open: however this process ends, the
 * kernel then locks .elfsig. Nothing for another keyring, or a kernel
 * without the file. Return: 0 or a negative errno. */
int kl_keyring_arm(int32_t keyring);
/** kl_keyring_lock() - lock @keyring: for the kernel's .elfsig,
 * fs.elfsig.lock=1; for any other keyring (or an older kernel),
 * KEYCTL_RESTRICT_KEYRING with no type. Every later add or link is
 * refused. Async-signal-safe. Return: 0, -EEXIST if it already was
 * locked, or a negative errno. */
int kl_keyring_lock(int32_t keyring);

/* A key linked into a keyring, as kl_keyring_list() finds it. */
struct kl_ring_key {
	int32_t id;
	char *desc;	/* "type;uid;gid;perm;description", NULL if not viewable */
};
/**
 * kl_keyring_list() - every key (and keyring) linked into @keyring
 * @keyring: the keyring
 * @keys:    out, in the kernel's order (free with kl_ring_keys_free())
 * @n:       out, how many
 *
 * The kernel shows a key's type and description, never an asymmetric
 * key's certificate: what a key is can be known only by adding it.
 * Return: 0 or a negative errno (the keyring could not be read).
 */
int kl_keyring_list(int32_t keyring, struct kl_ring_key **keys, size_t *n);
void kl_ring_keys_free(struct kl_ring_key *keys, size_t n);

#endif /* ELFSIG_KL_KEYRING_H */
