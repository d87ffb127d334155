#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# elfsig kernel suite: boot the patched kernel under QEMU + swtpm once per
# mode (default = enforce, permissive, require, off) and turn the guest's
# verdicts (tests/vm/guest/cases.sh) into test result lines. A boot that
# hangs, crashes or stops early is a FAIL; so is any BUG/WARNING/Oops/
# KASAN/UBSAN report on the console or in the kernel log.
#
#   ELFSIG_VM_KERNEL   kernel image (default build/kernel/bzImage-tiny)
#   ELFSIG_VM_MODES    modes to boot (default "enforce permissive require off")
#   ELFSIG_VM_FAILSAFE fail-safe lock boots (default "arm pid1"; "" for none)
#   ELFSIG_VM_TIMEOUT  seconds per boot (default 600)
#   ELFSIG_VM_MEMORY   guest memory in MiB (default: tests/vm/run's, 512)
#   ELFSIG_VM_KEEP     directory to keep the consoles and test files in
#   ELFSIG_VM_EXPECT_KASAN  fail unless the kernel log shows KASAN running
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

KERNEL=${ELFSIG_VM_KERNEL:-$BUILD/kernel/bzImage-tiny}
MODES=${ELFSIG_VM_MODES:-enforce permissive require off}
VMTIMEOUT=${ELFSIG_VM_TIMEOUT:-600}
SIGNELF=$BUILD/signelf
G=$BUILD/vm

for tool in qemu-system-x86_64 swtpm openssl python3; do
	command -v "$tool" >/dev/null || { echo "test-kernel: $tool missing" >&2; exit 77; }
done
for f in "$KERNEL" "$SIGNELF" "$G/probe" "$G/hello" "$G/hello-dyn" "$G/hello-pie" "$G/big" "$G/fusesrv" \
	"$G/dynprobe" "$G/dynprobe-jit" "$G/dynprobe-ldx" "$G/dynmod.so" "$G/dynprobe-bignote" "$G/dynprobe-xs"; do
	if [ ! -e "$f" ]; then
		t_fail "prerequisites" "$f missing (make kernel vm-prereqs, or make kernel-kasan)"
		exit 0
	fi
done

t_mktemp
S=$T_TMP/t
K=$T_TMP/keys
mkdir -p "$S/certs" "$K"

# Keys and certificates, made fresh for every run. Release certificates
# are issued by the test platform CA the kernel was built with
# (kernel/platform-ca.sh); "rogue" and "selfsigned" are self-signed.
mkkey() { # NAME GENPKEY-ARGS...
	local name=$1; shift
	openssl genpkey "$@" -out "$K/$name.key" 2>/dev/null &&
	"$TOP/kernel/platform-ca.sh" issue "$K/$name.key" "$K/$name.pem" "$name" &&
	openssl x509 -in "$K/$name.pem" -outform DER -out "$K/$name.der"
}
mkself() { # NAME GENPKEY-ARGS...
	local name=$1; shift
	openssl genpkey "$@" -out "$K/$name.key" 2>/dev/null &&
	openssl req -new -x509 -key "$K/$name.key" -days 30 \
		-subj "/O=elfsig vm tests/CN=$name" \
		-addext "basicConstraints=critical,CA:FALSE" \
		-addext "keyUsage=digitalSignature" \
		-addext "subjectKeyIdentifier=hash" \
		-out "$K/$name.pem" 2>/dev/null &&
	openssl x509 -in "$K/$name.pem" -outform DER -out "$K/$name.der"
}
mkkey rsa2048 -algorithm RSA -pkeyopt rsa_keygen_bits:2048 &&
mkkey p256 -algorithm EC -pkeyopt ec_paramgen_curve:P-256 &&
mkkey p384 -algorithm EC -pkeyopt ec_paramgen_curve:P-384 &&
mkkey rsa1024 -algorithm RSA -pkeyopt rsa_keygen_bits:1024 &&
mkkey p192 -algorithm EC -pkeyopt ec_paramgen_curve:P-192 &&
mkkey p521 -algorithm EC -pkeyopt ec_paramgen_curve:P-521 &&
mkkey late -algorithm RSA -pkeyopt rsa_keygen_bits:3072 &&
mkself rogue -algorithm RSA -pkeyopt rsa_keygen_bits:2048 &&
mkself selfsigned -algorithm RSA -pkeyopt rsa_keygen_bits:2048 ||
	{ t_fail "test keys" "openssl or kernel/platform-ca.sh failed"; exit 0; }
cp "$K/rsa2048.der" "$K/p256.der" "$S/certs/"
# Not for .elfsig's first fill: the provenance cases of cases.sh.
cp "$K/rogue.der" "$K/p384.der" "$K/rsa1024.der" "$K/p192.der" \
	"$K/p521.der" "$K/selfsigned.der" "$K/late.der" "$S/"
openssl x509 -in "$TOP/build/kernel/platform-ca.pem" -outform DER -out "$S/ca.der"

sign() { # KEY OUT IN [OPTIONS...]
	local key=$1 out=$2 in=$3; shift 3
	"$SIGNELF" sign --key "$K/$key.key" --cert "$K/$key.pem" "$@" -o "$out" "$in" >/dev/null
}
ok=1
cp "$G/hello" "$G/probe" "$G/fusesrv" "$S/" || ok=0
sign rsa2048 "$S/hello.rsa" "$G/hello" || ok=0
sign rsa2048 "$S/hello.prelock" "$G/hello" || ok=0
sign p256 "$S/hello.p256" "$G/hello" --hash sha384 --keyid || ok=0
sign rsa2048 "$S/hello.sha512" "$G/hello" --hash sha512 || ok=0
sign rogue "$S/hello.rogue" "$G/hello" || ok=0
sign rsa2048 "$S/hello-dyn.signed" "$G/hello-dyn" || ok=0
sign rsa2048 "$S/hello-pie.signed" "$G/hello-pie" || ok=0
sign rsa2048 "$S/big.signed" "$G/big" || ok=0
sign rsa2048 "$S/probe.signed" "$G/probe" || ok=0
sign p384 "$S/hello.p384" "$G/hello" || ok=0
# The i386 binary, where the host could build it (make vm-prereqs).
if [ -e "$G/hello32" ]; then
	cp "$G/hello32" "$S/" || ok=0
	sign rsa2048 "$S/hello32.signed" "$G/hello32" || ok=0
fi
[ "$ok" = 1 ] || { t_fail "signing test binaries" "signelf sign failed"; exit 0; }

# Verified dynamic processes: the host's ld.so and libc, signed, at their
# paths in the guest's root (tests/vm/run --root); in /opt/t/dyn the
# probes and variants of the libraries for the refusal cases; in
# /opt/t/deb a few real Debian binaries, signed.
LDSO=$(readlink -f /lib64/ld-linux-x86-64.so.2)
LIBC=$(readlink -f /lib/x86_64-linux-gnu/libc.so.6)
DROOT=$T_TMP/root
D=$S/dyn
mkdir -p "$DROOT/lib64" "$DROOT/lib/x86_64-linux-gnu" "$D/unsigned" "$D/text" "$D/data" "$S/deb"
sign rsa2048 "$DROOT/lib64/ld-linux-x86-64.so.2" "$LDSO" &&
sign rsa2048 "$DROOT/lib/x86_64-linux-gnu/libc.so.6" "$LIBC" &&
cp "$LIBC" "$D/unsigned/libc.so.6" &&
cp "$LDSO" "$D/ld.unsigned" &&
cp "$DROOT/lib64/ld-linux-x86-64.so.2" "$D/ld.signed" &&
cp "$G/dynprobe" "$G/dynprobe-ldx" "$G/dynmod.so" "$D/" &&
sign rsa2048 "$D/dynprobe.signed" "$G/dynprobe" &&
sign rsa2048 "$D/dynprobe-jit.signed" "$G/dynprobe-jit" &&
sign rsa2048 "$D/dynprobe-ldx.signed" "$G/dynprobe-ldx" &&
sign rsa2048 "$D/dynmod.so.signed" "$G/dynmod.so" &&
cp "$G/dynprobe-xs" "$D/" &&
sign rsa2048 "$D/dynprobe-xs.signed" "$G/dynprobe-xs" 2>/dev/null &&
sign rsa2048 "$D/dynprobe-bignote.signed" "$G/dynprobe-bignote" 2>/dev/null ||
	{ t_fail "signing the dynamic test binaries" "signelf sign failed"; exit 0; }
# The i386 build with the host's i386 ld.so and libc, signed, at their
# paths in the guest, where the host could build it (make vm-prereqs).
if [ -e "$G/dynprobe32" ]; then
	mkdir -p "$DROOT/lib32" "$D/unsigned32" &&
	sign rsa2048 "$DROOT/lib/ld-linux.so.2" "$(readlink -f /lib/ld-linux.so.2)" &&
	sign rsa2048 "$DROOT/lib32/libc.so.6" /lib32/libc.so.6 &&
	cp /lib32/libc.so.6 "$D/unsigned32/" &&
	cp "$G/dynprobe32" "$D/" &&
	sign rsa2048 "$D/dynprobe32.signed" "$G/dynprobe32" ||
		{ t_fail "signing the i386 dynamic test binaries" "signelf sign failed"; exit 0; }
fi
# An executable PT_LOAD with a bss tail (tests/tools/elfcraft.py bsstail).
python3 "$TOP/tests/tools/elfcraft.py" bsstail "$S/bsstail" &&
	sign rsa2048 "$S/bsstail.signed" "$S/bsstail" ||
	{ t_fail "bss tail program" "elfcraft.py or signelf failed"; exit 0; }
# ELFSIG note streams signelf sign refuses, and one it signs
# (tests/tools/elfcraft.py notes), signed outside signelf: the kernel
# must read them as signelf does (tests/signer/test-note.sh).
mkdir -p "$D/notes" &&
	python3 "$TOP/tests/tools/elfcraft.py" notes "$D/dynprobe-jit.signed" "$D/notes" > "$S/notes.list" ||
	{ t_fail "crafted ELFSIG notes" "elfcraft.py notes failed"; exit 0; }
while read -r v; do
	t_resign_raw "$D/notes/$v" "$K/rsa2048.key" "$K/rsa2048.pem" ||
		{ t_fail "crafted ELFSIG notes" "signing $v failed"; exit 0; }
done < "$S/notes.list"
for b in sha256sum cat env dd; do
	cp "/usr/bin/$b" "$S/deb/$b" &&
	sign rsa2048 "$S/deb/$b.signed" "/usr/bin/$b" ||
		{ t_fail "signing Debian's $b" "signelf sign failed"; exit 0; }
done
# Tampered: a byte of libc's executable PT_LOAD, one of its writable
# PT_LOAD (data: relocations, GOT), one of ld.so's executable PT_LOAD.
python3 - "$DROOT" "$D" <<'PY' || { t_fail "tampered libraries" "python failed"; exit 0; }
import struct, sys
root, d = sys.argv[1:]
def tamper(src, dst, want):
    b = bytearray(open(src, "rb").read())
    phoff, = struct.unpack_from("<Q", b, 32)
    phnum, = struct.unpack_from("<H", b, 56)
    for k in range(phnum):
        typ, flags, off, _, _, filesz = struct.unpack_from("<IIQQQQ", b, phoff + 56 * k)
        if typ == 1 and filesz and want(flags):
            b[off + filesz // 2] ^= 0xff
            open(dst, "wb").write(b)
            return
    sys.exit("no such PT_LOAD in " + src)
libc = root + "/lib/x86_64-linux-gnu/libc.so.6"
tamper(libc, d + "/text/libc.so.6", lambda f: f & 1)
tamper(libc, d + "/data/libc.so.6", lambda f: f & 2 and not f & 1)
tamper(root + "/lib64/ld-linux-x86-64.so.2", d + "/ld.tampered", lambda f: f & 1)
PY
chmod 755 "$D"/ld.* "$D"/*/libc.so.6

# Tampered copies: one byte of a PT_LOAD ("hello" -> "jello"), one
# program header flag (PT_GNU_STACK gains PF_X). Both would run fine
# unverified.
python3 - "$S" <<'PY' || { t_fail "tampered copies" "python failed"; exit 0; }
import struct, sys
d = sys.argv[1]
b = bytearray(open(d + "/hello.rsa", "rb").read())
i = b.index(b"hello\0")
b[i] = ord("j")
open(d + "/hello.tampered-load", "wb").write(b)
b = bytearray(open(d + "/hello.rsa", "rb").read())
phoff, = struct.unpack_from("<Q", b, 32)
phnum, = struct.unpack_from("<H", b, 56)
for k in range(phnum):
    o = phoff + 56 * k
    if struct.unpack_from("<I", b, o)[0] == 0x6474e551:  # PT_GNU_STACK
        struct.pack_into("<I", b, o + 4, struct.unpack_from("<I", b, o + 4)[0] | 1)
        break
else:
    sys.exit("no PT_GNU_STACK")
open(d + "/hello.tampered-pht", "wb").write(b)
try:
    b = bytearray(open(d + "/hello32.signed", "rb").read())
except FileNotFoundError:
    sys.exit(0)
i = b.index(b"hello32 shoff")
b[i] = ord("j")
open(d + "/hello32.tampered", "wb").write(b)
PY
chmod 755 "$S"/hello.tampered-*
[ -e "$S/hello32.tampered" ] && chmod 755 "$S/hello32.tampered"

# What the copy of probe.signed takes, in KiB (the pages its PT_LOADs'
# file images touch, as elfsig_image_charge() counts them): the per-user
# share cases of cases.sh size the bound from it.
python3 - "$S/probe.signed" > "$S/probe.charge_kb" <<'PY' || { t_fail "probe.signed charge" "python failed"; exit 0; }
import struct, sys
b = open(sys.argv[1], "rb").read()
phoff, = struct.unpack_from("<Q", b, 32)
phentsize, phnum = struct.unpack_from("<HH", b, 54)
total = 0
for k in range(phnum):
    typ, _, off, _, _, filesz = struct.unpack_from("<IIQQQQ", b, phoff + phentsize * k)
    if typ == 1 and filesz:
        total += -(-(off + filesz) // 4096) * 4096 - off // 4096 * 4096
print(total // 1024)
PY

# Malformed signature sections and section tables (tests/tools/elfcraft.py).
n=$(python3 "$TOP/tests/tools/elfcraft.py" hostile "$S/probe.signed" "$S/hostile") ||
	{ t_fail "malformed files" "elfcraft.py failed"; exit 0; }
chmod 755 "$S"/hostile/*
echo "# $n malformed variants of probe.signed"

# guest NAME LOG SCRIPT [RUN-ARGS...]: boot once with SCRIPT as /script,
# pass on the guest's verdicts, and judge the boot itself.
guest() {
	local name=$1 log=$2 script=$3 start rc secs bad
	shift 3
	start=$(date +%s)
	mkdir -p "$T_TMP/vmtmp"
	TMPDIR=$T_TMP/vmtmp "$TOP/tests/vm/run" --kernel "$KERNEL" --add "$S:t" \
		--script "$script" --timeout "$VMTIMEOUT" --log "$log" \
		${ELFSIG_VM_MEMORY:+--memory "$ELFSIG_VM_MEMORY"} "$@" >/dev/null 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
	# Each boot's work directory is ~160 MB: a runner that leaks it fills
	# a CI disk within one run.
	if [ -z "$(ls -A "$T_TMP/vmtmp")" ]; then
		t_pass "$name: the runner removed its work directory"
	else
		t_fail "$name: the runner removed its work directory" "left $(find "$T_TMP/vmtmp" -mindepth 1 -maxdepth 1 -printf "%f ")"
		rm -rf "${T_TMP:?}/vmtmp"
	fi
	sed -n 's/^ELFSIG-RESULT: //p' "$log"
	if grep -q '^ELFSIG-DONE' "$log"; then
		t_pass "$name: boot ran every case ($secs s)"
	else
		t_fail "$name: boot ran every case" "exit $rc after $secs s; last console line: $(grep -v '^$' "$log" | tail -1)"
	fi
	if [ -n "${ELFSIG_VM_EXPECT_KASAN:-}" ]; then
		if grep -q 'KernelAddressSanitizer initialized' "$log"; then
			t_pass "$name: the kernel runs with KASAN"
		else
			t_fail "$name: the kernel runs with KASAN" "no 'KernelAddressSanitizer initialized' in the log"
		fi
	fi
	# A memory cgroup's OOM report (the memcg cases provoke one) prints a
	# call trace: each report, from "invoked oom-killer" to its
	# "oom-kill:constraint=" (or "no killable processes") line, is left
	# out when it is a memory cgroup's; any other OOM report is judged
	# like the rest of the log.
	bad=$(awk '/invoked oom-killer:/ { n = 1 }
		n { held = held $0 "\n" }
		n && /oom-kill:constraint=|Out of memory and no killable/ {
			if (held !~ /CONSTRAINT_MEMCG|Memory cgroup stats for/) printf "%s", held
			held = ""; n = 0; next
		}
		!n { print }
		END { printf "%s", held }' "$log" |
		grep -E 'BUG:|WARNING:|Oops|KASAN|UBSAN|Call Trace|Kernel panic' | grep -v 'ELFSIG-RESULT' | head -3)
	if [ -n "$bad" ]; then
		t_fail "$name: no oops, WARN, KASAN or UBSAN report" "$(echo "$bad" | tr '\n' '|')"
	else
		t_pass "$name: no oops, WARN, KASAN or UBSAN report"
	fi
}

# kunit LOG: the parser's KUnit cases (CONFIG_ELFSIG_KUNIT_TEST), run by
# the kernel at boot; their KTAP lines are in the kernel log the guest
# dumps (KMSG: lines). Each case is a test result here; a suite that did
# not run, or ran fewer cases than it declared, fails.
kunit() {
	local log=$1 ktap plan got
	# The suite's KTAP lines, without "KMSG: <level>[time] " and indent.
	ktap=$(sed -n 's/^KMSG: <[0-9]*>\[ *[0-9.]*\] *//p' "$log" |
		sed -n '/^# Subtest: elfsig_parse$/,/^\(not \)\{0,1\}ok [0-9]* elfsig_parse$/p')
	plan=$(echo "$ktap" | sed -n 's/^1\.\.\([0-9]*\)$/\1/p' | head -1)
	if [ -z "$plan" ]; then
		t_fail "kunit elfsig_parse: the suite ran at boot" "no KTAP for elfsig_parse in the kernel log"
		return
	fi
	# "ok N name", "not ok N name", "ok N name # SKIP why" (6.1 may add "- ").
	got=$(echo "$ktap" | sed -e 's/^not ok /not_ok /' |
		sed -n 's/^\(\(not_\)\{0,1\}ok\) [0-9]* \(- \)\{0,1\}\([a-z0-9_]*\)\(.*\)$/\1 \4\5/p' |
		grep -v '^\(not_\)\{0,1\}ok elfsig_parse$')
	echo "$got" | while read -r verdict name rest; do
		case "$verdict $rest" in
		"ok "*"# SKIP"*) t_skip "kunit elfsig_parse: $name" "${rest#*# SKIP }" ;;
		"ok "*) t_pass "kunit elfsig_parse: $name" ;;
		*) t_fail "kunit elfsig_parse: $name" "not ok (the KMSG lines of the enforce boot's console)" ;;
		esac
	done
	if [ "$(echo "$got" | grep -c .)" = "$plan" ]; then
		t_pass "kunit elfsig_parse: all $plan cases reported"
	else
		t_fail "kunit elfsig_parse: all $plan cases reported" "$(echo "$got" | grep -c .) reported"
	fi
}

for mode in $MODES; do
	append=""
	[ "$mode" != enforce ] && append="elfsig=$mode"
	# The elfsig LSM stays on when lsm= leaves it out: the permissive
	# boot runs its ptrace, userfaultfd and mprotect cases that way.
	[ "$mode" = permissive ] && append="$append lsm=capability"
	guest "$mode" "$T_TMP/console-$mode.log" "$TOP/tests/vm/guest/cases.sh" \
		--append "$append" --root "$DROOT"
	[ "$mode" = enforce ] && kunit "$T_TMP/console-$mode.log"
done
# The fail-safe lock: one boot per case, as the lock is one way.
for fs in ${ELFSIG_VM_FAILSAFE-arm pid1}; do
	stage2=()
	[ "$fs" = pid1 ] && stage2=(--stage2 "$TOP/tests/vm/guest/failsafe.sh")
	guest "failsafe $fs" "$T_TMP/console-failsafe-$fs.log" \
		"$TOP/tests/vm/guest/failsafe.sh" --append "elfsig_failsafe=$fs" \
		"${stage2[@]}"
done
if [ -n "${ELFSIG_VM_KEEP:-}" ]; then
	mkdir -p "$ELFSIG_VM_KEEP" && cp -a "$T_TMP"/. "$ELFSIG_VM_KEEP"/
fi
exit 0
