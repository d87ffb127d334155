# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# Shared set-up of the VM benchmarks (vm-exec.sh, vm-memory.sh): sourced
# after TOP is set; sets BUILD and KERNEL ($ELFSIG_VM_KERNEL) if unset.
#
#   vm_bench_setup NAME FILE...
#
# Checks that the kernel ($KERNEL), build/signelf and FILE... exist (else
# "NAME: ... missing" and exit 1); makes a work directory $W (removed on
# exit) with $W/t holding a fresh RSA-2048 test certificate (c.der), the
# FILEs, and bench.signed: build/vm/bench signed with that key.
BUILD=${BUILD:-$TOP/build}
KERNEL=${ELFSIG_VM_KERNEL:-$BUILD/kernel/bzImage-tiny}

vm_bench_setup() {
	local name=$1 f
	shift
	for f in "$KERNEL" "$BUILD/signelf" "$BUILD/vm/bench" "$@"; do
		[ -e "$f" ] || { echo "$name: $f missing (make kernel vm-prereqs)" >&2; exit 1; }
	done
	W=$(mktemp -d)
	trap 'rm -rf "$W"' EXIT
	mkdir -p "$W/t"
	openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$W/k.pem" 2>/dev/null
	# issued by the test kernel's platform CA, which .elfsig requires
	"$TOP/kernel/platform-ca.sh" issue "$W/k.pem" "$W/c.pem" "elfsig bench"
	openssl x509 -in "$W/c.pem" -outform DER -out "$W/t/c.der"
	cp "$BUILD/vm/bench" "$@" "$W/t/"
	"$BUILD/signelf" sign --key "$W/k.pem" --cert "$W/c.pem" \
		-o "$W/t/bench.signed" "$W/t/bench" >/dev/null
}
