# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# Build the signer tests' fixtures once per build tree: keys, certificates
# and real ELF binaries of both classes and byte orders. Sourced by suites.

FIX=${FIX:-$TOP/build/fixtures}
SIGNELF=${SIGNELF:-$BUILD/signelf}
# shellcheck disable=SC2034 # used by the suites that source this file
ELFCRAFT="python3 $TOP/tests/tools/elfcraft.py"

# Sanitizer builds: a report must never pass as an ordinary failure.
export ASAN_OPTIONS=${ASAN_OPTIONS:-exitcode=99:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:exitcode=99:print_stacktrace=1}

fix_key() { # NAME OPENSSL-GENPKEY-ARGS...
	local name=$1; shift
	[ -s "$FIX/keys/$name.pem" ] && return 0
	openssl genpkey "$@" -out "$FIX/keys/$name.key.tmp" 2>/dev/null &&
	openssl req -new -x509 -key "$FIX/keys/$name.key.tmp" -days 3650 \
		-subj "/O=elfsig tests/CN=$name" \
		-addext "keyUsage=digitalSignature" \
		-addext "subjectKeyIdentifier=hash" \
		-out "$FIX/keys/$name.pem.tmp" 2>/dev/null &&
	mv "$FIX/keys/$name.key.tmp" "$FIX/keys/$name.key" &&
	mv "$FIX/keys/$name.pem.tmp" "$FIX/keys/$name.pem"
}

fix_cross() { # NAME TRIPLET ASM
	local name=$1 triplet=$2 asm=$3
	[ -s "$FIX/bin/$name" ] && return 0
	printf '%s\n' "$asm" > "$FIX/src/$name.s"
	"$triplet-as" -o "$FIX/src/$name.o" "$FIX/src/$name.s" &&
	"$triplet-ld" -o "$FIX/bin/$name" "$FIX/src/$name.o"
}

# fix_foreign_busybox ARCH: Debian's own busybox-static for ARCH, fetched
# with a private apt state (the system's architectures are not touched).
fix_foreign_busybox() {
	local arch=$1 d=$FIX/apt-$1 deb
	[ -x "$FIX/bin/busybox-$arch" ] && return 0
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial" "$d/x"
	local o=(-o "APT::Architecture=$arch" -o "APT::Architectures=$arch"
		 -o "Dir::State::Lists=$d/lists" -o "Dir::Cache=$d/cache"
		 -o "Dir::State::status=/dev/null" -o "APT::Sandbox::User=root")
	apt-get "${o[@]}" update -qq >/dev/null 2>&1 &&
	(cd "$d" && apt-get "${o[@]}" download busybox-static >/dev/null 2>&1) || {
		echo "fixtures: cannot download busybox-static:$arch" >&2; return 1; }
	deb=$(ls "$d"/busybox-static_*_"$arch".deb) &&
	dpkg-deb -x "$deb" "$d/x" && cp "$d/x/bin/busybox" "$FIX/bin/busybox-$arch" &&
	rm -rf "$d/lists" "$d/cache" "$d/x"
}

fixtures_build() {
	mkdir -p "$FIX/keys" "$FIX/bin" "$FIX/src"
	fix_key rsa2048 -algorithm RSA -pkeyopt rsa_keygen_bits:2048
	fix_key rsa3072 -algorithm RSA -pkeyopt rsa_keygen_bits:3072
	fix_key rsa4096 -algorithm RSA -pkeyopt rsa_keygen_bits:4096
	fix_key p256 -algorithm EC -pkeyopt ec_paramgen_curve:P-256
	fix_key p384 -algorithm EC -pkeyopt ec_paramgen_curve:P-384
	fix_key rogue -algorithm RSA -pkeyopt rsa_keygen_bits:2048

	cat > "$FIX/src/hello.c" <<'EOC'
#include <stdio.h>
static const char big[64 << 10] = { 1, 2, 3 };	/* a data segment with bytes */
int main(void) { puts("hello from a signed binary"); return big[1] - 2; }
EOC
	local cc
	[ -x "$FIX/bin/glibc-static" ] ||
		gcc -O2 -static -o "$FIX/bin/glibc-static" "$FIX/src/hello.c"
	[ -x "$FIX/bin/glibc-static-pie" ] ||
		gcc -O2 -static-pie -fPIE -o "$FIX/bin/glibc-static-pie" "$FIX/src/hello.c"
	[ -x "$FIX/bin/glibc-dynamic" ] ||
		gcc -O2 -o "$FIX/bin/glibc-dynamic" "$FIX/src/hello.c"
	[ -x "$FIX/bin/i386-static" ] ||
		gcc -m32 -O2 -static -o "$FIX/bin/i386-static" "$FIX/src/hello.c"
	cc=musl-gcc
	[ -x "$FIX/bin/musl-static" ] ||
		$cc -O2 -static -o "$FIX/bin/musl-static" "$FIX/src/hello.c"
	# Debian's musl-gcc specs know no -static-pie: link with rcrt1.o by hand.
	local m=/usr/lib/x86_64-linux-musl
	[ -x "$FIX/bin/musl-static-pie" ] ||
		{ $cc -O2 -fPIE -c -o "$FIX/src/hello-pie.o" "$FIX/src/hello.c" &&
		  gcc -static-pie -nostdlib -o "$FIX/bin/musl-static-pie" \
			$m/rcrt1.o $m/crti.o "$(gcc -print-file-name=crtbeginS.o)" \
			"$FIX/src/hello-pie.o" -L$m -lc "$(gcc -print-file-name=libgcc.a)" \
			"$(gcc -print-file-name=crtendS.o)" $m/crtn.o; }
	[ -x "$FIX/bin/busybox" ] || cp /bin/busybox "$FIX/bin/busybox"
	fix_foreign_busybox s390x || return 1

	fix_cross s390x-be64 s390x-linux-gnu '
	.globl _start
	.text
_start:	lghi %r2,0
	svc 1
	.data
msg:	.ascii "big-endian data segment"'
	fix_cross ppc32-be32 powerpc-linux-gnu '
	.globl _start
	.text
_start:	li 0,1
	li 3,0
	sc
	.data
msg:	.ascii "big-endian 32-bit data"'
	fix_cross aarch64 aarch64-linux-gnu '
	.globl _start
	.text
_start:	mov x8, #93
	mov x0, #0
	svc #0
	.data
msg:	.ascii "arm64 data"'
}

# Binaries the signer must handle, with the strip that understands them.
# shellcheck disable=SC2034
FIX_BINS="glibc-static glibc-static-pie i386-static musl-static musl-static-pie busybox busybox-s390x s390x-be64 ppc32-be32 aarch64"
fix_strip() {
	case $1 in
	s390x-*|*-s390x) echo s390x-linux-gnu-strip ;;
	ppc32-*) echo powerpc-linux-gnu-strip ;;
	aarch64) echo aarch64-linux-gnu-strip ;;
	*) echo strip ;;
	esac
}
fix_objcopy() { local s; s=$(fix_strip "$1"); echo "${s%strip}objcopy"; }
fix_native() { case $1 in glibc-*|i386-*|musl-*|busybox) return 0 ;; *) return 1 ;; esac; }
# fix_runs NAME: can this host run the (unsigned) fixture NAME? A kernel
# without IA32 emulation cannot run i386 binaries: probe, never assume.
fix_runs() {
	case $1 in
	i386-*) t_probe i386-exec "$FIX/bin/$1" </dev/null ;;
	busybox) t_probe busybox-exec "$FIX/bin/busybox" true </dev/null ;;
	*) t_probe "$1-exec" "$FIX/bin/$1" </dev/null ;;
	esac
}

# fix_sign KEYNAME IN OUT [ARGS...]
fix_sign() {
	local key=$1 in=$2 out=$3; shift 3
	"$SIGNELF" sign --key "$FIX/keys/$key.key" --cert "$FIX/keys/$key.pem" \
		-o "$out" "$@" "$in"
}

sha() { sha256sum "$1" | cut -d' ' -f1; }

# run_cmd OUTFILE CMD...: run, capture stderr, set RC and ERRLINES.
run_cmd() {
	local out=$1; shift
	rm -f "$out"
	"$@" >/dev/null 2>"$T_TMP/stderr"
	RC=$?
	ERRLINES=$(wc -l < "$T_TMP/stderr")
}

# A failure must be clean: 1..5, one line, no output, no temporary file.
clean_failure() { # OUT DIR
	[ "$RC" -ge 1 ] && [ "$RC" -le 5 ] && [ "$ERRLINES" = 1 ] &&
		[ ! -e "$1" ] && [ -z "$(find "$2" -name '.*elfsig-*')" ]
}


# fixtures_init: what every signer suite starts with: a scratch directory,
# the fixtures, and K pointing at the keys.
fixtures_init() {
	t_mktemp
	fixtures_build || { echo "FAIL: fixtures: could not build test binaries"; exit 1; }
	# shellcheck disable=SC2034 # for the suites
	K=$FIX/keys
}
