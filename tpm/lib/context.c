// SPDX-License-Identifier: LGPL-2.1-or-later
/* context.c - TCTI selection, reachability probe, ESAPI context lifetime. */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <tss2/tss2_rc.h>

#include "tpm_private.h"

#define PROBE_TIMEOUT_MS 3000
#define PROBE_NO_HOST	-1	/* the host name does not resolve */

const char *elfsig_tpm_tcti(const char *explicit_tcti)
{
	const char *env;

	if (explicit_tcti && *explicit_tcti)
		return explicit_tcti;
	env = getenv(ELFSIG_TPM_TCTI_ENV);
	if (env && *env)
		return env;
	return ELFSIG_TPM_DEFAULT_TCTI;
}

/* Value of "key=" in a "name:k=v,k=v" TCTI configuration, copied out. */
static bool tcti_param(const char *conf, const char *key, char *out,
		       size_t outlen)
{
	const char *p = strchr(conf, ':');
	size_t klen = strlen(key);

	if (!p)
		return false;
	for (p++; *p; ) {
		const char *end = strchrnul(p, ',');

		if ((size_t)(end - p) > klen && !strncmp(p, key, klen) &&
		    p[klen] == '=') {
			size_t vlen = end - p - klen - 1;

			if (vlen == 0 || vlen >= outlen)
				return false;
			memcpy(out, p + klen + 1, vlen);
			out[vlen] = '\0';
			return true;
		}
		p = *end ? end + 1 : end;
	}
	return false;
}

static bool tcti_is(const char *conf, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(conf, name, n) && (conf[n] == ':' || conf[n] == '\0');
}

/* A TCP connect with a deadline: 0, a positive errno or PROBE_NO_HOST. */
static int tcp_probe(const char *host, const char *port)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM };
	struct addrinfo *res, *ai;
	int err = EHOSTUNREACH;

	if (getaddrinfo(host, port, &hints, &res))
		return PROBE_NO_HOST;
	for (ai = res; ai; ai = ai->ai_next) {
		struct pollfd pfd;
		socklen_t sl = sizeof(err);
		int fd = socket(ai->ai_family,
				ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
				ai->ai_protocol);

		if (fd < 0) {
			err = errno;
			continue;
		}
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) {
			err = 0;
		} else if (errno != EINPROGRESS) {
			err = errno;
		} else {
			pfd.fd = fd;
			pfd.events = POLLOUT;
			if (poll(&pfd, 1, PROBE_TIMEOUT_MS) != 1)
				err = ETIMEDOUT;
			else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &sl))
				err = errno;
		}
		close(fd);
		if (!err)
			break;
	}
	freeaddrinfo(res);
	return err;
}

/* A Unix socket connect (swtpm's path=): 0 or a positive errno. */
static int unix_probe(const char *path)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd, err = 0;

	if (strlen(path) >= sizeof(sun.sun_path))
		return ENAMETOOLONG;
	strcpy(sun.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return errno;
	/* Non-blocking: a full backlog is EAGAIN, not a wait. That server
	 * is alive, so it is not a reason to give up. */
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) && errno != EAGAIN)
		err = errno;
	close(fd);
	return err;
}

static const char *probe_reason(int err)
{
	return err == PROBE_NO_HOST ? "host name does not resolve" :
	       strerror(err);
}

/* Why the TPM behind @conf cannot be reached: 0 if no reason is found. */
static int tcti_probe(const char *conf)
{
	if (tcti_is(conf, "swtpm") || tcti_is(conf, "mssim")) {
		char host[256], port[16];

		if (tcti_is(conf, "swtpm") && strstr(conf, "path=")) {
			char sock[256];

			if (!tcti_param(conf, "path", sock, sizeof(sock)))
				return ENAMETOOLONG;
			return unix_probe(sock);
		}
		if (!tcti_param(conf, "host", host, sizeof(host)))
			strcpy(host, "localhost");
		if (!tcti_param(conf, "port", port, sizeof(port)))
			strcpy(port, "2321");
		return tcp_probe(host, port);
	}
	if (tcti_is(conf, "device")) {
		const char *p = strchr(conf, ':');
		char path[256];
		int fd;

		if (p && p[1]) {
			if (strlen(p + 1) >= sizeof(path))
				return ENAMETOOLONG;
			strcpy(path, p + 1);
		} else {
			strcpy(path, "/dev/tpm0");
		}
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			return errno;
		close(fd);
	}
	return 0;
}

static bool tcti_known(const char *conf)
{
	static const char *const known[] = {
		"device", "swtpm", "mssim", "tabrmd", "cmd", "pcap",
		"libtpms", "spi-helper", "spi-ltt2go", "i2c-helper",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(known); i++)
		if (tcti_is(conf, known[i]))
			return true;
	return false;
}

int elfsig_tpm_open(const struct elfsig_tpm_opts *opts,
		    struct elfsig_tpm **out)
{
	static const struct elfsig_tpm_opts defaults;
	struct elfsig_tpm *t;
	TSS2_RC rc;
	int err;

	if (!opts)
		opts = &defaults;
	*out = NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->srk = ESYS_TR_NONE;
	t->srk_handle = opts->srk_handle;
	if (opts->srk_name_len) {
		if (!opts->srk_name ||
		    opts->srk_name_len > sizeof(t->srk_name)) {
			tpm_err("pinned storage root key name: invalid length %zu",
				opts->srk_name_len);
			free(t);
			return -EINVAL;
		}
		memcpy(t->srk_name, opts->srk_name, opts->srk_name_len);
		t->srk_name_len = opts->srk_name_len;
	}
	t->tcti_conf = strdup(elfsig_tpm_tcti(opts->tcti));
	if (!t->tcti_conf) {
		free(t);
		return -ENOMEM;
	}
	if (tcti_is(t->tcti_conf, "swtpm") || tcti_is(t->tcti_conf, "mssim")) {
		err = tcti_probe(t->tcti_conf);
		if (err) {
			tpm_err("TPM not reachable at %s: %s", t->tcti_conf,
				probe_reason(err));
			elfsig_tpm_close(t);
			return -ENODEV;
		}
	}
	rc = Tss2_TctiLdr_Initialize(t->tcti_conf, &t->tcti);
	if (rc != TSS2_RC_SUCCESS) {
		t->tcti = NULL;
		if (!tcti_known(t->tcti_conf))
			tpm_err("TPM not reachable: unknown TCTI '%s' (expected e.g. device:/dev/tpmrm0 or swtpm:host=H,port=P)",
				t->tcti_conf);
		else if ((err = tcti_probe(t->tcti_conf)))
			tpm_err("TPM not reachable at %s: %s", t->tcti_conf,
				probe_reason(err));
		else
			tpm_err("TPM not reachable at %s: cannot initialise the TCTI (%s)",
				t->tcti_conf, Tss2_RC_Decode(rc));
		elfsig_tpm_close(t);
		return -ENODEV;
	}
	rc = Esys_Initialize(&t->esys, t->tcti, NULL);
	if (rc != TSS2_RC_SUCCESS) {
		t->esys = NULL;
		tpm_err("TPM not reachable at %s: %s", t->tcti_conf,
			Tss2_RC_Decode(rc));
		elfsig_tpm_close(t);
		return -ENODEV;
	}
	*out = t;
	return 0;
}

void elfsig_tpm_close(struct elfsig_tpm *t)
{
	if (!t)
		return;
	if (t->esys) {
		if (t->srk_transient)
			tpm_flush(t, &t->srk, true);
		else if (t->srk != ESYS_TR_NONE)
			Esys_TR_Close(t->esys, &t->srk);
		Esys_Finalize(&t->esys);
	}
	if (t->tcti)
		Tss2_TctiLdr_Finalize(&t->tcti);
	free(t->tcti_conf);
	free(t);
}
