#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""kernlog.py - emulate the kernel's elfsig measurement log for host tests.

Writes /sys/kernel/security/elfsig/binary_measurements as the contract in
docs/attestation.md fixes it (IMA's binary_runtime_measurements format,
template "ima-buf", little-endian) and, with --extend, extends the same
template digests into a TPM's PCR in every allocated bank with
tpm2_pcrextend, as the kernel will. It also rewrites logs the way an
attacker would, for the forged-log tests.

  kernlog.py write --log FILE [--pcr 13] [--extend] EVENT...
      init            elfsig-init, "elfsig log v1 pcr=N"
      key=CERT        .elfsig, the certificate's DER (PEM or DER file)
      mode=MODE       elfsig-mode, "mode=MODE"
      lock[=N]        elfsig-lock, "keys=N" (default: the keys so far)
      event=NAME:TEXT any record
      @P:EVENT        the record names (and is extended into) PCR P
  kernlog.py mutate IN OUT OP...
      swap:I:J  drop:I  set-pcr:I:P  set-buf:I:FILE (digests recomputed)
      set-buf-keep:I:FILE (digests kept)  zero-sha1:I  append:EVENT  lie:I
      (record I's template data length becomes 0xfffffff0)
  kernlog.py many --log FILE --count N
      elfsig-init and N-1 mode records (the record-count bound)
"""
import hashlib
import os
import re
import ssl
import struct
import subprocess
import sys

TEMPLATE = b"ima-buf"


class Record:
    def __init__(self, pcr, name, buf, dng=None, sha1=None):
        self.pcr, self.name, self.buf = pcr, name, buf
        self.dng = dng if dng is not None else \
            b"sha256:\0" + hashlib.sha256(buf).digest()
        self._sha1 = sha1

    def tdata(self):
        """The template data: each field as u32 length + bytes."""
        out = b""
        for f in (self.dng, self.name.encode() + b"\0", self.buf):
            out += struct.pack("<I", len(f)) + f
        return out

    def digest(self, alg):
        # ima_calc_field_array_hash: the same bytes as the template data
        return hashlib.new(alg, self.tdata()).digest()

    def sha1(self):
        return self._sha1 if self._sha1 is not None else self.digest("sha1")

    def serialize(self):
        td = self.tdata()
        return (struct.pack("<I", self.pcr) + self.sha1() +
                struct.pack("<I", len(TEMPLATE)) + TEMPLATE +
                struct.pack("<I", len(td)) + td)


def parse(img):
    recs, off = [], 0
    while off < len(img):
        pcr, = struct.unpack_from("<I", img, off)
        sha1 = img[off + 4:off + 24]
        tnl, = struct.unpack_from("<I", img, off + 24)
        off += 28 + tnl
        tdl, = struct.unpack_from("<I", img, off)
        td, off = img[off + 4:off + 4 + tdl], off + 4 + tdl
        fields, t = [], 0
        for _ in range(3):
            n, = struct.unpack_from("<I", td, t)
            fields.append(td[t + 4:t + 4 + n])
            t += 4 + n
        recs.append(Record(pcr, fields[1][:-1].decode(), fields[2],
                           fields[0], sha1))
    return recs


def cert_der(path):
    data = open(path, "rb").read()
    if b"-----BEGIN" in data:
        return ssl.PEM_cert_to_DER_cert(data.decode())
    return data


def event(spec, pcr, nkeys):
    m = re.match(r"@(\d+):(.*)", spec)
    if m:
        pcr, spec = int(m.group(1)), m.group(2)
    if spec == "init":
        return Record(pcr, "elfsig-init", b"elfsig log v1 pcr=%d" % pcr)
    if spec.startswith("key="):
        return Record(pcr, ".elfsig", cert_der(spec[4:]))
    if spec.startswith("mode="):
        return Record(pcr, "elfsig-mode", spec.encode())
    if spec == "lock" or spec.startswith("lock="):
        n = spec[5:] if "=" in spec else str(nkeys)
        return Record(pcr, "elfsig-lock", b"keys=" + n.encode())
    if spec.startswith("event="):
        name, text = spec[6:].split(":", 1)
        return Record(pcr, name, text.encode())
    sys.exit("kernlog.py: unknown event " + spec)


def allocated_banks(pcr):
    out = subprocess.run(["tpm2_getcap", "pcrs"], check=True,
                         capture_output=True, text=True).stdout
    banks = []
    for alg, idx in re.findall(r"-\s*(\w+)\s*:\s*\[([^\]]*)\]", out):
        if str(pcr) in [i.strip() for i in idx.split(",")]:
            banks.append(alg)
    return banks


def extend(rec):
    """What the kernel does per record: every allocated bank, that bank's
    hash of the template data."""
    digests = ",".join("%s=%s" % (b, rec.digest(b).hex())
                       for b in allocated_banks(rec.pcr))
    subprocess.run(["tpm2_pcrextend", "%d:%s" % (rec.pcr, digests)],
                   check=True)


def cmd_write(args):
    log, pcr, do_extend, events = None, 13, False, []
    it = iter(args)
    for a in it:
        if a == "--log":
            log = next(it)
        elif a == "--pcr":
            pcr = int(next(it))
        elif a == "--extend":
            do_extend = True
        else:
            events.append(a)
    recs, nkeys = [], 0
    for spec in events:
        r = event(spec, pcr, nkeys)
        nkeys += r.name == ".elfsig"
        recs.append(r)
        if do_extend:
            extend(r)
    with open(log, "wb") as f:
        f.write(b"".join(r.serialize() for r in recs))


def cmd_mutate(args):
    src, dst, ops = args[0], args[1], args[2:]
    recs = parse(open(src, "rb").read())
    lie = None
    for op in ops:
        kind, _, rest = op.partition(":")
        if kind == "swap":
            i, j = map(int, rest.split(":"))
            recs[i], recs[j] = recs[j], recs[i]
        elif kind == "drop":
            del recs[int(rest)]
        elif kind == "set-pcr":
            i, p = map(int, rest.split(":"))
            recs[i].pcr = p
        elif kind in ("set-buf", "set-buf-keep"):
            i, path = rest.split(":", 1)
            r = recs[int(i)]
            keep = kind == "set-buf-keep"
            recs[int(i)] = Record(r.pcr, r.name, cert_der(path),
                                  r.dng if keep else None,
                                  r.sha1() if keep else None)
        elif kind == "zero-sha1":
            recs[int(rest)]._sha1 = bytes(20)
        elif kind == "append":
            nkeys = sum(r.name == ".elfsig" for r in recs)
            recs.append(event(rest, recs[0].pcr, nkeys))
        elif kind == "lie":
            lie = int(rest)
        else:
            sys.exit("kernlog.py: unknown mutation " + op)
    out = b""
    for i, r in enumerate(recs):
        s = r.serialize()
        if i == lie:	# the template data length field: after 28 + 7 bytes
            s = s[:35] + struct.pack("<I", 0xfffffff0) + s[39:]
        out += s
    with open(dst, "wb") as f:
        f.write(out)


def cmd_many(args):
    log, count = args[args.index("--log") + 1], int(args[args.index("--count") + 1])
    recs = [event("init", 13, 0)] + [event("mode=enforce", 13, 0)] * (count - 1)
    with open(log, "wb") as f:
        f.write(b"".join(r.serialize() for r in recs))


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("write", "mutate", "many"):
        sys.exit(__doc__)
    {"write": cmd_write, "mutate": cmd_mutate, "many": cmd_many}[
        sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    os.umask(0o022)
    main()
