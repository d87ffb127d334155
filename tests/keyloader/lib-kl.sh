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

# kl_fp NAME: the SHA-256 fingerprint of the certificate's DER.
kl_fp() { sha256sum < "$T_TMP/$1.der" | cut -d' ' -f1; }

# kl_keys KEYRING: number of asymmetric keys linked to KEYRING.
kl_keys() {
	keyctl list "$1" 2>/dev/null | grep -c '^ *[0-9]*: .* asymmetric: ' || true
}
