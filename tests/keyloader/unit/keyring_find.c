// SPDX-License-Identifier: GPL-2.0-only
/*
 * keyring_find.c - unit test of the /proc/keys lookup that finds .elfsig:
 * only a keyring, only the exact name, never two, hostile lines skipped;
 * and of the check that refuses to lock a keyring a whole user shares.
 * Prints the project's PASS/FAIL lines.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kl_keyring.h"

static int failed;

#define LINE(id, type, desc) \
	id " I------     1 perm 1f0b0000     0     0 " type " " desc "\n"

static void check(const char *name, const char *content, int want_err,
		  int32_t want_id)
{
	FILE *f = fmemopen((void *)content, strlen(content), "r");
	int32_t id = 0;
	int err;

	if (!f) {
		printf("FAIL: %s: fmemopen\n", name);
		failed++;
		return;
	}
	err = kl_keyring_find_in(f, ".elfsig", &id);
	fclose(f);
	if (err != want_err || (!err && id != want_id)) {
		printf("FAIL: %s: got %d/%#x, want %d/%#x\n", name, err,
		       (unsigned int)id, want_err, (unsigned int)want_id);
		failed++;
	} else {
		printf("PASS: %s\n", name);
	}
}

static void desc(const char *name, const char *d, int want)
{
	int err = kl_keyring_check_description(d);

	if (err != want) {
		printf("FAIL: %s: got %d, want %d\n", name, err, want);
		failed++;
	} else {
		printf("PASS: %s\n", name);
	}
}

int main(void)
{
	static char longline[4096 + 64];
	static char buf[8192];

	check("keyring: found among others",
	      LINE("1ad6bccc", "keyring  ", ".builtin_trusted_keys: empty")
	      LINE("2a000001", "keyring  ", ".elfsig: 3")
	      LINE("0eeb199a", "asymmetri", "probe: 9679be: X509.rsa 4693240b []"),
	      0, 0x2a000001);
	check("keyring: a key of another type named .elfsig is not it",
	      LINE("2a000002", "user     ", ".elfsig: 5"), -ENOKEY, 0);
	check("keyring: a prefix or longer name is not it",
	      LINE("2a000003", "keyring  ", ".elfsig2: empty")
	      LINE("2a000004", "keyring  ", ".elfsi: empty")
	      LINE("2a000005", "keyring  ", "elfsig: empty"), -ENOKEY, 0);
	check("keyring: two are refused",
	      LINE("2a000006", "keyring  ", ".elfsig: empty")
	      LINE("2a000007", "keyring  ", ".elfsig: empty"), -ENOTUNIQ, 0);
	check("keyring: empty /proc/keys", "", -ENOKEY, 0);
	check("keyring: garbage lines are skipped",
	      "garbage\n\n\n12345\nzz zz zz zz zz zz zz zz zz\n"
	      LINE("2a000008", "keyring  ", ".elfsig: empty"), 0, 0x2a000008);
	check("keyring: serial 0 or above INT32_MAX is skipped",
	      LINE("00000000", "keyring  ", ".elfsig: empty")
	      LINE("ffffffff", "keyring  ", ".elfsig: empty"), -ENOKEY, 0);
	/* An overlong line whose tail looks like the keyring must not match. */
	memset(longline, 'x', sizeof(longline));
	{
		static const char head[] = "2a000009 I------ 1 perm 1f0b0000 0 0 keyring  x";

		memcpy(longline, head, sizeof(head) - 1);
	}
	snprintf(longline + 4000, sizeof(longline) - 4000,
		 "\n" LINE("2a00000a", "keyring  ", ".elfsig: empty"));
	snprintf(buf, sizeof(buf), "%s", longline);
	check("keyring: an overlong line is skipped whole", buf, 0, 0x2a00000a);
	memset(longline, 'x', sizeof(longline) - 1);
	longline[sizeof(longline) - 1] = '\0';
	/* fgets() reads 1023 bytes at a time: the tail of this line would
	 * parse as a line of its own if the lookup did not skip the rest. */
	snprintf(buf, sizeof(buf), "%.1023s" LINE("2a00000b", "keyring  ", ".elfsig: x"),
		 longline);
	check("keyring: a match inside an overlong line is not one", buf,
	      -ENOKEY, 0);
	desc("describe: a keyring of one's own", "keyring;0;0;3f010000;kr-test", 0);
	desc("describe: the .elfsig keyring", "keyring;0;0;3f2f0000;.elfsig", 0);
	desc("describe: a session keyring", "keyring;0;0;3f030000;_ses", 0);
	desc("describe: the user keyring is refused", "keyring;0;65534;1f3f0000;_uid.0", -EINVAL);
	desc("describe: the user-session keyring is refused", "keyring;0;65534;1f3f0000;_uid_ses.0", -EINVAL);
	desc("describe: a persistent keyring is refused", "keyring;0;0;3f3f0000;_persistent.0", -EINVAL);
	desc("describe: not a keyring", "user;0;0;3f010000;_uid.0", -ENOTDIR);
	return 0;
}
