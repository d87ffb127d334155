// SPDX-License-Identifier: GPL-2.0-only
/*
 * elfsig-keyloader.c - elfsig-keyloader: fill the .elfsig keyring with the
 * enrolled certificates, then lock it.
 *
 * One run is a fixed sequence, one function a step:
 *
 *   options -> keyring (and what it holds already) -> inputs (policy
 *           and counter binding signed by the authority) -> TPM (the
 *           epoch: older generations refused; unseal under a signed PCR
 *           policy, compare; raise the epoch) -> select -> add keys ->
 *           measure keys -> lock -> report keys not loaded by this run ->
 *           measure "locked"
 *
 * Nothing reaches the keyring before every check has passed, and every
 * path, error or not, goes through the lock. See docs/keyloader.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

#include <keyutils.h>

#include "kl_cert.h"
#include "kl_counter.h"
#include "kl_enroll.h"
#include "kl_keyring.h"
#include "kl_layout.h"
#include "kl_pcrsig.h"

#define PROG "elfsig-keyloader"
#define SRK_MISMATCH "TPM's storage root key is not the enrolled one (another TPM, a cleared TPM, a substituted key or forged TPM responses): no key loaded"

/* Documented exit statuses (docs/keyloader.md, elfsig-keyloader(8)). */
enum {
	EXIT_LOADED	= KL_EXIT_OK,	/* every enrolled key loaded, keyring locked */
	EXIT_PARTIAL	= KL_EXIT_PARTIAL,	/* some files refused or enrolled certs missing */
	EXIT_USAGE	= KL_EXIT_USAGE,
	EXIT_INPUT	= KL_EXIT_INPUT,	/* policy, sealed object or cert dir unusable */
	EXIT_TPM	= KL_EXIT_TPM,	/* TPM missing, unreachable or failing */
	EXIT_UNSEAL	= KL_EXIT_UNSEAL,	/* PCR state differs from the enrolled one */
	EXIT_POLICY	= KL_EXIT_POLICY,	/* policy or object not the authority's */
	EXIT_KEYRING	= KL_EXIT_KEYRING,	/* keyring missing, already locked, add failed */
	EXIT_UNLOCKED	= KL_EXIT_UNLOCKED,	/* the keyring could NOT be locked */
	EXIT_MEASURE	= KL_EXIT_MEASURE,	/* loaded and locked, measurement incomplete */
	EXIT_TIMEOUT	= KL_EXIT_TIMEOUT,	/* watchdog fired; keyring locked */
	EXIT_SRK	= KL_EXIT_SRK,	/* not the storage root key sealed under */
	EXIT_FOREIGN	= KL_EXIT_FOREIGN,	/* locked, but holding keys this run did not load */
	EXIT_ROLLBACK	= KL_EXIT_ROLLBACK,	/* revoked generation, or the counter disagrees */
};

struct run {
	/* options */
	const char *dir;
	const char *policy_path;
	const char *sig_path;
	const char *sealed_path;
	const char *authority_path;
	const char *pcrpol_dir;
	const char *cert_dir;
	const char *counter_path;	/* the rollback counter binding */
	const char *counter_sig_path;
	const char *pcrsig_dir;		/* systemd .pcrsig files (opt-in) */
	const char *pcrsig_sealed_path;
	const char *pcrsig_key_path;
	uint32_t nv_index;
	const char *keyring_spec;
	const char *event_log;
	const char *kmsg_path;
	const char *tcti;
	uint32_t srk_handle;
	unsigned int timeout;
	bool foreign_warn;	/* --foreign-keys warn: report, keep the status */
	char defaults[KL_NFILES][PATH_MAX];	/* the paths under --dir */
	char counter_sig[PATH_MAX];
	/* inputs */
	uint8_t *policy_buf;
	size_t policy_len;
	uint8_t policy_digest[KL_FP_LEN];
	struct kl_policy policy;
	struct kl_authority authority;
	struct kl_pcr_policy *pcrpols;	/* signed PCR policies, in order */
	size_t npcrpols;
	size_t nusable;			/* the first ones: not revoked */
	struct kl_binding binding;	/* verified, for this TPM */
	uint64_t epoch;			/* the machine's: older is revoked */
	bool policy_verified;	/* signed, and the TPM unsealed the enrolment */
	struct elfsig_tpm_sealed *sealed;
	/* The policy's opt-in: systemd's signed PCR policies (pcrsig). */
	struct kl_pcrsig_key pcrsig_key;
	struct elfsig_tpm_sealed *pcrsig_sealed;
	struct kl_pcrsig_entry *pcrsigs;
	size_t npcrsigs;
	struct elfsig_tpm_opts tpm_opts; /* pinned to the sealed object's SRK */
	struct common_cert *certs;
	size_t ncerts;
	bool *selected;		/* per cert: enrolled and to be loaded */
	/* TPM, keyring, measurement */
	struct elfsig_tpm *tpm;
	bool tpm_tried;
	int32_t keyring;
	bool have_keyring;
	int32_t *loaded_keys;	/* per cert: key serial, 0 if not loaded */
	size_t nloaded;
	struct kl_measure measure;
	size_t nbefore;		/* keys in the keyring before loading */
	/* outcome */
	int status;
	bool locked;
};

static int kmsg_fd = -1;
/* For the watchdog, which may only make async-signal-safe calls. */
static volatile int32_t watchdog_keyring;

/* One line to the console (stderr) and to the kernel log. */
static void __attribute__((format(printf, 2, 3)))
say(int level, const char *fmt, ...)
{
	char msg[1000];
	va_list ap;
	char *c;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	/* File names and subjects come from the image: one line, printable,
	 * so nothing can forge a console or kmsg record. */
	for (c = msg; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	fprintf(stderr, "%s: %s\n", PROG, msg);
	if (kmsg_fd >= 0) {
		/* One write() per record, and not dprintf(): glibc attaches a
		 * FILE with lseek(SEEK_CUR), which /dev/kmsg refuses (EINVAL),
		 * and then silently writes nothing. */
		char rec[1100];
		ssize_t unused;

		n = snprintf(rec, sizeof(rec), "<%d>%s: %s\n", level, PROG, msg);
		if (n > 0)
			unused = write(kmsg_fd, rec, (size_t)n < sizeof(rec) ?
				       (size_t)n : sizeof(rec) - 1);
		(void)unused;
	}
}

static void lib_error(const char *msg, void *ctx)
{
	say(3, "%s", msg);
}

/*
 * Record a failure: the first one decides the status, later ones are only
 * logged (a measurement error after a refused policy must not report
 * "loaded and locked"). Only a keyring that could not be locked
 * (lock_keyring) and the watchdog override it.
 */
static void fail(struct run *r, int status)
{
	if (r->status == EXIT_LOADED)
		r->status = status;
}

static void watchdog(int sig)
{
	static const char msg[] = PROG ": timed out: keyring locked, exiting\n";
	static const char kmsg[] = "<3>" PROG ": timed out: keyring locked, exiting\n";
	ssize_t unused;

	if (watchdog_keyring)
		kl_keyring_lock(watchdog_keyring);
	unused = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	if (kmsg_fd >= 0)
		unused = write(kmsg_fd, kmsg, sizeof(kmsg) - 1);
	(void)unused;
	_exit(EXIT_TIMEOUT);
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: " PROG " [options]\n"
"Load the enrolled certificates into the .elfsig keyring, then lock it.\n"
"\n"
"  -d, --dir DIR         enrolment directory (default /etc/elfsig): the\n"
"                        defaults below are DIR/policy, DIR/policy.sig,\n"
"                        DIR/policy.sealed, DIR/authority.pem,\n"
"                        DIR/pcr-policies, DIR/certs\n"
"  -p, --policy FILE     policy file\n"
"      --signature FILE  the policy's signature (default POLICY.sig)\n"
"  -s, --sealed FILE     sealed object\n"
"      --authority FILE  the enrolment authority's public key (PEM)\n"
"      --pcr-policies DIR  signed PCR policies, tried in name order\n"
"      --counter FILE    the rollback counter binding (default DIR/counter;\n"
"                        its signature FILE.sig)\n"
"      --nv-index H      the rollback counter's NV index (default 0x%08x)\n"
"      --pcrsig DIR      systemd .pcrsig files (default DIR/pcrsig), used\n"
"                        only when the signed policy opts in (pcrsig-key)\n"
"      --pcrsig-sealed FILE  their object (default DIR/pcrsig.sealed)\n"
"      --pcrsig-key FILE the systemd public key (default DIR/pcrsig-key.pem)\n"
"  -c, --certs DIR       certificate directory\n"
"  -k, --keyring ID      target keyring: ID, @s, @u, %%:NAME (default %%:.elfsig)\n"
"  -l, --event-log FILE  event log, appended (default /run/elfsig/keyloader.log;\n"
"                        'none' disables it)\n"
"      --kmsg FILE       kernel log device (default /dev/kmsg; 'none' disables)\n"
"  -T, --tcti TCTI       TPM (default $TPM2TOOLS_TCTI, else device:/dev/tpmrm0)\n"
"      --srk-handle H    persistent SRK handle (default: derive the SRK)\n"
"      --timeout SEC     lock and give up after SEC seconds (default 60, 0: never)\n"
"      --foreign-keys POLICY  a key in the keyring that this run did not\n"
"                        load: 'fail' (default: one line each, exit 12) or\n"
"                        'warn' (one line each, status unchanged)\n"
"  -h, --help            this help\n"
"  -V, --version         print the version and exit (alone only: with other\n"
"                        options it is a bad command line, and the keyring\n"
"                        is locked)\n"
"\n"
"Exit status: 0 loaded, 1 partial, 2 usage, 3 bad input, 4 TPM error,\n"
"5 no signed PCR policy matches, 6 policy or sealed object not the\n"
"authority's, 7 keyring error, 8 keyring NOT locked,\n"
"9 measurement incomplete, 10 timeout, 11 not the enrolled TPM (storage\n"
"root key), 12 locked with keys this run did not load (foreign keys),\n"
"13 rollback: a revoked generation, or the counter disagrees with its binding.\n"
"Every status but 8 leaves the keyring locked.\n", KL_DEFAULT_NV_INDEX);
}

/* DIR/FILE for every path not given (the signature: POLICY.sig). */
static int default_paths(struct run *r)
{
	const char **paths[KL_NFILES] = {
		[KL_FILE_POLICY] = &r->policy_path,
		[KL_FILE_SEALED] = &r->sealed_path,
		[KL_FILE_POLICY_SIG] = &r->sig_path,
		[KL_FILE_AUTHORITY] = &r->authority_path,
		[KL_FILE_COUNTER] = &r->counter_path,
		[KL_FILE_PCRSIG_KEY] = &r->pcrsig_key_path,
		[KL_FILE_PCRSIG_SEALED] = &r->pcrsig_sealed_path,
		[KL_FILE_CERT_DIR] = &r->cert_dir,
		[KL_FILE_PCRPOL_DIR] = &r->pcrpol_dir,
		[KL_FILE_PCRSIG_DIR] = &r->pcrsig_dir,
	};

	if (kl_default_paths(r->dir, paths, r->defaults))
		return -EINVAL;
	if ((size_t)snprintf(r->counter_sig, sizeof(r->counter_sig), "%s.sig",
			     r->counter_path) >= sizeof(r->counter_sig)) {
		say(3, "%s: path too long", r->counter_path);
		return -EINVAL;
	}
	r->counter_sig_path = r->counter_sig;
	return 0;
}

/* Step 1: options. Return: 0, 1 for --help, or -EINVAL. */
static int parse_options(struct run *r, int argc, char **argv)
{
	enum { OPT_KMSG = 256, OPT_SRK, OPT_TIMEOUT, OPT_SIG, OPT_AUTH,
	       OPT_PCRPOL, OPT_FOREIGN, OPT_COUNTER, OPT_NV, OPT_PCRSIG,
	       OPT_PCRSIG_SEALED, OPT_PCRSIG_KEY };
	static const struct option longopts[] = {
		{ "dir",	required_argument, NULL, 'd' },
		{ "policy",	required_argument, NULL, 'p' },
		{ "signature",	required_argument, NULL, OPT_SIG },
		{ "sealed",	required_argument, NULL, 's' },
		{ "authority",	required_argument, NULL, OPT_AUTH },
		{ "pcr-policies", required_argument, NULL, OPT_PCRPOL },
		{ "counter",	required_argument, NULL, OPT_COUNTER },
		{ "pcrsig",	required_argument, NULL, OPT_PCRSIG },
		{ "pcrsig-sealed", required_argument, NULL, OPT_PCRSIG_SEALED },
		{ "pcrsig-key",	required_argument, NULL, OPT_PCRSIG_KEY },
		{ "nv-index",	required_argument, NULL, OPT_NV },
		{ "certs",	required_argument, NULL, 'c' },
		{ "keyring",	required_argument, NULL, 'k' },
		{ "event-log",	required_argument, NULL, 'l' },
		{ "kmsg",	required_argument, NULL, OPT_KMSG },
		{ "tcti",	required_argument, NULL, 'T' },
		{ "srk-handle",	required_argument, NULL, OPT_SRK },
		{ "timeout",	required_argument, NULL, OPT_TIMEOUT },
		{ "foreign-keys", required_argument, NULL, OPT_FOREIGN },
		{ "help",	no_argument,	   NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned long v;
	char *end;
	int opt;

	r->dir = "/etc/elfsig";
	r->keyring_spec = "%:" KL_DEFAULT_KEYRING;
	r->event_log = "/run/elfsig/keyloader.log";
	r->kmsg_path = "/dev/kmsg";
	r->timeout = 60;
	r->nv_index = KL_DEFAULT_NV_INDEX;
	while ((opt = getopt_long(argc, argv, "d:p:s:c:k:l:T:h", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'd': r->dir = optarg; break;
		case 'p': r->policy_path = optarg; break;
		case OPT_SIG: r->sig_path = optarg; break;
		case 's': r->sealed_path = optarg; break;
		case OPT_AUTH: r->authority_path = optarg; break;
		case OPT_PCRPOL: r->pcrpol_dir = optarg; break;
		case OPT_COUNTER: r->counter_path = optarg; break;
		case OPT_PCRSIG: r->pcrsig_dir = optarg; break;
		case OPT_PCRSIG_SEALED: r->pcrsig_sealed_path = optarg; break;
		case OPT_PCRSIG_KEY: r->pcrsig_key_path = optarg; break;
		case OPT_NV:
			errno = 0;
			v = strtoul(optarg, &end, 0);
			if (errno || *end || v < 0x01000000ul || v > 0x01fffffful) {
				say(3, "--nv-index: expected an NV index 0x01xxxxxx");
				return -EINVAL;
			}
			r->nv_index = (uint32_t)v;
			break;
		case 'c': r->cert_dir = optarg; break;
		case 'k': r->keyring_spec = optarg; break;
		case 'l': r->event_log = optarg; break;
		case 'T': r->tcti = optarg; break;
		case OPT_KMSG: r->kmsg_path = optarg; break;
		case OPT_SRK:
			errno = 0;
			v = strtoul(optarg, &end, 0);
			if (errno || *end || v < 0x81000000ul || v > 0x81ffffffUL) {
				say(3, "--srk-handle: expected a persistent handle 0x81xxxxxx");
				return -EINVAL;
			}
			r->srk_handle = (uint32_t)v;
			break;
		case OPT_TIMEOUT:
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || *end || end == optarg || v > 3600) {
				say(3, "--timeout: expected 0..3600 seconds");
				return -EINVAL;
			}
			r->timeout = (unsigned int)v;
			break;
		case OPT_FOREIGN:
			if (strcmp(optarg, "fail") && strcmp(optarg, "warn")) {
				say(3, "--foreign-keys: expected 'fail' or 'warn'");
				return -EINVAL;
			}
			r->foreign_warn = !strcmp(optarg, "warn");
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			return -EINVAL;
		}
	}
	if (optind != argc) {
		say(3, "unexpected argument '%s'", argv[optind]);
		return -EINVAL;
	}
	return default_paths(r);
}

static void open_kmsg(const char *path)
{
	int flags = O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY;

	if (!strcmp(path, "none"))
		return;
	/* Another path (tests) may be a plain file to create; /dev/kmsg is
	 * the kernel's device and is never created by us. */
	if (strcmp(path, "/dev/kmsg"))
		flags |= O_CREAT;
	kmsg_fd = open(path, flags, 0600);
}

/* Step 2: the keyring. Found first, so that every later failure can
 * still lock it. */
static void find_keyring(struct run *r)
{
	int err;

	if (kl_keyring_resolve(r->keyring_spec, &r->keyring)) {
		fail(r, EXIT_KEYRING);
		return;
	}
	r->have_keyring = true;
	watchdog_keyring = r->keyring;
	/* From here on the kernel locks .elfsig however this run ends. */
	err = kl_keyring_arm(r->keyring);
	if (err)
		say(4, "cannot arm the kernel's lock-on-close: %s",
		    strerror(-err));
}

/* "asymmetric 'CN: SKID'" from keyctl_describe()'s
 * "type;uid;gid;perm;description", into @buf. */
static const char *key_words(const struct kl_ring_key *k, char *buf, size_t n)
{
	const char *d = k->desc, *semi;
	int tlen;

	if (!d || !(semi = strchr(d, ';'))) {
		snprintf(buf, n, "(not viewable)");
		return buf;
	}
	tlen = (int)(semi - d);
	snprintf(buf, n, "%.*s '%s'", tlen < 32 ? tlen : 32, d,
		 strrchr(d, ';') + 1);
	return buf;
}

/*
 * A keyring someone filled before this run: its keys are trusted as much
 * as the loader's, and the kernel shows only their descriptions, never
 * their certificates, so none can be checked against the policy. Say so
 * first, before anything is loaded.
 */
static void survey_keyring(struct run *r)
{
	struct kl_ring_key *keys;

	if (!r->have_keyring || kl_keyring_list(r->keyring, &keys, &r->nbefore))
		return;	/* reported after the lock, where it decides */
	if (r->nbefore)
		say(4, "keyring %s already holds %zu key%s before loading (each named after the lock)",
		    r->keyring_spec, r->nbefore, r->nbefore == 1 ? "" : "s");
	kl_ring_keys_free(keys, r->nbefore);
}

static bool loaded_by_us(const struct run *r, int32_t id)
{
	size_t i;

	for (i = 0; r->loaded_keys && i < r->ncerts; i++)
		if (r->loaded_keys[i] == id)
			return true;
	return false;
}

/* --foreign-keys fail: a finding that outranks "loaded" and "partial";
 * an earlier failure keeps its own status (its lines say why). */
static void fail_foreign(struct run *r)
{
	if (!r->foreign_warn &&
	    (r->status == EXIT_LOADED || r->status == EXIT_PARTIAL))
		r->status = EXIT_FOREIGN;
}

/* Step 9: after the lock the keyring's contents are final: every key in
 * it that this run did not add gets a line (an enrolled certificate put
 * there before is replaced by the loader's own add: same description). */
static void report_foreign(struct run *r)
{
	struct kl_ring_key *keys;
	char words[200];
	size_t n, i, nforeign = 0;
	int err;

	if (!r->have_keyring || !r->locked)
		return;
	err = kl_keyring_list(r->keyring, &keys, &n);
	if (err) {
		say(3, "keyring %s: cannot list it (%s): whether it holds keys this run did not load is unknown",
		    r->keyring_spec, strerror(-err));
		fail_foreign(r);
		return;
	}
	for (i = 0; i < n; i++) {
		if (loaded_by_us(r, keys[i].id))
			continue;
		nforeign++;
		say(r->foreign_warn ? 4 : 3,
		    "keyring %s: key %d %s was not loaded by this run: trusted, but not from the enrolment",
		    r->keyring_spec, keys[i].id,
		    key_words(&keys[i], words, sizeof(words)));
	}
	kl_ring_keys_free(keys, n);
	if (nforeign)
		fail_foreign(r);
}

/* The policy must be signed by the configured enrolment authority: the
 * signature over exactly the bytes read, hashed and parsed. */
static void check_signature(struct run *r)
{
	uint8_t *sig = NULL;
	size_t len = 0;
	int err;

	/* A version 1 enrolment has no authority yet: say how to migrate it
	 * before asking for files it cannot have. */
	if (r->policy.version < KL_POLICY_VERSION) {
		kl_policy_check_signature(&r->policy, NULL, 0, NULL, 0, NULL,
					  r->policy_path);
		fail(r, EXIT_INPUT);
		return;
	}
	if (kl_authority_load(r->authority_path, &r->authority) ||
	    kl_read_file(AT_FDCWD, r->sig_path, KL_PCRPOL_MAX_SIG, &sig, &len)) {
		fail(r, EXIT_INPUT);
		return;
	}
	err = kl_policy_check_signature(&r->policy, r->policy_buf,
					r->policy_len, sig, len, &r->authority,
					r->policy_path);
	free(sig);
	if (err == -EBADE) {
		say(3, "%s: not signed by the enrolment authority: no key loaded",
		    r->policy_path);
		fail(r, EXIT_POLICY);
	} else if (err) {
		fail(r, EXIT_INPUT);
	}
}

/*
 * Step 3b: systemd's .pcrsig files, only where the signed policy opts in
 * to one systemd key: that key (pcrsig-key.pem), the object bound to it
 * (pcrsig.sealed) and the entries it signed for the policy's pcrsig
 * PCRs. Without the opt-in the files are named as ignored, one line.
 * Return: 0, -EBADE (not the opted-in key or object) or a negative errno.
 */
/* Does @dir hold a file whose name does not start with a dot? */
static bool dir_has_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool any = false;

	while (d && !any && (e = readdir(d)))
		any = e->d_name[0] != '.';
	if (d)
		closedir(d);
	return any;
}

static int read_pcrsig(struct run *r)
{
	if (!r->policy.pcrsig) {
		if (dir_has_files(r->pcrsig_dir))
			say(4, "%s: systemd .pcrsig files ignored: the signed policy does not accept them (elfsig-enroll pcrsig enable)",
			    r->pcrsig_dir);
		return 0;
	}
	return kl_pcrsig_open(r->pcrsig_dir, r->pcrsig_sealed_path,
			      r->pcrsig_key_path, &r->policy, &r->tpm_opts,
			      &r->pcrsig_key, &r->pcrsig_sealed, &r->pcrsigs,
			      &r->npcrsigs);
}

/* Step 3: every input read once into memory; the policy is hashed from
 * the very bytes that are parsed and whose signature is checked. */
static void read_inputs(struct run *r)
{
	uint8_t *buf;
	size_t len, bad;
	int err;

	if (kl_read_file(AT_FDCWD, r->policy_path, KL_POLICY_MAX_SIZE,
			 &r->policy_buf, &r->policy_len))
		goto bad;
	if (kl_sha256(r->policy_buf, r->policy_len, r->policy_digest))
		goto bad;
	if (kl_policy_parse(r->policy_buf, r->policy_len, r->policy_path,
			    &r->policy))
		goto bad;
	check_signature(r);
	if (r->status != EXIT_LOADED)
		return;
	if (kl_read_file(AT_FDCWD, r->sealed_path, ELFSIG_TPM_MAX_SEALED_FILE,
			 &buf, &len))
		goto bad;
	if (elfsig_tpm_sealed_parse(buf, len, &r->sealed)) {
		free(buf);
		say(3, "%s: not a sealed object", r->sealed_path);
		goto bad;
	}
	free(buf);
	err = kl_sealed_check(r->sealed, r->sealed_path, &r->tpm_opts);
	/* The policy is signed for one machine: the one whose SRK the
	 * object pins (and the TPM must then have). */
	if (!err)
		err = kl_check_machine(r->policy_path, r->policy.srk_name,
				       r->policy.srk_name_len,
				       r->tpm_opts.srk_name,
				       r->tpm_opts.srk_name_len);
	if (err == -EBADE) {
		fail(r, EXIT_POLICY);
		return;
	}
	if (err)
		goto bad;
	/* The binding must be the authority's, for this TPM (the SRK the
	 * object pins) and the configured counter. */
	err = kl_binding_load(r->counter_path, r->counter_sig_path,
			      &r->authority, &r->binding);
	if (!err)
		err = kl_binding_check_machine(&r->binding, r->counter_path,
					       r->tpm_opts.srk_name,
					       r->tpm_opts.srk_name_len,
					       r->nv_index);
	if (err == -EBADE) {
		say(3, "%s: not a rollback counter binding of the configured authority for this TPM: no key loaded",
		    r->counter_path);
		fail(r, EXIT_POLICY);
		return;
	}
	if (err)
		goto bad;
	if (kl_certdir_load(r->cert_dir, &r->certs, &r->ncerts))
		goto bad;
	/* Files refused here get a line each; the others are tried. */
	if (kl_pcr_policies_load(r->pcrpol_dir, &r->policy, &r->authority,
				 &r->pcrpols, &r->npcrpols, &bad))
		goto bad;
	/* A pcrsig file missing or malformed (one line said it) leaves the
	 * authority's own PCR policies; another key or object is status 6. */
	err = read_pcrsig(r);
	if (err == -EBADE) {
		fail(r, EXIT_POLICY);
		return;
	}
	if (err == -ENOMEM)
		goto bad;
	if (err) {
		free(r->pcrsigs);
		r->pcrsigs = NULL;
		r->npcrsigs = 0;
	}
	if (!r->npcrpols && !r->npcrsigs) {
		say(3, "%s: no usable signed PCR policy: no key loaded",
		    r->pcrpol_dir);
		goto bad;
	}
	return;
bad:
	fail(r, EXIT_INPUT);
}

/*
 * The counter answered, and disagrees with its binding (status 13); any
 * other error is the TPM's or the transport's (status 4): slots taken by
 * another TPM user, a response whose HMAC fails, no answer.
 */
static bool counter_disagrees(int err)
{
	return err == -ENOENT || err == -ESTALE || err == -EKEYREJECTED ||
	       err == -ENODATA || err == -ERANGE;
}

/* A TPM fault, in words (the TPM layer's line says which command). */
static const char *tpm_reason(int err)
{
	switch (err) {
	case -ENOSPC:	return "TPM out of object or session slots";
	case -EPERM:	return "TPM authorisation or response authentication failed";
	case -ENODEV:	return "TPM not reachable";
	case -EBUSY:	return "TPM busy or in dictionary-attack lockout";
	default:	return strerror(-err);
	}
}

/*
 * Step 4a: rollback. The epoch is the bound counter minus the binding's
 * base, read through a session salted with the pinned SRK (the TPM
 * authenticates the value). A policy of an older generation loads
 * nothing; PCR policies of an older generation are left out, one line
 * each. Return: 0, or -1 after fail().
 */
static int check_epoch(struct run *r)
{
	uint8_t srk[ELFSIG_TPM_MAX_NAME];
	uint64_t value;
	size_t len;
	int err;

	/* Another TPM says so first (its counter is not this binding's). */
	err = elfsig_tpm_srk_name(r->tpm, srk, &len);
	if (err == -ENOKEY) {
		say(3, "%s", SRK_MISMATCH);
		fail(r, EXIT_SRK);
		return -1;
	}
	if (err) {
		say(3, "storage root key: %s: no key loaded (a TPM fault, not the enrolment's: retry, or see who else uses the TPM)",
		    tpm_reason(err));
		fail(r, EXIT_TPM);
		return -1;
	}
	err = kl_counter_epoch(r->tpm, &r->binding, &value, &r->epoch);
	if (err && !counter_disagrees(err)) {
		say(3, "rollback counter 0x%08x: cannot be read: %s: no key loaded (a TPM fault, not a rollback: retry, or see who else uses the TPM)",
		    r->binding.nv_index, tpm_reason(err));
		fail(r, EXIT_TPM);
		return -1;
	}
	if (err) {
		say(3, "rollback counter 0x%08x: %s: no key loaded (docs/keyloader.md, \"Rollback protection\": the authority binds it again with elfsig-enroll counter)",
		    r->binding.nv_index, kl_counter_reason(err));
		fail(r, EXIT_ROLLBACK);
		return -1;
	}
	if (r->policy.generation < r->epoch) {
		say(3, "%s: generation %u is revoked on this machine (epoch %llu): no key loaded; install the authority's current files (elfsig-enroll resign --generation %llu; elfsig-enroll epoch shows the epoch)",
		    r->policy_path, r->policy.generation,
		    (unsigned long long)r->epoch, (unsigned long long)r->epoch);
		fail(r, EXIT_ROLLBACK);
		return -1;
	}
	r->nusable = kl_pcr_policies_drop_revoked(r->pcrpols, r->npcrpols,
						  r->epoch);
	if (!r->nusable && !r->npcrsigs) {
		say(3, "%s: no signed PCR policy of generation %llu or later: no key loaded; install the authority's current files (elfsig-enroll epoch shows the epoch)",
		    r->pcrpol_dir, (unsigned long long)r->epoch);
		fail(r, EXIT_ROLLBACK);
		return -1;
	}
	return 0;
}

/*
 * No usable PCR policy matched: was it a revoked one that approves this
 * state? Then the refusal is the rollback protection's, and says so. The
 * PCRs are read without authentication: this only picks the status.
 */
static bool revoked_state(struct run *r)
{
	long i = kl_pcr_policies_match(r->tpm, r->pcrpols + r->nusable,
				       r->npcrpols - r->nusable);

	if (i < 0)
		return false;
	say(3, "%s: this PCR state is approved only by a revoked PCR policy (generation %u, epoch %llu): no key loaded",
	    r->pcrpols[r->nusable + (size_t)i].name,
	    r->pcrpols[r->nusable + (size_t)i].generation,
	    (unsigned long long)r->epoch);
	return true;
}

/*
 * Step 4b: files of a newer generation opened the enrolment: raise the
 * epoch to it, so the older ones are refused from now on (a deployment
 * revokes on its first good boot). Never past the PCR policy that opened
 * it, and at most KL_ADVANCE_MAX increments a run. A failure only
 * delays the revocation: the keys still load.
 */
static void advance_epoch(struct run *r, const struct kl_pcr_policy *used)
{
	uint64_t target = r->policy.generation, after;
	int err;

	if (used && used->generation < target)
		target = used->generation;
	if (target <= r->epoch)
		return;
	err = kl_counter_advance(r->tpm, &r->binding, r->epoch, target,
				 KL_ADVANCE_MAX, &after);
	if (err) {
		say(4, "rollback counter 0x%08x: cannot advance it to generation %llu (%s): older files stay valid until it is",
		    r->binding.nv_index, (unsigned long long)target,
		    strerror(-err));
		return;
	}
	if (after < target)
		say(4, "rollback counter 0x%08x: epoch %llu -> %llu of %llu (at most %d increments a run: the rest at the next boots)",
		    r->binding.nv_index, (unsigned long long)r->epoch,
		    (unsigned long long)after, (unsigned long long)target,
		    KL_ADVANCE_MAX);
	else
		say(5, "rollback counter 0x%08x: epoch %llu -> %llu: files of an older generation are refused from now on",
		    r->binding.nv_index, (unsigned long long)r->epoch,
		    (unsigned long long)after);
	r->epoch = after;
}

/* Step 4: the TPM unseals the enrolment only under a PCR policy the
 * authority signed, in a PCR state it approved, and only an object bound
 * to that authority (checked before it is used). The SRK is pinned to the
 * one the object was sealed under, so no other key salts the session and
 * a forged unseal response cannot pass its HMAC. */
static void verify_policy(struct run *r)
{
	size_t used = 0;
	int err;

	r->tpm_tried = true;
	r->tpm_opts.tcti = r->tcti;
	r->tpm_opts.srk_handle = r->srk_handle;
	err = elfsig_tpm_open(&r->tpm_opts, &r->tpm);
	if (err) {
		say(3, "TPM unavailable (%s): no key loaded", strerror(-err));
		r->tpm = NULL;
		fail(r, EXIT_TPM);
		return;
	}
	if (check_epoch(r))
		return;
	err = -EACCES;
	if (r->nusable)
		err = kl_unseal_check(r->tpm, r->sealed, &r->authority,
				      r->pcrpols, r->nusable, &used);
	if (err == -EACCES && r->npcrsigs) {
		/* The opt-in: no elfsig PCR policy matched; systemd's. */
		err = kl_pcrsig_unseal(r->tpm, r->pcrsig_sealed, &r->authority,
				       &r->policy, &r->pcrsig_key, r->pcrsigs,
				       r->npcrsigs, &used);
		if (!err) {
			say(6, "enrolment unsealed under a systemd .pcrsig entry of %s (pcrsig.sealed; outside rollback protection)",
			    r->pcrsig_dir);
			r->policy_verified = true;
			advance_epoch(r, NULL);
			return;
		}
		if (err == -EBADE || err == -EBADMSG) {
			say(3, "%s: not an enrolment of the configured authority: no key loaded",
			    r->pcrsig_sealed_path);
			fail(r, EXIT_POLICY);
			return;
		}
	}
	if (err == -EACCES && revoked_state(r)) {
		fail(r, EXIT_ROLLBACK);
	} else if (err == -EACCES) {
		say(3, "TPM refused to unseal: no signed PCR policy%s matches the current PCR state: no key loaded",
		    r->npcrsigs ? " or systemd .pcrsig entry" : "");
		fail(r, EXIT_UNSEAL);
	} else if (err == -EBADE || err == -EBADMSG) {
		say(3, "%s: not an enrolment of the configured authority: no key loaded",
		    r->sealed_path);
		fail(r, EXIT_POLICY);
	} else if (err == -ENOKEY) {
		say(3, "%s", SRK_MISMATCH);
		fail(r, EXIT_SRK);
	} else if (err) {
		say(3, "unseal failed (%s): no key loaded", strerror(-err));
		fail(r, EXIT_TPM);
	} else {
		say(6, "enrolment unsealed under %s", r->pcrpols[used].name);
		r->policy_verified = true;
		advance_epoch(r, &r->pcrpols[used]);
	}
}

/* Step 5: which certificates may load. Decided in full before any add. */
static void select_certs(struct run *r)
{
	bool *enrolled_found;
	size_t i, j;

	r->selected = calloc(r->ncerts ? r->ncerts : 1, sizeof(*r->selected));
	r->loaded_keys = calloc(r->ncerts ? r->ncerts : 1,
				sizeof(*r->loaded_keys));
	enrolled_found = calloc(r->policy.nkeys ? r->policy.nkeys : 1,
				sizeof(*enrolled_found));
	if (!r->selected || !r->loaded_keys || !enrolled_found) {
		say(3, "out of memory");
		fail(r, EXIT_INPUT);
		free(enrolled_found);
		return;
	}
	for (i = 0; i < r->ncerts; i++) {
		struct common_cert *c = &r->certs[i];
		char hex[2 * KL_FP_LEN + 1];
		long k;

		if (c->error) {
			say(4, "%s/%s: refused: not a certificate", r->cert_dir,
			    c->name);
			fail(r, EXIT_PARTIAL);
			continue;
		}
		k = kl_policy_find(&r->policy, c->fp);
		if (k < 0) {
			common_hex(c->fp, KL_FP_LEN, hex);
			say(4, "%s/%s: refused: not enrolled (sha256:%s, %s)",
			    r->cert_dir, c->name, hex, c->subject);
			fail(r, EXIT_PARTIAL);
			continue;
		}
		if (enrolled_found[k])
			continue;	/* the same certificate twice */
		enrolled_found[k] = true;
		r->selected[i] = true;
	}
	for (j = 0; j < r->policy.nkeys; j++) {
		char hex[2 * KL_FP_LEN + 1];

		if (enrolled_found[j])
			continue;
		common_hex(r->policy.keys[j].fp, KL_FP_LEN, hex);
		say(4, "enrolled certificate sha256:%s (%s) not in %s",
		    hex, r->policy.keys[j].subject ? r->policy.keys[j].subject : "?",
		    r->cert_dir);
		fail(r, EXIT_PARTIAL);
	}
	free(enrolled_found);
}

/* Step 6: add the selected certificates. */
static void add_keys(struct run *r)
{
	size_t i;

	for (i = 0; i < r->ncerts; i++) {
		int err;

		if (!r->selected[i])
			continue;
		err = kl_keyring_add(r->keyring, r->certs[i].der,
				     r->certs[i].der_len, &r->loaded_keys[i]);
		if (err == -EPERM || err == -EACCES) {
			say(3, "keyring %s refuses keys (already locked?): %s",
			    r->keyring_spec, strerror(-err));
			fail(r, EXIT_KEYRING);
			return;
		}
		if (err) {
			say(3, "%s/%s: kernel refused the key: %s", r->cert_dir,
			    r->certs[i].name, strerror(-err));
			fail(r, EXIT_PARTIAL);
			continue;
		}
		r->nloaded++;
	}
}

/* Step 7: one event per loaded key, so the PCR attests what was loaded. */
static void measure_keys(struct run *r)
{
	char ev[128], hex[2 * KL_FP_LEN + 1];
	size_t i;

	for (i = 0; r->loaded_keys && i < r->ncerts; i++) {
		if (!r->loaded_keys[i])
			continue;
		common_hex(r->certs[i].fp, KL_FP_LEN, hex);
		snprintf(ev, sizeof(ev), "elfsig-key sha256:%s", hex);
		if (kl_measure_event(&r->measure, ev)) {
			say(3, "cannot measure key sha256:%s into PCR %u", hex,
			    r->measure.pcr);
			fail(r, EXIT_MEASURE);
			return;
		}
	}
}

/* Step 8: lock. Runs on every path. */
static void lock_keyring(struct run *r)
{
	int err;

	if (!r->have_keyring)
		return;
	err = kl_keyring_lock(r->keyring);
	if (err == -EEXIST) {
		/* Restricted before us: locked, but not by this run. */
		say(3, "keyring %s was already locked", r->keyring_spec);
		fail(r, EXIT_KEYRING);
		r->locked = true;
	} else if (err) {
		say(2, "CANNOT LOCK keyring %s: %s", r->keyring_spec,
		    strerror(-err));
		r->status = EXIT_UNLOCKED;
	} else {
		r->locked = true;
	}
}

/* Step 10: the final event records the outcome, after the lock. */
static void measure_locked(struct run *r)
{
	char ev[96];

	if (!r->measure.tpm)
		return;
	snprintf(ev, sizeof(ev), "elfsig-%s keys=%zu status=%s",
		 r->locked ? "locked" : "unlocked", r->nloaded,
		 kl_exit_word(r->status));
	if (kl_measure_event(&r->measure, ev)) {
		say(3, "cannot measure the final event into PCR %u",
		    r->measure.pcr);
		fail(r, EXIT_MEASURE);
	}
}

static void setup_measure(struct run *r)
{
	r->measure.tpm = r->tpm;
	/* Only a policy the TPM vouched for may choose the PCR: an edited
	 * one must not make the loader extend PCR 0 or 7. */
	r->measure.pcr = r->policy_verified ? r->policy.measure_pcr
					    : KL_DEFAULT_MEASURE_PCR;
	if (!r->measure.kernel_log && kl_kernel_measures()) {
		r->measure.kernel_log = true;
		say(6, "the kernel measures .elfsig (%s): no PCR extended from userspace",
		    KL_KERNEL_LOG);
	}
	if (r->measure.kernel_log)
		return;
	if (r->tpm && r->measure.logfd < 0 && strcmp(r->event_log, "none") &&
	    kl_measure_open_log(&r->measure, r->event_log))
		fail(r, EXIT_MEASURE);
}

/* The outcome is measured whenever the TPM can be reached, failures
 * included: a run that stopped before the TPM step (bad input, no
 * keyring) connects now, after the lock, for its final event. */
static void late_measure_setup(struct run *r)
{
	struct elfsig_tpm_opts opts = {
		.tcti = r->tcti, .srk_handle = r->srk_handle,
	};

	if (r->tpm || r->tpm_tried || r->measure.kernel_log)
		return;
	r->tpm_tried = true;
	if (elfsig_tpm_open(&opts, &r->tpm)) {
		r->tpm = NULL;
		return;
	}
	setup_measure(r);
}

static void cleanup(struct run *r)
{
	kl_measure_close(&r->measure);
	elfsig_tpm_close(r->tpm);
	elfsig_tpm_sealed_free(r->sealed);
	elfsig_tpm_sealed_free(r->pcrsig_sealed);
	kl_pcrsig_key_free(&r->pcrsig_key);
	free(r->pcrsigs);
	kl_policy_free(&r->policy);
	kl_authority_free(&r->authority);
	kl_pcr_policies_free(r->pcrpols, r->npcrpols);
	kl_certs_free(r->certs, r->ncerts);
	free(r->policy_buf);
	free(r->selected);
	free(r->loaded_keys);
}

int main(int argc, char **argv)
{
	struct run r = { .measure = { .logfd = -1 } };
	int ret;

	/*
	 * Only the option alone prints the version and touches nothing:
	 * with anything else it is a bad command line, which still locks.
	 */
	if (common_is_version_request(argc, argv)) {
		common_print_version(PROG);
		return EXIT_LOADED;
	}
	kl_set_error_callback(lib_error, NULL);
	common_set_error_callback(lib_error, NULL);
	elfsig_tpm_set_error_callback(lib_error, NULL);
	/* Our messages say what failed, on the console and in kmsg. */
	common_tss_quiet();
	ret = parse_options(&r, argc, argv);
	if (ret == 1)
		return EXIT_LOADED;
	open_kmsg(r.kmsg_path);
	if (ret < 0) {
		/* Even a bad command line must not leave the keyring open. */
		r.status = EXIT_USAGE;
		say(3, "bad command line (see --help); locking %s",
		    r.keyring_spec);
	}
	if (r.timeout)
		common_arm_alarm(r.timeout, watchdog);

	find_keyring(&r);
	survey_keyring(&r);
	if (r.status == EXIT_LOADED)
		read_inputs(&r);
	if (r.status == EXIT_LOADED)
		verify_policy(&r);
	if (r.status == EXIT_LOADED)
		select_certs(&r);
	if (r.status == EXIT_LOADED || r.status == EXIT_PARTIAL)
		add_keys(&r);
	setup_measure(&r);
	measure_keys(&r);
	lock_keyring(&r);
	report_foreign(&r);
	late_measure_setup(&r);
	measure_locked(&r);
	alarm(0);

	say(r.status == EXIT_LOADED ? 6 : 3,
	    "%zu key%s loaded into %s, keyring %s (exit %d: %s)", r.nloaded,
	    r.nloaded == 1 ? "" : "s", r.keyring_spec,
	    r.locked ? "locked" : "NOT LOCKED", r.status,
	    kl_exit_word(r.status));
	ret = r.status;
	cleanup(&r);
	return ret;
}
