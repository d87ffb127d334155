#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The Debian packages, as a platform team gets them: make deb builds them
# (lintian: no error), mmdebstrap makes a fresh bookworm chroot, apt
# installs them into it; there every tool answers --version, pkg-config
# knows elfsig, a program built against libelfsig-dev links and runs, the
# hook is where initramfs-tools reads it and mkinitramfs puts the loader
# into the image; apt removes them again. One chroot serves every case.
# SKIP when mmdebstrap cannot reach the Debian archive.
set -u
. "$(dirname "$0")/lib-chroot.sh"

for t in mmdebstrap dpkg-buildpackage dh lintian; do
	command -v "$t" >/dev/null || { echo "SKIP: packages: $t not installed (scripts/deps.txt)"; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "SKIP: packages: needs root (chroot, mmdebstrap)"; exit 77; }
t_mktemp

chroot_need_archive packages

want=$(cat "$TOP/VERSION")
if "$TOP/packaging/make-deb.sh" > "$T_TMP/deb.log" 2>&1; then
	t_pass "make deb builds the packages, lintian --pedantic reports no error"
else
	t_fail "make deb builds the packages" "$(tail -n 5 "$T_TMP/deb.log" | tr '\n' '|')"
	exit 0
fi
DEB=$TOP/build/deb
debs=0
for p in elfsig-tools elfsig-keyloader elfsig-dracut libelfsig0 libelfsig-dev; do
	compgen -G "$DEB/${p}_${want}_*.deb" >/dev/null && debs=$((debs + 1))
done
[ "$debs" = 5 ] && t_pass "build/deb/ has the five packages" ||
	t_fail "build/deb/ has the five packages" "$debs of 5"

# One fresh bookworm chroot: apt and initramfs-tools (what a machine
# has), libc6-dev, gcc and pkgconf (to build against libelfsig-dev). The packages
# go in with apt, which fetches their dependencies from the archive.
CH=$T_TMP/chroot
mkdir -p "$CH.debs"
cp "$DEB"/*.deb "$CH.debs/" && rm -f "$CH.debs"/*-dbgsym_*.deb
# shellcheck disable=SC2016 # the hooks' $1 is mmdebstrap's
chroot_make packages "apt installs the five packages into a fresh bookworm chroot" "$CH" \
	--include=initramfs-tools,libc6-dev,gcc,pkgconf \
	--customize-hook='mkdir -p "$1/tmp/debs"' \
	--customize-hook="sync-in $CH.debs /tmp/debs" \
	--customize-hook='chroot "$1" sh -c "apt-get install -y -q /tmp/debs/*.deb"'
# shellcheck disable=SC2016 # dpkg-query's fields
inst=$(chroot "$CH" dpkg-query -W -f='${Package} ${Version} ${Status}\n' \
	elfsig-tools elfsig-keyloader elfsig-dracut libelfsig0 libelfsig-dev 2>&1 | grep -c " $want install ok installed")
[ "$inst" = 5 ] && t_pass "apt installs the five packages into a fresh bookworm chroot" ||
	t_fail "apt installs the five packages into a fresh bookworm chroot" "$inst of 5 installed"

for p in signelf elfsig-tpm elfsig-attest elfsig-keyloader elfsig-enroll; do
	out=$(inch "$p" --version 2>&1)
	[ "$out" = "$p $want" ] && t_pass "installed $p --version: $out" ||
		t_fail "installed $p --version" "$out"
done
out=$(inch pkg-config --libs elfsig 2>&1)
[ "${out% }" = "-lelfsig" ] && t_pass "pkg-config --libs elfsig: $out" ||
	t_fail "pkg-config --libs elfsig" "$out"

# A program built in the chroot with libelfsig-dev's header, pkg-config
# file and .so link, run there on an ELF of the chroot.
cp "$TOP/tests/signer/use-libelfsig.c" "$CH/tmp/use.c"
# shellcheck disable=SC2016 # expanded in the chroot
if inch sh -c 'cc -Wall -Werror $(pkg-config --cflags elfsig) -o /tmp/use /tmp/use.c $(pkg-config --libs elfsig)' > "$T_TMP/cc.log" 2>&1 &&
   [ "$(inch /tmp/use /usr/bin/true 2>&1)" = 32 ]; then
	t_pass "a program built against libelfsig-dev links and runs"
else
	t_fail "a program built against libelfsig-dev links and runs" "$(head -n 3 "$T_TMP/cc.log" | tr '\n' '|')"
fi
need=$(inch sh -c 'objdump -p /tmp/use 2>/dev/null || readelf -V /tmp/use' | grep -c 'LIBELFSIG_0')
[ "$need" -ge 1 ] && t_pass "the program needs libelfsig.so.0's LIBELFSIG_0" ||
	t_fail "the program needs libelfsig.so.0's LIBELFSIG_0"

# The hook where initramfs-tools reads it, and a real mkinitramfs in the
# chroot for a dummy kernel version with an empty module tree.
hooks=$(inch dpkg -L elfsig-keyloader | grep -cxE '/usr/share/initramfs-tools/(hooks|scripts/init-top)/elfsig')
[ "$hooks" = 2 ] && [ -x "$CH/usr/share/initramfs-tools/hooks/elfsig" ] &&
	t_pass "elfsig-keyloader ships the hook and script in /usr/share/initramfs-tools" ||
	t_fail "elfsig-keyloader ships the hook and script in /usr/share/initramfs-tools" "$hooks of 2"
# (dpkg's record of the installed package's triggers)
grep -qx 'activate-noawait update-initramfs' "$CH/var/lib/dpkg/info/elfsig-keyloader.triggers" 2>/dev/null &&
	t_pass "elfsig-keyloader activates the update-initramfs trigger" ||
	t_fail "elfsig-keyloader activates the update-initramfs trigger"
KVER=0.0.0-elfsig-packages
mkdir -p "$CH/usr/lib/modules/$KVER/kernel"
touch "$CH/usr/lib/modules/$KVER/modules.order" "$CH/usr/lib/modules/$KVER/modules.builtin"
echo CONFIG_RD_GZIP=y > "$CH/boot/config-$KVER"
# With elfsig-init installed, the image's first process is elfsig-init
# (unsigned, as the hook leaves it), the initramfs-tools /init is kept
# beside it, and the init-top script is the one that copies the event log.
if inch mkinitramfs -o /tmp/initrd.img "$KVER" > "$T_TMP/mkinitramfs.log" 2>&1 &&
   inch lsinitramfs /tmp/initrd.img > "$T_TMP/list" 2>&1; then
	missing=
	for f in usr/sbin/elfsig-keyloader init init.initramfs-tools scripts/init-top/elfsig-init; do
		grep -qx "$f" "$T_TMP/list" || missing+=" $f"
	done
	grep -q 'libtss2-tcti-device\.so\.0' "$T_TMP/list" || missing+=" libtss2-tcti-device.so.0"
	grep -qx 'scripts/init-top/elfsig' "$T_TMP/list" && missing+=" (scripts/init-top/elfsig still there)"
	[ -z "$missing" ] &&
		t_pass "mkinitramfs in the chroot: the image has the loader, elfsig-init as /init, its script and the TPM TCTI" ||
		t_fail "mkinitramfs in the chroot: the image has the loader, elfsig-init as /init, its script and the TPM TCTI" "missing:$missing"
	rm -rf "$CH/tmp/unpacked"
	if inch unmkinitramfs /tmp/initrd.img /tmp/unpacked > "$T_TMP/unmk.log" 2>&1; then
		root=$CH/tmp/unpacked
		[ -d "$root/main" ] && root=$root/main
		# (the package's elfsig-init is unsigned; a signed one loses its signature)
		inch signelf remove --output /tmp/init.unsigned /usr/sbin/elfsig-init > "$T_TMP/rm.log" 2>&1 ||
			cp "$CH/usr/sbin/elfsig-init" "$CH/tmp/init.unsigned"
		if cmp -s "$root/init" "$CH/tmp/init.unsigned"; then
			t_pass "the image's /init is the installed elfsig-init without its signature"
		else
			t_fail "the image's /init is the installed elfsig-init without its signature" "$(head -n 1 "$T_TMP/rm.log")"
		fi
	else
		t_fail "unmkinitramfs unpacks the image" "$(tail -n 2 "$T_TMP/unmk.log" | tr '\n' '|')"
	fi
else
	t_fail "mkinitramfs in the chroot builds an image" "$(grep -E '^E:' "$T_TMP/mkinitramfs.log" | head -n 3 | tr '\n' '|')"
fi

# And out again: apt removes every file the packages installed.
inch apt-get purge -y -q elfsig-tools elfsig-keyloader elfsig-dracut libelfsig0 libelfsig-dev > "$T_TMP/purge.log" 2>&1
left=
for f in usr/bin/signelf usr/sbin/elfsig-keyloader usr/share/initramfs-tools/hooks/elfsig \
	usr/include/elfsig usr/lib/dracut/modules.d/91elfsig; do
	[ -e "$CH/$f" ] && left+=" $f"
done
[ -z "$left" ] && t_pass "apt purge removes the packages' files" ||
	t_fail "apt purge removes the packages' files" "left: $left"
exit 0
