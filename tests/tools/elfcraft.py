#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""elfcraft.py - test tooling that reads and crafts ELF files.

Independent of libelfsig on purpose: the tests check the C code against a
second reading of the format.

  elfcraft.py fields FILE            signed fields, one "what offset size" a line
  elfcraft.py digest FILE [HASH]     image digest (format v1), hex
  elfcraft.py hostile SIGNED OUTDIR  write hostile variants of a signed file
  elfcraft.py synth OUT SIZE_MIB     a synthetic ELF64 with SIZE_MIB of PT_LOAD
  elfcraft.py notes FILE OUTDIR      variants of FILE whose ELFSIG note segment
                                     is rewritten (docs/format.md, section 5)
  elfcraft.py setsig FILE DER        replace FILE's .signature bytes with DER
                                     (of the same length), in place
  elfcraft.py bsstail OUT            a static x86-64 program (exit 0) whose
                                     executable PT_LOAD has 3 pages of bss
"""
import hashlib
import os
import struct
import sys

PT_LOAD, PT_INTERP, PT_NOTE = 1, 3, 4


class Elf:
    def __init__(self, data):
        self.d = bytearray(data)
        if self.d[:4] != b"\x7fELF":
            raise ValueError("not ELF")
        self.is64 = self.d[4] == 2
        self.e = ">" if self.d[5] == 2 else "<"
        if self.is64:
            self.ehdr_fmt = "HHIQQQIHHHHHH"
            self.ph_fmt = "IIQQQQQQ"
            self.sh_fmt = "IIQQQQIIQQ"
        else:
            self.ehdr_fmt = "HHIIIIIHHHHHH"
            self.ph_fmt = "IIIIIIII"
            self.sh_fmt = "IIIIIIIIII"
        names = ["type", "machine", "version", "entry", "phoff", "shoff",
                 "flags", "ehsize", "phentsize", "phnum", "shentsize",
                 "shnum", "shstrndx"]
        vals = struct.unpack_from(self.e + self.ehdr_fmt, self.d, 16)
        self.h = dict(zip(names, vals))

    def ehdr_fields(self):
        """(name, offset, size) of every ELF header field."""
        out = [("e_ident[%d]" % i, i, 1) for i in range(16)]
        off = 16
        names = ["e_type", "e_machine", "e_version", "e_entry", "e_phoff",
                 "e_shoff", "e_flags", "e_ehsize", "e_phentsize", "e_phnum",
                 "e_shentsize", "e_shnum", "e_shstrndx"]
        for n, c in zip(names, self.ehdr_fmt):
            sz = struct.calcsize(c)
            out.append((n, off, sz))
            off += sz
        return out

    def phdrs(self):
        out = []
        for i in range(self.h["phnum"]):
            base = self.h["phoff"] + i * self.h["phentsize"]
            v = struct.unpack_from(self.e + self.ph_fmt, self.d, base)
            if self.is64:
                t, fl, off, va, pa, fs, ms, al = v
            else:
                t, off, va, pa, fs, ms, fl, al = v
            out.append(dict(type=t, offset=off, filesz=fs, base=base,
                            flags=fl, align=al))
        return out

    def phdr_fields(self, i):
        base = self.h["phoff"] + i * self.h["phentsize"]
        if self.is64:
            names = ["p_type", "p_flags", "p_offset", "p_vaddr", "p_paddr",
                     "p_filesz", "p_memsz", "p_align"]
        else:
            names = ["p_type", "p_offset", "p_vaddr", "p_paddr", "p_filesz",
                     "p_memsz", "p_flags", "p_align"]
        off = base
        out = []
        for n, c in zip(names, self.ph_fmt):
            sz = struct.calcsize(c)
            out.append(("phdr[%d].%s" % (i, n), off, sz))
            off += sz
        return out

    def shdrs(self):
        out = []
        for i in range(self.h["shnum"]):
            base = self.h["shoff"] + i * self.h["shentsize"]
            v = struct.unpack_from(self.e + self.sh_fmt, self.d, base)
            out.append(dict(zip(["name", "type", "flags", "addr", "offset",
                                 "size", "link", "info", "addralign",
                                 "entsize"], v), base=base))
        return out

    def sh_field_off(self, i, field):
        names = ["name", "type", "flags", "addr", "offset", "size", "link",
                 "info", "addralign", "entsize"]
        off = self.h["shoff"] + i * self.h["shentsize"]
        for n, c in zip(names, self.sh_fmt):
            if n == field:
                return off, struct.calcsize(c)
            off += struct.calcsize(c)
        raise KeyError(field)

    def put(self, off, size, value):
        c = {1: "B", 2: "H", 4: "I", 8: "Q"}[size]
        struct.pack_into(self.e + c, self.d, off, value & ((1 << (8 * size)) - 1))

    def field(self, name):
        for n, off, sz in self.ehdr_fields():
            if n == name:
                return off, sz
        raise KeyError(name)

    def sig_index(self):
        shs = self.shdrs()
        strtab = shs[self.h["shstrndx"]]
        for i, s in enumerate(shs):
            o = strtab["offset"] + s["name"]
            if self.d[o:o + 11] == b".signature\0":
                return i
        return None

    def digest(self, algo="sha256"):
        h = hashlib.new(algo)
        es = self.h["ehsize"]
        n = bytearray(self.d[:es])
        for name in ("e_shoff", "e_shentsize", "e_shnum", "e_shstrndx"):
            off, sz = self.field(name)
            n[off:off + sz] = bytes(sz)
        h.update(n)
        po, pn = self.h["phoff"], self.h["phnum"] * self.h["phentsize"]
        h.update(self.d[po:po + pn])
        for p in self.phdrs():
            if p["type"] != PT_LOAD or p["filesz"] == 0:
                continue
            seg = bytearray(self.d[p["offset"]:p["offset"] + p["filesz"]])
            for k in range(min(len(seg), max(0, es - p["offset"]))):
                seg[k] = n[p["offset"] + k]
            h.update(seg)
        return h.hexdigest()


def cmd_fields(path):
    elf = Elf(open(path, "rb").read())
    skip = {"e_shoff", "e_shentsize", "e_shnum", "e_shstrndx"}
    for n, off, sz in elf.ehdr_fields():
        if n not in skip:
            print("ehdr %s %d %d" % (n, off, sz))
    for i, p in enumerate(elf.phdrs()):
        for n, off, sz in elf.phdr_fields(i):
            print("phdr %s %d %d" % (n, off, sz))
        if p["type"] == PT_LOAD and p["filesz"] > 0:
            print("load seg[%d] %d %d" % (i, p["offset"], p["filesz"]))
    for n in ("e_shoff", "e_shentsize", "e_shnum", "e_shstrndx"):
        off, sz = elf.field(n)
        print("unsigned %s %d %d" % (n, off, sz))


def cmd_hostile(signed, outdir):
    """Hostile variants of a signed file. Each name says what is wrong."""
    base = open(signed, "rb").read()
    os.makedirs(outdir, exist_ok=True)
    n = 0

    def emit(name, data):
        nonlocal n
        with open(os.path.join(outdir, "%03d-%s" % (n, name)), "wb") as f:
            f.write(bytes(data))
        n += 1

    def mutate(name, fn):
        e = Elf(base)
        fn(e)
        emit(name, e.d)

    size = len(base)
    # Truncations at many offsets.
    cuts = sorted({0, 1, 3, 4, 15, 16, 20, 40, 51, 52, 63, 64, 100, 200,
                   size // 4, size // 2, size - 4096, size - 100, size - 1})
    for c in cuts:
        if 0 <= c < size:
            emit("truncated-at-%d" % c, base[:c])
    emit("not-elf", b"#!/bin/sh\necho hi\n" + bytes(100))
    emit("elf-magic-only", b"\x7fELF")
    emit("random-bytes", os.urandom(4096))

    e0 = Elf(base)
    si = e0.sig_index()
    assert si is not None, "input must be signed"
    sig = e0.shdrs()[si]

    def ehdr_set(name, value):
        def f(e):
            off, sz = e.field(name)
            e.put(off, sz, value)
        return f

    def sh_set(idx, field, value):
        def f(e):
            off, sz = e.sh_field_off(idx, field)
            e.put(off, sz, value)
        return f

    mutate("bad-class", lambda e: e.d.__setitem__(4, 7))
    mutate("bad-data", lambda e: e.d.__setitem__(5, 9))
    mutate("bad-version", lambda e: e.d.__setitem__(6, 0))
    mutate("e_type-relocatable", ehdr_set("e_type", 1))
    mutate("e_type-core", ehdr_set("e_type", 4))
    mutate("e_ehsize-large", ehdr_set("e_ehsize", 0x100))
    mutate("e_ehsize-small", ehdr_set("e_ehsize", 16))
    mutate("e_phoff-past-eof", ehdr_set("e_phoff", size + 1))
    mutate("e_phoff-huge", ehdr_set("e_phoff", (1 << 63) | 0x40))
    mutate("e_phoff-zero", ehdr_set("e_phoff", 0))
    mutate("e_phnum-zero", ehdr_set("e_phnum", 0))
    mutate("e_phnum-xnum", ehdr_set("e_phnum", 0xffff))
    mutate("e_phnum-overflow", ehdr_set("e_phnum", 0x7fff))
    mutate("e_phentsize-bad", ehdr_set("e_phentsize", 7))
    mutate("e_phentsize-huge", ehdr_set("e_phentsize", 0xffff))
    mutate("e_shoff-past-eof", ehdr_set("e_shoff", size))
    mutate("e_shoff-huge", ehdr_set("e_shoff", (1 << 64) - 8))
    mutate("e_shoff-in-ehdr", ehdr_set("e_shoff", 8))
    mutate("e_shnum-huge", ehdr_set("e_shnum", 0xfeff))
    mutate("e_shnum-reserved", ehdr_set("e_shnum", 0xff00))
    mutate("e_shnum-zero-extended", ehdr_set("e_shnum", 0))
    mutate("e_shentsize-bad", ehdr_set("e_shentsize", 3))
    mutate("e_shstrndx-out-of-range", ehdr_set("e_shstrndx", 0xfffe))
    mutate("e_shstrndx-undef", ehdr_set("e_shstrndx", 0))
    mutate("e_shstrndx-not-strtab", ehdr_set("e_shstrndx", si))

    # Program headers: offset + filesz overflow, past EOF.
    loads = [i for i, p in enumerate(e0.phdrs()) if p["type"] == PT_LOAD]
    li = loads[0]

    def ph_set(i, field, value):
        def f(e):
            for name, off, sz in e.phdr_fields(i):
                if name.endswith("." + field):
                    e.put(off, sz, value)
        return f
    mutate("phdr-offset-filesz-overflow", lambda e: (
        ph_set(li, "p_offset", (1 << (64 if e.is64 else 32)) - 16)(e),
        ph_set(li, "p_filesz", 0x100)(e)))
    mutate("phdr-filesz-past-eof", ph_set(li, "p_filesz", size * 2))
    mutate("phdr-filesz-huge", ph_set(li, "p_filesz", (1 << 63)))
    mutate("phdr-filesz-gt-memsz", ph_set(loads[-1], "p_memsz", 1))

    # The signature section itself.
    mutate("sig-size-zero", sh_set(si, "size", 0))
    mutate("sig-size-over-64k", sh_set(si, "size", 65537))
    mutate("sig-size-huge", sh_set(si, "size", (1 << 63)))
    mutate("sig-offset-past-eof", sh_set(si, "offset", size + 10))
    mutate("sig-offset-size-overflow", lambda e: (
        sh_set(si, "offset", (1 << (64 if e.is64 else 32)) - 4)(e),
        sh_set(si, "size", 100)(e)))
    mutate("sig-inside-ptload", sh_set(si, "offset", e0.phdrs()[li]["offset"] + 4096))
    mutate("sig-overlaps-ehdr", sh_set(si, "offset", 0))
    mutate("sig-overlaps-section", lambda e: sh_set(si, "offset",
           e.shdrs()[e.h["shstrndx"]]["offset"])(e))
    mutate("sig-type-nobits", sh_set(si, "type", 8))
    mutate("sig-flag-alloc", sh_set(si, "flags", 2))
    mutate("sig-name-past-strtab", sh_set(si, "name", 0x7fffffff))

    def strtab_no_nul(e):
        st = e.shdrs()[e.h["shstrndx"]]
        end = st["offset"] + st["size"]
        e.d[end - 1] = ord("x")
        # point the signature's name at the last string
        sh_set(si, "name", st["size"] - 3)(e)
    mutate("section-name-without-nul", strtab_no_nul)

    def two_sigs(e):
        # Give another section the same name.
        other = 1 if si != 1 else 2
        name = e.shdrs()[si]["name"]
        sh_set(other, "name", name)(e)
    mutate("two-signature-sections", two_sigs)
    # The null section 0 named ".signature" (found by fuzzing: the kernel
    # counts it, so libelfsig must too).
    mutate("null-section-named-signature",
           lambda e: sh_set(0, "name", e.shdrs()[si]["name"])(e))

    def strtab_past_eof(e):
        sh_set(e.h["shstrndx"], "offset", size - 2)(e)
    mutate("shstrtab-past-eof", strtab_past_eof)
    mutate("shstrtab-huge", lambda e: sh_set(e.h["shstrndx"], "size", 1 << 40)(e))
    mutate("section-past-eof", sh_set(1, "offset", size + 100))

    # PKCS#7 contents.
    so, ss = sig["offset"], sig["size"]

    def sig_bytes(data):
        def f(e):
            e.d[so:so + ss] = bytes(data[:ss]).ljust(ss, b"\0")
        return f
    mutate("pkcs7-garbage", sig_bytes(os.urandom(ss)))
    mutate("pkcs7-zeros", sig_bytes(bytes(ss)))
    mutate("pkcs7-sigvalue-zeroed", sig_bytes(base[so:so + ss // 2]))
    mutate("pkcs7-truncated-der", lambda e: sh_set(si, "size", ss // 2)(e))
    mutate("pkcs7-huge-length", sig_bytes(b"\x30\x84\x7f\xff\xff\xff" + base[so + 6:so + ss]))
    mutate("pkcs7-wrong-type", sig_bytes(b"\x04\x82" + struct.pack(">H", ss - 4) + bytes(ss - 4)))
    mutate("pkcs7-indefinite", sig_bytes(b"\x30\x80" + base[so + 4:so + ss]))
    mutate("pkcs7-bitflip-middle", lambda e: e.d.__setitem__(so + ss // 2, e.d[so + ss // 2] ^ 0xff))

    return n


def cmd_notes(src, outdir):
    """Rewrite the PT_NOTE (inside a PT_LOAD) that holds FILE's ELFSIG note,
    at its length, with note streams the format calls malformed, and one
    it does not; each variant is written unsigned-as-is (its .signature,
    if any, no longer matches). One name per line on stdout."""
    e = Elf(open(src, "rb").read())
    flags_note = e.e + "III"
    ours = None
    for ph in e.phdrs():
        if ph["type"] != PT_NOTE:
            continue
        seg = bytes(e.d[ph["offset"]:ph["offset"] + ph["filesz"]])
        if b"ELFSIG\0" in seg:
            ours = ph
    if ours is None or ours["align"] == 8:
        raise ValueError("no 4-aligned PT_NOTE with an ELFSIG note")
    size = ours["filesz"]

    def note(namesz, descsz, ntype, name, desc):
        n = struct.pack(flags_note, namesz, descsz, ntype) + name
        n += b"\0" * (-len(n) % 4) + desc
        return n + b"\0" * (-len(n) % 4)

    def elfsig(flags, descsz=4):
        return note(7, descsz, 1, b"ELFSIG\0",
                    struct.pack(e.e + "I", flags) + bytes(descsz - 4))

    def fill(left):
        """A note of another owner, LEFT bytes long."""
        if left < 12 or left % 4:
            raise ValueError("no room for a filler note")
        return note(0, left - 12, 0x99, b"", bytes(left - 12))

    variants = {
        # two flags notes: malformed (the kernel used to OR them)
        "note-two": elfsig(1) + elfsig(1),
        # a flags note of 8 bytes: malformed (the kernel ignored it)
        "note-desc8": elfsig(1, 8),
        # a name size past the segment: malformed (stopped at, before)
        "note-wrap": struct.pack(flags_note, 0xfffffff0, 4, 1),
        # the flags note, then a tail of 8 bytes: malformed
        "note-tail": elfsig(1),
        # well formed: "ELFSIG" with another type is not the flags note
        "note-other": note(7, 4, 2, b"ELFSIG\0", struct.pack(e.e + "I", 1)),
    }
    for name, head in sorted(variants.items()):
        if name == "note-tail":
            body = head + fill(size - len(head) - 8) + b"T" * 8
        elif name == "note-wrap":
            body = head + bytes(size - len(head))
        else:
            body = head + fill(size - len(head))
        assert len(body) == size, name
        d = bytearray(e.d)
        d[ours["offset"]:ours["offset"] + size] = body
        path = os.path.join(outdir, name)
        with open(path, "wb") as f:
            f.write(d)
        os.chmod(path, 0o755)
        print(name)


def cmd_setsig(path, der_path):
    """Put DER where FILE's .signature is: same length, in place."""
    e = Elf(open(path, "rb").read())
    der = open(der_path, "rb").read()
    i = e.sig_index()
    if i is None:
        raise ValueError("%s has no .signature section" % path)
    sh = e.shdrs()[i]
    if sh["size"] != len(der):
        raise ValueError("signature of %d bytes, section of %d" %
                         (len(der), sh["size"]))
    e.d[sh["offset"]:sh["offset"] + len(der)] = der
    with open(path, "r+b") as f:
        f.write(e.d)


def cmd_bsstail(out):
    """An x86-64 ET_EXEC whose only PT_LOAD is R+X with p_memsz 3 pages past
    p_filesz: binfmt_elf maps the tail as anonymous memory with the
    segment's protection (vm_brk_flags())."""
    code = bytes([0xb8, 0x3c, 0, 0, 0,    # mov $60, %eax (exit)
                  0x31, 0xff,             # xor %edi, %edi
                  0x0f, 0x05])            # syscall
    ehsize, phentsize, phnum, base = 64, 56, 2, 0x400000
    text = ehsize + phentsize * phnum
    filesz = text + len(code)
    ehdr = bytearray(64)
    ehdr[:16] = b"\x7fELF\x02\x01\x01" + bytes(9)
    struct.pack_into("<HHIQQQIHHHHHH", ehdr, 16, 2, 62, 1, base + text,
                     ehsize, 0, 0, ehsize, phentsize, phnum, 0, 0, 0)
    load = struct.pack("<IIQQQQQQ", PT_LOAD, 5, 0, base, base, filesz,
                       filesz + 3 * 4096, 0x1000)
    stack = struct.pack("<IIQQQQQQ", 0x6474e551, 6, 0, 0, 0, 0, 0, 16)
    with open(out, "wb") as f:
        f.write(bytes(ehdr) + load + stack + code)
    os.chmod(out, 0o755)


def cmd_synth(out, mib):
    """ELF64 LE ET_EXEC with one PT_LOAD covering mib MiB of random-ish data."""
    total = mib << 20
    phoff, ehsize = 64, 64
    ehdr = bytearray(64)
    ehdr[:16] = b"\x7fELF\x02\x01\x01" + bytes(9)
    struct.pack_into("<HHIQQQIHHHHHH", ehdr, 16, 2, 62, 1, 0x401000, phoff, 0,
                     0, ehsize, 56, 1, 0, 0, 0)
    ph = struct.pack("<IIQQQQQQ", PT_LOAD, 5, 0, 0x400000, 0x400000, total,
                     total, 0x1000)
    with open(out, "wb") as f:
        f.write(ehdr + ph)
        written = len(ehdr) + len(ph)
        block = hashlib.sha256(b"elfsig").digest() * 32768  # 1 MiB
        while written < total:
            n = min(len(block), total - written)
            f.write(block[:n])
            written += n
    os.chmod(out, 0o755)


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    cmd = sys.argv[1]
    if cmd == "fields":
        cmd_fields(sys.argv[2])
    elif cmd == "digest":
        print(Elf(open(sys.argv[2], "rb").read()).digest(
            sys.argv[3] if len(sys.argv) > 3 else "sha256"))
    elif cmd == "hostile":
        print(cmd_hostile(sys.argv[2], sys.argv[3]))
    elif cmd == "synth":
        cmd_synth(sys.argv[2], int(sys.argv[3]))
    elif cmd == "notes":
        cmd_notes(sys.argv[2], sys.argv[3])
    elif cmd == "bsstail":
        cmd_bsstail(sys.argv[2])
    elif cmd == "setsig":
        cmd_setsig(sys.argv[2], sys.argv[3])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
