#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Signed packages through apt, as docs/guide.md ("Keep a signed machine
# signed through apt") tells a platform team: real Debian packages (hello,
# tree) with a bumped version, signed with signelf sign-deb, published with
# apt-ftparchive into a file: repository whose Release a throwaway OpenPGP
# key signs; a fresh bookworm chroot (mmdebstrap) with Debian's unsigned
# hello switches its sources to that repository, and apt-get upgrade and
# apt-get install bring the signed packages: every ELF file they installed
# verifies, dpkg --verify is clean, the programs run.
# SKIP when a tool is missing or mmdebstrap cannot reach the Debian archive.
set -u
. "$(dirname "$0")/lib-chroot.sh"

for t in mmdebstrap apt-ftparchive dpkg-deb gpg openssl; do
	command -v "$t" >/dev/null || { echo "SKIP: apt-repo: $t not installed (scripts/deps.txt)"; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "SKIP: apt-repo: needs root (chroot, mmdebstrap)"; exit 77; }
SIGNELF=${SIGNELF:-$BUILD/signelf}
[ -x "$SIGNELF" ] || { echo "FAIL: apt-repo: $SIGNELF not built"; exit 1; }
t_mktemp
D=$T_TMP

chroot_need_archive apt-repo

# A fresh bookworm machine with Debian's (unsigned) hello installed; the
# .debs of hello and tree fetched there, as a mirror would have them.
# shellcheck disable=SC2016 # the hook's $1 is mmdebstrap's
chroot_make apt-repo "mmdebstrap makes a bookworm chroot with hello" "$D/chroot" --include=hello \
	--customize-hook='mkdir -p "$1/srv/orig" && chroot "$1" sh -c "cd /srv/orig && apt-get download -q hello tree"'
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
	-keyout "$D/release.key" -out "$D/release.pem" -subj "/O=elfsig tests/CN=apt release" \
	-addext keyUsage=digitalSignature -days 30 2>/dev/null
"$SIGNELF" verify -q --cert "$D/release.pem" "$CH/usr/bin/hello" 2>/dev/null
rc=$?
[ $rc = 2 ] && t_pass "Debian's hello in the chroot is unsigned (verify exits 2)" ||
	t_fail "Debian's hello in the chroot is unsigned (verify exits 2)" "exit $rc"

# The packages again with a version above Debian's (a stand-in for the
# next security update of a mirrored package).
mkdir -p "$D/incoming" "$D/repo"
for deb in "$CH"/srv/orig/*.deb; do
	x=$D/x.$(basename "$deb")
	dpkg-deb -R "$deb" "$x" &&
	sed -i 's/^Version: .*/&+elfsig1/' "$x/DEBIAN/control" &&
	dpkg-deb --root-owner-group -b "$x" "$D/incoming/" >/dev/null ||
		{ t_fail "rebuild $(basename "$deb") with a bumped version"; exit 0; }
	rm -rf "$x"
done
[ "$(find "$D/incoming" -name '*+elfsig1_*.deb' | wc -l)" = 2 ] ||
	{ t_fail "rebuild hello and tree with a bumped version" "$(ls "$D/incoming")"; exit 0; }

# The guide's publishing steps (docs/guide.md), in the repository directory.
export GNUPGHOME=$D/gnupg
mkdir -m 700 "$GNUPGHOME"
t_on_exit "GNUPGHOME='$GNUPGHOME' gpgconf --kill gpg-agent"
gpg --batch --quiet --passphrase '' --quick-gen-key 'elfsig test repository' ed25519 sign 1d 2>/dev/null &&
	gpg --export > "$D/repo-key.gpg" || { t_fail "an OpenPGP key for the repository"; exit 0; }
for deb in "$D"/incoming/*.deb; do
	"$SIGNELF" sign-deb -q --key "$D/release.key" --cert "$D/release.pem" \
		-o "$D/repo/$(basename "$deb")" "$deb" || t_fail "sign-deb $(basename "$deb")"
done
(cd "$D/repo" && apt-ftparchive packages . > Packages &&
	apt-ftparchive release . > Release &&
	gpg --batch --yes --clearsign -o InRelease Release) 2>"$D/ftp.err" &&
	t_pass "apt-ftparchive and gpg publish the signed packages" ||
	t_fail "apt-ftparchive and gpg publish the signed packages" "$(head -n 2 "$D/ftp.err")"

# The machine: the signed repository as its only source (a signed machine
# must not take packages from anywhere else).
mkdir -p "$CH/srv/elfsig-repo" "$CH/etc/apt/keyrings"
cp "$D/repo/"* "$CH/srv/elfsig-repo/"
cp "$D/repo-key.gpg" "$CH/etc/apt/keyrings/elfsig-repo.gpg"
rm -f "$CH/etc/apt/sources.list.d/"*
echo 'deb [signed-by=/etc/apt/keyrings/elfsig-repo.gpg] file:/srv/elfsig-repo ./' > "$CH/etc/apt/sources.list"
if inch apt-get update -q > "$D/update.log" 2>&1 &&
   inch apt-get upgrade -y -q > "$D/upgrade.log" 2>&1 &&
   inch apt-get install -y -q tree > "$D/install.log" 2>&1; then
	t_pass "apt-get update, upgrade and install from the signed repository"
else
	t_fail "apt-get update, upgrade and install from the signed repository" \
		"$(cat "$D/update.log" "$D/upgrade.log" "$D/install.log" 2>/dev/null | grep -E '^(E|W):' | head -n 3 | tr '\n' '|')"
fi
# shellcheck disable=SC2016 # dpkg-query's fields
vers=$(inch dpkg-query -W -f='${Package} ${Version}\n' hello tree 2>&1 | grep -c '+elfsig1$')
[ "$vers" = 2 ] && t_pass "hello (upgraded) and tree (installed) are the signed versions" ||
	t_fail "hello (upgraded) and tree (installed) are the signed versions" "$vers of 2"

# Every ELF file the two packages installed verifies with the release
# certificate; dpkg's own record of the files (md5sums) matches them.
n=0 bad=
for p in hello tree; do
	while read -r f; do
		[ -f "$CH$f" ] && [ ! -L "$CH$f" ] && head -c 4 "$CH$f" | grep -q ELF || continue
		n=$((n + 1))
		"$SIGNELF" verify -q --cert "$D/release.pem" "$CH$f" || bad+=" $f"
	done < <(inch dpkg -L "$p")
done
[ "$n" -ge 2 ] && [ -z "$bad" ] &&
	t_pass "all $n ELF files installed from the repository verify" ||
	t_fail "all ELF files installed from the repository verify" "$n ELF files; not verifying:$bad"
out=$(inch dpkg --verify hello tree 2>&1)
[ -z "$out" ] && t_pass "dpkg --verify hello tree: clean" || t_fail "dpkg --verify hello tree: clean" "$out"
[ "$(inch hello 2>&1)" = "Hello, world!" ] && inch tree -d /srv >/dev/null 2>&1 &&
	t_pass "the signed hello and tree run" || t_fail "the signed hello and tree run"

# A repository whose Release nobody signed is refused by apt.
rm "$CH/srv/elfsig-repo/InRelease"
inch apt-get update -q > "$D/unsigned.log" 2>&1
rc=$?
[ $rc != 0 ] && grep -qE "is (not|no longer) signed" "$D/unsigned.log" &&
	t_pass "apt refuses the repository once its Release is not signed" ||
	t_fail "apt refuses the repository once its Release is not signed" "$(grep -E '^(E|W):' "$D/unsigned.log" | head -n 2 | tr '\n' '|')"
exit 0
