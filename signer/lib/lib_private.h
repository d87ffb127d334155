/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib_private.h - libelfsig internals shared between its source files.
 */
#ifndef ELFSIG_LIB_PRIVATE_H
#define ELFSIG_LIB_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "elfsig/elfsig.h"

#define ELFSIG_INTERNAL __attribute__((visibility("hidden")))

/* Format v1 limits (docs/format.md). */
#define ELFSIG_MAX_SHSTRTAB	(16u << 20)	/* refuse absurd name tables */
#define ELFSIG_SHN_LORESERVE	0xff00u

/* One program header, decoded to host order. */
struct elfsig_phdr {
	uint32_t type;
	uint32_t flags;
	uint64_t offset;
	uint64_t vaddr;
	uint64_t filesz;
	uint64_t memsz;
	uint64_t align;
};

/* One section header, decoded to host order. */
struct elfsig_shdr {
	uint32_t name;
	uint32_t type;
	uint64_t flags;
	uint64_t addr;
	uint64_t offset;
	uint64_t size;
	uint32_t link;
	uint32_t info;
	uint64_t addralign;
	uint64_t entsize;
};

/* An open, parsed ELF file. Every field was bounds-checked at parse time. */
struct elfsig_elf {
	int fd;
	const char *name;		/* for messages */
	uint64_t size;			/* st_size when parsed */
	struct stat st;

	bool is64;
	bool big_endian;
	uint16_t type;
	uint16_t ehsize;
	uint8_t ehdr[64];		/* raw header, e_ehsize bytes */
	uint8_t nehdr[64];		/* N(ehdr): section fields zeroed */

	uint64_t phoff;
	uint16_t phentsize;
	uint16_t phnum;
	struct elfsig_phdr *phdrs;
	uint64_t load_end;		/* max end of ehdr, PHT and PT_LOADs */
	bool has_interp;

	/* Section table: absent when shnum == 0. */
	uint64_t shoff;
	uint32_t shnum;
	uint32_t shstrndx;
	struct elfsig_shdr *shdrs;
	char *shstrtab;			/* the name table, NUL-terminated copy */
	uint64_t shstrtab_size;

	int sig_index;			/* index of .signature, or -1 */
};

/* elf.c: parse levels. */
enum elfsig_parse {
	ELFSIG_PARSE_SEGMENTS,		/* header and program headers only */
	ELFSIG_PARSE_ALL,		/* also the section table and .signature */
};

int elfsig_elf_open(struct elfsig_elf *elf, const char *path, const char *name,
		    enum elfsig_parse level) ELFSIG_INTERNAL;
int elfsig_elf_parse_fd(struct elfsig_elf *elf, int fd, const char *name,
			enum elfsig_parse level) ELFSIG_INTERNAL;
void elfsig_elf_release(struct elfsig_elf *elf) ELFSIG_INTERNAL;
int elfsig_elf_read_signature(const struct elfsig_elf *elf, uint8_t **der,
			      size_t *len) ELFSIG_INTERNAL;
size_t elfsig_shdr_size(const struct elfsig_elf *elf) ELFSIG_INTERNAL;
void elfsig_encode_shdr(const struct elfsig_elf *elf,
			const struct elfsig_shdr *sh, uint8_t *out) ELFSIG_INTERNAL;
/* A 32-bit field of @elf in its byte order. */
uint32_t elfsig_get32(const struct elfsig_elf *elf, const uint8_t *p) ELFSIG_INTERNAL;
void elfsig_put_half(const struct elfsig_elf *elf, uint8_t *p, uint16_t v) ELFSIG_INTERNAL;
void elfsig_put_off(const struct elfsig_elf *elf, uint8_t *p, uint64_t v) ELFSIG_INTERNAL;

/* algs.c: the algorithms format v1 allows. */
/* In the order of ELFSIG_HASH_ALGS' entries (uapi/linux/elfsig.h). */
struct elfsig_hash_alg {
	enum elfsig_hash hash;
	const char *name;		/* "sha256" */
	size_t size;
	const char *oid;		/* DER content of the digest OID */
	size_t oid_len;
	const char *ecdsa_oid;		/* ecdsa-with-SHA* of this hash */
	size_t ecdsa_oid_len;
};
extern const struct elfsig_hash_alg elfsig_hash_algs[] ELFSIG_INTERNAL;
extern const size_t elfsig_n_hash_algs ELFSIG_INTERNAL;
const struct elfsig_hash_alg *elfsig_hash_alg(enum elfsig_hash hash) ELFSIG_INTERNAL;
const struct elfsig_hash_alg *elfsig_hash_alg_by_nid(int nid) ELFSIG_INTERNAL;
/* OpenSSL's NID of @h (NID_sha256...). */
int elfsig_hash_nid(const struct elfsig_hash_alg *h) ELFSIG_INTERNAL;
/* "sha256, sha384 or sha512". */
const char *elfsig_hash_names(void) ELFSIG_INTERNAL;
struct evp_pkey_st;
struct x509_st;
/* common_key_check() of @cert's key, which must also name its curve by
 * OID, as the kernel's certificate parser requires. */
int elfsig_cert_check(struct x509_st *cert, const char *name) ELFSIG_INTERNAL;
/* key.c: the loaded key, for CMS and certificate checks. */
struct evp_pkey_st *elfsig_key_pkey(const struct elfsig_key *key) ELFSIG_INTERNAL;
/* key.c: the key's name for messages (a PKCS#11 URI's PIN hidden). */
const char *elfsig_key_name(const struct elfsig_key *key) ELFSIG_INTERNAL;
/* The SignerInfo's signature algorithm (OID and parameters, DER content)
 * and value: 0, -EKEYREJECTED outside the table, -EBADMSG if malformed. */
int elfsig_sigalg_check(const uint8_t *oid, size_t oid_len,
			const uint8_t *params, size_t params_len,
			enum elfsig_hash hash, const uint8_t *sig,
			size_t sig_len, const char *name) ELFSIG_INTERNAL;

/* note.c: the ELFSIG flags note of a parsed file (elfsig_read_flags()). */
int elfsig_elf_flags(const struct elfsig_elf *elf, enum elfsig_note_state *state,
		     uint32_t *flags) ELFSIG_INTERNAL;

/* digest.c */
int elfsig_elf_digest(const struct elfsig_elf *elf, enum elfsig_hash hash,
		      uint8_t *digest, size_t *size) ELFSIG_INTERNAL;

/* util.c */
void elfsig_err(const char *fmt, ...)
	__attribute__((format(printf, 1, 2))) ELFSIG_INTERNAL;
void elfsig_err_ssl(const char *fmt, ...)
	__attribute__((format(printf, 1, 2))) ELFSIG_INTERNAL;
void elfsig_mute(bool on) ELFSIG_INTERNAL;
int elfsig_pread_full(int fd, void *buf, size_t len, uint64_t off,
		      const char *name) ELFSIG_INTERNAL;
int elfsig_write_full(int fd, const void *buf, size_t len,
		      const char *name) ELFSIG_INTERNAL;
int elfsig_open_regular(const char *path, const char *name, struct stat *st,
			int not_reg) ELFSIG_INTERNAL;
int elfsig_check_output(const char *path, struct stat *st) ELFSIG_INTERNAL;
int elfsig_read_small_file(const char *path, size_t max, uint8_t **out,
			   size_t *len) ELFSIG_INTERNAL;
bool elfsig_range_ok(uint64_t off, uint64_t len, uint64_t limit) ELFSIG_INTERNAL;
bool elfsig_ranges_overlap(uint64_t a, uint64_t alen, uint64_t b,
			   uint64_t blen) ELFSIG_INTERNAL;
const char *elfsig_basename(const char *path) ELFSIG_INTERNAL;

/* pkcs7.c */
struct elfsig_pkcs7_view {
	enum elfsig_hash hash;
	char issuer[512];
	char serial[128];
	char skid[132];
	char sig_algorithm[48];
};
int elfsig_pkcs7_shape(const uint8_t *der, size_t len,
		       const char *name) ELFSIG_INTERNAL;
int elfsig_pkcs7_check(const uint8_t *der, size_t len, const char *name,
		       struct elfsig_pkcs7_view *view) ELFSIG_INTERNAL;

struct x509_st;
/* Does the open file @fd (@path, for messages) verify against @cert alone,
 * quietly? 0, or a negative errno. */
int elfsig_verify_cert_fd(struct x509_st *cert, int fd, const char *path,
			  struct elfsig_info *info) ELFSIG_INTERNAL;

/* sign.c: is the open file @fd validly signed by this signer's key and
 * hash? */
bool elfsig_signer_owns_fd(const struct elfsig_signer *signer, int fd,
			   const char *path) ELFSIG_INTERNAL;

/* write.c: produce the output file through a temporary file. A NULL
 * callback removes the signature. */
typedef int (*elfsig_make_sig_fn)(void *ctx, const uint8_t *msg, size_t msglen,
				  uint8_t **der, size_t *len);
int elfsig_rewrite(const char *path, const char *out, enum elfsig_hash hash,
		   elfsig_make_sig_fn make_sig, void *ctx,
		   unsigned int flags) ELFSIG_INTERNAL;

/*
 * A finished temporary file waiting to be synced and renamed. Both names
 * are used relative to @dfd, the directory opened once: a directory of the
 * path swapped for a symbolic link later cannot move the rename elsewhere.
 */
struct elfsig_pending {
	int fd;
	int dfd;		/* the directory of both */
	const char *name;	/* the input, for messages */
	char *tmp;		/* the temporary file, for messages */
	char *tmpname;		/* its name in @dfd */
	char *target;		/* what it replaces, for messages */
	char *base;		/* its name in @dfd */
	char *dir;		/* the directory's path */
};

/* A file's identity, as a walk saw it. */
struct elfsig_file_id {
	dev_t dev;
	ino_t ino;
};

/*
 * A file named relative to an open directory: the input is opened there
 * without following a link, must be the file @id, and its replacement is
 * created and renamed in the same directory. Nothing resolves a path.
 */
struct elfsig_at {
	int dfd;
	const char *base;
	struct elfsig_file_id id;
};

int elfsig_rewrite_prepare(const char *path, const char *out,
			   enum elfsig_hash hash, elfsig_make_sig_fn make_sig,
			   void *ctx, unsigned int flags,
			   const struct elfsig_at *at,
			   struct elfsig_pending *pend) ELFSIG_INTERNAL;
/* sign.c: prepare the in-place signing of @at (@path, for messages). */
int elfsig_sign_prepare_at(const struct elfsig_signer *signer,
			   const char *path, const struct elfsig_at *at,
			   struct elfsig_pending *pend) ELFSIG_INTERNAL;
/* How many files to prepare before one sync, @reserve descriptors kept. */
size_t elfsig_batch_size(size_t reserve) ELFSIG_INTERNAL;
/* The largest batch elfsig_batch_size() returns. */
#define ELFSIG_BATCH_MAX	128
int elfsig_open_dir_of(const char *path, char **dir, char **base,
		       int *dfd) ELFSIG_INTERNAL;
int elfsig_tmp_name(int dfd, const char *base, char **name,
		    int (*make)(int dfd, const char *name, void *ctx),
		    void *ctx) ELFSIG_INTERNAL;
int elfsig_pending_create(const char *target, const char *name,
			  struct elfsig_pending *pend) ELFSIG_INTERNAL;
int elfsig_pending_create_at(int dfd, const char *dir, const char *base,
			     const char *target, const char *name,
			     struct elfsig_pending *pend) ELFSIG_INTERNAL;
int elfsig_pending_commit(struct elfsig_pending *pend, bool sync,
			  bool sync_dir) ELFSIG_INTERNAL;
void elfsig_pending_abort(struct elfsig_pending *pend) ELFSIG_INTERNAL;
void elfsig_pending_commit_all(struct elfsig_pending *p, size_t n,
			       int *results) ELFSIG_INTERNAL;

#endif /* ELFSIG_LIB_PRIVATE_H */
