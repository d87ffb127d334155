#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Swap a directory with a symbolic link, atomically, over and over.

dirswap.py DIR LINK STOP MAX: renameat2(DIR, LINK, RENAME_EXCHANGE) in a
tight loop until the file STOP exists or MAX swaps are done, then swap
back if needed (DIR is a directory again) and print the number of swaps.
After the first 64 swaps it creates STOP.ready, for the caller to wait on.
Each exchange is one atomic step: at every instant DIR's name is either
the real directory or the link, never missing, as a hostile tree owner
would race a signer.
"""
import ctypes
import os
import sys

AT_FDCWD = -100
RENAME_EXCHANGE = 2


def main():
    d, link, stop, most = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    libc = ctypes.CDLL(None, use_errno=True)
    fn = libc.renameat2
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int,
                   ctypes.c_char_p, ctypes.c_uint]
    a, b = os.fsencode(d), os.fsencode(link)
    n = 0
    while n < most and (n % 64 or not os.path.exists(stop)):
        if fn(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0:
            err = ctypes.get_errno()
            print(f"dirswap: {d}: {os.strerror(err)}", file=sys.stderr)
            return 1
        n += 1
        if n == 64:
            open(stop + ".ready", "w").close()
    if os.path.islink(d):
        fn(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE)
        n += 1
    print(n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
