// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * digest.c - the image digest and the signed message of format v1.
 *
 *   digest = H( N(ehdr) || PHT || L_1 || L_2 || ... )
 *
 * The file is streamed through one fixed buffer, so memory use does not
 * depend on the file's size.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "lib_private.h"

#define DIGEST_BUF_SIZE	(256u << 10)

/* Feed file bytes [off, off + len) to @ctx through @buf. */
static int hash_range(const struct elfsig_elf *elf, EVP_MD_CTX *ctx,
		      uint8_t *buf, uint64_t off, uint64_t len)
{
	while (len) {
		size_t chunk = len < DIGEST_BUF_SIZE ? (size_t)len : DIGEST_BUF_SIZE;
		int ret = elfsig_pread_full(elf->fd, buf, chunk, off, elf->name);

		if (ret)
			return ret;
		if (!EVP_DigestUpdate(ctx, buf, chunk)) {
			elfsig_err_ssl("%s: hashing failed", elf->name);
			return -EIO;
		}
		off += chunk;
		len -= chunk;
	}
	return 0;
}

int elfsig_elf_digest(const struct elfsig_elf *elf, enum elfsig_hash hash,
		      uint8_t *digest, size_t *size)
{
	const struct elfsig_hash_alg *h = elfsig_hash_alg(hash);
	const char *alg = h ? h->name : NULL;
	uint64_t pht_size = (uint64_t)elf->phnum * elf->phentsize;
	EVP_MD *md = NULL;
	EVP_MD_CTX *ctx = NULL;
	uint8_t *buf = NULL;
	unsigned int len = 0;
	unsigned int i;
	int ret = -EIO;

	if (!alg) {
		elfsig_err("unsupported hash algorithm %d", (int)hash);
		return -EINVAL;
	}
	/* Prefer the default provider: a TPM provider may offer slow digests. */
	md = EVP_MD_fetch(NULL, alg, "?provider=default");
	ctx = EVP_MD_CTX_new();
	buf = malloc(DIGEST_BUF_SIZE);
	if (!md || !ctx || !buf) {
		elfsig_err_ssl("%s: cannot set up %s", elf->name, alg);
		ret = buf ? -EIO : -ENOMEM;
		goto out;
	}
	(void)posix_fadvise(elf->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	if (!EVP_DigestInit_ex(ctx, md, NULL) ||
	    !EVP_DigestUpdate(ctx, elf->nehdr, elf->ehsize)) {
		elfsig_err_ssl("%s: hashing failed", elf->name);
		goto out;
	}
	ret = hash_range(elf, ctx, buf, elf->phoff, pht_size);
	if (ret)
		goto out;

	for (i = 0; i < elf->phnum; i++) {
		const struct elfsig_phdr *ph = &elf->phdrs[i];
		uint64_t off = ph->offset, left = ph->filesz;

		if (ph->type != PT_LOAD || left == 0)
			continue;
		/* Bytes inside the ELF header are hashed as N(ehdr). */
		if (off < elf->ehsize) {
			uint64_t n = elf->ehsize - off;

			if (n > left)
				n = left;
			if (!EVP_DigestUpdate(ctx, elf->nehdr + off, (size_t)n)) {
				elfsig_err_ssl("%s: hashing failed", elf->name);
				ret = -EIO;
				goto out;
			}
			off += n;
			left -= n;
		}
		ret = hash_range(elf, ctx, buf, off, left);
		if (ret)
			goto out;
	}
	if (!EVP_DigestFinal_ex(ctx, digest, &len)) {
		elfsig_err_ssl("%s: hashing failed", elf->name);
		ret = -EIO;
		goto out;
	}
	*size = len;
	ret = 0;
out:
	free(buf);
	EVP_MD_CTX_free(ctx);
	EVP_MD_free(md);
	return ret;
}

int elfsig_image_digest(const char *path, enum elfsig_hash hash,
			uint8_t *digest, size_t *size)
{
	struct elfsig_elf elf;
	int ret;

	ret = elfsig_elf_open(&elf, path, path, ELFSIG_PARSE_SEGMENTS);
	if (ret)
		return ret;
	ret = elfsig_elf_digest(&elf, hash, digest, size);
	elfsig_elf_release(&elf);
	close(elf.fd);
	return ret;
}

int elfsig_build_message(enum elfsig_hash hash, const uint8_t *digest,
			 size_t size, uint8_t *msg, size_t *msglen)
{
	if (elfsig_hash_size(hash) == 0 || elfsig_hash_size(hash) != size) {
		elfsig_err("digest size %zu does not match hash algorithm %d",
			   size, (int)hash);
		return -EINVAL;
	}
	memcpy(msg, ELFSIG_MAGIC, ELFSIG_MAGIC_LEN);
	msg[8] = (uint8_t)hash;
	msg[9] = (uint8_t)((unsigned int)hash >> 8);
	msg[10] = (uint8_t)size;
	msg[11] = (uint8_t)(size >> 8);
	memcpy(msg + ELFSIG_MESSAGE_HDR, digest, size);
	*msglen = ELFSIG_MESSAGE_HDR + size;
	return 0;
}
