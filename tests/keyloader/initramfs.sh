#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The initramfs-tools hook builds a working image: a real mkinitramfs run
# (in a private mount namespace, with an empty module tree and a config
# for a dummy kernel version over /usr/lib/modules and /boot), then the image is listed,
# unpacked, its library closure checked, and its init-top script run in a
# chroot: the loader in the image fills and locks a keyring from swtpm.
set -u
. "$(dirname "$0")/lib-kl.sh"

kl_need mkinitramfs lsinitramfs unmkinitramfs unshare chroot swtpm keyctl openssl busybox cpio
if [ -z "${KL_IN_SESSION:-}" ]; then
	KL_IN_SESSION=1 exec keyctl session - "$0" "$@"
fi
[ -x "$KL" ] && [ -x "$ENROLL" ] || { echo "FAIL: build: $KL or $ENROLL missing"; exit 1; }
t_mktemp
kl_swtpm_start || { echo "FAIL: swtpm: did not start"; exit 1; }
for i in 1 2 3 4; do kl_cert "k$i" || { echo "FAIL: openssl"; exit 1; }; done
kl_authority auth || { echo "FAIL: openssl: authority key"; exit 1; }
kl_need_keyring k1

# The enrolment the image carries.
ETC=$T_TMP/etc-elfsig
mkdir -p "$ETC/certs"
cp "$T_TMP/k1.pem" "$T_TMP/k2.der" "$T_TMP/k3.pem" "$T_TMP/k4.pem" "$ETC/certs/"
"$ENROLL" create -d "$ETC" -K "$T_TMP/auth.key" \
	"$T_TMP/k1.pem" "$T_TMP/k2.der" "$T_TMP/k3.pem" >/dev/null ||
	{ echo "FAIL: enrol"; exit 1; }

# A configuration directory as /etc/initramfs-tools, with our hook and
# script where a package would install them.
CONF=$T_TMP/conf
mkdir -p "$CONF/hooks" "$CONF/scripts/init-top" "$CONF/conf.d"
printf 'MODULES=list\nBUSYBOX=y\nCOMPRESS=gzip\nRUNSIZE=10%%\nFSTYPE=auto\n' > "$CONF/initramfs.conf"
: > "$CONF/modules"
cp "$BUILD/keyloader/initramfs-tools/hooks/elfsig" "$CONF/hooks/"
cp "$TOP/keyloader/initramfs-tools/scripts/init-top/elfsig" "$CONF/scripts/init-top/"
IMG=$T_TMP/initrd.img
ELFSIG_KEYLOADER=$KL ELFSIG_ETC=$ETC kl_mkinitramfs "$CONF" "$IMG"
rc=$?
if [ "$rc" = 0 ] && [ -s "$IMG" ]; then
	t_pass "mkinitramfs with the elfsig hook builds an image"
else
	t_fail "mkinitramfs with the elfsig hook builds an image" "exit $rc: $(tail -n 5 "$IMG.log" | tr '\n' '|')"
	exit 0
fi

list=$(lsinitramfs "$IMG")
missing=
PCRPOL=$(cd "$ETC" && ls pcr-policies/*)
for f in usr/sbin/elfsig-keyloader scripts/init-top/elfsig etc/elfsig/policy \
	 etc/elfsig/policy.sig etc/elfsig/authority.pem "etc/elfsig/$PCRPOL" \
	 etc/elfsig/counter etc/elfsig/counter.sig \
	 etc/elfsig/policy.sealed etc/elfsig/certs/k1.pem etc/elfsig/certs/k2.der \
	 etc/elfsig/certs/k4.pem; do
	grep -qx "$f" <<<"$list" || missing="$missing $f"
done
for l in libtss2-tcti-device.so.0 libtss2-tctildr.so.0 libtss2-esys.so.0 libkeyutils.so.1 libcrypto.so.3; do
	grep -q "/$l\$" <<<"$list" || missing="$missing $l"
done
[ -z "$missing" ] && t_pass "lsinitramfs: loader, script, enrolment, TCTI device module, libraries" ||
	t_fail "lsinitramfs: loader, script, enrolment, TCTI device module, libraries" "missing:$missing"
# Unpack; the init-top script must be in the boot ORDER; every ELF object
# must resolve its libraries inside the image (the dynamic loader run in
# a chroot).
X=$T_TMP/x
mkdir -p "$X"
unmkinitramfs "$IMG" "$X" 2>/dev/null
[ -d "$X/main" ] && X=$X/main
grep -q "^/scripts/init-top/elfsig " "$X/scripts/init-top/ORDER" 2>/dev/null &&
	t_pass "the init-top script is in the boot ORDER" ||
	t_fail "the init-top script is in the boot ORDER" "$(cat "$X/scripts/init-top/ORDER" 2>&1)"
# Before any other userspace that matters: ahead of udev (init-top's own
# udev start) in the order the initramfs' init runs the scripts.
ord_elfsig=$(grep -n "^/scripts/init-top/elfsig " "$X/scripts/init-top/ORDER" | cut -d: -f1)
ord_udev=$(grep -n "^/scripts/init-top/udev " "$X/scripts/init-top/ORDER" | cut -d: -f1)
if [ -z "$ord_udev" ]; then
	t_skip "init-top: the loader runs before udev" "no udev script in this image"
elif [ -n "$ord_elfsig" ] && [ "$ord_elfsig" -lt "$ord_udev" ]; then
	t_pass "init-top: the loader runs before udev"
else
	t_fail "init-top: the loader runs before udev" "$(tr '\n' '|' < "$X/scripts/init-top/ORDER")"
fi
# shellcheck disable=SC2012 # two fixed names, first that exists
LDSO=$(cd "$X" && ls usr/lib64/ld-linux-x86-64.so.2 lib64/ld-linux-x86-64.so.2 2>/dev/null | head -n 1)
unresolved=
for f in usr/sbin/elfsig-keyloader $(cd "$X" && find usr/lib -name 'libtss2-tcti-*.so.0*' | sort); do
	out=$(chroot "$X" "/$LDSO" --list "/$f" 2>&1) || unresolved="$unresolved $f"
	grep -q "not found" <<<"$out" && unresolved="$unresolved $f($(grep 'not found' <<<"$out" | head -n 1 | xargs))"
done
[ -n "$LDSO" ] && [ -z "$unresolved" ] && t_pass "every library (and the dlopened TCTI modules) resolves inside the image" ||
	t_fail "every library (and the dlopened TCTI modules) resolves inside the image" "ld.so '$LDSO':$unresolved"

# The image's own init-top script and loader, in a chroot, against swtpm
# (the dlopened swtpm TCTI module comes from the image). init exports $quiet.
KR=$(keyctl newring kr-initramfs @s)
mkdir -p "$X/run" "$X/dev"
quiet=n ELFSIG_TPM_WAIT=0 ELFSIG_KEYLOADER_OPTS="-T $TPM2TOOLS_TCTI -k $KR --kmsg /run/kmsg" \
	timeout 60 chroot "$X" /bin/sh /scripts/init-top/elfsig > "$T_TMP/boot.out" 2>&1
rc=$?
n=$(kl_keys "$KR")
if [ "$rc" = 0 ] && [ "$n" = 3 ] && grep -q "3 keys loaded.*keyring locked (exit 1: partial)" "$T_TMP/boot.out"; then
	t_pass "init-top in the image: the 3 enrolled keys load, the 4th file is refused"
else
	t_fail "init-top in the image: the 3 enrolled keys load" "rc $rc, $n keys: $(tr '\n' '|' < "$T_TMP/boot.out")"
fi
err=$(keyctl padd asymmetric "" "$KR" < "$T_TMP/k4.der" 2>&1)
case $err in *"Operation not permitted"*) t_pass "init-top in the image: keyring locked" ;;
	*) t_fail "init-top in the image: keyring locked" "$err" ;; esac
[ -s "$X/run/elfsig/keyloader.log" ] && [ "$(grep -c '^13 sha256:' "$X/run/elfsig/keyloader.log")" = 4 ] &&
	t_pass "init-top in the image: event log in /run/elfsig" ||
	t_fail "init-top in the image: event log in /run/elfsig"

# dracut: the module, overlaid on dracut's module directory, in an image
# without a kernel; the loader in it runs in a chroot.
if ! command -v dracut >/dev/null || ! command -v lsinitrd >/dev/null; then
	t_skip "dracut module" "dracut not installed (dracut-core)"
	exit 0
fi
DIMG=$T_TMP/dracut.img
mkdir -p "$T_TMP/dovl/up" "$T_TMP/dovl/work"
# shellcheck disable=SC2016 # expanded by the inner shell
ELFSIG_KEYLOADER=$KL ELFSIG_ETC=$ETC unshare -m sh -ec '
	mount -t overlay overlay -o lowerdir=/usr/lib/dracut/modules.d,upperdir=$1/up,workdir=$1/work /usr/lib/dracut/modules.d
	cp -r "$2" /usr/lib/dracut/modules.d/
	dracut --no-kernel --no-hostonly --no-compress -m "base elfsig" --force "$3"
' sh "$T_TMP/dovl" "$BUILD/keyloader/dracut/91elfsig" "$DIMG" >"$T_TMP/dracut.log" 2>&1
rc=$?
dlist=$(lsinitrd "$DIMG" 2>/dev/null)
missing=
for f in usr/sbin/elfsig-keyloader usr/lib/dracut/hooks/pre-udev/00-elfsig-keyloader.sh \
	 etc/elfsig/policy etc/elfsig/policy.sig etc/elfsig/authority.pem "etc/elfsig/$PCRPOL" \
	 etc/elfsig/counter etc/elfsig/counter.sig \
	 etc/elfsig/policy.sealed etc/elfsig/certs/k2.der libtss2-tcti-device.so.0; do
	grep -q " $f\| [^ ]*/$f" <<<"$dlist" || missing="$missing $f"
done
[ "$rc" = 0 ] && [ -z "$missing" ] && t_pass "dracut: image with loader, hook, enrolment, TCTI device module" ||
	t_fail "dracut: image with loader, hook, enrolment, TCTI device module" "exit $rc, missing:$missing $(tail -n 3 "$T_TMP/dracut.log" | tr '\n' '|')"
D=$T_TMP/dx
mkdir -p "$D"
(cd "$D" && cpio -id --quiet < "$DIMG") 2>/dev/null
KR=$(keyctl newring kr-dracut @s)
timeout 60 chroot "$D" /usr/sbin/elfsig-keyloader -T "$TPM2TOOLS_TCTI" -k "$KR" --kmsg none -l /run/elfsig/keyloader.log > "$T_TMP/dracut.out" 2>&1
rc=$?
n=$(kl_keys "$KR")
[ "$rc" = 1 ] && [ "$n" = 3 ] && locked_err=$(keyctl padd asymmetric "" "$KR" < "$T_TMP/k4.der" 2>&1)
case $rc/$n/${locked_err:-} in
1/3/*"Operation not permitted"*) t_pass "dracut: the loader in the image loads the 3 enrolled keys and locks" ;;
*) t_fail "dracut: the loader in the image loads the 3 enrolled keys and locks" "rc $rc, $n keys: $(tr '\n' '|' < "$T_TMP/dracut.out")" ;;
esac
exit 0
