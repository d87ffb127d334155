/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSHIM_CRYPTO_HASH_H
#define KSHIM_CRYPTO_HASH_H
#define HASH_MAX_DIGESTSIZE 64
#endif
