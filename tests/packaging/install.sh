#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make install / make uninstall from packaging/files: every file where the
# table says, with its mode; the installed programs, library, headers,
# pkg-config file and bash completion work; PREFIX=/usr/local keeps the
# initramfs-tools hook where mkinitramfs reads it (a real mkinitramfs run
# takes the loader from /usr/local/sbin); uninstall leaves nothing; the
# SPDX lines agree with LICENSE.
set -u
. "$(dirname "$0")/../keyloader/lib-kl.sh"
t_mktemp

san='' csan=''
case $BUILD in */asan) san="SANITIZE=1" csan="-fsanitize=address,undefined" ;; esac
want=$(cat "$TOP/VERSION")

# mk TARGET VAR=VALUE...: make in the tree, against this suite's build.
mk() {
	# shellcheck disable=SC2086 # $san is one word or none
	make -s --no-print-directory -C "$TOP" $san "$@"
}
# table PREFIX: "mode path" of every installed file, from the table.
table() {
	PREFIX=$1 "$TOP/packaging/files.sh" packages | while read -r p; do
		PREFIX=$1 "$TOP/packaging/files.sh" list "$p"
	done
}

# --- DESTDIR install, PREFIX=/usr
R=$T_TMP/root
if mk install DESTDIR="$R" > "$T_TMP/install.log" 2>&1; then
	t_pass "make install DESTDIR=..."
else
	t_fail "make install DESTDIR=..." "$(tail -n 3 "$T_TMP/install.log" | tr '\n' '|')"
	exit 0
fi
missing=
n=0
while read -r f; do
	n=$((n + 1))
	[ -e "$R/$f" ] || [ -L "$R/$f" ] || missing+=" $f"
done < <(table /usr)
[ -z "$missing" ] && [ "$n" -gt 20 ] &&
	t_pass "all $n files of packaging/files are installed" ||
	t_fail "all files of packaging/files are installed" "missing:$missing"
# Nothing installed that the table does not list (dh_missing's check).
extra=$(comm -13 <(table /usr | sort) <(cd "$R" && find . ! -type d | sed 's|^\./||' | sort) | tr '\n' ' ')
[ -z "$extra" ] && t_pass "make install installs nothing the table does not list" ||
	t_fail "make install installs nothing the table does not list" "extra: $extra"
modes=$(stat -c '%a %n' "$R/usr/bin/signelf" "$R/usr/sbin/elfsig-keyloader" \
	"$R/usr/share/man/man1/signelf.1" "$R/usr/lib/libelfsig.so.0" \
	"$R/usr/share/initramfs-tools/hooks/elfsig" 2>&1 | sed "s|$R||" | tr '\n' ' ')
[ "$modes" = "755 /usr/bin/signelf 755 /usr/sbin/elfsig-keyloader 644 /usr/share/man/man1/signelf.1 644 /usr/lib/libelfsig.so.0 755 /usr/share/initramfs-tools/hooks/elfsig " ] &&
	t_pass "modes: programs and hooks 755, pages and the library 644" ||
	t_fail "modes: programs and hooks 755, pages and the library 644" "$modes"
[ "$(readlink "$R/usr/lib/libelfsig.so")" = libelfsig.so.0 ] &&
	t_pass "libelfsig.so links to libelfsig.so.0" || t_fail "libelfsig.so links to libelfsig.so.0"

for p in bin/signelf bin/elfsig-tpm bin/elfsig-attest sbin/elfsig-keyloader sbin/elfsig-enroll; do
	out=$("$R/usr/$p" --version 2>&1)
	[ "$out" = "${p#*/} $want" ] && t_pass "installed ${p#*/} --version: $out" ||
		t_fail "installed ${p#*/} --version" "$out"
done

# pkg-config, and a program built and linked against the installed
# headers and library alone.
pc() {
	PKG_CONFIG_PATH=$R/usr/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$R pkg-config "$@"
}
[ "$(pc --modversion elfsig 2>&1)" = "$want" ] && t_pass "pkg-config --modversion elfsig: $want" ||
	t_fail "pkg-config --modversion elfsig" "$(pc --modversion elfsig 2>&1)"
cp "$TOP/tests/signer/use-libelfsig.c" "$T_TMP/use.c"
echo '#include <elfsig/note.h>' > "$T_TMP/note.c"
cc -fsyntax-only -Wall -Werror -I"$R/usr/include" "$T_TMP/note.c" &&
	t_pass "<elfsig/note.h> is installed and compiles" ||
	t_fail "<elfsig/note.h> is installed and compiles"
# shellcheck disable=SC2046,SC2086 # pkg-config's flags, one word each
if cc -Wall -Werror $csan $(pc --cflags elfsig) -o "$T_TMP/use" "$T_TMP/use.c" \
	$(pc --libs elfsig) -Wl,-rpath,"$R/usr/lib" > "$T_TMP/cc.log" 2>&1 &&
   [ "$(ASAN_OPTIONS=detect_leaks=0 "$T_TMP/use" /bin/true)" = 32 ]; then
	t_pass "a program built with pkg-config --cflags --libs elfsig links and runs"
else
	t_fail "a program built with pkg-config --cflags --libs elfsig links and runs" "$(head -n 3 "$T_TMP/cc.log" | tr '\n' '|')"
fi
objdump -p "$T_TMP/use" 2>/dev/null | grep -q 'LIBELFSIG_0' &&
	t_pass "the program binds to libelfsig's version LIBELFSIG_0" ||
	t_fail "the program binds to libelfsig's version LIBELFSIG_0"

# bash completion, as bash-completion loads it.
BC=/usr/share/bash-completion/bash_completion
if [ -f "$BC" ]; then
	# comp WORDS CUR: what completing CUR after WORDS offers.
	comp() {
		# shellcheck disable=SC2016 # expanded by the inner shell
		PATH=$R/usr/bin:$R/usr/sbin:$PATH bash -c '
			. "$1"; read -ra COMP_WORDS <<< "$3"
			. "$2/${COMP_WORDS[0]}"; COMP_WORDS+=("$4")
			COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE="$3 $4"
			COMP_POINT=${#COMP_LINE}; COMPREPLY=()
			_elfsig; echo "${COMPREPLY[*]}"' sh "$BC" \
			"$R/usr/share/bash-completion/completions" "$1" "$2"
	}
	got="$(comp signelf s)|$(comp elfsig-enroll cr)|$(comp 'elfsig-attest verify' --al)|$(comp elfsig-keyloader --ti)|$(comp 'elfsig-tpm seal' --pc)"
	[ "$got" = "show sign sign-deb|create|--allow|--timeout|--pcrs" ] &&
		t_pass "bash completion: commands and options of the five tools" ||
		t_fail "bash completion: commands and options of the five tools" "$got"
else
	t_skip "bash completion" "bash-completion not installed"
fi

# --- uninstall: nothing of ours is left, the system's directories stay.
if mk uninstall DESTDIR="$R" > "$T_TMP/uninstall.log" 2>&1; then
	left=$(cd "$R" && find . ! -type d | tr '\n' ' ')
	dirs=$(cd "$R" && find . -type d \( -name elfsig -o -name 91elfsig \) | tr '\n' ' ')
	[ -z "$left" ] && [ -z "$dirs" ] && [ -d "$R/usr/bin" ] &&
		t_pass "make uninstall removes every file and our own directories" ||
		t_fail "make uninstall removes every file and our own directories" "left: $left $dirs"
else
	t_fail "make uninstall" "$(tail -n 3 "$T_TMP/uninstall.log" | tr '\n' '|')"
fi

# --- PREFIX=/usr/local: the programs there, the hook and the dracut module
# where initramfs-tools and dracut read them, pointing at the loader there.
L=$T_TMP/local
mk install DESTDIR="$L" PREFIX=/usr/local > "$T_TMP/install-local.log" 2>&1 ||
	t_fail "make install PREFIX=/usr/local" "$(tail -n 3 "$T_TMP/install-local.log" | tr '\n' '|')"
hook=$L/usr/share/initramfs-tools/hooks/elfsig
dmod=$L/usr/lib/dracut/modules.d/91elfsig/module-setup.sh
[ -x "$L/usr/local/sbin/elfsig-keyloader" ] && [ -x "$hook" ] && [ -x "$dmod" ] &&
	[ -x "$L/usr/share/initramfs-tools/scripts/init-top/elfsig" ] &&
	[ ! -e "$L/usr/local/share/initramfs-tools" ] && [ ! -e "$L/usr/local/lib/dracut" ] &&
	grep -q 'ELFSIG_KEYLOADER:-/usr/local/sbin/elfsig-keyloader}' "$hook" &&
	[ "$(grep -c 'ELFSIG_KEYLOADER:-/usr/local/sbin/elfsig-keyloader}' "$dmod")" = 2 ] &&
	t_pass "PREFIX=/usr/local: hook and dracut module under /usr, finding the loader in /usr/local/sbin" ||
	t_fail "PREFIX=/usr/local: hook and dracut module under /usr, finding the loader in /usr/local/sbin" "$(cd "$L" && find . -name elfsig\* | tr '\n' ' ')"

# A real mkinitramfs with the installed hook, /usr/local bound over from
# the DESTDIR (as if installed there), a dummy kernel version with an
# empty module tree: the image has the loader.
if command -v mkinitramfs >/dev/null && command -v unshare >/dev/null; then
	CONF=$T_TMP/conf
	mkdir -p "$CONF/hooks" "$CONF/scripts/init-top" "$CONF/conf.d"
	printf 'MODULES=list\nBUSYBOX=n\nCOMPRESS=gzip\n' > "$CONF/initramfs.conf"
	: > "$CONF/modules"
	cp "$hook" "$CONF/hooks/"
	cp "$L/usr/share/initramfs-tools/scripts/init-top/elfsig" "$CONF/scripts/init-top/"
	ELFSIG_ETC=$T_TMP/no-enrolment kl_mkinitramfs "$CONF" "$T_TMP/initrd.img" "$L/usr/local"
	rc=$?
	if [ "$rc" = 0 ] && lsinitramfs "$T_TMP/initrd.img" | grep -qx 'usr/sbin/elfsig-keyloader'; then
		t_pass "PREFIX=/usr/local: mkinitramfs puts /usr/local/sbin/elfsig-keyloader in the image"
	else
		t_fail "PREFIX=/usr/local: mkinitramfs puts /usr/local/sbin/elfsig-keyloader in the image" "exit $rc: $(tail -n 3 "$T_TMP/mkinitramfs.log" | tr '\n' '|')"
	fi
else
	t_skip "PREFIX=/usr/local: mkinitramfs" "initramfs-tools-core or unshare missing"
fi
mk uninstall DESTDIR="$L" PREFIX=/usr/local > /dev/null 2>&1
left=$(cd "$L" && find . ! -type d | tr '\n' ' ')
[ -z "$left" ] && t_pass "make uninstall PREFIX=/usr/local removes every file" ||
	t_fail "make uninstall PREFIX=/usr/local removes every file" "left: $left"

# --- Every file's SPDX line agrees with debian/copyright (the licences
# of LICENSE, machine-readable; its last matching Files: stanza wins, and
# "*" matches "/" too, as the format says). The kernel series spells
# GPL-2.0-only as the kernel does: GPL-2.0.
bad=$(cd "$TOP" && git ls-files | python3 -c '
import fnmatch, re, sys
dep5 = {"GPL-2": ("GPL-2.0-only", "GPL-2.0"), "LGPL-2.1+": ("LGPL-2.1-or-later",),
        "GPL-2 with Linux-syscall-note exception": ("GPL-2.0 WITH Linux-syscall-note",)}
stanzas = []
for para in open("debian/copyright").read().split("\n\n"):
    m = re.search(r"^Files:(.*?)^(?=\S)", para + "\nX", re.M | re.S)
    lic = re.search(r"^License: (.*)$", para, re.M)
    if m and lic:
        stanzas.append((m.group(1).split(), lic.group(1).strip()))
bad = []
for f in sys.stdin.read().split():
    try:
        head = open(f, errors="replace").read(4096)
    except OSError:
        continue
    spdx = re.search(r"SPDX-License-Identifier: ([A-Za-z0-9.+ -]*[A-Za-z0-9.+])", head)
    if not spdx:
        continue
    lic = None
    for pats, l in stanzas:
        if any(fnmatch.fnmatchcase(f, p) for p in pats):
            lic = l
    if spdx.group(1) not in dep5.get(lic, ()):
        bad.append("%s(%s, copyright: %s)" % (f, spdx.group(1), lic))
print(" ".join(bad))
' 2>&1)
n=$(git -C "$TOP" ls-files | xargs grep -l 'SPDX-License-Identifier' 2>/dev/null | wc -l)
[ -z "$bad" ] && [ "$n" -gt 100 ] &&
	t_pass "the SPDX lines of all $n files agree with debian/copyright" ||
	t_fail "the SPDX lines agree with debian/copyright" "$bad"
exit 0
