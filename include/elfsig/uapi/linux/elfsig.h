/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * elfsig: signed ELF executables, format v1
 *
 * What a signer and the kernel's verifier (fs/elfsig/) must agree on: the
 * section that carries the signature, the signed message, their limits
 * and the algorithms a signature may use. A signer keeps a verbatim copy
 * of this file. Documentation/admin-guide/elfsig.rst describes the format.
 */
#ifndef _UAPI_LINUX_ELFSIG_H
#define _UAPI_LINUX_ELFSIG_H

#include <linux/types.h>

#define ELFSIG_FORMAT_VERSION	1

/* The section that carries the PKCS#7 signature (DER), and its limit. */
#define ELFSIG_SECTION_NAME	".signature"
#define ELFSIG_MAX_SIG_SIZE	65536

/* The largest program header table a signed file may have, in bytes. */
#define ELFSIG_MAX_PHT_SIZE	65536

/*
 * The signed message: "ELFSIG01", the image digest's algorithm (an
 * ELFSIG_HASH_ALG_* value) and size, both little-endian, then the digest.
 * Only the first ELFSIG_MESSAGE_HDR_SIZE + digest_size bytes are signed.
 */
#define ELFSIG_MAGIC		"ELFSIG01"
#define ELFSIG_MAGIC_LEN	8
#define ELFSIG_MAX_DIGEST_SIZE	64
#define ELFSIG_MESSAGE_HDR_SIZE	12

struct elfsig_message {
	__u8 magic[ELFSIG_MAGIC_LEN];
	__le16 digest_algorithm;
	__le16 digest_size;
	__u8 digest[ELFSIG_MAX_DIGEST_SIZE];
};

/* Image digest algorithms: the values of enum hash_algo, <linux/hash_info.h>. */
#define ELFSIG_HASH_ALG_SHA256	4
#define ELFSIG_HASH_ALG_SHA384	5
#define ELFSIG_HASH_ALG_SHA512	6

/*
 * ELFSIG_HASH_ALGS - every image digest algorithm format v1 allows
 *
 * An array initializer, one entry per algorithm: { ELFSIG_HASH_ALG_*
 * value, name, digest size, the DER contents of its OID and their length,
 * those of the OID of ECDSA with it and their length }. The PKCS#7 digest
 * algorithm is the image digest's algorithm.
 */
#define ELFSIG_HASH_ALGS {						\
	{ ELFSIG_HASH_ALG_SHA256, "sha256", 32,				\
	  "\x60\x86\x48\x01\x65\x03\x04\x02\x01", 9,			\
	  "\x2a\x86\x48\xce\x3d\x04\x03\x02", 8 },			\
	{ ELFSIG_HASH_ALG_SHA384, "sha384", 48,				\
	  "\x60\x86\x48\x01\x65\x03\x04\x02\x02", 9,			\
	  "\x2a\x86\x48\xce\x3d\x04\x03\x03", 8 },			\
	{ ELFSIG_HASH_ALG_SHA512, "sha512", 64,				\
	  "\x60\x86\x48\x01\x65\x03\x04\x02\x03", 9,			\
	  "\x2a\x86\x48\xce\x3d\x04\x03\x04", 8 },			\
}

/* Signature key types. */
#define ELFSIG_KEY_RSA		1	/* RSA, PKCS#1 v1.5 padding */
#define ELFSIG_KEY_ECDSA	2	/* ECDSA on a NIST prime curve */

/*
 * ELFSIG_KEY_ALGS - every signature key format v1 allows
 *
 * An array initializer, one entry per key: { ELFSIG_KEY_* type, the
 * modulus (RSA) or the curve's field (ECDSA) in bits, how a message
 * names it }.
 */
#define ELFSIG_KEY_ALGS {						\
	{ ELFSIG_KEY_RSA, 2048, "RSA-2048" },				\
	{ ELFSIG_KEY_RSA, 3072, "RSA-3072" },				\
	{ ELFSIG_KEY_RSA, 4096, "RSA-4096" },				\
	{ ELFSIG_KEY_ECDSA, 256, "ECDSA P-256" },			\
	{ ELFSIG_KEY_ECDSA, 384, "ECDSA P-384" },			\
}

/*
 * An optional ELF note a signed binary may carry: n_name "ELFSIG", n_type
 * ELFSIG_NOTE_FLAGS, a 4-byte descriptor holding ELFSIG_FLAG_* bits in the
 * file's byte order. It counts only inside a PT_NOTE whose bytes lie in a
 * PT_LOAD's file bytes, so that the image digest covers it; it is put
 * there at link time (the signer cannot add it to a linked file).
 */
#define ELFSIG_NOTE_NAME	"ELFSIG"
#define ELFSIG_NOTE_FLAGS	1

/*
 * The process may map anonymous executable memory (a JIT). Its image is
 * verified at exec as any other, but the process does not get verified
 * status: no ptrace protection, no kexec, nothing that relies on every
 * executable page having been verified.
 */
#define ELFSIG_FLAG_ANON_EXEC	(1U << 0)

#endif /* _UAPI_LINUX_ELFSIG_H */
