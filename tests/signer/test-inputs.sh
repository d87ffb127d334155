#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Inputs nobody in the project wrote: keys and signatures outside format
# v1's algorithm table, FIFOs and devices where files are expected, outputs
# that name inputs, a small open-file limit, passwords, a missing TPM, and
# the command line's own mistakes. Every refusal: the documented exit
# status within 10 s (never a hang), one line on stderr, every input
# unchanged, no temporary file left behind.
set -u
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/fixtures.sh"
fixtures_init
BIN=$FIX/bin/musl-static
ALLOWED='allowed: RSA-2048, RSA-3072, RSA-4096, ECDSA P-256, ECDSA P-384'

# Files whose type and content must not change, whatever a command does.
WATCH=()
state() {
	local f
	for f in "${WATCH[@]}"; do
		printf '%s %s\n' "$f" "$(stat -c %F "$f" 2>&1)"
		[ -f "$f" ] && sha "$f"
	done
}

# expect NAME RC PATTERN CMD...: CMD exits RC within 10 s, with exactly one
# line on stderr that matches the extended regex PATTERN; nothing watched
# changed; no temporary file is left in the scratch directory.
expect() {
	local name=$1 want=$2 pat=$3 before why='' lines
	shift 3
	before=$(state)
	timeout 10 "$@" >"$T_TMP/stdout" 2>"$T_TMP/stderr" </dev/null
	RC=$?
	lines=$(wc -l < "$T_TMP/stderr")
	[ "$RC" = 124 ] && why+=" hung"
	[ "$RC" = "$want" ] || why+=" exit $RC (want $want)"
	[ "$lines" = 1 ] || why+=" $lines lines on stderr"
	grep -qE -- "$pat" "$T_TMP/stderr" || why+=" message does not match /$pat/"
	[ "$(state)" = "$before" ] || why+=" an input changed"
	[ -z "$(find "$T_TMP" -name '.*elfsig-*' -o -name '*.elfsig-*')" ] || why+=" temporary file left"
	if [ -z "$why" ]; then
		t_pass "$name"
	else
		t_fail "$name" "${why# }: $(head -c 300 "$T_TMP/stderr")"
	fi
}

# --- the algorithm table -------------------------------------------------
fix_key rsa1024 -algorithm RSA -pkeyopt rsa_keygen_bits:1024
fix_key rsa8192 -algorithm RSA -pkeyopt rsa_keygen_bits:8192
fix_key p521 -algorithm EC -pkeyopt ec_paramgen_curve:P-521
fix_key p224 -algorithm EC -pkeyopt ec_paramgen_curve:P-224
fix_key rsapss -algorithm RSA-PSS -pkeyopt rsa_keygen_bits:2048
fix_key ed25519 -algorithm ED25519
WATCH=("$BIN")
for k in rsa1024 rsa8192 p521 p224 rsapss ed25519; do
	expect "sign refuses a $k key" 5 "keys are not allowed by format v1 \($ALLOWED\)" \
		"$SIGNELF" sign -k "$K/$k.key" -c "$K/$k.pem" -o "$T_TMP/out" "$BIN"
	[ -e "$T_TMP/out" ] && t_fail "sign refuses a $k key: no output" "$T_TMP/out exists"
done

# Signatures made outside signelf with openssl cms, stored with objcopy (so
# that attach's own check does not stand in the way), then verified.
"$SIGNELF" digest --message "$T_TMP/msg" "$BIN" >/dev/null
cms_sign() { # KEY OUT [OPENSSL-ARGS...]
	local k=$1 out=$2; shift 2
	openssl cms -sign -binary -noattr -nocerts -outform DER -md sha256 \
		-in "$T_TMP/msg" -signer "$K/$k.pem" -inkey "$K/$k.key" -out "$out" "$@" 2>/dev/null
}
crafted() { # NAME SIG.der: BIN with SIG as its .signature
	objcopy --add-section .signature="$2" "$BIN" "$T_TMP/$1.elf"
}
cms_sign rsa2048 "$T_TMP/good.der" && crafted good "$T_TMP/good.der" &&
	"$SIGNELF" verify -q -c "$K/rsa2048.pem" "$T_TMP/good.elf" &&
	t_pass "control: an RSA-2048 signature stored by objcopy verifies" ||
	t_fail "control: an RSA-2048 signature stored by objcopy verifies"
cms_sign rsa2048 "$T_TMP/pss.der" -keyopt rsa_padding_mode:pss && crafted pss "$T_TMP/pss.der"
for k in rsa1024 rsa8192 p521 p224; do
	cms_sign "$k" "$T_TMP/$k.der" && crafted "$k" "$T_TMP/$k.der"
done
WATCH=("$T_TMP/pss.elf" "$T_TMP/pss.der")
expect "verify refuses an RSA-PSS signature" 1 "signature algorithm is not allowed" \
	"$SIGNELF" verify -c "$K/rsa2048.pem" "$T_TMP/pss.elf"
expect "attach refuses an RSA-PSS signature" 1 "signature algorithm is not allowed" \
	"$SIGNELF" attach -s "$T_TMP/pss.der" -o "$T_TMP/att" "$BIN"
for k in rsa1024 rsa8192; do
	WATCH=("$T_TMP/$k.elf" "$T_TMP/$k.der" "$BIN")
	expect "verify refuses a $k signature" 1 "RSA signature of [0-9]+ bytes is not allowed.*$ALLOWED" \
		"$SIGNELF" verify -c "$K/$k.pem" "$T_TMP/$k.elf"
	expect "attach refuses a $k signature" 1 "RSA signature of [0-9]+ bytes is not allowed" \
		"$SIGNELF" attach -s "$T_TMP/$k.der" -o "$T_TMP/att" "$BIN"
done
WATCH=("$T_TMP/p521.elf" "$T_TMP/p521.der" "$BIN")
expect "verify refuses a P-521 signature" 1 "curve larger than format v1 allows" \
	"$SIGNELF" verify -c "$K/p521.pem" "$T_TMP/p521.elf"
expect "attach refuses a P-521 signature" 1 "curve larger than format v1 allows" \
	"$SIGNELF" attach -s "$T_TMP/p521.der" -o "$T_TMP/att" "$BIN"
# A P-224 signature has the shape of a P-256 one; the key tells.
WATCH=("$T_TMP/p224.elf")
expect "verify refuses a signature by a trusted P-224 certificate" 1 \
	"trusted certificate .*EC secp224r1 keys are not allowed" \
	"$SIGNELF" verify -c "$K/p224.pem" "$T_TMP/p224.elf"

# --- FIFOs, devices, directories where files are expected -----------------
mkfifo "$T_TMP/fifo" "$T_TMP/fifo.pem"
mkdir -p "$T_TMP/certdir" "$T_TMP/dir"
cp "$K/rsa2048.pem" "$T_TMP/certdir/a.pem"
mkfifo "$T_TMP/certdir/b.pem"
cp "$BIN" "$T_TMP/elf"
"$SIGNELF" sign -k "$K/rsa2048.key" -c "$K/rsa2048.pem" "$T_TMP/elf"
WATCH=("$T_TMP/fifo" "$T_TMP/certdir/b.pem" "$T_TMP/elf" "$K/rsa2048.key" "$K/rsa2048.pem")
expect "verify FIFO" 3 "fifo: not a regular file" "$SIGNELF" verify -c "$K/rsa2048.pem" "$T_TMP/fifo"
expect "show FIFO" 3 "fifo: not a regular file" "$SIGNELF" show "$T_TMP/fifo"
expect "digest FIFO" 3 "fifo: not a regular file" "$SIGNELF" digest "$T_TMP/fifo"
expect "sign FIFO in place" 3 "fifo: not a regular file" \
	"$SIGNELF" sign -k "$K/rsa2048.key" -c "$K/rsa2048.pem" "$T_TMP/fifo"
expect "remove FIFO" 3 "fifo: not a regular file" "$SIGNELF" remove "$T_TMP/fifo"
expect "verify --cert FIFO" 5 "fifo: not a regular file" "$SIGNELF" verify -c "$T_TMP/fifo" "$T_TMP/elf"
expect "verify --certdir with a FIFO *.pem" 5 "b.pem: not a regular file" \
	"$SIGNELF" verify -d "$T_TMP/certdir" "$T_TMP/elf"
expect "sign --key FIFO" 4 "fifo: not a regular file" \
	"$SIGNELF" sign -k "$T_TMP/fifo" -c "$K/rsa2048.pem" -o "$T_TMP/o" "$BIN"
expect "sign --key file:FIFO" 4 "fifo: not a regular file" \
	"$SIGNELF" sign -k "file:$T_TMP/fifo" -c "$K/rsa2048.pem" -o "$T_TMP/o" "$BIN"
expect "sign --cert FIFO" 4 "fifo: not a regular file" \
	"$SIGNELF" sign -k "$K/rsa2048.key" -c "$T_TMP/fifo" -o "$T_TMP/o" "$BIN"
expect "sign --key a directory" 4 "dir: not a regular file" \
	"$SIGNELF" sign -k "$T_TMP/dir" -c "$K/rsa2048.pem" -o "$T_TMP/o" "$BIN"
expect "attach --signature FIFO" 4 "fifo: not a regular file" \
	"$SIGNELF" attach -s "$T_TMP/fifo" -o "$T_TMP/o" "$BIN"
expect "sign --key-pass file:FIFO" 4 "not a regular file" \
	"$SIGNELF" sign -k "$K/rsa2048.key" -c "$K/rsa2048.pem" --key-pass "file:$T_TMP/fifo" -o "$T_TMP/o" "$BIN"
expect "sign -o FIFO" 4 "fifo: exists and is not a regular file" \
	"$SIGNELF" sign -k "$K/rsa2048.key" -c "$K/rsa2048.pem" -o "$T_TMP/fifo" "$BIN"
expect "digest --message FIFO" 4 "fifo: exists and is not a regular file" \
	"$SIGNELF" digest --message "$T_TMP/fifo" "$BIN"
expect "remove -o FIFO" 4 "fifo: exists and is not a regular file" \
	"$SIGNELF" remove -o "$T_TMP/fifo" "$T_TMP/elf"
expect "sign -o a directory" 4 "dir: exists and is not a regular file" \
	"$SIGNELF" sign -k "$K/rsa2048.key" -c "$K/rsa2048.pem" -o "$T_TMP/dir" "$BIN"
ln -s nowhere "$T_TMP/dangling"
expect "sign -o a dangling symbolic link" 4 "symbolic link to nothing" \
	"$SIGNELF" sign -k "$K/rsa2048.key" -c "$K/rsa2048.pem" -o "$T_TMP/dangling" "$BIN"
# A device node of our own (a copy of /dev/null's numbers): as root, the old
# signelf replaced such a node with a regular file.
if [ "$(id -u)" = 0 ] && mknod "$T_TMP/null" c 1 3 2>/dev/null; then
	WATCH=("$T_TMP/null" "$T_TMP/elf")
	expect "sign -o DEVICE" 4 "null: exists and is not a regular file" \
		"$SIGNELF" sign -k "$K/rsa2048.key" -c "$K/rsa2048.pem" -o "$T_TMP/null" "$BIN"
	expect "digest --message DEVICE" 4 "null: exists and is not a regular file" \
		"$SIGNELF" digest --message "$T_TMP/null" "$BIN"
	expect "attach -o DEVICE" 4 "null: exists and is not a regular file" \
		"$SIGNELF" attach -s "$T_TMP/good.der" -o "$T_TMP/null" "$BIN"
	expect "verify DEVICE" 3 "null: not a regular file" \
		"$SIGNELF" verify -c "$K/rsa2048.pem" "$T_TMP/null"
	[ -c "$T_TMP/null" ] && t_pass "the device node is still a device" ||
		t_fail "the device node is still a device"
else
	t_skip "outputs that are device nodes" "needs root to mknod"
fi

# --- an output may never be an input --------------------------------------
cp "$BIN" "$T_TMP/in"
cp "$K/rsa2048.key" "$T_TMP/key"; cp "$K/rsa2048.pem" "$T_TMP/cert"
cp "$T_TMP/good.der" "$T_TMP/sig.der"
WATCH=("$T_TMP/in" "$T_TMP/key" "$T_TMP/cert" "$T_TMP/sig.der")
expect "digest --message FILE FILE" 4 "output '.*in' is the input '.*in'" \
	"$SIGNELF" digest --message "$T_TMP/in" "$T_TMP/in"
ln "$T_TMP/in" "$T_TMP/in.link"
expect "digest --message a hard link of FILE" 4 "is the input" \
	"$SIGNELF" digest --message "$T_TMP/in.link" "$T_TMP/in"
expect "sign -o KEY" 4 "output '.*key' is the input '.*key'" \
	"$SIGNELF" sign -k "$T_TMP/key" -c "$T_TMP/cert" -o "$T_TMP/key" "$T_TMP/in"
expect "sign -o CERT" 4 "output '.*cert' is the input '.*cert'" \
	"$SIGNELF" sign -k "$T_TMP/key" -c "$T_TMP/cert" -o "$T_TMP/cert" "$T_TMP/in"
expect "attach -o SIG" 4 "output '.*sig.der' is the input" \
	"$SIGNELF" attach -s "$T_TMP/sig.der" -o "$T_TMP/sig.der" "$T_TMP/in"
# (sign -o FILE FILE is signing in place: asked for, so allowed.)
"$SIGNELF" sign -k "$T_TMP/key" -c "$T_TMP/cert" -o "$T_TMP/in" "$T_TMP/in" &&
	"$SIGNELF" verify -q -c "$T_TMP/cert" "$T_TMP/in" &&
	t_pass "sign -o FILE FILE signs in place" || t_fail "sign -o FILE FILE signs in place"

# --- a small open-file limit ------------------------------------------------
mkdir "$T_TMP/many"
for i in $(seq 1 300); do cp "$BIN" "$T_TMP/many/f$i"; done
if (ulimit -n 64 && "$SIGNELF" sign -k "$K/p256.key" -c "$K/p256.pem" "$T_TMP/many"/* \
	2>"$T_TMP/stderr"); then
	n=$("$SIGNELF" verify -j -c "$K/p256.pem" "$T_TMP/many"/* | grep -c '"status":"valid"')
	[ "$n" = 300 ] && t_pass "ulimit -n 64: 300 files signed in place, all valid" ||
		t_fail "ulimit -n 64: 300 files signed in place, all valid" "$n valid"
else
	t_fail "ulimit -n 64: 300 files signed in place, all valid" "$(head -3 "$T_TMP/stderr")"
fi

# --- passwords ---------------------------------------------------------------
PW=s3cret-elfsig
[ -s "$FIX/keys/enc.key" ] ||
	openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -aes256 \
		-pass "pass:$PW" -out "$FIX/keys/enc.key" 2>/dev/null
[ -s "$FIX/keys/enc.pem" ] ||
	openssl req -new -x509 -key "$FIX/keys/enc.key" -passin "pass:$PW" \
		-subj /CN=encrypted -out "$FIX/keys/enc.pem" 2>/dev/null
WATCH=("$BIN")
signs_with() { # NAME CMD-PREFIX...: sign BIN to $T_TMP/pw with the encrypted key
	local name=$1; shift
	rm -f "$T_TMP/pw"
	if "$@" "$SIGNELF" sign -k "$K/enc.key" -c "$K/enc.pem" -o "$T_TMP/pw" "$BIN" \
		2>"$T_TMP/stderr" && "$SIGNELF" verify -q -c "$K/enc.pem" "$T_TMP/pw"; then
		t_pass "$name"
	else
		t_fail "$name" "$(head -c 300 "$T_TMP/stderr")"
	fi
}
expect "an encrypted key without a password fails, never waits" 5 \
	"needs a password \(give it with --key-pass or ELFSIG_KEY_PASS\)" \
	"$SIGNELF" sign -k "$K/enc.key" -c "$K/enc.pem" -o "$T_TMP/pw" "$BIN"
expect "a wrong password" 5 "enc.key: cannot load the private key" \
	"$SIGNELF" sign -k "$K/enc.key" -c "$K/enc.pem" --key-pass pass:wrong -o "$T_TMP/pw" "$BIN"
expect "a password without its pass: prefix is refused, not echoed" 4 \
	"must be pass:STR, env:VAR, file:PATH, fd:N or stdin" \
	"$SIGNELF" sign -k "$K/enc.key" -c "$K/enc.pem" --key-pass "$PW" -o "$T_TMP/pw" "$BIN"
grep -q "$PW" "$T_TMP/stderr" && t_fail "the mistaken password is not printed" ||
	t_pass "the mistaken password is not printed"
expect "--key-pass env:UNSET" 4 "environment variable 'ELFSIG_NO_SUCH_VAR' is not set" \
	"$SIGNELF" sign -k "$K/enc.key" -c "$K/enc.pem" --key-pass env:ELFSIG_NO_SUCH_VAR -o "$T_TMP/pw" "$BIN"
printf '%s\n' "$PW" > "$T_TMP/pwfile"
sign_pass() { "$SIGNELF" sign --key-pass "$1" -k "$K/enc.key" -c "$K/enc.pem" -o "$T_TMP/pw" "$BIN"; }
for spec in "pass:$PW" "env:ELFSIG_TEST_PW" "file:$T_TMP/pwfile" "fd:3" "stdin"; do
	rm -f "$T_TMP/pw"
	if ELFSIG_TEST_PW=$PW sign_pass "$spec" 3<"$T_TMP/pwfile" <"$T_TMP/pwfile" 2>"$T_TMP/stderr" &&
	   "$SIGNELF" verify -q -c "$K/enc.pem" "$T_TMP/pw"; then
		t_pass "--key-pass ${spec%%:*}"
	else
		t_fail "--key-pass ${spec%%:*}" "$(head -c 300 "$T_TMP/stderr")"
	fi
done
signs_with "ELFSIG_KEY_PASS=pass:PW" env "ELFSIG_KEY_PASS=pass:$PW"

# --- a TPM that is not there -------------------------------------------------
moddir=$(openssl version -m | sed -n 's/^MODULESDIR: "\(.*\)"$/\1/p')
if [ -f "$moddir/tpm2.so" ]; then
	port=$(t_free_port)
	printf -- '-----BEGIN TSS2 PRIVATE KEY-----\nMAA=\n-----END TSS2 PRIVATE KEY-----\n' > "$T_TMP/tpm.pem"
	for key in handle:0x81000001 "$T_TMP/tpm.pem"; do
		expect "TPM unreachable ($key): the TCTI and the reason in one line" 5 \
			"cannot use the TPM \(TCTI 'swtpm:host=127.0.0.1,port=$port'\): .*Connection refused" \
			env -u TSS2_LOG "$SIGNELF" sign --tcti "swtpm:host=127.0.0.1,port=$port" \
			-k "$key" -c "$K/rsa2048.pem" -o "$T_TMP/o" "$BIN"
	done
	[ -z "$(find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'elfsig-tss.*' -newer "$T_TMP/tpm.pem")" ] &&
		t_pass "no TSS log file left behind" || t_fail "no TSS log file left behind"
else
	t_skip "TPM unreachable" "the OpenSSL tpm2 provider (tpm2-openssl) is not installed"
fi

# --- the command line itself ---------------------------------------------------
expect "a missing short option argument" 4 "option '-k' requires an argument" "$SIGNELF" sign -k
expect "a missing long option argument" 4 "option '--cert' requires an argument" "$SIGNELF" verify --cert
expect "an unknown long option" 4 "invalid option '--bogus'" "$SIGNELF" digest --bogus=1 x
expect "an unknown short option" 4 "invalid option '-Z'" "$SIGNELF" show -Z x
expect "help with an unknown command" 4 "unknown command 'frob'" "$SIGNELF" help frob
"$SIGNELF" help | grep -q '^Commands:' && t_pass "signelf help" || t_fail "signelf help"
"$SIGNELF" help sign | grep -q -- '--key-pass' && t_pass "signelf help sign" || t_fail "signelf help sign"
expect "digest --message with two files" 4 "--message takes exactly one FILE" \
	"$SIGNELF" digest --message "$T_TMP/m2" "$BIN" "$T_TMP/elf"

# digest of several files: one line each, the same as one at a time.
d1=$("$SIGNELF" digest "$BIN"); d2=$("$SIGNELF" digest "$T_TMP/elf")
[ "$("$SIGNELF" digest "$BIN" "$T_TMP/elf")" = "$d1"$'\n'"$d2" ] &&
	t_pass "digest takes several files" || t_fail "digest takes several files"

# show --json: a record for every file, failures included, nothing on stderr.
: > "$T_TMP/empty"
"$SIGNELF" show --json "$T_TMP/elf" "$BIN" "$T_TMP/empty" "$T_TMP/fifo" \
	>"$T_TMP/json" 2>"$T_TMP/stderr" </dev/null
rc=$?
if python3 - "$T_TMP/json" <<'EOP'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
want = [("signed", 0), ("unsigned", 2), ("malformed", 3), ("malformed", 3)]
got = [(r["status"], r["exit"]) for r in recs]
assert got == want, got
assert all(r.get("error") for r in recs[1:]), recs
assert recs[0]["hash"] == "sha256" and len(recs[0]["digest"]) == 64
EOP
then
	[ "$rc" = 3 ] && [ ! -s "$T_TMP/stderr" ] && t_pass "show --json: one record per file, failures too" ||
		t_fail "show --json: one record per file, failures too" "rc=$rc stderr=$(head -c 200 "$T_TMP/stderr")"
else
	t_fail "show --json: one record per file, failures too" "$(head -c 300 "$T_TMP/json")"
fi
exit 0
