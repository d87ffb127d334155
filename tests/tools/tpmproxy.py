#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A TPM interposer for tests: sits between a tool's swtpm socket TCTI and
a real swtpm, passes every command through, and alters the responses of
one command code (an attacker on the bus, or a faulty TPM).

    tpmproxy.py PORTFILE TARGET_PORT --flip CC [--offset N] [--count N]
    tpmproxy.py PORTFILE 0 --silent


It binds two consecutive free ports (command and control, as swtpm), writes
the first to PORTFILE once it listens, forwards the control channel as is,
and flips byte N (default 16: the first data byte of an NV_Read response
with sessions) of the response to command code CC (hex, 0x14e is
TPM2_CC_NV_Read); --count N stops after N responses altered (0: all).
--silent is a TPM that accepts connections and never answers. It logs each command code it saw, and what it altered, to PORTFILE.log.
"""
import argparse
import os
import random
import socket
import struct
import sys
import threading


def recv_exact(s, n):
    buf = b""
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return buf


def recv_msg(s):
    head = recv_exact(s, 10)
    if head is None:
        return None
    size = struct.unpack(">I", head[2:6])[0]
    if size < 10 or size > 65536:
        return None
    rest = recv_exact(s, size - 10)
    return None if rest is None else head + rest


class Proxy:
    def __init__(self, args):
        self.args = args
        self.altered = 0
        self.lock = threading.Lock()
        self.log = open(args.portfile + ".log", "a", buffering=1)

    def command(self, client):
        if self.args.silent:
            while recv_exact(client, 1) is not None:
                pass
            return
        up = socket.create_connection(("127.0.0.1", self.args.target))
        try:
            while True:
                cmd = recv_msg(client)
                if cmd is None:
                    return
                cc = struct.unpack(">I", cmd[6:10])[0]
                up.sendall(cmd)
                rsp = recv_msg(up)
                if rsp is None:
                    return
                self.log.write("cc 0x%x\n" % cc)
                with self.lock:
                    if (cc == self.args.flip and len(rsp) > self.args.offset
                            and (not self.args.count
                                 or self.altered < self.args.count)):
                        b = bytearray(rsp)
                        b[self.args.offset] ^= 0x01
                        rsp = bytes(b)
                        self.altered += 1
                        self.log.write("flipped byte %d of the response to 0x%x\n"
                                       % (self.args.offset, cc))
                client.sendall(rsp)
        finally:
            up.close()
            client.close()

    def control(self, client):
        if self.args.silent:
            return self.command(client)
        up = socket.create_connection(("127.0.0.1", self.args.target + 1))

        def pump(a, b):
            try:
                while True:
                    d = a.recv(4096)
                    if not d:
                        break
                    b.sendall(d)
            except OSError:
                pass
            for s in (a, b):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        threading.Thread(target=pump, args=(up, client), daemon=True).start()
        pump(client, up)


def listen_pair():
    while True:
        p = random.randrange(30000, 60000)
        socks = []
        try:
            for port in (p, p + 1):
                s = socket.socket()
                s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                s.bind(("127.0.0.1", port))
                s.listen(8)
                socks.append(s)
            return p, socks
        except OSError:
            for s in socks:
                s.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("portfile")
    ap.add_argument("target", type=int)
    ap.add_argument("--flip", type=lambda v: int(v, 16), default=-1)
    ap.add_argument("--silent", action="store_true")
    ap.add_argument("--offset", type=int, default=16)
    ap.add_argument("--count", type=int, default=0)
    args = ap.parse_args()
    proxy = Proxy(args)
    port, (cmd, ctrl) = listen_pair()
    with open(args.portfile + ".tmp", "w") as f:
        f.write(str(port))
    os.rename(args.portfile + ".tmp", args.portfile)

    def serve(sock, fn):
        while True:
            c, _ = sock.accept()
            threading.Thread(target=fn, args=(c,), daemon=True).start()
    threading.Thread(target=serve, args=(ctrl, proxy.control),
                     daemon=True).start()
    serve(cmd, proxy.command)


if __name__ == "__main__":
    sys.exit(main())
