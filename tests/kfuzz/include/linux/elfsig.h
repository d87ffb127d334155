/* SPDX-License-Identifier: GPL-2.0-only */
/* Shim: the exec hooks are not part of the parser. */
