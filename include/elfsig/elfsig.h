/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * elfsig.h - libelfsig: sign and verify ELF executables (format v1).
 *
 * Every function returns 0 or a negative errno. The human-readable reason
 * for a failure goes through the error callback (elfsig_set_error_callback);
 * the library never prints on its own and never exits. Error codes with a
 * fixed meaning:
 *
 *   -ENOEXEC       not an ELF file, or an ELF file of a kind not signable
 *   -EBADMSG       malformed ELF structure or malformed signature section
 *   -ENODATA       the file has no signature
 *   -ENOKEY        no trusted certificate matches the signer
 *   -EKEYREJECTED  the signature does not verify
 *   -EINVAL        invalid argument (unknown hash name, bad option mix)
 *
 * Anything else is an I/O, resource or crypto-library error.
 */
#ifndef ELFSIG_H
#define ELFSIG_H

#include <stddef.h>
#include <stdint.h>

/* Format v1: the kernel's <linux/elfsig.h>, a verbatim copy. */
#include "uapi/linux/elfsig.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ELFSIG_API __attribute__((visibility("default")))

/* Values of enum hash_algo in <linux/hash_info.h>: part of the format. */
enum elfsig_hash {
	ELFSIG_HASH_SHA256 = ELFSIG_HASH_ALG_SHA256,
	ELFSIG_HASH_SHA384 = ELFSIG_HASH_ALG_SHA384,
	ELFSIG_HASH_SHA512 = ELFSIG_HASH_ALG_SHA512,
};

/* Earlier names of the uapi header's limits. */
#define ELFSIG_MAX_DIGEST	ELFSIG_MAX_DIGEST_SIZE
#define ELFSIG_MESSAGE_HDR	ELFSIG_MESSAGE_HDR_SIZE
#define ELFSIG_MAX_MESSAGE	(ELFSIG_MESSAGE_HDR + ELFSIG_MAX_DIGEST)

/* Flags for signing, attaching and removing. */
#define ELFSIG_ALLOW_INTERP	0x1	/* no effect: files with PT_INTERP are
					 * signed like any other (kept for
					 * compatibility) */
#define ELFSIG_USE_KEYID	0x2	/* identify the signer by SKID */
#define ELFSIG_TREE_FORCE	0x4	/* elfsig_sign_tree(): sign again files
					 * this key already signed */
#define ELFSIG_TREE_CROSS_FS	0x8	/* elfsig_sign_tree(): descend into
					 * other file systems */

typedef void (*elfsig_error_cb)(const char *msg, void *ctx);

/**
 * elfsig_set_error_callback() - route the library's error messages
 * @cb:  called with one line (no trailing newline) per failure; NULL
 *       silences the library
 * @ctx: passed back to @cb
 */
ELFSIG_API void elfsig_set_error_callback(elfsig_error_cb cb, void *ctx);

/**
 * elfsig_hash_from_name() - parse "sha256", "sha384" or "sha512"
 * @name: the name, in any case
 * @hash: out, the algorithm
 * Return: 0 and *@hash set, or -EINVAL.
 */
ELFSIG_API int elfsig_hash_from_name(const char *name, enum elfsig_hash *hash);

/** elfsig_hash_name() - Return: "sha256" etc., or NULL for a bad value. */
ELFSIG_API const char *elfsig_hash_name(enum elfsig_hash hash);

/** elfsig_hash_size() - Return: digest size in bytes, or 0 for a bad value. */
ELFSIG_API size_t elfsig_hash_size(enum elfsig_hash hash);

/**
 * elfsig_image_digest() - compute the image digest of an ELF file
 * @path:   the file
 * @hash:   hash algorithm
 * @digest: out, at least ELFSIG_MAX_DIGEST bytes
 * @size:   out, the digest size
 *
 * Streams the file: memory use does not grow with its size.
 * Return: 0 or a negative errno.
 */
ELFSIG_API int elfsig_image_digest(const char *path, enum elfsig_hash hash,
				   uint8_t *digest, size_t *size);

/**
 * elfsig_build_message() - format the signed message (struct elfsig_message)
 * @hash:   hash algorithm of @digest
 * @digest: the image digest
 * @size:   its size; must match @hash
 * @msg:    out, at least ELFSIG_MAX_MESSAGE bytes
 * @msglen: out, the message size
 * Return: 0 or -EINVAL.
 */
ELFSIG_API int elfsig_build_message(enum elfsig_hash hash, const uint8_t *digest,
				    size_t size, uint8_t *msg, size_t *msglen);

/**
 * elfsig_read_file() - read a whole small regular file
 * @path: the file: a FIFO, device or directory is refused without
 *        blocking (-EINVAL)
 * @max:  the largest size accepted (-EBADMSG above, or if empty)
 * @out:  out, the bytes, to free()
 * @len:  out, how many
 * Return: 0 or a negative errno.
 */
ELFSIG_API int elfsig_read_file(const char *path, size_t max, uint8_t **out,
				size_t *len);

/**
 * elfsig_write_file() - replace a file atomically with some bytes
 * @path: the file; if it exists it must be a regular file (through
 *        symbolic links), never a device, FIFO or directory
 * @buf:  the bytes
 * @len:  how many
 *
 * Written to a temporary file next to @path, synced, made mode 0644 and
 * renamed over @path: a reader sees the old file or the new one, never a
 * part. (For `signelf digest --message`.)
 * Return: 0 or a negative errno.
 */
ELFSIG_API int elfsig_write_file(const char *path, const void *buf, size_t len);

/* A private key loaded through OSSL_STORE, reusable for many signatures. */
struct elfsig_key;

struct elfsig_key_opts {
	const char *key;	 /* OSSL_STORE name: path, handle:..., pkcs11:... */
	const char *const *providers; /* extra OpenSSL providers, NULL-ended */
	const char *tcti;	 /* TCTI for the tpm2 provider, or NULL */
	const char *key_pass;	 /* the key's password or TPM auth value
				  * (may be ""), or NULL: prompt on a
				  * terminal, fail without one */
};

/**
 * elfsig_key_load() - load a private key
 * @opts: the key name, providers, TCTI and password
 * @out:  out, the key (free with elfsig_key_free())
 *
 * The key is opened through OpenSSL's OSSL_STORE, so a file, a TPM handle
 * ("handle:0x81000001", loading the tpm2 provider) or a PKCS#11 URI are
 * all key names. Only the key types of format v1 are accepted: RSA 2048,
 * 3072 or 4096 bits, ECDSA P-256 or P-384.
 * Return: 0 and *@out set, or a negative errno.
 */
ELFSIG_API int elfsig_key_load(const struct elfsig_key_opts *opts,
			       struct elfsig_key **out);

/**
 * elfsig_key_sign_digest() - sign a precomputed digest
 * @key:    from elfsig_key_load()
 * @hash:   the digest's algorithm
 * @digest: the digest
 * @len:    its size (that of @hash)
 * @sig:    out, the signature (malloc'ed, free() it): RSA PKCS#1 v1.5
 *          (the modulus' size), or a DER ECDSA-Sig-Value, as
 *          `openssl pkeyutl -sign` makes them
 * @siglen: out, its size
 * Return: 0 or a negative errno.
 */
ELFSIG_API int elfsig_key_sign_digest(const struct elfsig_key *key,
				      enum elfsig_hash hash,
				      const uint8_t *digest, size_t len,
				      uint8_t **sig, size_t *siglen);

/**
 * elfsig_key_public_der() - the key's public half
 * @key: from elfsig_key_load()
 * @der: out, the DER SubjectPublicKeyInfo (malloc'ed, free() it)
 * @len: out, its size
 * Return: 0 or a negative errno.
 */
ELFSIG_API int elfsig_key_public_der(const struct elfsig_key *key,
				     uint8_t **der, size_t *len);

/** elfsig_key_free() - free a key and unload its providers (NULL is fine). */
ELFSIG_API void elfsig_key_free(struct elfsig_key *key);

/* A loaded private key and its certificate, reusable for many files. */
struct elfsig_signer;

struct elfsig_signer_opts {
	const char *key;	 /* OSSL_STORE name: path, handle:..., pkcs11:... */
	const char *cert;	 /* PEM or DER X.509 certificate */
	enum elfsig_hash hash;	 /* 0 means SHA-256 */
	unsigned int flags;	 /* ELFSIG_USE_KEYID */
	const char *const *providers; /* extra OpenSSL providers, NULL-ended */
	const char *tcti;	 /* TCTI for the tpm2 provider, or NULL */
	const char *key_pass;	 /* the key's password or TPM auth value
				  * (may be ""), or NULL: prompt on a
				  * terminal, fail without one */
};

/**
 * elfsig_signer_load() - load a private key and its certificate
 * @opts: the key, certificate, hash, flags, providers, TCTI and password
 * @out:  out, the loaded signer (free with elfsig_signer_free())
 *
 * The key is opened through OpenSSL's OSSL_STORE, so a file, a TPM handle
 * ("handle:0x81000001", loading the tpm2 provider) or a PKCS#11 URI are all
 * key names. The certificate must hold the key's public half.
 * Return: 0 and *@out set, or a negative errno.
 */
ELFSIG_API int elfsig_signer_load(const struct elfsig_signer_opts *opts,
				  struct elfsig_signer **out);
ELFSIG_API void elfsig_signer_free(struct elfsig_signer *signer);

/**
 * elfsig_sign_file() - sign an ELF file
 * @signer: from elfsig_signer_load()
 * @path:   the input file
 * @out:    output path, or NULL to replace @path atomically
 * @flags:  0 (ELFSIG_ALLOW_INTERP is accepted and ignored)
 *
 * The output is written to a temporary file in the target's directory,
 * hashed there (so what is signed is exactly what lands), synced and
 * renamed over the target; an existing signature is replaced. On failure
 * nothing is left behind and the input is untouched.
 * Return: 0 or a negative errno.
 */
ELFSIG_API int elfsig_sign_file(const struct elfsig_signer *signer,
				const char *path, const char *out,
				unsigned int flags);

/**
 * elfsig_sign_files() - sign many files in place, as one batch
 * @signer:  from elfsig_signer_load()
 * @paths:   the files, replaced atomically as by elfsig_sign_file()
 * @n:       how many
 * @flags:   0 (ELFSIG_ALLOW_INTERP is accepted and ignored)
 * @results: out, @n entries: 0 or a negative errno per file
 *
 * Each file is prepared as by elfsig_sign_file(); then one syncfs() per
 * file system replaces a fsync() per file before the renames. One file's
 * failure does not stop the others.
 * Return: 0, or the first file's error.
 */
ELFSIG_API int elfsig_sign_files(const struct elfsig_signer *signer,
				 const char *const *paths, size_t n,
				 unsigned int flags, int *results);

/* What elfsig_sign_tree() did, file by file. */
struct elfsig_tree_stats {
	size_t signed_files;	/* signed (or signed again) */
	size_t hard_links;	/* more names of a file signed once, linked
				 * to the signed file */
	size_t not_elf;		/* regular files that are not ELF */
	size_t not_loadable;	/* ELF files that are no executable or
				 * library: no PT_LOAD, ET_REL, ET_CORE */
	size_t already_signed;	/* a valid signature by this key and hash */
	size_t not_regular;	/* symbolic links, devices, FIFOs, sockets */
	size_t other_fs;	/* directories on another file system */
	size_t failed;		/* files and directories that failed */
};

/**
 * elfsig_sign_tree() - sign every executable and library below a directory
 * @signer: from elfsig_signer_load(): one key load for the whole tree
 * @dir:    the directory
 * @flags:  ELFSIG_TREE_FORCE, ELFSIG_TREE_CROSS_FS
 * @stats:  out, the counts
 *
 * Walks @dir without following symbolic links and without leaving its
 * file system (unless ELFSIG_TREE_CROSS_FS), and signs every regular ELF
 * file of type ET_EXEC or ET_DYN with a PT_LOAD through the batch path of
 * elfsig_sign_files(): each file replaced atomically, mode, owner and
 * extended attributes kept. Files that already carry a valid signature
 * by the signer's key and hash are left alone unless ELFSIG_TREE_FORCE.
 * A file with several names in the tree is signed once; its other names
 * are then linked to the signed file (atomically, by rename). Directories
 * nested deeper than 128 levels and directory loops are reported and not
 * entered. Every failure is reported in one line naming the file and
 * counted; the walk goes on.
 * Return: 0 if nothing failed, else the first error (a negative errno).
 */
ELFSIG_API int elfsig_sign_tree(const struct elfsig_signer *signer,
				const char *dir, unsigned int flags,
				struct elfsig_tree_stats *stats);

/* What elfsig_sign_deb() did. */
struct elfsig_deb_stats {
	size_t signed_files;	/* ELF members of data.tar signed */
	size_t hard_links;	/* hard-link members naming a signed file */
	size_t other_files;	/* regular members left as they were */
	size_t md5sums_updated;	/* DEBIAN/md5sums lines changed */
};

/**
 * elfsig_sign_deb() - sign every ELF file of a Debian package
 * @signer: from elfsig_signer_load()
 * @path:   the .deb
 * @out:    output path, or NULL to replace @path atomically
 * @stats:  out, the counts, or NULL
 *
 * Every regular member of data.tar that is an ELF executable or library
 * (ET_EXEC or ET_DYN with program headers) is signed as elfsig_sign_file()
 * signs a file; control.tar's md5sums lines of those files are set to
 * their new MD5. Every other byte of both tar streams is kept (headers,
 * modes, owners, order, other members), each stream is compressed again
 * with its own compressor (gzip, xz or zstd, run as programs) and the ar
 * members keep their headers but for the sizes. A package without an ELF
 * member is written unchanged. The output replaces @out atomically.
 * Return: 0, -EBADMSG for a malformed package (one line says where), or
 * another negative errno.
 */
ELFSIG_API int elfsig_sign_deb(const struct elfsig_signer *signer,
			       const char *path, const char *out,
			       struct elfsig_deb_stats *stats);

/**
 * elfsig_attach_file() - store a detached PKCS#7 signature made elsewhere
 * @path:  the input file
 * @out:   output path, or NULL to replace @path atomically
 * @der:   DER PKCS#7 over the message of elfsig_build_message()
 * @len:   its size
 * @flags: 0 (ELFSIG_ALLOW_INTERP is accepted and ignored)
 *
 * Checks that the blob is a detached SignedData naming exactly one signer.
 * Return: 0 or a negative errno.
 */
ELFSIG_API int elfsig_attach_file(const char *path, const char *out,
				  const uint8_t *der, size_t len,
				  unsigned int flags);

/**
 * elfsig_remove_file() - delete the signature section
 * @path: the input file
 * @out:  output path, or NULL to replace @path atomically
 * Return: 0, -ENODATA if the file is not signed, or a negative errno.
 */
ELFSIG_API int elfsig_remove_file(const char *path, const char *out);

/* A set of trusted certificates: what the kernel's .elfsig keyring holds. */
struct elfsig_trust;

/**
 * elfsig_trust_new() - an empty set of trusted certificates
 * @out: out, the set (free with elfsig_trust_free())
 * Return: 0 and *@out set, or -ENOMEM.
 */
ELFSIG_API int elfsig_trust_new(struct elfsig_trust **out);
/** elfsig_trust_add_file() - add every certificate (PEM or DER) in a file. */
ELFSIG_API int elfsig_trust_add_file(struct elfsig_trust *trust, const char *path);
/** elfsig_trust_add_dir() - add *.pem, *.crt, *.cer and *.der files of a directory. */
ELFSIG_API int elfsig_trust_add_dir(struct elfsig_trust *trust, const char *dir);
ELFSIG_API void elfsig_trust_free(struct elfsig_trust *trust);

/* What a signature section says; strings are NUL-terminated. */
struct elfsig_info {
	uint64_t section_offset;
	uint64_t section_size;
	unsigned int section_index;
	enum elfsig_hash hash;		/* image hash = PKCS#7 digest algorithm */
	uint8_t digest[ELFSIG_MAX_DIGEST];	/* image digest, computed now */
	size_t digest_size;
	char issuer[512];		/* signer issuer DN, or "" with SKID */
	char serial[128];		/* hex, or "" */
	char skid[132];			/* hex, or "" */
	char sig_algorithm[48];		/* e.g. "rsaEncryption", "ecdsa-with-SHA256" */
	char signer_subject[512];	/* set by verify: the matching certificate */
	int has_interp;			/* the file has PT_INTERP */
};

/* Where a file's ELFSIG flags note is (uapi/linux/elfsig.h). */
enum elfsig_note_state {
	ELFSIG_NOTE_ABSENT = 0,		/* no ELFSIG flags note */
	ELFSIG_NOTE_COVERED = 1,	/* in a PT_NOTE inside a PT_LOAD's file
					 * bytes: signed, and the kernel
					 * honours it */
	ELFSIG_NOTE_UNCOVERED = 2,	/* only outside every PT_LOAD: not
					 * signed, the kernel ignores it */
};

/**
 * elfsig_read_flags() - read a file's ELFSIG flags note
 * @path:  an ELF executable or library
 * @state: out, where the note is
 * @flags: out, its ELFSIG_FLAG_* word (0 when absent)
 *
 * Every PT_NOTE is parsed as untrusted input: sizes, alignment (4 bytes,
 * 8 where p_align is 8) and bounds are checked.
 * Return: 0; -EBADMSG if a PT_NOTE inside a PT_LOAD is malformed, holds
 * an ELFSIG flags note whose descriptor is not 4 bytes, or two of them;
 * or another negative errno.
 */
ELFSIG_API int elfsig_read_flags(const char *path, enum elfsig_note_state *state,
				 uint32_t *flags);

/**
 * elfsig_read_info() - describe the signature of a file
 * @path: the file
 * @info: out, what its signature says (nothing is verified)
 * Return: 0, -ENODATA if unsigned, or a negative errno.
 */
ELFSIG_API int elfsig_read_info(const char *path, struct elfsig_info *info);

/**
 * elfsig_verify_file() - check a file exactly as the kernel will
 * @trust: trusted certificates
 * @path:  the file
 * @info:  out (may be NULL): what the signature says
 *
 * Return: 0 if valid; -ENODATA if unsigned; -ENOKEY if no trusted
 * certificate matches; -EKEYREJECTED if the signature is bad;
 * -EBADMSG / -ENOEXEC if malformed; else an error.
 */
ELFSIG_API int elfsig_verify_file(const struct elfsig_trust *trust,
				  const char *path, struct elfsig_info *info);

#ifdef __cplusplus
}
#endif
#endif /* ELFSIG_H */
