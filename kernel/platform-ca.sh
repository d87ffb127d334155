#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The test platform CA: the certificate the test kernel builds into its
# builtin trusted keyring (CONFIG_SYSTEM_TRUSTED_KEYS), and the release
# certificates issued from it, the only ones .elfsig admits when
# CONFIG_ELFSIG_TRUSTED_KEYS is on (docs/kernel.md, "Provenance").
#
#   kernel/platform-ca.sh init
#       make DIR/platform-ca.key and DIR/platform-ca.pem unless both exist
#   kernel/platform-ca.sh issue KEY OUT [CN]
#       issue a release certificate for KEY's public key (KEY: a PEM
#       private or public key) into OUT: DER if OUT ends in .der, else PEM
#
# DIR is $ELFSIG_PLATFORM_CA_DIR, default build/kernel (the kernel's
# config names ../platform-ca.pem, relative to its object directory). The
# CA key is made at build time and never leaves build/: a test CA, not a
# platform's.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
DIR=${ELFSIG_PLATFORM_CA_DIR:-$TOP/build/kernel}
CAKEY=$DIR/platform-ca.key
CACERT=$DIR/platform-ca.pem

die() { echo "platform-ca: $*" >&2; exit 1; }

init() {
	[ -s "$CAKEY" ] && [ -s "$CACERT" ] && return 0
	mkdir -p "$DIR"
	local tmp
	tmp=$(mktemp -d "$DIR/.platform-ca.XXXXXX")
	(umask 077 && openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:3072 \
		-out "$tmp/key" 2>/dev/null) || { rm -rf "$tmp"; die "openssl genpkey failed"; }
	openssl req -new -x509 -key "$tmp/key" -days 3650 -sha256 \
		-subj "/O=elfsig tests/CN=elfsig test platform CA" \
		-addext "basicConstraints=critical,CA:TRUE" \
		-addext "keyUsage=critical,keyCertSign,cRLSign" \
		-addext "subjectKeyIdentifier=hash" \
		-out "$tmp/pem" 2>/dev/null || { rm -rf "$tmp"; die "openssl req failed"; }
	mv "$tmp/key" "$CAKEY"
	mv "$tmp/pem" "$CACERT"
	rmdir "$tmp"
	echo "platform-ca: made ${CACERT#"$TOP"/} (the test kernel's builtin trusted key)"
}

issue() { # KEY OUT [CN]
	local key=$1 out=$2 cn=${3:-}
	[ -s "$CAKEY" ] && [ -s "$CACERT" ] || die "no CA in $DIR (kernel/platform-ca.sh init, or make kernel)"
	[ -r "$key" ] || die "$key: not readable"
	[ -n "$cn" ] || cn=$(basename "${key%.*}")
	local tmp form=PEM
	case $out in *.der) form=DER ;; esac
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/platform-ca.XXXXXX")
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" RETURN
	openssl pkey -in "$key" -pubout -out "$tmp/pub" 2>/dev/null ||
		openssl pkey -pubin -in "$key" -pubout -out "$tmp/pub" 2>/dev/null ||
		die "$key: not a PEM private or public key"
	# x509 -req wants a request: one signed by the CA key, whose public
	# key -force_pubkey then replaces with KEY's.
	openssl req -new -key "$CAKEY" -subj "/O=elfsig tests/CN=$cn" \
		-out "$tmp/csr" 2>/dev/null || die "openssl req failed"
	cat > "$tmp/ext" <<EXT
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature
subjectKeyIdentifier=hash
authorityKeyIdentifier=keyid
EXT
	openssl x509 -req -in "$tmp/csr" -CA "$CACERT" -CAkey "$CAKEY" \
		-force_pubkey "$tmp/pub" -set_serial "0x$(openssl rand -hex 16)" \
		-days 3650 -sha256 -extfile "$tmp/ext" -outform "$form" \
		-out "$out" 2>/dev/null || die "openssl x509 failed for $key"
}

case ${1:-} in
init)  init ;;
issue) [ $# -ge 3 ] || die "usage: issue KEY OUT [CN]"; shift; issue "$@" ;;
*)     sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
esac
