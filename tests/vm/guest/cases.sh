# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# elfsig kernel test cases, run inside the guest by tests/vm/test-kernel.sh
# (as /script, from /opt). The mode under test comes from the kernel command
# line (elfsig=...). Each verdict is one console line:
#   ELFSIG-RESULT: PASS: name | FAIL: name: why | SKIP: name: why
# and the run ends with the kernel log (KMSG: lines) and ELFSIG-DONE.
#
# Only shell builtins and signed binaries may be used once "require" is in
# force: busybox itself is unsigned.

T=/opt/t
P=$T/probe		# unsigned probe
PS=$T/probe.signed	# the same, signed
MODE=enforce
case " $(cat /proc/cmdline) " in
*" elfsig=permissive "*) MODE=permissive ;;
*" elfsig=require "*) MODE=require ;;
*" elfsig=off "*) MODE=off ;;
esac

pass() { echo "ELFSIG-RESULT: PASS: $MODE: $1"; }
fail() { echo "ELFSIG-RESULT: FAIL: $MODE: $1: $2"; }
skip() { echo "ELFSIG-RESULT: SKIP: $MODE: $1: $2"; }
oneline() { echo "$1" | tr '\n' ' '; }

# expect NAME WANT CMD...: run CMD through "probe exec"; WANT is a glob
# matched against its output (e.g. "*RESULT signal 9*").
expect() {
	_n=$1 _w=$2; shift 2
	OUT=$($PX exec "$@" 2>&1)
	# shellcheck disable=SC2254
	case "$OUT" in
	$_w) pass "$_n" ;;
	*) fail "$_n" "wanted '$_w', got: $(oneline "$OUT")" ;;
	esac
}
PX=$P

# kmsg: the kernel log, with a signed reader once require is on.
kmsg() { $PX dmesg; }

# expect_log NAME TEXT: a kernel log line "elfsig: pid=N comm=C TEXT".
expect_log() {
	_log=$(kmsg)
	case "$_log" in
	*"elfsig: pid="[0-9]*" comm="*" $2"*) pass "$1" ;;
	*) fail "$1" "no log line '... $2'" ;;
	esac
}

# expect_probe NAME WANT-EXIT CMD...: a probe that prints one word.
expect_probe() {
	_n=$1 _w=$2; shift 2
	OUT=$("$@" 2>&1); _rc=$?
	if [ "$_rc" = "$_w" ]; then pass "$_n"; else fail "$_n" "exit $_rc, wanted $_w: $(oneline "$OUT")"; fi
}

add_keys() {
	for c in "$T"/certs/*.der; do
		keyctl padd asymmetric "" %keyring:.elfsig < "$c" > /dev/null || return 1
	done
}
lock() { echo 1 > /proc/sys/fs/elfsig/lock; }
lockval() { read -r _l < /proc/sys/fs/elfsig/lock; echo "$_l"; }
# .elfsig's serial, for a user who cannot find it by name
ER=$((0x$(grep ' keyring *\.elfsig: ' /proc/keys | cut -d' ' -f1)))
nkeys() { keyctl rlist %keyring:.elfsig | wc -w; }

# expect_klog NAME TEXT: a kernel log line "elfsig: ...TEXT..."
expect_klog() {
	_log=$(kmsg)
	case "$_log" in
	*"elfsig: "*"$2"*) pass "$1" ;;
	*) fail "$1" "no log line '$2'" ;;
	esac
}
# refused NAME CMD...: CMD must fail
refused() {
	_n=$1; shift
	if OUT=$("$@" 2>&1); then fail "$_n" "it did not: $(oneline "$OUT")"; else pass "$_n"; fi
}
# works NAME CMD...: CMD must succeed (the controls)
works() {
	_n=$1; shift
	if OUT=$("$@" 2>&1); then pass "$_n"; else fail "$_n" "$(oneline "$OUT")"; fi
}
# padd_elfsig FILE: add a certificate to .elfsig
padd_elfsig() { keyctl padd asymmetric "" %keyring:.elfsig < "$1"; }
# a fresh key in the session keyring, for the controls
fresh() { keyctl padd asymmetric "" @s < $T/rogue.der; }

set_mode() { echo "$1" 2>/dev/null > /proc/sys/fs/elfsig/mode; }
# cstat NAME: one field of /proc/sys/fs/elfsig/cache_stats
# ("entries N kb N hits N misses N").
cstat() { read -r _s < /proc/sys/fs/elfsig/cache_stats; _v=${_s#*"$1" }; echo "${_v%% *}"; }
# expect_hit NAME WANT CMD...: expect, and the exec must be a cache hit.
expect_hit() {
	_h0=$(cstat hits)
	expect "$@"
	_h1=$(cstat hits)
	[ "$_h1" -gt "$_h0" ] && pass "$1: a cache hit" || fail "$1: a cache hit" "hits $_h0 -> $_h1"
}
# expect_miss NAME WANT CMD...: expect, and the exec must not be a hit.
expect_miss() {
	_h0=$(cstat hits)
	expect "$@"
	_h1=$(cstat hits)
	[ "$_h1" = "$_h0" ] && pass "$1: not a cache hit" || fail "$1: not a cache hit" "hits $_h0 -> $_h1"
}
get_mode() { read -r _m < /proc/sys/fs/elfsig/mode; echo "$_m"; }
# i386 NAME WANT FILE: a case of the compat (i386) loader, skipped where
# the host could not build the i386 binary (a kernel without IA32
# emulation fails them: the test kernel must have it).
i386() {
	if [ ! -e $T/hello32.signed ]; then
		skip "i386: $1" "no i386 binary (the host cannot build gcc -m32 -static)"
	else
		expect "i386: $1" "$2" "$3"
	fi
}

# Verified dynamic processes: a glibc-linked probe with a signed ld.so
# and libc (tests/vm/test-kernel.sh puts them in the guest's root).
D=$T/dyn
# expect_out NAME WANT-EXIT GLOB CMD...: exit status and output
expect_out() {
	_n=$1 _w=$2 _g=$3; shift 3
	OUT=$("$@" 2>&1); _rc=$?
	# shellcheck disable=SC2254
	case "$_rc:$OUT" in
	"$_w":$_g) pass "$_n" ;;
	*) fail "$_n" "exit $_rc, wanted $_w and '$_g': $(oneline "$OUT")" ;;
	esac
}

# attach_bg NAME WANT-EXIT PROG: run "PROG sleep 60" in the background
# and "probe attach" it: 1 when ptrace is refused (a verified process),
# 0 when root may trace it.
attach_bg() {
	_n=$1 _w=$2; shift 2
	"$@" sleep 60 &
	_v=$!
	sleep 1
	expect_probe "$_n" "$_w" $P attach $_v
	kill $_v 2>/dev/null
	wait $_v 2>/dev/null
}

# attach_fifo NAME PROG ARG...: PROG, blocked reading /tmp/fifo (one of
# its ARGs), is a verified process: root cannot ptrace it
attach_fifo() {
	_n=$1; shift
	rm -f /tmp/fifo && mkfifo /tmp/fifo
	"$@" > /dev/null 2>&1 &
	_v=$!
	sleep 1
	expect_probe "$_n" 1 $P attach $_v
	echo x > /tmp/fifo
	wait $_v 2>/dev/null
	rm -f /tmp/fifo
}

# child_of PID: the first child of PID (a program "probe run-as" started)
child_of() {
	for _s in /proc/[0-9]*/stat; do
		read -r _p _c _st _pp _r < "$_s" 2>/dev/null || continue
		[ "$_pp" = "$1" ] && { echo "$_p"; return; }
	done
}

# A verified process runs only signed code: no write of its own reaches
# its executable memory, nothing makes its data code, and what others
# read of it (docs/kernel.md, "Only signed code runs"). Needs the kexec
# gate on (section 8): the gadget's exit status says what it was.
signed_code() {
	sleep 5
	for w in text vdso; do
		expect_out "own $w: a verified process cannot write it through /proc/self/mem" 1 "selfmem-$w: Input/output error" $PS selfmem $w
		expect_out "control: an unsigned process writes its own $w" 0 "selfmem-$w: ok" $P selfmem $w
	done
	for w in text vdso lib; do
		expect_out "dyn: own $w: a verified dynamic process cannot write it through /proc/self/mem" 1 "selfmem-$w: Input/output error" $D/dynprobe.signed selfmem $w
		expect_out "dyn: control: an unsigned dynamic process writes its own $w" 0 "selfmem-$w: ok" $D/dynprobe selfmem $w
	done
	expect_klog "log: write into the vDSO" ": write into the vDSO"
	expect_klog "log: write into executable memory" ": write into executable memory"
	L=/lib/x86_64-linux-gnu/libc.so.6
	sleep 5
	expect_out "write then exec: libc's text mapped, made read-only, written: the write is refused" 1 "cow-text: write: Input/output error" $D/dynprobe.signed cow-text $L
	expect_out "write then exec: control: an unsigned process runs what it wrote into its text" 0 "cow-text: ok" $D/dynprobe cow-text $L
	expect_out "write then exec: libc's text mapped read-only, written: mprotect(PROT_EXEC) refused" 1 "cow-data: mprotect: Permission denied" $D/dynprobe.signed cow-data $L
	expect_out "write then exec: control: an unsigned process runs what it wrote into its read-only mapping" 0 "cow-data: ok" $D/dynprobe cow-data $L
	expect_out "write then exec: the vDSO made writable, written: mprotect(PROT_EXEC) refused" 1 "vdso-rw: Permission denied" $D/dynprobe.signed vdso-rw
	expect_out "write then exec: control: an unsigned process makes its written vDSO executable" 0 "vdso-rw: ok" $D/dynprobe vdso-rw
	sleep 5
	for f in $L $D/dynmod.so.signed; do
		expect_out "READ_IMPLIES_EXEC set after exec: PROT_READ of ${f##*/}'s data is not made executable" 1 "rie-map: Permission denied" $D/dynprobe.signed rie-map "$f"
		expect_out "READ_IMPLIES_EXEC: control: an unsigned process gets ${f##*/}'s data executable" 0 "rie-map: ok" $D/dynprobe rie-map "$f"
	done
	expect_klog "log: READ_IMPLIES_EXEC after exec" ": mapping made executable by the personality"

	# the signed-dd gadget: a real Debian dd, signed, writes the kexec
	# gadget over its own vDSO's clock_gettime, which it calls to print
	# its statistics; address randomisation off, so a dd finds its vDSO
	# where the dd before it had it
	sleep 5
	read -r aslr < /proc/sys/kernel/randomize_va_space
	echo 0 > /proc/sys/kernel/randomize_va_space
	$P gadget > /tmp/gadget
	off=$($P vdso-sym __vdso_clock_gettime)
	for v in signed unsigned; do
		dd=$T/deb/dd.signed
		[ $v = unsigned ] && dd=$T/deb/dd
		base=$($dd if=/proc/self/maps 2>/dev/null | grep '\[vdso\]' | cut -d- -f1)
		OUT=$($dd if=/tmp/gadget of=/proc/self/mem bs=64 seek=$((0x$base + off)) oflag=seek_bytes conv=notrunc 2>&1)
		eval "rc_$v=\$? out_$v=\"\$(oneline \"\$OUT\")\""
	done
	echo "$aslr" > /proc/sys/kernel/randomize_va_space
	rm -f /tmp/gadget
	# shellcheck disable=SC2154
	case "$rc_signed:$out_signed" in
	1:*"Input/output error"*) pass "signed dd gadget: the verified dd cannot write its vDSO ($out_signed)" ;;
	42:*) fail "signed dd gadget: the verified dd cannot write its vDSO" "the gadget ran verified: kexec_file_load returned 0" ;;
	*) fail "signed dd gadget: the verified dd cannot write its vDSO" "exit $rc_signed: $out_signed" ;;
	esac
	# shellcheck disable=SC2154
	[ "$rc_unsigned" = 43 ] && pass "signed dd gadget: control: the unsigned dd runs the gadget from its vDSO (kexec refused: not verified)" ||
		fail "signed dd gadget: control: the unsigned dd runs the gadget from its vDSO" "exit $rc_unsigned: $out_unsigned"
	attach_fifo "signed dd gadget: the signed dd is a verified process (root cannot ptrace it)" $T/deb/dd.signed if=/tmp/fifo of=/dev/null

	# perf: refused to others, root and the same user; dropped at exec;
	# a CPU-wide event sees no user registers or stack of it
	sleep 5
	$PS sleep 60 &
	V=$!
	$P sleep 60 &
	U=$!
	$P run-as 1000 $PS sleep 60 &
	V1p=$!
	$P run-as 1000 $P sleep 60 &
	U1p=$!
	sleep 1
	V1=$(child_of $V1p) U1=$(child_of $U1p)
	expect_probe "perf: root cannot perf_event_open a verified process" 1 $P perf $V
	expect_probe "perf: control: root can perf_event_open an unsigned process" 0 $P perf $U
	expect_out "perf: uid 1000 cannot perf_event_open its own verified process" 0 "*perf: EACCES*RESULT exit 1*" $P run-as 1000 $P perf "$V1"
	expect_out "perf: control: uid 1000 can perf_event_open its own unsigned process" 0 "*perf: ok*RESULT exit 0*" $P run-as 1000 $P perf "$U1"
	expect_probe "perf: a verified process may perf_event_open itself" 0 $PS perf self
	expect_probe "perf: an event opened before the exec of a verified image is removed at it" 1 $P perf-exec $PS spin 3
	expect_probe "perf: control: it follows the exec of an unsigned one" 0 $P perf-exec $P spin 3
	for pr in $PS $P; do
		"$pr" spin 3 &
		S=$!
		sleep 1
		OUT=$($P perf-cpu $S 2>&1); rc=$?
		wait $S
		if [ "$pr" = "$PS" ]; then
			[ $rc = 1 ] && pass "perf: a CPU-wide event's samples of a verified process carry no user registers or stack ($OUT)" ||
				fail "perf: a CPU-wide event's samples of a verified process carry no user registers or stack" "exit $rc: $(oneline "$OUT")"
		else
			[ $rc = 0 ] && pass "perf: control: those of an unsigned process do ($OUT)" ||
				fail "perf: control: those of an unsigned process do" "exit $rc: $(oneline "$OUT")"
		fi
	done

	# /proc: memory contents refused, metadata kept (what systemd and ps read)
	for f in stat status cmdline comm cgroup maps environ auxv; do
		works "proc: root reads /proc/PID/$f of a verified process" cat /proc/$V/$f
	done
	for f in stat status cmdline comm environ auxv; do
		expect_out "proc: uid 1000 reads /proc/PID/$f of its verified process" 0 "*RESULT exit 0*" $P run-as 1000 /bin/cat /proc/"$V1"/$f
	done
	works "proc: root reads /proc/PID/pagemap of a verified process" head -c 8 /proc/$V/pagemap
	refused "proc: root cannot read /proc/PID/syscall of a verified process" cat /proc/$V/syscall
	works "proc: control: root reads /proc/PID/syscall of an unsigned process" cat /proc/$U/syscall
	if [ -e /proc/$U/stack ]; then
		refused "proc: root cannot read /proc/PID/stack of a verified process" cat /proc/$V/stack
		works "proc: control: root reads /proc/PID/stack of an unsigned process" cat /proc/$U/stack
	else
		skip "proc: /proc/PID/stack" "CONFIG_STACKTRACE is not set in this kernel"
	fi
	kill $V $U "$V1" "$U1" $V1p $U1p 2>/dev/null
	wait 2>/dev/null
	skip "kcmp of a verified process" "CONFIG_KCMP is not set in the test kernels"
	skip "shmat(SHM_EXEC) in a verified process" "CONFIG_SYSVIPC is not set in the test kernels"
	skip "io_uring registered buffers of a verified process" "CONFIG_IO_URING is not set in the test kernels"
}

dyn_enforce() {
	sleep 5	# the log rate limit
	expect_out "dyn: signed glibc program, signed ld.so and libc: runs" 0 "*dynprobe: hello*" $D/dynprobe.signed hello
	expect_out "dyn: it is verified (the kexec gate lets it through)" 0 "verified" $D/dynprobe.signed whoami
	expect_out "dyn: control: the unsigned program is not" 0 "unverified" $D/dynprobe whoami
	expect "dyn: signed hello-dyn (PT_INTERP) runs" "*hello*RESULT exit 0*" $T/hello-dyn.signed
	attach_bg "dyn: root cannot ptrace the verified dynamic process" 1 $D/dynprobe.signed
	attach_bg "dyn: control: root can ptrace the unsigned one" 0 $D/dynprobe

	# the interpreter
	cp $D/ld.unsigned $D/ld.so
	expect "dyn: unsigned interpreter: exec refused" "*RESULT exec-error EPERM*" $D/dynprobe-ldx.signed hello
	expect_log "dyn: log: unsigned interpreter" "path=$D/ld.so: unsigned interpreter"
	expect "dyn: control: unsigned program, unsigned interpreter runs" "*dynprobe: hello*RESULT exit 0*" $D/dynprobe-ldx hello
	cp $D/ld.tampered $D/ld.so
	expect "dyn: tampered interpreter: exec refused" "*RESULT exec-error EPERM*" $D/dynprobe-ldx.signed hello
	expect_log "dyn: log: tampered interpreter" "path=$D/ld.so: bad signature"
	cp $D/ld.signed $D/ld.so
	expect "dyn: signed interpreter at another path runs" "*dynprobe: hello*RESULT exit 0*" $D/dynprobe-ldx.signed hello

	# libraries
	sleep 5
	expect_out "dyn: unsigned libc: refused" 127 "*libc.so.6*" env LD_LIBRARY_PATH=$D/unsigned $D/dynprobe.signed hello
	expect_log "dyn: log: unsigned libc" "path=$D/unsigned/libc.so.6: unsigned library"
	expect_out "dyn: control: unsigned program with unsigned libc runs" 0 "*dynprobe: hello*" env LD_LIBRARY_PATH=$D/unsigned $D/dynprobe hello
	expect_out "dyn: libc with a byte of .text changed: refused" 127 "*libc.so.6*" env LD_LIBRARY_PATH=$D/text $D/dynprobe.signed hello
	expect_log "dyn: log: tampered libc text" "path=$D/text/libc.so.6: bad signature"
	expect_out "dyn: libc with a byte of its data segment changed: refused" 127 "*libc.so.6*" env LD_LIBRARY_PATH=$D/data $D/dynprobe.signed hello
	expect_log "dyn: log: tampered libc data" "path=$D/data/libc.so.6: bad signature"
	expect_out "dyn: control: unsigned program with tampered libc runs" 0 "*dynprobe: hello*" env LD_LIBRARY_PATH=$D/text $D/dynprobe hello
	sleep 5
	OUT=$(LD_PRELOAD=$D/dynmod.so $D/dynprobe.signed hello 2>&1)
	case "$OUT" in
	*"dynmod: loaded"*) fail "dyn: unsigned LD_PRELOAD library not loaded" "$(oneline "$OUT")" ;;
	*"dynprobe: hello"*) pass "dyn: unsigned LD_PRELOAD library not loaded ($(oneline "$OUT"))" ;;
	*) fail "dyn: unsigned LD_PRELOAD library not loaded" "$(oneline "$OUT")" ;;
	esac
	expect_log "dyn: log: LD_PRELOAD" "path=$D/dynmod.so: unsigned library"
	expect_out "dyn: signed LD_PRELOAD library loaded" 0 "*dynmod: loaded*dynprobe: hello*" env LD_PRELOAD=$D/dynmod.so.signed $D/dynprobe.signed hello
	expect_out "dyn: control: unsigned program, unsigned LD_PRELOAD loaded" 0 "*dynmod: loaded*dynprobe: hello*" env LD_PRELOAD=$D/dynmod.so $D/dynprobe hello
	expect_out "dyn: dlopen of an unsigned module refused" 1 "dlopen: *" $D/dynprobe.signed dlopen $D/dynmod.so
	expect_out "dyn: dlopen of a signed module works" 0 "*dlopen: ok 42*" $D/dynprobe.signed dlopen $D/dynmod.so.signed
	expect_out "dyn: control: unsigned program dlopens the unsigned module" 0 "*dlopen: ok 42*" $D/dynprobe dlopen $D/dynmod.so
	expect_out "dyn: PROT_EXEC mapping of a data file refused" 1 "map-exec: Operation not permitted" $D/dynprobe.signed map-exec $T/rogue.der
	expect_out "dyn: control: unsigned program maps a data file executable" 0 "map-exec: ok" $D/dynprobe map-exec $T/rogue.der

	# anonymous executable memory
	sleep 5
	for op in anon-exec wx mprotect memfd-exec; do
		err="Permission denied"
		[ $op = memfd-exec ] && err="Operation not permitted"
		expect_out "dyn: $op refused in a verified process" 1 "$op: $err" $D/dynprobe.signed $op
		expect_out "dyn: control: $op works in an unsigned process" 0 "$op: ok" $D/dynprobe $op
	done
	expect_log "dyn: log: anonymous" "path=anonymous: executable mapping of unverified memory"
	expect_log "dyn: log: W+X" "path=anonymous: writable and executable mapping"
	expect_log "dyn: log: memfd" "path=/memfd:elfsig-exec (deleted): executable mapping of a non-ELF file"

	# the ELFSIG note: a JIT maps anonymous executable memory, unverified
	expect_out "dyn: ANON_EXEC note: the signed program runs" 0 "*dynprobe: hello*" $D/dynprobe-jit.signed hello
	for op in anon-exec wx mprotect memfd-exec; do
		expect_out "dyn: ANON_EXEC note: $op works" 0 "$op: ok" $D/dynprobe-jit.signed $op
	done
	expect_out "dyn: ANON_EXEC note: the process is not verified" 0 "unverified" $D/dynprobe-jit.signed whoami
	attach_bg "dyn: ANON_EXEC note: root can ptrace it" 0 $D/dynprobe-jit.signed

	# real Debian binaries, signed, running verified
	sleep 5
	want=$(sha256sum $T/hello.rsa)
	expect_out "deb: signed sha256sum runs" 0 "$want" $T/deb/sha256sum.signed $T/hello.rsa
	expect_out "deb: signed env runs a verified program" 0 "verified" $T/deb/env.signed $D/dynprobe.signed whoami
	echo "elfsig cat" > /tmp/cat.in
	expect_out "deb: signed cat runs" 0 "elfsig cat" $T/deb/cat.signed /tmp/cat.in
	rm -f /tmp/cat.in
	attach_fifo "deb: root cannot ptrace the verified Debian cat" $T/deb/cat.signed /tmp/fifo
}

# What a loader may map executable, what exec may set up, and how the
# ELFSIG note is read (patches 24-27).
dyn_harden() {
	sleep 5
	L=$D/dynmod.so.signed
	expect_out "dyn: a library's text mapped executable: the file's bytes" 0 "map-seg: ok" $D/dynprobe.signed map-seg $L text
	expect_out "dyn: libc's text mapped executable: the file's bytes" 0 "map-seg: ok" $D/dynprobe.signed map-seg /lib/x86_64-linux-gnu/libc.so.6 text
	expect_out "dyn: a library's read-only segment mapped executable: refused" 1 "map-seg: Operation not permitted" $D/dynprobe.signed map-seg $L data
	expect_out "dyn: libc's read-only segment mapped executable: refused" 1 "map-seg: Operation not permitted" $D/dynprobe.signed map-seg /lib/x86_64-linux-gnu/libc.so.6 data
	expect_log "dyn: log: outside the executable segments" "path=$L: executable mapping outside the executable segments"
	expect_out "dyn: control: unsigned program maps that segment executable" 0 "map-seg: ok" $D/dynprobe map-seg $L data
	expect_out "dyn: mremap cannot grow an executable mapping of a copy" 1 "mremap-grow: refused" $D/dynprobe.signed mremap-grow $L
	expect_out "dyn: control: unsigned program grows its executable mapping" 0 "mremap-grow: ok" $D/dynprobe mremap-grow $L

	sleep 5
	expect "dyn: signed program with an executable stack: killed" "*RESULT signal 9*" $D/dynprobe-xs.signed hello
	expect_log "dyn: log: executable stack" "path=$D/dynprobe-xs.signed: executable stack"
	expect "dyn: again, from the cache: killed" "*RESULT signal 9*" $D/dynprobe-xs.signed hello
	expect "dyn: control: unsigned program with an executable stack runs" "*dynprobe: hello*RESULT exit 0*" $D/dynprobe-xs hello
	expect_out "dyn: READ_IMPLIES_EXEC from the parent: exec refused" 1 "rie-exec: Operation not permitted" $D/dynprobe rie-exec $D/dynprobe.signed hello
	expect_log "dyn: log: READ_IMPLIES_EXEC" "path=$D/dynprobe.signed: READ_IMPLIES_EXEC personality"
	expect_out "dyn: control: an unsigned program runs with it" 0 "dynprobe: hello" $D/dynprobe rie-exec $D/dynprobe hello
	expect_out "dyn: a heap grown under READ_IMPLIES_EXEC: refused" 1 "rie-brk: refused" $D/dynprobe.signed rie-brk
	expect_out "dyn: control: an unsigned program grows it" 0 "rie-brk: ok" $D/dynprobe rie-brk

	sleep 5
	expect "dyn: an executable PT_LOAD with a bss tail: killed" "*RESULT signal 11*" $T/bsstail.signed
	expect_log "dyn: log: bss tail" "path=anonymous: executable mapping of unverified memory"
	expect "dyn: control: the unsigned one runs" "*RESULT exit 0*" $T/bsstail

	sleep 5
	expect_out "dyn: ANON_EXEC note after 4096 bytes of notes: the kernel reads it" 0 "anon-exec: ok" $D/dynprobe-bignote.signed anon-exec
	expect_out "dyn: ... and the process is not verified" 0 "unverified" $D/dynprobe-bignote.signed whoami
	for v in note-desc8 note-tail note-two note-wrap; do
		expect "dyn: $v: malformed ELFSIG note (signelf refuses it): killed" "*RESULT signal 9*" $D/notes/$v hello
	done
	expect_log "dyn: log: malformed ELFSIG note" "path=$D/notes/note-two: malformed ELFSIG note"
	expect_out "dyn: note-other (well formed, no flags note): runs verified" 0 "verified" $D/notes/note-other whoami
}

# A verified i386 dynamic process: its libraries are ELF32.
dyn_i386() {
	if [ ! -e $D/dynprobe32.signed ]; then
		skip "dyn i386" "no i386 dynamic probe (the host cannot link gcc -m32)"
		return
	fi
	sleep 5
	expect_out "dyn i386: signed program, ld.so and libc: runs" 0 "*dynprobe: hello*" $D/dynprobe32.signed hello
	expect_out "dyn i386: it is verified" 0 "verified" $D/dynprobe32.signed whoami
	expect_out "dyn i386: control: the unsigned one is not" 0 "unverified" $D/dynprobe32 whoami
	expect_out "dyn i386: dlopen of a 64-bit module fails" 1 "dlopen: *" $D/dynprobe32.signed dlopen $D/dynmod.so.signed
	expect_out "dyn i386: libc's text mapped executable: the file's bytes" 0 "map-seg: ok" $D/dynprobe32.signed map-seg /lib32/libc.so.6 text
	expect_out "dyn i386: libc's read-only segment mapped executable: refused" 1 "map-seg: Operation not permitted" $D/dynprobe32.signed map-seg /lib32/libc.so.6 data
	expect_out "dyn i386: unsigned libc: refused" 127 "*libc.so.6*" env LD_LIBRARY_PATH=$D/unsigned32 $D/dynprobe32.signed hello
	expect_log "dyn i386: log: unsigned libc" "path=$D/unsigned32/libc.so.6: unsigned library"
	expect_out "dyn i386: control: unsigned program with unsigned libc runs" 0 "*dynprobe: hello*" env LD_LIBRARY_PATH=$D/unsigned32 $D/dynprobe32 hello
	if [ -e $T/hello32.signed ]; then
		expect_out "dyn i386: READ_IMPLIES_EXEC from the parent (compat keeps it): exec refused" 1 "rie-exec: Operation not permitted" $D/dynprobe rie-exec $T/hello32.signed
		expect_out "dyn i386: control: the unsigned one runs with it" 0 "hello32 shoff*" $D/dynprobe rie-exec $T/hello32
	fi
}

dyn_permissive() {
	sleep 5
	expect_out "permissive: dyn: unsigned libc logged and allowed" 0 "*dynprobe: hello*" env LD_LIBRARY_PATH=$D/unsigned $D/dynprobe.signed hello
	expect_log "permissive: dyn: log: unsigned libc" "path=$D/unsigned/libc.so.6: unsigned library (permissive: allowed)"
	cp $D/ld.unsigned $D/ld.so
	expect "permissive: dyn: unsigned interpreter logged and allowed" "*dynprobe: hello*RESULT exit 0*" $D/dynprobe-ldx.signed hello
	expect_log "permissive: dyn: log: unsigned interpreter" "path=$D/ld.so: unsigned interpreter (permissive: allowed)"
	expect_out "permissive: dyn: dlopen of an unsigned module allowed" 0 "*dlopen: ok 42*" $D/dynprobe.signed dlopen $D/dynmod.so
	for op in anon-exec wx mprotect memfd-exec; do
		expect_out "permissive: dyn: $op logged and allowed" 0 "$op: ok" $D/dynprobe.signed $op
	done
	expect_log "permissive: dyn: log: anonymous" "path=anonymous: executable mapping of unverified memory (permissive: allowed)"
	sleep 5
	attach_bg "permissive: dyn: control: root cannot ptrace a verified process" 1 $D/dynprobe.signed
	expect_out "permissive: dyn: executable stack logged, runs" 0 "dynprobe: hello" $D/dynprobe-xs.signed hello
	attach_bg "permissive: dyn: ... not verified: root can ptrace it" 0 $D/dynprobe-xs.signed
	expect_log "permissive: dyn: log: executable stack" "path=$D/dynprobe-xs.signed: executable stack (permissive: allowed)"
	expect_out "permissive: dyn: malformed ELFSIG note logged, runs" 0 "dynprobe: hello" $D/notes/note-two hello
	attach_bg "permissive: dyn: ... not verified: root can ptrace it" 0 $D/notes/note-two
	expect_log "permissive: dyn: log: malformed ELFSIG note" "path=$D/notes/note-two: malformed ELFSIG note (permissive: allowed)"
	sleep 5
	expect_out "permissive: dyn: READ_IMPLIES_EXEC logged, runs" 0 "dynprobe: hello" $D/dynprobe rie-exec $D/dynprobe.signed hello
	expect_log "permissive: dyn: log: READ_IMPLIES_EXEC" "path=$D/dynprobe.signed: READ_IMPLIES_EXEC personality (permissive: allowed)"
	expect_out "permissive: dyn: read-only segment mapped executable logged and allowed" 0 "map-seg: ok" $D/dynprobe.signed map-seg $D/dynmod.so.signed data
	expect_log "permissive: dyn: log: outside the executable segments" "path=$D/dynmod.so.signed: executable mapping outside the executable segments (permissive: allowed)"
	expect "permissive: dyn: a bss tail logged, runs" "*RESULT exit 0*" $T/bsstail.signed
}

echo "ELFSIG-VM: cases for mode $MODE"

# The elfsig LSM: listed among the modules, stacked with the others
# (landlock in the test kernels), and enabled whatever lsm= says (the
# permissive boot passes lsm=capability). Before require mode takes
# effect: mount is busybox's.
mountpoint -q /sys/kernel/security ||
	mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
if [ -r /sys/kernel/security/lsm ]; then
	read -r LSMS < /sys/kernel/security/lsm
	case ",$LSMS," in
	*,elfsig,*) pass "LSM: elfsig is in /sys/kernel/security/lsm ($LSMS)" ;;
	*) fail "LSM: elfsig is in /sys/kernel/security/lsm" "$LSMS" ;;
	esac
	case " $(cat /proc/cmdline) " in
	*" lsm=capability "*)
		case ",$LSMS," in
		*,landlock,*) fail "LSM: lsm=capability leaves landlock out, not elfsig" "$LSMS" ;;
		*) pass "LSM: lsm=capability leaves landlock out, not elfsig" ;;
		esac ;;
	*)
		case ",$LSMS," in
		*,landlock,*) pass "LSM: elfsig stacks with landlock" ;;
		*) fail "LSM: elfsig stacks with landlock" "$LSMS" ;;
		esac ;;
	esac
else
	fail "LSM: /sys/kernel/security/lsm exists" "not readable"
fi

case $MODE in
enforce)
	# 1. the keyring
	if grep -q ' keyring *\.elfsig: ' /proc/keys; then pass "keyring .elfsig exists at boot"; else fail "keyring .elfsig exists at boot" "$(oneline "$(cat /proc/keys)")"; fi
	[ "$(get_mode)" = enforce ] && pass "default mode is enforce" || fail "default mode is enforce" "$(get_mode)"

	# 2. not trusted before the lock
	expect "signed binary refused before the keyring is locked" "*RESULT exec-error EPERM*" $T/hello.prelock
	expect_log "log: keyring not locked" "path=$T/hello.prelock: keyring not locked"

	# 1b. provenance: the kernel decides what joins .elfsig
	keyctl new_session > /dev/null	# a session keyring of our own for @s
	[ "$(lockval)" = 0 ] && pass "fs.elfsig.lock reads 0 at boot" || fail "fs.elfsig.lock reads 0 at boot" "$(lockval)"
	refused "keyctl restrict_keyring no longer locks .elfsig (it has a restriction from boot)" keyctl restrict_keyring %keyring:.elfsig
	[ "$(lockval)" = 0 ] && pass "still unlocked after restrict_keyring" || fail "still unlocked after restrict_keyring" "$(lockval)"
	NR=$(keyctl newring nest @s)
	works "control: a keyring can be nested in a session keyring" keyctl link "$(keyctl newring nest2 @s)" "$NR"
	refused "nested keyring: a keyring cannot be linked into .elfsig" keyctl link "$NR" %keyring:.elfsig
	expect_klog "log: keyring refused" "keyring key refused: only X.509 certificates"
	refused "RSA-1024 certificate refused" padd_elfsig $T/rsa1024.der
	expect_klog "log: RSA-1024 refused, allowed named" "refused: RSA-1024; format v1 allows RSA-2048, RSA-3072, RSA-4096, ECDSA P-256, ECDSA P-384"
	refused "ECDSA P-192 certificate refused" padd_elfsig $T/p192.der
	expect_klog "log: P-192 refused" "refused: ecdsa-nist-p192; format v1 allows"
	refused "ECDSA P-521 certificate refused" padd_elfsig $T/p521.der
	case $(uname -r) in
	6.1.*) skip "log: P-521 refused" "6.1's X.509 parser has no P-521: the key is refused (ENOPKG) before .elfsig's check sees it" ;;
	*) expect_klog "log: P-521 refused" "refused: ecdsa-nist-p521; format v1 allows" ;;
	esac
	refused "CA option: a self-signed certificate refused before the lock" padd_elfsig $T/selfsigned.der
	expect_klog "log: self-signed refused" "not signed by a key in the builtin or secondary trusted keyring"
	refused "CA option: the CA certificate itself refused" padd_elfsig $T/ca.der
	expect_klog "log: CA certificate refused" "a CA certificate"
	refused "request_key() cannot construct a key in .elfsig" keyctl request2 asymmetric elfsig-test-rk callout %keyring:.elfsig
	expect_klog "log: request_key refused" "request_key() cannot construct a key in .elfsig"
	[ "$(nkeys)" = 0 ] && pass "nothing refused joined .elfsig" || fail "nothing refused joined .elfsig" "$(nkeys) keys"
	# A key that exists elsewhere cannot be linked in: its certificate is
	# gone, the kernel could not measure it.
	XK=$(keyctl padd asymmetric "" @s < $T/p384.der)
	refused "an existing key cannot be linked into .elfsig (it could not be measured)" keyctl link "$XK" %keyring:.elfsig
	expect_klog "log: link refused" "only a certificate added to .elfsig itself may join it"
	refused "an existing key cannot be moved into .elfsig" keyctl move "$XK" @s %keyring:.elfsig
	keyctl unlink "$XK" @s > /dev/null 2>&1
	# A CA-issued P-384 key, added before the lock. Since it can only be
	# added (not linked from a keyring root possesses), root cannot give
	# it a timeout either; the lock pins it all the same.
	PK=$(keyctl padd asymmetric "" %keyring:.elfsig < $T/p384.der) &&
		pass "CA option: a CA-issued P-384 certificate is added to .elfsig" ||
		fail "CA option: a CA-issued P-384 certificate is added to .elfsig" "padd failed"
	refused "before the lock: a key in .elfsig cannot be given a timeout (not possessed)" keyctl timeout "$PK" 8
	mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
	if [ -e /sys/kernel/security/elfsig/binary_measurements ]; then
		pass "binary_measurements exists"
		case $(stat -c %a /sys/kernel/security/elfsig/binary_measurements) in
		440) pass "binary_measurements is 0440" ;;
		*) fail "binary_measurements is 0440" "$(stat -c %a /sys/kernel/security/elfsig/binary_measurements)" ;;
		esac
	else
		fail "binary_measurements exists" "missing"
	fi
	sleep 5	# let the log rate limit recover

	if add_keys; then pass "keyctl padd asymmetric into %keyring:.elfsig"; else fail "keyctl padd asymmetric into %keyring:.elfsig" "keyctl failed"; fi
	n=$(nkeys)
	[ "$n" = 3 ] && pass "three keys in .elfsig" || fail "three keys in .elfsig" "found $n"
	if lock; then pass "fs.elfsig.lock=1 locks .elfsig"; else fail "fs.elfsig.lock=1 locks .elfsig" "write failed"; fi
	[ "$(lockval)" = 1 ] && pass "fs.elfsig.lock reads 1" || fail "fs.elfsig.lock reads 1" "$(lockval)"
	echo 0 2>/dev/null > /proc/sys/fs/elfsig/lock
	[ "$(lockval)" = 1 ] && pass "fs.elfsig.lock cannot be undone" || fail "fs.elfsig.lock cannot be undone" "$(lockval)"
	expect_klog "log: the lock" "keyring locked (fs.elfsig.lock): 3 keys"
	if keyctl padd asymmetric "" %keyring:.elfsig < $T/rogue.der > /dev/null 2>&1; then
		fail "no key can be added once locked" "padd succeeded"
	else
		pass "no key can be added once locked"
	fi
	refused "after the lock: root cannot add a CA-issued certificate" padd_elfsig $T/late.der
	OUT=$($P run-as 1000 /bin/keyctl padd asymmetric "" "$ER" < $T/late.der 2>&1)
	case "$OUT" in
	*"RESULT exit "[1-9]*) pass "after the lock: uid 1000 cannot add a certificate" ;;
	*) fail "after the lock: uid 1000 cannot add a certificate" "$(oneline "$OUT")" ;;
	esac
	refused "after the lock: no keyring can be linked in" keyctl link "$NR" %keyring:.elfsig
	# Each operation on the pre-lock key is refused; the same on a key in
	# a session keyring works (the control).
	works "control: revoke a key in a session keyring" keyctl revoke "$(fresh)"
	refused "after the lock: the pre-lock key cannot be revoked" keyctl revoke "$PK"
	works "control: invalidate a key in a session keyring" keyctl invalidate "$(fresh)"
	refused "after the lock: the pre-lock key cannot be invalidated" keyctl invalidate "$PK"
	works "control: unlink a key from a session keyring" keyctl unlink "$(fresh)" @s
	refused "after the lock: the pre-lock key cannot be unlinked" keyctl unlink "$PK" %keyring:.elfsig
	works "control: set a timeout on a key in a session keyring" keyctl timeout "$(fresh)" 100
	refused "after the lock: the pre-lock key's timeout cannot be set" keyctl timeout "$PK" 1
	works "control: setperm a key in a session keyring" keyctl setperm "$(fresh)" 0x3f010000
	refused "after the lock: the pre-lock key's permissions cannot be changed" keyctl setperm "$PK" 0
	works "control: move a key between session keyrings" keyctl move "$(fresh)" @s "$NR"
	refused "after the lock: no key can be moved out of .elfsig" keyctl move "$PK" %keyring:.elfsig @s
	refused "after the lock: .elfsig's permissions cannot be changed" keyctl setperm %keyring:.elfsig 0x3f3f0000
	refused "after the lock: .elfsig cannot be cleared" keyctl clear %keyring:.elfsig
	[ "$(nkeys)" = 3 ] && pass "after the lock: still three keys in .elfsig" || fail "after the lock: still three keys in .elfsig" "$(nkeys)"
	# The builtin keyring holds the platform CA (CONFIG_SYSTEM_TRUSTED_KEYS)
	# and nothing else: .elfsig's keys never go there.
	n=$(keyctl rlist %keyring:.builtin_trusted_keys 2>/dev/null | wc -w)
	if [ "$n" = 1 ] && keyctl rdescribe "$(keyctl rlist %keyring:.builtin_trusted_keys)" | grep -q 'platform CA'; then
		pass "module keyrings untouched (the builtin one holds the platform CA only)"
	else
		fail "module keyrings untouched" ".builtin_trusted_keys: $n keys"
	fi

	# 3. run / kill / refuse
	expect "signed rsa2048 sha256 runs" "*hello*RESULT exit 0*" $T/hello.rsa
	expect "signed p256 sha384 keyid runs" "*hello*RESULT exit 0*" $T/hello.p256
	expect "signed rsa2048 sha512 runs" "*hello*RESULT exit 0*" $T/hello.sha512
	expect "signed static PIE runs" "*hello*RESULT exit 0*" $T/hello-pie.signed
	expect "unsigned binary runs in enforce" "*hello*RESULT exit 0*" $T/hello
	expect "tampered PT_LOAD is killed" "RESULT signal 9" $T/hello.tampered-load
	expect_log "log: tampered PT_LOAD" "path=$T/hello.tampered-load: bad signature"
	expect "tampered program header is killed" "RESULT signal 9" $T/hello.tampered-pht
	expect_log "log: tampered program header" "path=$T/hello.tampered-pht: bad signature"
	m0=$(cstat misses)
	expect "key not in .elfsig: exec refused" "*RESULT exec-error EPERM*" $T/hello.rogue
	expect_log "log: no matching key" "path=$T/hello.rogue: no matching key"
	[ "$(cstat misses)" = "$m0" ] && pass "key not in .elfsig: refused before any copy" ||
		fail "key not in .elfsig: refused before any copy" "misses $m0 -> $(cstat misses)"

	# 5. larger than RLIMIT_MEMLOCK, as a user
	OUT=$($P run-as 1000 $P memlock)
	case "$OUT" in
	*"memlock: "[0-9]*) lim=${OUT##*memlock: }; lim=${lim%%[!0-9]*} ;;
	*) lim=0 ;;
	esac
	big=$(wc -c < $T/big.signed)
	if [ "$lim" -gt 0 ] && [ "$big" -gt "$lim" ]; then
		pass "big binary ($big bytes) exceeds RLIMIT_MEMLOCK ($lim)"
	else
		fail "big binary exceeds RLIMIT_MEMLOCK" "size $big, limit '$OUT'"
	fi
	[ "$big" -ge $((64 << 20)) ] && pass "big binary is at least 64 MiB ($big bytes)" ||
		fail "big binary is at least 64 MiB" "$big bytes"
	OUT=$($P run-as 1000 $T/big.signed 2>&1)
	case "$OUT" in
	*"big ok 3"*"RESULT exit 0"*) pass "signed binary of $big bytes (> RLIMIT_MEMLOCK, >= 64 MiB) runs as uid 1000" ;;
	*) fail "signed binary of $big bytes (> RLIMIT_MEMLOCK, >= 64 MiB) runs as uid 1000" "$(oneline "$OUT")" ;;
	esac

	# 6. memory: the copy made before a signature can be checked is
	# bounded (fs.elfsig.image_max_kb), as uid 1000, next to a root
	# sentinel that holds more memory than any user process here, so an
	# OOM kill would most likely pick it.
	sleep 5	# elfsig's log is rate limited: 10 lines per 5 s
	mem_kb() { sed -n "s/^$1: *\([0-9]*\) kB/\1/p" /proc/meminfo; }
	total=$(mem_kb MemTotal)
	imax=$(cat /proc/sys/fs/elfsig/image_max_kb 2>&1)
	if [ "$imax" -gt 0 ] 2>/dev/null && [ "$imax" -le $((total / 4)) ]; then
		pass "image_max_kb ($imax) is at most a quarter of MemTotal ($total kB)"
	else
		fail "image_max_kb is at most a quarter of MemTotal" "image_max_kb '${imax:-}', MemTotal $total kB"
	fi
	$P hog 48 3600 > /tmp/hog.out 2>&1 &
	hog=$!
	sleep 2
	avail0=$(mem_kb MemAvailable)
	huge=$((total * 4 * 1024))
	# 4 x MemTotal, sparse: by a signer in .elfsig (passes the signer
	# check, refused for its size) and by one that is not
	$P fake-image $T/hello.rsa /tmp/huge.known $huge > /dev/null &&
	$P fake-image $T/hello.rogue /tmp/huge.rogue $huge > /dev/null ||
		fail "fake-signed sparse images" "probe fake-image failed"
	# asuser NAME WANT PATH: exec PATH as uid 1000
	asuser() {
		OUT=$($P run-as 1000 "$3" 2>&1)
		# shellcheck disable=SC2254
		case "$OUT" in
		$2) pass "$1" ;;
		*) fail "$1" "wanted '$2', got: $(oneline "$OUT")" ;;
		esac
	}
	m0=$(cstat misses)
	asuser "uid 1000: fake-signed image of 4x MemTotal refused (EFBIG)" "*RESULT exec-error EFBIG*" /tmp/huge.known
	expect_log "log: image larger than fs.elfsig.image_max_kb" "path=/tmp/huge.known: image larger than fs.elfsig.image_max_kb"
	asuser "uid 1000: 4x MemTotal, signer not in .elfsig: refused (EPERM)" "*RESULT exec-error EPERM*" /tmp/huge.rogue
	pids=
	for i in 1 2 3 4 5 6 7 8; do $P run-as 1000 /tmp/huge.known > /tmp/par.$i 2>&1 & pids="$pids $!"; done
	# shellcheck disable=SC2086
	wait $pids
	n=0
	for i in 1 2 3 4 5 6 7 8; do grep -q "RESULT exec-error EFBIG" /tmp/par.$i && n=$((n + 1)); done
	[ $n = 8 ] && pass "uid 1000: 8 parallel execs of the 4x MemTotal image all refused" ||
		fail "uid 1000: 8 parallel execs of the 4x MemTotal image all refused" "$n of 8: $(oneline "$(cat /tmp/par.*)")"
	[ "$(cstat misses)" = "$m0" ] && pass "no copy was made for them" ||
		fail "no copy was made for them" "misses $m0 -> $(cstat misses)"
	# 8 files of just over half the bound each, signer in .elfsig, bad
	# signature: each is copied and hashed, then killed; two never fit at
	# once, so the 8 in parallel hold at most image_max_kb (without the
	# bound: more than MemTotal). Eight files, not one: execs of one file
	# wait for each other anyway (below). Eight users, uids 1001-1008:
	# one user's second copy would not fit in its share of the bound
	# (image_user_percent, 6h) and be refused instead of waiting.
	mid=$(( (total / 8 + 1024) * 1024 ))
	for i in 1 2 3 4 5 6 7 8; do
		$P fake-image $T/hello.rsa /tmp/mid.known.$i $mid > /dev/null ||
			fail "fake-signed sparse images" "probe fake-image failed"
	done
	m0=$(cstat misses)
	sleep 5	# elfsig's log is rate limited: 10 lines per 5 s
	pids=
	for i in 1 2 3 4 5 6 7 8; do $P run-as $((1000 + i)) /tmp/mid.known.$i > /tmp/par.$i 2>&1 & pids="$pids $!"; done
	# shellcheck disable=SC2086
	wait $pids
	n=0
	for i in 1 2 3 4 5 6 7 8; do grep -q "RESULT signal 9" /tmp/par.$i && n=$((n + 1)); done
	[ $n = 8 ] && pass "uids 1001-1008: 8 parallel execs of a fake-signed image of MemTotal/8 each copied and killed" ||
		fail "uids 1001-1008: 8 parallel execs of a fake-signed image of MemTotal/8 each copied and killed" "$n of 8: $(oneline "$(cat /tmp/par.*)")"
	[ "$(cstat misses)" = $((m0 + 8)) ] && pass "each of the 8 was copied (8 misses)" ||
		fail "each of the 8 was copied (8 misses)" "misses $m0 -> $(cstat misses)"
	expect_log "log: bad signature for the fake-signed image" "path=/tmp/mid.known.1: bad signature"
	if kill -0 "$hog" 2>/dev/null; then pass "the root sentinel survives"; else fail "the root sentinel survives" "it is gone: $(oneline "$(cat /tmp/hog.out)")"; fi
	case "$(kmsg)" in
	*"Out of memory"*|*"oom-kill"*) fail "no OOM kill" "$(kmsg | grep -i -m3 'out of memory\|oom-kill' | tr '\n' ' ')" ;;
	*) pass "no OOM kill" ;;
	esac
	avail1=$(mem_kb MemAvailable)
	[ "$avail1" -ge $((avail0 - avail0 / 10)) ] && pass "MemAvailable recovers ($avail0 -> $avail1 kB)" ||
		fail "MemAvailable recovers" "$avail0 -> $avail1 kB"
	kill "$hog" 2>/dev/null; wait "$hog" 2>/dev/null
	rm -f /tmp/huge.known /tmp/huge.rogue /tmp/mid.known.* /tmp/par.* /tmp/hog.out

	# 6b. concurrent first execs of one signed binary make one copy: the
	# others wait for it and take it from the cache. The big binary, so
	# that they overlap (its copy takes seconds), in a cache made large
	# enough to hold it; without the sharing each would copy it in turn.
	echo 262144 > /proc/sys/fs/elfsig/cache_kb
	cp $T/big.signed /tmp/big.shared	# a new inode: never cached
	m0=$(cstat misses) h0=$(cstat hits)
	pids=
	for i in 1 2 3 4 5 6 7 8; do $P run-as 1000 /tmp/big.shared > /tmp/par.$i 2>&1 & pids="$pids $!"; done
	# shellcheck disable=SC2086
	wait $pids
	n=0
	for i in 1 2 3 4 5 6 7 8; do grep -q "big ok 3" /tmp/par.$i && grep -q "RESULT exit 0" /tmp/par.$i && n=$((n + 1)); done
	[ $n = 8 ] && pass "8 parallel first execs of one signed binary run" ||
		fail "8 parallel first execs of one signed binary run" "$n of 8: $(oneline "$(cat /tmp/par.*)")"
	[ "$(cstat misses)" = $((m0 + 1)) ] && [ "$(cstat hits)" = $((h0 + 7)) ] &&
		pass "8 parallel first execs of one signed binary: one copy (1 miss, 7 hits)" ||
		fail "8 parallel first execs of one signed binary: one copy (1 miss, 7 hits)" "misses $m0 -> $(cstat misses), hits $h0 -> $(cstat hits)"
	echo 65536 > /proc/sys/fs/elfsig/cache_kb
	rm -f /tmp/big.shared /tmp/par.*

	# 6c. 32-bit (i386) static binaries, through the compat ELF loader
	i386 "signed binary is verified (runs from the kernel's copy: e_shoff 0)" "*hello32 shoff 0*RESULT exit 0*" $T/hello32.signed
	i386 "control: unsigned binary runs from the file (e_shoff not 0)" "*hello32 shoff [1-9]*RESULT exit 0*" $T/hello32
	i386 "tampered signed binary is killed" "RESULT signal 9" $T/hello32.tampered
	[ -e $T/hello32.tampered ] && expect_log "i386: log: tampered" "path=$T/hello32.tampered: bad signature"

	# 6d. the copy is charged to the exec'ing task's memory cgroup: uid
	# 1000 in a cgroup v2 group execs a fake-signed 48 MiB image (signer in
	# .elfsig, under image_max_kb, so it is copied before the signature
	# fails). Without a limit the group's peak holds the copy; with
	# memory.max 16M the exec fails or the group's task is OOM-killed,
	# only inside the group, and a root sentinel outside survives.
	CG=/sys/fs/cgroup
	if ! { mkdir -p $CG && mount -t cgroup2 none $CG 2>/dev/null; }; then
		skip "memcg: the copy is charged to the exec'ing task's cgroup" "no cgroup2 (kernel without CONFIG_CGROUPS)"
	elif ! grep -qw memory $CG/cgroup.controllers; then
		skip "memcg: the copy is charged to the exec'ing task's cgroup" "no memory controller (kernel without CONFIG_MEMCG)"
		umount $CG
	else
		echo +memory > $CG/cgroup.subtree_control
		mkdir $CG/elfsig
		cgev() { sed -n "s/^$1 //p" $CG/elfsig/memory.events; }
		# in-cgroup PATH: exec PATH as uid 1000 from inside the group
		incg() { sh -c "echo \$\$ > $CG/elfsig/cgroup.procs && exec $P run-as 1000 $1" 2>&1; }
		$P fake-image $T/hello.rsa /tmp/memcg.known $((48 << 20)) > /dev/null ||
			fail "fake-signed sparse images" "probe fake-image failed"
		sleep 5	# elfsig's log is rate limited: 10 lines per 5 s
		OUT=$(incg /tmp/memcg.known)
		peak=$(cat $CG/elfsig/memory.peak)
		case "$OUT" in
		*"RESULT signal 9"*) pass "memcg: no limit: the fake-signed 48 MiB image is copied, then killed" ;;
		*) fail "memcg: no limit: the fake-signed 48 MiB image is copied, then killed" "$(oneline "$OUT")" ;;
		esac
		[ "$peak" -ge $((48 << 20)) ] && pass "memcg: the copy was charged to the group (memory.peak $peak >= 48 MiB)" ||
			fail "memcg: the copy was charged to the group (memory.peak >= 48 MiB)" "memory.peak $peak"
		sleep 1
		cur=$(cat $CG/elfsig/memory.current)
		[ "$cur" -lt $((4 << 20)) ] && pass "memcg: the charge is returned after the failed exec (memory.current $cur)" ||
			fail "memcg: the charge is returned after the failed exec" "memory.current $cur"
		rmdir $CG/elfsig && mkdir $CG/elfsig
		echo 16M > $CG/elfsig/memory.max
		$P hog 32 3600 > /tmp/hog.out 2>&1 &
		hog=$!
		sleep 2
		OUT=$(incg /tmp/memcg.known)
		# the exec fails (ENOMEM) or a task of the group is OOM-killed;
		# either way the copy must have run into the group's limit
		mx=$(cgev max) ok=$(cgev oom_kill)
		[ "${mx:-0}" -gt 0 ] && pass "memcg: memory.max 16M: the copy ran into the group's limit (memory.events: max $mx, oom_kill ${ok:-?}; $(oneline "$OUT" | cut -c1-60))" ||
			fail "memcg: memory.max 16M: the copy ran into the group's limit" "$(oneline "$(cat $CG/elfsig/memory.events)"); $(oneline "$OUT")"
		# every OOM kill of the boot so far was this group's
		_k=$(kmsg | grep 'oom-kill:')
		if echo "$_k" | grep -v 'oom_memcg=/elfsig,' | grep -q .; then
			fail "memcg: OOM kills stay inside the group" "$(oneline "$_k")"
		else
			pass "memcg: OOM kills stay inside the group ($(echo "$_k" | grep -c 'oom-kill:') in it)"
		fi
		if kill -0 "$hog" 2>/dev/null; then pass "memcg: the root sentinel outside the group survives"; else fail "memcg: the root sentinel outside the group survives" "it is gone: $(oneline "$(cat /tmp/hog.out)")"; fi
		kill "$hog" 2>/dev/null; wait "$hog" 2>/dev/null
		sleep 1
		cur=$(cat $CG/elfsig/memory.current)
		[ "$cur" -lt $((4 << 20)) ] && pass "memcg: memory.max 16M: the charge is returned (memory.current $cur)" ||
			fail "memcg: memory.max 16M: the charge is returned" "memory.current $cur"
		rmdir $CG/elfsig
		umount $CG
		rm -f /tmp/memcg.known /tmp/hog.out
	fi

	# 6e. a local file cannot grow during the copy: exec refuses a file
	# open for writing, and holds writers off until it is done
	# (deny_write_access), so only a network or FUSE server can serve a
	# growing file, which the copy bounds by the program headers anyway
	$P fake-image $T/hello.rsa /tmp/grow.known $((4 << 20)) > /dev/null ||
		fail "fake-signed sparse images" "probe fake-image failed"
	exec 7>> /tmp/grow.known
	OUT=$($P run-as 1000 /tmp/grow.known 2>&1)
	exec 7>&-
	case "$OUT" in
	*"RESULT exec-error ETXTBSY"*) pass "a fake-signed image open for appending cannot be executed (ETXTBSY)" ;;
	*) fail "a fake-signed image open for appending cannot be executed (ETXTBSY)" "$(oneline "$OUT")" ;;
	esac
	expect "control: closed again, it is copied and killed" "RESULT signal 9" /tmp/grow.known
	rm -f /tmp/grow.known

	# 6f. huge tmpfs pages: the copy counts the folios it takes, not the
	# pages its program headers touch. 40 one-page PT_LOADs 2 MiB apart
	# declare 160 KiB; in 2 MiB folios they take 80 MiB, ten times the
	# bound set here (without the count: copied in full, then killed)
	THP=/sys/kernel/mm/transparent_hugepage/shmem_enabled
	hugeok=0
	if [ -w $THP ]; then
		thp0=$(sed 's/.*\[\(.*\)\].*/\1/' $THP)
		echo force > $THP
		# can this kernel make a huge tmpfs page at all? (Debian's 6.1
		# cannot with tinyconfig's BASE_SMALL xarray, MAX_PAGECACHE_ORDER
		# 7: the 6.1 test kernel sets BASE_FULL, kernel/config/6.1.config)
		hp0=$(mem_kb ShmemHugePages)
		dd if=/dev/zero of=/tmp/huge.probe bs=1M count=4 2>/dev/null
		[ "$(mem_kb ShmemHugePages)" -gt "$hp0" ] && hugeok=1
		rm -f /tmp/huge.probe
		[ $hugeok = 1 ] || echo "$thp0" > $THP
	fi
	if [ ! -w $THP ]; then
		skip "huge tmpfs pages: the copy counts its folios" "no $THP (kernel without CONFIG_TRANSPARENT_HUGEPAGE)"
	elif [ $hugeok = 0 ]; then
		skip "huge tmpfs pages: the copy counts its folios" "shmem_enabled=force makes no huge tmpfs page on this kernel (ShmemHugePages stays $hp0 kB)"
	else
		imax0=$(cat /proc/sys/fs/elfsig/image_max_kb)
		echo 8192 > /proc/sys/fs/elfsig/image_max_kb
		# the whole bound for one user: the refusal below is the bound's,
		# not the user's share's (6h)
		echo 100 > /proc/sys/fs/elfsig/image_user_percent
		$P fake-spread $T/hello.rsa /tmp/spread.known 40 > /dev/null ||
			fail "fake-signed sparse images" "probe fake-spread failed"
		sleep 5	# elfsig's log is rate limited: 10 lines per 5 s
		asuser "huge tmpfs pages: 40 pages 2 MiB apart, bound 8 MiB: refused (EFBIG)" "*RESULT exec-error EFBIG*" /tmp/spread.known
		expect_log "huge tmpfs pages: log: image larger than fs.elfsig.image_max_kb" "path=/tmp/spread.known: image larger than fs.elfsig.image_max_kb"
		# control: a signed binary copied into a 2 MiB folio still runs
		# verified (a new inode: not a cache hit), within the bound
		cp $PS /tmp/probe.huge
		hp0=$(mem_kb ShmemHugePages)
		OUT=$(/tmp/probe.huge shoff 2>&1)
		hp1=$(mem_kb ShmemHugePages)
		case "$OUT" in
		"shoff 0") pass "huge tmpfs pages: a signed binary still runs verified" ;;
		*) fail "huge tmpfs pages: a signed binary still runs verified" "$(oneline "$OUT")" ;;
		esac
		[ "$hp1" -ge $((hp0 + 2048)) ] && pass "huge tmpfs pages: its copy is a huge folio (ShmemHugePages $hp0 -> $hp1 kB)" ||
			fail "huge tmpfs pages: its copy is a huge folio" "ShmemHugePages $hp0 -> $hp1 kB"
		echo "$thp0" > $THP
		echo "$imax0" > /proc/sys/fs/elfsig/image_max_kb
		echo 75 > /proc/sys/fs/elfsig/image_user_percent
		rm -f /tmp/spread.known /tmp/probe.huge
	fi

	# 6g. files a FUSE server serves (tests/vm/guest/fusesrv.c, on the raw
	# /dev/fuse protocol): as huge, growing, or with other bytes the
	# second time a range is read. The copy is sized from the program
	# headers, read once and hashed as read: none of it gets past that.
	# Its statistics: what the kernel asked the server for.
	FMNT=/mnt/fuse FST=/tmp/fuse.stats
	# fuse_start SRC [OPTIONS...]: serve SRC as $FMNT/0 (.. /N-1 with -n N)
	fuse_start() {
		mkdir -p $FMNT
		rm -f $FST
		$T/fusesrv $FMNT $FST "$@" > /tmp/fuse.log 2>&1 &
		FPID=$!
		_i=0
		while [ ! -e $FMNT/0 ] && [ $_i -lt 20 ]; do sleep 1; _i=$((_i + 1)); done
		[ -e $FMNT/0 ] || fail "fuse: the server serves $1" "$(oneline "$(cat /tmp/fuse.log)")"
	}
	fuse_stop() { umount $FMNT; wait "$FPID" 2>/dev/null; }
	# fstat NAME: one field of the server's statistics
	fstat() { read -r _s < $FST; _v=${_s#*"$1" }; echo "${_v%% *}"; }
	# fuse_exec NAME WANT [ARG...]: $FMNT/0 run as uid 1000
	fuse_exec() {
		_n=$1 _w=$2; shift 2
		OUT=$($P run-as 1000 $FMNT/0 "$@" 2>&1)
		# shellcheck disable=SC2254
		case "$OUT" in
		*jello*) fail "$_n" "ran the bytes that were not hashed: $(oneline "$OUT")" ;;
		$_w) pass "$_n" ;;
		*) fail "$_n" "wanted '$_w', got: $(oneline "$OUT")" ;;
		esac
	}
	if [ ! -c /dev/fuse ]; then
		skip "fuse: files a FUSE server serves stay bounded" "no /dev/fuse (kernel without CONFIG_FUSE_FS)"
	else
		sleep 5	# elfsig's log is rate limited: 10 lines per 5 s
		# the kernel log from here on (the memcg cases OOM-killed before)
		echo "elfsig-test: fuse cases" > /dev/kmsg
		$P hog 48 3600 > /tmp/hog.out 2>&1 &
		hog=$!
		sleep 2
		avail0=$(mem_kb MemAvailable)
		huge=$((total * 4 * 1024))
		$P fake-image $T/hello.rsa /tmp/fz.huge $huge > /dev/null ||
			fail "fake-signed sparse images" "probe fake-image failed"
		# (a) a fake-signed image whose PT_LOAD and size are 4x MemTotal
		m0=$(cstat misses)
		fuse_start /tmp/fz.huge
		fuse_exec "fuse: fake-signed image of 4x MemTotal served: refused (EFBIG)" "*RESULT exec-error EFBIG*"
		expect_log "fuse: log: image larger than fs.elfsig.image_max_kb" "path=$FMNT/0: image larger than fs.elfsig.image_max_kb"
		b=$(fstat bytes)
		[ "$b" -lt $((1 << 20)) ] && pass "fuse: only its headers were read ($b of $huge bytes)" ||
			fail "fuse: only its headers were read" "$b of $huge bytes"
		[ "$(cstat misses)" = "$m0" ] && pass "fuse: no copy was made for it" ||
			fail "fuse: no copy was made for it" "misses $m0 -> $(cstat misses)"
		fuse_stop
		# (a2) a signed binary whose server claims a size of 4x MemTotal
		psz=$(wc -c < $PS)
		fuse_start $PS -s $huge
		fuse_exec "fuse: signed binary with a claimed size of 4x MemTotal runs verified" "*shoff 0*RESULT exit 0*" shoff
		e=$(fstat maxend)
		[ "$e" -le $((psz + 65536)) ] && pass "fuse: nothing past its real end was read (up to $e of $psz bytes)" ||
			fail "fuse: nothing past its real end was read" "read up to $e, file $psz bytes, claimed $huge"
		fuse_stop
		# (b) growing at every request: a fake-signed 16 MiB image is
		# copied as far as its program headers say, then killed; a signed
		# binary still runs verified
		$P fake-image $T/hello.rsa /tmp/fz.grow $((16 << 20)) > /dev/null ||
			fail "fake-signed sparse images" "probe fake-image failed"
		gsz=$(wc -c < /tmp/fz.grow)
		fuse_start /tmp/fz.grow -g 262144
		fuse_exec "fuse: fake-signed 16 MiB image growing during the copy: copied, then killed" "RESULT signal 9"
		expect_log "fuse: log: growing image: bad signature" "path=$FMNT/0: bad signature"
		e=$(fstat maxend) z=$(fstat size)
		if [ "$z" -gt $((gsz + (4 << 20))) ] && [ "$e" -le $((gsz + (1 << 20))) ]; then
			pass "fuse: the copy stopped where the headers say (read up to $e of $gsz bytes; served size grew to $z)"
		else
			fail "fuse: the copy stopped where the headers say" "read up to $e, file $gsz bytes, served size $z"
		fi
		fuse_stop
		fuse_start $PS -g 262144
		fuse_exec "fuse: signed binary growing during the copy runs verified" "*shoff 0*RESULT exit 0*" shoff
		fuse_stop
		# (c) other bytes on the second read of a range (direct I/O, so
		# every read reaches the server): the copy hashes what it copies,
		# so the tampered bytes served to it fail; served the other way
		# round (tampered bytes first, signed ones to the copy) what runs
		# is what was hashed, never what was served first
		fuse_start $T/hello.rsa -x $T/hello.tampered-load
		fuse_exec "fuse: signed binary, tampered bytes on the second read: killed" "RESULT signal 9"
		expect_log "fuse: log: swapped bytes: bad signature" "path=$FMNT/0: bad signature"
		w=$(fstat swapped)
		[ "$w" -gt 0 ] && pass "fuse: the server did serve other bytes on a second read ($w reads)" ||
			fail "fuse: the server did serve other bytes on a second read" "swapped $w"
		fuse_stop
		fuse_start $T/hello.tampered-load -x $T/hello.rsa
		fuse_exec "fuse: tampered bytes first, signed bytes to the copy: runs the hashed bytes" "*hello*RESULT exit 0*"
		fuse_stop
		# (d) control: served intact, a signed binary runs verified
		fuse_start $PS
		fuse_exec "fuse: control: signed binary served intact runs verified" "*shoff 0*RESULT exit 0*" shoff
		fuse_stop
		if kill -0 "$hog" 2>/dev/null; then pass "fuse: the root sentinel survives"; else fail "fuse: the root sentinel survives" "it is gone: $(oneline "$(cat /tmp/hog.out)")"; fi
		sleep 1
		avail1=$(mem_kb MemAvailable)
		[ "$avail1" -ge $((avail0 - avail0 / 10)) ] && pass "fuse: MemAvailable recovers ($avail0 -> $avail1 kB)" ||
			fail "fuse: MemAvailable recovers" "$avail0 -> $avail1 kB"
		_k=$(kmsg | sed -n '/elfsig-test: fuse cases/,$p')
		case "$_k" in
		"") fail "fuse: no OOM kill, no kernel warning" "the marker line is not in the kernel log" ;;
		*"Out of memory"*|*"oom-kill"*|*"WARNING:"*|*"BUG:"*) fail "fuse: no OOM kill, no kernel warning" "$(echo "$_k" | grep -m3 'Out of memory\|oom-kill\|WARNING:\|BUG:' | tr '\n' ' ')" ;;
		*) pass "fuse: no OOM kill, no kernel warning (since the FUSE cases began)" ;;
		esac
		kill "$hog" 2>/dev/null; wait "$hog" 2>/dev/null
		rm -f /tmp/fz.huge /tmp/fz.grow /tmp/hog.out
	fi

	# 6h. each user's share of the bound (image_user_percent): uid 1000
	# starts 8 fake-signed copies that a FUSE server stalls; uid 1001's
	# first exec of a signed binary still completes while they hang. The
	# bound is set to 4.4 copies of probe.signed and each of uid 1000's
	# images to a fifth of it: 3 fit in its 75 % share (the other 5 are
	# refused at once), and leave room for uid 1001's copy; without the
	# share 4 would fit, leave less than that copy, and uid 1001 would
	# wait for them (the control, at 100 %).
	pct0=$(cat /proc/sys/fs/elfsig/image_user_percent 2>&1)
	if [ ! -c /dev/fuse ]; then
		skip "user's share: another user's exec completes while one user's copies stall" "no /dev/fuse (kernel without CONFIG_FUSE_FS)"
	elif [ "$pct0" != 75 ]; then
		fail "image_user_percent exists and defaults to 75" "$(oneline "$pct0")"
	else
		pass "image_user_percent exists and defaults to 75"
		imax0=$(cat /proc/sys/fs/elfsig/image_max_kb)
		pck=$(cat $T/probe.charge_kb)
		M=$((pck * 44 / 10))
		s=$(( (M * 1024 / 5 + 4095) / 4096 * 4096 + 4096 ))
		echo "$M" > /proc/sys/fs/elfsig/image_max_kb
		$P fake-image $T/hello.rsa /tmp/share.img $s > /dev/null ||
			fail "fake-signed sparse images" "probe fake-image failed"
		# share_round PCT SECS NQ NST: 8 execs of uid 1000, of which NQ are
		# refused at once and NST copies stall (waited for, up to 60 s);
		# then uid 1001's exec, given SECS to complete before the stalled
		# copies are released
		share_round() {
			echo "$1" > /proc/sys/fs/elfsig/image_user_percent
			cp $PS /tmp/share.probe && chmod 755 /tmp/share.probe	# never cached
			rm -f /tmp/share.go /tmp/share.out.*
			fuse_start /tmp/share.img -n 8 -w 65536 -W "$s" -r /tmp/share.go
			sleep 5	# elfsig's log is rate limited: 10 lines per 5 s
			pids=
			for i in 0 1 2 3 4 5 6 7; do $P run-as 1000 $FMNT/$i > /tmp/share.out.$i 2>&1 & pids="$pids $!"; done
			_i=0
			while [ $_i -lt 60 ]; do
				nq=$(cat /tmp/share.out.* | grep -c "RESULT exec-error EDQUOT")
				[ "$nq" -ge "$3" ] && [ "$(fstat stalledfiles)" -ge "$4" ] && break
				sleep 1; _i=$((_i + 1))
			done
			$P run-as 1001 /tmp/share.probe shoff > /tmp/share.out.u 2>&1 &
			upid=$!
			_i=0
			while [ $_i -lt "$2" ] && ! grep -q RESULT /tmp/share.out.u; do sleep 1; _i=$((_i + 1)); done
			udone=0; grep -q RESULT /tmp/share.out.u && udone=1
			nrun=0
			for i in 0 1 2 3 4 5 6 7; do grep -q RESULT /tmp/share.out.$i || nrun=$((nrun + 1)); done
			nst=$(fstat stalledfiles)
			touch /tmp/share.go
			# shellcheck disable=SC2086
			wait $pids $upid
			nk=$(cat /tmp/share.out.[0-7] | grep -c "RESULT signal 9")
			nq=$(cat /tmp/share.out.[0-7] | grep -c "RESULT exec-error EDQUOT")
			fuse_stop
		}
		# holds NAME DETAIL TEST...: NAME passes when test(1) says TEST
		holds() { _n=$1 _d=$2; shift 2; if [ "$@" ]; then pass "$_n"; else fail "$_n" "$_d"; fi; }
		# u1001 NAME: uid 1001's probe ran verified
		u1001() { holds "$1" "$(oneline "$(cat /tmp/share.out.u)")" "$(grep -c -e 'shoff 0' -e 'RESULT exit 0' /tmp/share.out.u)" = 2; }
		outs() { oneline "$(cat /tmp/share.out.[0-7])"; }
		share_round 75 120 5 3
		holds "user's share: 5 of uid 1000's 8 execs refused at once (EDQUOT)" "$nq; $(outs)" "$nq" = 5
		case "$(kmsg)" in
		*"path=$FMNT/"*": user's share of fs.elfsig.image_max_kb in use"*) pass "user's share: log line" ;;
		*) fail "user's share: log line" "no line '... path=$FMNT/N: user's share of fs.elfsig.image_max_kb in use'" ;;
		esac
		ok=0; [ "$udone" = 1 ] && [ "$nrun" = 3 ] && [ "$nst" -ge 3 ] && ok=1
		holds "user's share: uid 1001's signed exec completed while uid 1000's 3 copies were stalled" \
			"done $udone, uid 1000 still running $nrun, files with a stalled read $nst" $ok = 1
		u1001 "user's share: uid 1001's binary ran verified"
		holds "user's share: uid 1000's 3 stalled copies, released, are killed (bad signature)" "$nk; $(outs)" "$nk" = 3
		# control: one user may take the whole bound; then uid 1001 waits
		# for uid 1000's stalled copies (it is still waiting after 10 s,
		# runs once they are released)
		share_round 100 10 0 4
		ok=0; [ "$udone" = 0 ] && [ "$nq" = 0 ] && [ "$nst" -ge 4 ] && ok=1
		holds "user's share: control: at 100 % uid 1000 holds the bound and uid 1001 waits" \
			"done $udone, refused $nq, files with a stalled read $nst" $ok = 1
		u1001 "user's share: control: uid 1001's exec runs once uid 1000's copies are released"
		holds "user's share: control: uid 1000's 8 copies are all made and killed" "$nk; $(outs)" "$nk" = 8
		echo "$pct0" > /proc/sys/fs/elfsig/image_user_percent
		echo "$imax0" > /proc/sys/fs/elfsig/image_max_kb
		rm -f /tmp/share.img /tmp/share.probe /tmp/share.out.* /tmp/share.go
	fi

	# 7. no ptrace / memory access to a verified process, even for root
	$PS sleep 60 &
	V=$!
	$P sleep 60 &
	U=$!
	sleep 1
	for op in attach seize memread memwrite vmread vmwrite getfd; do
		expect_probe "root cannot $op a verified process" 1 $P $op $V
		expect_probe "control: root can $op an unsigned process" 0 $P $op $U
	done
	# process_madvise() asks mm_access() for read access only, which the
	# ptrace hook does not refuse: refused on its own (patch 18)
	expect_probe "root cannot process_madvise a verified process" 1 $P madvise $V
	expect_probe "control: root can process_madvise an unsigned process" 0 $P madvise $U
	expect_probe "a verified process may process_madvise itself" 0 $PS madvise self
	kill $V $U 2>/dev/null
	wait 2>/dev/null

	# 7c. no reopening of a verified process's files through /proc, even
	# for root: fd 3 is a memfd it maps shared, written "EVIL" through
	# fd/3 or map_files when the reopen works
	$PS hold-memfd 4 > /tmp/held.v 2>&1 &
	V=$!
	$P hold-memfd 4 > /tmp/held.u 2>&1 &
	U=$!
	sleep 1
	for w in fd map_files cwd root; do
		expect_probe "root cannot reopen /proc/PID/$w of a verified process" 1 $P reopen $V $w
		expect_probe "control: root can reopen /proc/PID/$w of an unsigned process" 0 $P reopen $U $w
	done
	wait $V $U 2>/dev/null
	grep -q "memfd: orig" /tmp/held.v && pass "the verified process's shared memory is unchanged" ||
		fail "the verified process's shared memory is unchanged" "$(oneline "$(cat /tmp/held.v)")"
	grep -q "memfd: EVIL" /tmp/held.u && pass "control: the unsigned process's shared memory was written from outside" ||
		fail "control: the unsigned process's shared memory was written from outside" "$(oneline "$(cat /tmp/held.u)")"
	$PS hold-memfd 3 > /tmp/held.v 2>&1 &
	V=$!
	sleep 1
	OUT=$(ls -l /proc/$V/fd/3 2>&1)
	case "$OUT" in
	*"memfd:elfsig-test"*) pass "readlink of /proc/PID/fd/N of a verified process still works ($OUT)" ;;
	*) fail "readlink of /proc/PID/fd/N of a verified process still works" "$(oneline "$OUT")" ;;
	esac
	wait $V 2>/dev/null
	rm -f /tmp/held.v /tmp/held.u

	# 7d. no userfaultfd in a verified process: its holder would write
	# the process's memory (UFFDIO_COPY), whoever it is passed to
	for how in sys dev; do
		expect_probe "a verified process cannot create a userfaultfd ($how)" 1 $PS uffd $how
		expect_probe "control: an unsigned process fills its memory through a userfaultfd ($how)" 0 $P uffd $how
	done

	# 8. kexec gate
	expect_probe "kexec_file_load from unverified process before the gate" 0 $P kexec-file
	echo 1 > /proc/sys/fs/elfsig/kexec_verified_only
	expect_probe "gate: kexec_file_load refused to unverified process" 1 $P kexec-file
	expect_probe "gate: kexec_load refused to unverified process" 1 $P kexec-load
	expect_probe "gate: kexec_file_load allowed to verified process" 0 $PS kexec-file
	expect_probe "gate: kexec_load allowed to verified process" 0 $PS kexec-load
	echo 0 2>/dev/null > /proc/sys/fs/elfsig/kexec_verified_only
	read -r g < /proc/sys/fs/elfsig/kexec_verified_only
	[ "$g" = 1 ] && pass "kexec gate cannot be switched off" || fail "kexec gate cannot be switched off" "value $g"
	expect_log "log: kexec refused" "path=$P: kexec refused: process not verified"

	# 8b. only signed code runs (the gate is on)
	signed_code

	# 7a. PTRACE_TRACEME (the LSM's ptrace_traceme hook)
	expect_probe "a verified process cannot ask to be traced (PTRACE_TRACEME)" 1 $PS traceme
	expect_probe "control: an unsigned process may ask to be traced" 0 $P traceme

	# 7b. traced at exec: runs, but unverified
	expect "control: signed probe is verified" "verified*RESULT exit 0*" $PS whoami
	OUT=$($P traceme-exec $PS whoami 2>&1)
	case "$OUT" in
	*unverified*"RESULT exit 0"*) pass "traced at exec: runs without verified status" ;;
	*) fail "traced at exec: runs without verified status" "$(oneline "$OUT")" ;;
	esac
	expect_log "log: traced at exec" "path=$PS: traced at exec: runs without verified status"

	# 7e. verified dynamic processes
	dyn_enforce
	dyn_harden
	dyn_i386

	# 10. malformed sections and tables: never verified, no oops
	sleep 5	# let the log rate limit recover for the checks below
	refused=0
	for f in "$T"/hostile/*; do
		n=${f##*/}
		OUT=$($P exec "$f" whoami 2>&1)
		case "$OUT" in
		verified*|*"
verified"*) fail "malformed $n" "ran verified: $(oneline "$OUT")" ;;
		*"RESULT exec-error"*|*"RESULT signal 9"*)
			refused=$((refused + 1)); pass "malformed $n: ${OUT##*RESULT }" ;;
		*) pass "malformed $n: ran unverified: $(oneline "${OUT##*RESULT }")" ;;
		esac
	done
	[ "$refused" -ge 25 ] && pass "at least 25 malformed files refused ($refused)" ||
		fail "at least 25 malformed files refused" "only $refused"
	sleep 6

	# 11. the verified-image cache
	if [ -r /proc/sys/fs/elfsig/cache_stats ]; then
	# A signed image runs from the kernel's copy, where N(ehdr) zeroed the
	# section table fields; an unsigned one is mapped from the file.
	OUT=$($PS shoff 2>&1)
	[ "$OUT" = "shoff 0" ] && pass "a verified image runs from the kernel's copy (e_shoff reads 0)" ||
		fail "a verified image runs from the kernel's copy (e_shoff reads 0)" "$(oneline "$OUT")"
	OUT=$($P shoff 2>&1)
	case "$OUT" in
	"shoff "[1-9]*) pass "control: an unsigned image is mapped from the file ($OUT)" ;;
	*) fail "control: an unsigned image is mapped from the file" "$(oneline "$OUT")" ;;
	esac
	C=$T/cache.bin
	cat $T/hello.rsa > $C && chmod 755 $C
	expect_miss "cache: first exec verifies" "*hello*RESULT exit 0*" $C
	expect_hit "cache: second exec" "*hello*RESULT exit 0*" $C
	ln $C $T/cache.link	# a new link count changes ctime: a miss
	expect_miss "cache: through a new hard link" "*hello*RESULT exit 0*" $T/cache.link
	expect_hit "cache: the same inode by its other name" "*hello*RESULT exit 0*" $C
	expect "cache: hit is verified" "verified*RESULT exit 0*" $PS whoami
	expect_hit "cache: hit is verified (again)" "verified*RESULT exit 0*" $PS whoami
	$PS sleep 60 &
	V=$!
	sleep 1
	mname=$PS mwhat=binary	# 6.1 has no backing files: the maps name the copy
	case $(uname -r) in 6.1.*) mname="/elfsig (deleted)" mwhat="kernel's copy" ;; esac
	n=$(grep -c " $mname\$" /proc/$V/maps)
	[ "$n" -ge 2 ] && pass "cache: /proc/PID/maps names the $mwhat ($n mappings)" ||
		fail "cache: /proc/PID/maps names the $mwhat" "$(oneline "$(cat /proc/$V/maps)")"
	kill $V; wait 2>/dev/null
	# in place: same inode, other bytes
	cat $T/hello.tampered-load > $C
	expect_miss "cache: tampered in place after caching is killed" "RESULT signal 9" $C
	expect_log "cache: log: tampered in place" "path=$C: bad signature"
	cat $T/hello.rsa > $C
	expect "cache: restored in place runs" "*hello*RESULT exit 0*" $C
	cat $PS > $C
	expect_miss "cache: another signed binary in place runs as itself" "verified*RESULT exit 0*" $C whoami
	expect_hit "cache: and is cached in turn" "verified*RESULT exit 0*" $C whoami
	# keys cannot leave .elfsig (KEY_FLAG_KEEP), so a cached verdict stays
	# true; the kernel still checks the key on every hit
	expect "cache: p256 binary runs" "*hello*RESULT exit 0*" $T/hello.p256
	expect_hit "cache: p256 binary cached" "*hello*RESULT exit 0*" $T/hello.p256
	pk=
	for k in $(keyctl rlist %keyring:.elfsig); do
		case "$(keyctl rdescribe "$k")" in *p256*) pk=$k ;; esac
	done
	for op in unlink revoke invalidate; do
		if [ -z "$pk" ]; then
			fail "cache: root cannot $op a key in .elfsig" "no p256 key"
		elif [ $op = unlink ] && keyctl unlink "$pk" %keyring:.elfsig > /dev/null 2>&1; then
			fail "cache: root cannot $op a key in .elfsig" "it could"
		elif [ $op != unlink ] && keyctl $op "$pk" > /dev/null 2>&1; then
			fail "cache: root cannot $op a key in .elfsig" "it could"
		else
			pass "cache: root cannot $op a key in .elfsig"
		fi
	done
	expect_hit "cache: p256 binary still cached" "*hello*RESULT exit 0*" $T/hello.p256
	# size and switch
	echo 1024 > /proc/sys/fs/elfsig/cache_kb
	[ "$(cstat kb)" -le 1024 ] && pass "cache: shrinking cache_kb evicts" || fail "cache: shrinking cache_kb evicts" "kb $(cstat kb)"
	e0=$(cstat entries)
	OUT=$($P run-as 1000 $T/big.signed 2>&1)
	case "$OUT" in
	*"big ok 3"*"RESULT exit 0"*) pass "cache: image larger than cache_kb runs" ;;
	*) fail "cache: image larger than cache_kb runs" "$(oneline "$OUT")" ;;
	esac
	[ "$(cstat entries)" = "$e0" ] && pass "cache: image larger than cache_kb not cached" ||
		fail "cache: image larger than cache_kb not cached" "entries $e0 -> $(cstat entries)"
	echo 0 > /proc/sys/fs/elfsig/cache_kb
	[ "$(cstat entries)" = 0 ] && pass "cache: cache_kb=0 empties the cache" || fail "cache: cache_kb=0 empties the cache" "entries $(cstat entries)"
	expect_miss "cache: off: signed binary runs" "*hello*RESULT exit 0*" $T/hello.rsa
	expect_miss "cache: off: again, verified anew" "*hello*RESULT exit 0*" $T/hello.rsa
	echo 65536 > /proc/sys/fs/elfsig/cache_kb
	expect "cache: back on" "*hello*RESULT exit 0*" $T/hello.rsa
	expect_hit "cache: back on: hit" "*hello*RESULT exit 0*" $T/hello.rsa
	sleep 6
	else
		fail "cache: /proc/sys/fs/elfsig/cache_stats exists" "missing"
	fi

	# 1c. the pre-lock P-384 key still verifies, at the end of the run
	expect "the P-384 key added before the lock still verifies" "*hello*RESULT exit 0*" $T/hello.p384
	[ "$(nkeys)" = 3 ] && pass "at the end: still three keys in .elfsig" || fail "at the end: still three keys in .elfsig" "$(nkeys)"

	# 6. tighten at run time: permissive refused, require accepted
	set_mode permissive
	[ "$(get_mode)" = enforce ] && pass "sysctl cannot loosen enforce to permissive" || fail "sysctl cannot loosen enforce to permissive" "$(get_mode)"
	set_mode require
	[ "$(get_mode)" = require ] && pass "sysctl tightens enforce to require" || fail "sysctl tightens enforce to require" "$(get_mode)"
	PX=$PS
	expect "require: unsigned binary refused" "*RESULT exec-error EPERM*" $T/hello
	expect_log "log: require" "path=$T/hello: unsigned binary (require mode)"
	expect "require: signed binary runs" "*hello*RESULT exit 0*" $T/hello.rsa
	set_mode enforce
	[ "$(get_mode)" = require ] && pass "sysctl cannot loosen require" || fail "sysctl cannot loosen require" "$(get_mode)"
	;;

permissive)
	expect "permissive: signed binary runs before the lock" "*hello*RESULT exit 0*" $T/hello.prelock
	expect_log "permissive: log before the lock" "path=$T/hello.prelock: keyring not locked (permissive: allowed)"
	add_keys && lock
	expect "permissive: tampered binary runs" "*jello*RESULT exit 0*" $T/hello.tampered-load
	expect_log "permissive: tampered binary logged" "path=$T/hello.tampered-load: bad signature (permissive: allowed)"
	dyn_permissive
	# lsm=capability on this boot: the elfsig LSM's gates still hold
	attach_bg "permissive: lsm=capability: root cannot ptrace a verified process" 1 $PS
	expect_probe "permissive: lsm=capability: a verified process cannot ask to be traced" 1 $PS traceme
	expect_probe "permissive: lsm=capability: a verified process cannot create a userfaultfd" 1 $PS uffd sys
	set_mode off
	[ "$(get_mode)" = permissive ] && pass "sysctl cannot loosen permissive to off" || fail "sysctl cannot loosen permissive to off" "$(get_mode)"
	set_mode enforce
	[ "$(get_mode)" = enforce ] && pass "sysctl tightens permissive to enforce" || fail "sysctl tightens permissive to enforce" "$(get_mode)"
	expect "enforce after permissive: tampered binary killed" "RESULT signal 9" $T/hello.tampered-load
	;;

require)
	[ "$(get_mode)" = require ] && pass "boot parameter elfsig=require" || fail "boot parameter elfsig=require" "$(get_mode)"
	expect "require before the lock: unsigned loader still runs" "*hello*RESULT exit 0*" $T/hello
	if add_keys && lock; then pass "require before the lock: unsigned keyctl fills and locks .elfsig"; else fail "require before the lock: unsigned keyctl fills and locks .elfsig" "keyctl failed"; fi
	PX=$PS
	expect "require after the lock: unsigned binary refused" "*RESULT exec-error EPERM*" $T/hello
	expect "require after the lock: signed binary runs" "*hello*RESULT exit 0*" $T/hello.rsa
	expect "require after the lock: tampered binary killed" "RESULT signal 9" $T/hello.tampered-load
	i386 "require: signed binary runs, verified" "*hello32 shoff 0*RESULT exit 0*" $T/hello32.signed
	i386 "require: unsigned binary refused" "*RESULT exec-error EPERM*" $T/hello32
	i386 "require: tampered binary killed" "RESULT signal 9" $T/hello32.tampered
	set_mode enforce
	[ "$(get_mode)" = require ] && pass "sysctl cannot loosen require" || fail "sysctl cannot loosen require" "$(get_mode)"
	;;

off)
	[ "$(get_mode)" = off ] && pass "boot parameter elfsig=off" || fail "boot parameter elfsig=off" "$(get_mode)"
	add_keys && lock
	expect "off: tampered binary runs" "*jello*RESULT exit 0*" $T/hello.tampered-load
	expect_out "off: dyn: unsigned libc loads" 0 "*dynprobe: hello*" env LD_LIBRARY_PATH=$D/unsigned $D/dynprobe.signed hello
	expect_out "off: dyn: anonymous executable memory works" 0 "anon-exec: ok" $D/dynprobe.signed anon-exec
	_log=$(kmsg)
	case "$_log" in
	*"hello.tampered-load"*) fail "off: nothing logged" "found a log line" ;;
	*) pass "off: nothing logged" ;;
	esac
	attach_bg "off: signed process gets no protection" 0 $PS
	OUT=$($PS shoff 2>&1)
	case "$OUT" in
	"shoff "[1-9]*) pass "off: a signed image is mapped from the file ($OUT)" ;;
	*) fail "off: a signed image is mapped from the file" "$(oneline "$OUT")" ;;
	esac
	set_mode enforce
	[ "$(get_mode)" = enforce ] && pass "sysctl tightens off to enforce" || fail "sysctl tightens off to enforce" "$(get_mode)"
	expect "enforce after off: tampered binary killed" "RESULT signal 9" $T/hello.tampered-load
	;;
esac

$PS dmesg | while IFS= read -r l; do echo "KMSG: $l"; done
echo "ELFSIG-DONE"
$PS poweroff
