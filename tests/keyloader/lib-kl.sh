# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# Helpers for the keyloader suites: swtpm, test certificates, keyrings.
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

KL=${KL:-$BUILD/elfsig-keyloader}
ENROLL=${ENROLL:-$BUILD/elfsig-enroll}

# kl_need TOOL...: exit 77 when a tool is genuinely missing.
kl_need() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 || { echo "SKIP: $t not installed"; exit 77; }
	done
}

# kl_swtpm_start: a fresh swtpm on a free port (state in
# $T_TMP/$KL_SWTPM_NAME.N, default tpm.N); sets TPM2TOOLS_TCTI. A
# port taken between t_free_port and the bind (other suites run in
# parallel) is retried with another port.
kl_swtpm_start() {
	local port dir try
	for try in 1 2 3 4 5; do
		dir="${T_TMP:?}/${KL_SWTPM_NAME:-tpm}.$try"
		mkdir -p "$dir"
		port=$(t_free_port) || return 1
		swtpm socket --tpm2 --tpmstate dir="$dir" \
			--server type=tcp,port="$port",bindaddr=127.0.0.1 \
			--ctrl type=tcp,port=$((port + 1)),bindaddr=127.0.0.1 \
			--flags not-need-init,startup-clear --pid file="$dir/pid" \
			--daemon 2>"$dir/err" && break
		port=
	done
	[ -n "$port" ] || { cat "$dir/err" >&2; return 1; }
	for _ in $(seq 1 50); do
		[ -s "$dir/pid" ] && break
		sleep 0.05
	done
	KL_SWTPM_PID=$(cat "$dir/pid")
	t_on_exit "kill $KL_SWTPM_PID 2>/dev/null"
	export TPM2TOOLS_TCTI="swtpm:host=127.0.0.1,port=$port"
	# Ready when a command succeeds.
	for _ in $(seq 1 50); do
		timeout 5 tpm2_pcrread sha256:0 >/dev/null 2>&1 && return 0
		sleep 0.05
	done
	return 1
}

# kl_cert NAME: an RSA key and self-signed certificate (PEM and DER).
kl_cert() {
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$T_TMP/$1.key" \
		-out "$T_TMP/$1.pem" -subj "/CN=elfsig test $1/O=elfsig" \
		-days 30 -addext keyUsage=critical,digitalSignature 2>/dev/null &&
	openssl x509 -in "$T_TMP/$1.pem" -outform DER -out "$T_TMP/$1.der"
}

# kl_need_keyring NAME: exit 77 (the suite is skipped, with the reason)
# unless this host's kernel takes the RSA certificate NAME (from kl_cert)
# into a keyring as an asymmetric key: not every kernel has the asymmetric
# key type and its X.509 parser built in.
kl_need_keyring() {
	local kr ok=0
	kr=$(keyctl newring kl-probe @s 2>/dev/null) &&
		t_probe asymmetric-keyring keyctl padd asymmetric "" "$kr" < "$T_TMP/$1.der" &&
		ok=1
	[ -n "$kr" ] && keyctl unlink "$kr" @s >/dev/null 2>&1
	[ "$ok" = 1 ] && return 0
	echo "SKIP: $(basename "$0"): this kernel cannot hold an RSA certificate in a keyring (asymmetric key type, X.509 parser)"
	exit 77
}

# kl_loader_suite N TOOL...: the start of a suite that runs the loader into
# the real kernel keyring: TOOL... installed (else skip), the suite re-run
# inside a session keyring of its own, both programs built, $T_TMP, a
# swtpm, certificates k1..kN and the authority key auth, the keyring probe.
kl_loader_suite() {
	local n=$1 i; shift
	kl_need swtpm keyctl openssl tpm2_pcrread python3 timeout "$@"
	if [ -z "${KL_IN_SESSION:-}" ]; then
		KL_IN_SESSION=1 exec keyctl session - "$0"
	fi
	[ -x "$KL" ] && [ -x "$ENROLL" ] || { echo "FAIL: build: $KL or $ENROLL missing"; exit 1; }
	t_mktemp
	kl_swtpm_start || { echo "FAIL: swtpm: did not start"; exit 1; }
	for i in $(seq 1 "$n"); do
		kl_cert "k$i" || { echo "FAIL: openssl: cert k$i"; exit 1; }
	done
	kl_authority auth || { echo "FAIL: openssl: authority key"; exit 1; }
	kl_need_keyring k1
}

# kl_fp NAME: the SHA-256 fingerprint of the certificate's DER.
kl_fp() { sha256sum < "$T_TMP/$1.der" | cut -d' ' -f1; }

# kl_keys KEYRING: number of asymmetric keys linked to KEYRING.
kl_keys() {
	keyctl list "$1" 2>/dev/null | grep -c '^ *[0-9]*: .* asymmetric: ' || true
}

# kl_authority NAME [ec|rsa]: an enrolment authority key, $T_TMP/NAME.key
# (ECDSA P-256 by default, or RSA-2048), and its public half NAME.pub.
kl_authority() {
	case ${2:-ec} in
	ec)  openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 \
		-out "$T_TMP/$1.key" 2>/dev/null ;;
	rsa) openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 \
		-out "$T_TMP/$1.key" 2>/dev/null ;;
	*)   return 1 ;;
	esac && openssl pkey -in "$T_TMP/$1.key" -pubout -out "$T_TMP/$1.pub" 2>/dev/null
}

# kl_next_pcrs PCR DATA: the sha256:0,2,4,7 values this TPM will have once
# PCR is extended with SHA-256(DATA), as sha256:N=HEX lines (a prediction).
kl_next_pcrs() {
	python3 - "$1" "$(printf '%s' "$2" | sha256sum | cut -d' ' -f1)" <<'PY'
import hashlib, subprocess, sys, re
out = subprocess.run(["tpm2_pcrread", "sha256:0,2,4,7"], capture_output=True, text=True).stdout
for m in re.finditer(r"(\d+)\s*:\s*0x([0-9A-Fa-f]+)", out):
    i, v = int(m.group(1)), bytes.fromhex(m.group(2))
    if i == int(sys.argv[1]):
        v = hashlib.sha256(v + bytes.fromhex(sys.argv[2])).digest()
    print(f"sha256:{i}={v.hex()}")
PY
}

# kl_load NAME [LOADER OPTIONS]: the loader on the enrolment in $D, into a
# fresh keyring $KR; sets RC, its lines in $D/out, events in $D/events.
kl_load() {
	local name=$1; shift
	KR=$(keyctl newring "kr-$name" @s)
	timeout 30 "$KL" -d "$D" -k "$KR" -l "$D/events" --kmsg none "$@" >"$D/out" 2>&1
	RC=$?
}

# kl_expect NAME RC NKEYS [LINE]: exit status, keys in $KR, $KR locked (an
# add of $T_TMP/k3.der gets EPERM), and LINE (a glob) among the loader's
# lines.
kl_expect() {
	local name=$1 rc=$2 n=$3 line=${4:-} got err l found=
	got=$(kl_keys "$KR")
	err=$(keyctl padd asymmetric "" "$KR" < "$T_TMP/k3.der" 2>&1 >/dev/null)
	if [ -n "$line" ]; then
		while IFS= read -r l; do
			# shellcheck disable=SC2053 # a glob on purpose
			[[ $l == $line ]] && found=1
		done < "$D/out"
	fi
	if [ "$RC" != "$rc" ]; then
		t_fail "$name" "exit $RC, expected $rc: $(tr '\n' '|' < "$D/out")"
	elif [ "$got" != "$n" ]; then
		t_fail "$name" "$got keys in the keyring, expected $n"
	elif [[ $err != *"Operation not permitted"* ]]; then
		t_fail "$name" "keyring not locked: $err"
	elif [ -n "$line" ] && [ -z "$found" ]; then
		t_fail "$name" "no line '$line' in: $(tr '\n' '|' < "$D/out")"
	else
		t_pass "$name"
	fi
}

# kl_mkinitramfs CONF IMG [LOCAL]: a real mkinitramfs -d CONF -o IMG, in a
# private mount namespace, for a dummy kernel version with an empty module
# tree and a config over /usr/lib/modules and /boot (none of the host's
# changes); LOCAL, a directory, is bound over /usr/local (a make install
# with PREFIX=/usr/local). Its output goes to IMG.log.
kl_mkinitramfs() {
	local ovl=$2.ovl
	mkdir -p "$ovl/up" "$ovl/work"
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare -m sh -ec '
		[ -z "$5" ] || mount --bind "$5" /usr/local
		mount -t overlay overlay -o lowerdir=/usr/lib,upperdir=$1/up,workdir=$1/work /usr/lib
		mkdir -p /usr/lib/modules/$2/kernel
		touch /usr/lib/modules/$2/modules.order /usr/lib/modules/$2/modules.builtin
		mount -t tmpfs tmpfs /boot
		echo CONFIG_RD_GZIP=y > /boot/config-$2
		mkinitramfs -d "$3" -o "$4" "$2"
	' sh "$ovl" 0.0.0-elfsig-test "$1" "$2" "${3:-}" > "$2.log" 2>&1
}

# kl_check NAME STATUS LINE ENROLL-CHECK-OPTIONS...: `elfsig-enroll check`
# exits with STATUS (the loader's status for the same cause) and prints
# LINE (a glob) among its lines.
kl_check() {
	local name=$1 rc=$2 line=$3 out got l found=
	shift 3
	out=$(timeout 30 "$ENROLL" check "$@" 2>&1); got=$?
	while IFS= read -r l; do
		# shellcheck disable=SC2053 # a glob on purpose
		[[ $l == $line ]] && found=1
	done <<<"$out"
	if [ "$got" != "$rc" ]; then
		t_fail "$name" "exit $got, expected $rc: $(tr '\n' '|' <<<"$out")"
	elif [ -z "$found" ]; then
		t_fail "$name" "no line '$line' in: $(tr '\n' '|' <<<"$out")"
	else
		t_pass "$name"
	fi
}
