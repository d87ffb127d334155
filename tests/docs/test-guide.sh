#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# docs/guide.md's commands as written: every indented shell block that is
# not marked "<!-- guide-test: skip: WHY -->" runs, in order, in one shell
# (tests/docs/guide-blocks.py), in a scratch directory with the build's
# tools first on PATH and the inputs the guide's text assumes: dist/ with
# two programs, a rootfs/ tree, a hello_2.10-3_amd64.deb, an OpenPGP key
# for the apt repository (GNUPGHOME). The swtpm the guide starts gets a
# free port pair instead of 2321/2322, and the machine's /etc/elfsig is
# etc-elfsig in the scratch directory (create makes it). The first
# command that fails stops the run, named by its block's line in the
# guide.
set -u
. "$(dirname "$0")/../lib.sh"

need() { # TOOL PACKAGE
	command -v "$1" >/dev/null 2>&1 ||
		{ echo "SKIP: test-guide: $1 not installed (Debian package $2)"; exit 77; }
}
need swtpm swtpm
need softhsm2-util softhsm2
need pkcs11-tool opensc
need apt-ftparchive apt-utils
need gpg gnupg
need dpkg-deb dpkg
need python3 python3
openssl engine pkcs11 >/dev/null 2>&1 ||
	{ echo "SKIP: test-guide: OpenSSL's pkcs11 engine not installed (Debian package libengine-pkcs11-openssl)"; exit 77; }
for p in signelf elfsig-tpm elfsig-enroll elfsig-attest; do
	[ -x "$BUILD/$p" ] || { echo "FAIL: test-guide: $BUILD/$p not built"; exit 1; }
done
t_mktemp
W=$T_TMP/work
mkdir -p "$W"

# What the guide's text assumes is there.
mkdir -p "$W/dist/sbin" "$W/dist/usr/lib/platform" "$W/rootfs/usr/bin" "$W/rootfs/etc"
cp /usr/bin/true "$W/dist/sbin/kexec"
cp /usr/bin/env "$W/dist/usr/lib/platform/agent"
cp /usr/bin/ls /usr/bin/cat "$W/rootfs/usr/bin/"
echo "not ELF" > "$W/rootfs/etc/motd"
P=$T_TMP/hello
mkdir -p "$P/DEBIAN" "$P/usr/bin"
cp /usr/bin/true "$P/usr/bin/hello"
printf 'Package: hello\nVersion: 2.10-3\nArchitecture: amd64\nMaintainer: elfsig tests <t@example.org>\nDescription: a stand-in for GNU hello\n' \
	> "$P/DEBIAN/control"
(cd "$P" && md5sum usr/bin/hello > DEBIAN/md5sums)
dpkg-deb --root-owner-group -b "$P" "$W/hello_2.10-3_amd64.deb" >/dev/null ||
	{ t_fail "a hello package to sign"; exit 0; }
export GNUPGHOME=$T_TMP/gnupg
mkdir -m 700 "$GNUPGHOME"
t_on_exit "GNUPGHOME='$GNUPGHOME' gpgconf --kill gpg-agent"
gpg --batch --quiet --passphrase '' --quick-gen-key 'Example apt repository' ed25519 sign 1d 2>/dev/null ||
	{ t_fail "an OpenPGP key for the repository"; exit 0; }

port=$(t_free_port) || { t_fail "a free port for the guide's swtpm"; exit 0; }
python3 "$TOP/tests/docs/guide-blocks.py" "$TOP/docs/guide.md" \
	--sub "port=2321" "port=$port" --sub "port=2322" "port=$((port + 1))" \
	--sub "--dir /etc/elfsig" "--dir etc-elfsig" \
	> "$T_TMP/guide.sh" 2>"$T_TMP/extract.err" ||
	{ t_fail "docs/guide.md: its blocks and markers" "$(cat "$T_TMP/extract.err")"; exit 0; }
# The guide's swtpm writes its pid here; stop it however the run ends.
t_on_exit "[ -s '$W/swtpm.pid' ] && kill \$(cat '$W/swtpm.pid') 2>/dev/null"
(cd "$W" && env -u TPM2TOOLS_TCTI -u TPM2OPENSSL_TCTI -u SOFTHSM2_CONF \
	PATH="$BUILD:$PATH" bash "$T_TMP/guide.sh" 3>&1 >"$T_TMP/guide.log" 2>&1) > "$T_TMP/result"
rc=$?
cat "$T_TMP/result"
# What the enrolment blocks left: the directory create made, the policy
# after remove + resign (generation 1, release.pem's key gone), and the
# PCR policy signed from the SRK name alone, for that machine.
if [ $rc = 0 ]; then
	E=$W/etc-elfsig
	[ "$(stat -c %a "$E" 2>/dev/null)" = 755 ] && grep -qx "generation 1" "$E/policy" &&
	[ "$(grep -c '^key ' "$E/policy")" = 1 ] &&
	grep -qx "key sha256:$(openssl x509 -in "$W/release-next.pem" -outform DER | sha256sum | cut -d' ' -f1)" "$E/policy" &&
	grep -qx "srk $(cat "$W/machine.srk")" "$W/kernel-6.12.9.pcrpol" &&
	grep -qx "generation 1" "$W/kernel-6.12.9.pcrpol" &&
		t_pass "the guide's enrolment: the directory made, release.pem removed at generation 1, the PCR policy for the machine" ||
		t_fail "the guide's enrolment" "$(cat "$E/policy" "$W/kernel-6.12.9.pcrpol" 2>&1 | tr '\n' '|')"
	# The machine checks the PCR policy signed without its files.
	cp "$W/kernel-6.12.9.pcrpol" "$E/pcr-policies/"
	out=$(cd "$W" && TPM2TOOLS_TCTI=swtpm:host=127.0.0.1,port=$port "$BUILD/elfsig-enroll" check --json --dir etc-elfsig 2>&1)
	[[ $out == *'"status":0,"word":"ok"'* ]] &&
		t_pass "the guide's machine opens its enrolment (check --json: ok)" ||
		t_fail "the guide's machine opens its enrolment" "$out"
fi
if [ $rc != 0 ]; then
	grep -q '^FAIL: ' "$T_TMP/result" || t_fail "docs/guide.md" "the run ended with exit $rc"
	echo "# the block's last output lines:"
	tail -n 5 "$T_TMP/guide.log" | sed 's/^/#   /'
fi
exit 0
