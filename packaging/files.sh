#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Act on packaging/files, the table of what elfsig installs:
#   files.sh install            install every file under $DESTDIR
#   files.sh uninstall          remove them (and the directories of our own)
#   files.sh list PACKAGE       the package's paths, as debian/PACKAGE.install
#   files.sh packages           the packages the table names
# The directories come from the environment (packaging/packaging.mk sets
# them): O PREFIX BINDIR SBINDIR LIBDIR INCLUDEDIR MANDIR BASHCOMPDIR
# PKGCONFIGDIR VERSION, and DESTDIR.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
TABLE=$TOP/packaging/files
PROG=${0##*/}

die() { echo "$PROG: $*" >&2; exit 1; }

: "${PREFIX:=/usr}" "${O:=build}" "${DESTDIR:=}"
: "${BINDIR:=$PREFIX/bin}" "${SBINDIR:=$PREFIX/sbin}" "${LIBDIR:=$PREFIX/lib}"
: "${INCLUDEDIR:=$PREFIX/include}" "${MANDIR:=$PREFIX/share/man}"
: "${BASHCOMPDIR:=$PREFIX/share/bash-completion/completions}"
: "${PKGCONFIGDIR:=$LIBDIR/pkgconfig}"
: "${VERSION:=$(cat "$TOP/VERSION")}"

# expand PATH: the table's {dir} names.
expand() {
	local p=$1
	p=${p//\{O\}/$O}
	p=${p//\{bindir\}/$BINDIR}
	p=${p//\{sbindir\}/$SBINDIR}
	p=${p//\{libdir\}/$LIBDIR}
	p=${p//\{includedir\}/$INCLUDEDIR}
	p=${p//\{mandir\}/$MANDIR}
	p=${p//\{bashcompdir\}/$BASHCOMPDIR}
	p=${p//\{pkgconfigdir\}/$PKGCONFIGDIR}
	case $p in *\{*) die "packaging/files: unknown directory in '$1'" ;; esac
	printf '%s\n' "$p"
}

# rows: the table's rows, "package kind mode source destination",
# expanded; a malformed row stops everything.
rows() {
	local pkg kind mode src dst extra n=0
	while read -r pkg kind mode src dst extra; do
		n=$((n + 1))
		case $pkg in ''|'#'*) continue ;; esac
		[ -n "$dst" ] && [ -z "$extra" ] ||
			die "packaging/files:$n: expected 5 columns"
		case $kind in file|subst|link) ;; *) die "packaging/files:$n: unknown kind '$kind'" ;; esac
		src=$(expand "$src") && dst=$(expand "$dst") || exit 1
		case $dst in /*) ;; *) die "packaging/files:$n: '$dst' is not absolute" ;; esac
		printf '%s %s %s %s %s\n' "$pkg" "$kind" "$mode" "$src" "$dst"
	done < "$TABLE"
}

# The hooks' default loader path and the .pc file's directories.
subst() {
	sed -e "s|@PREFIX@|$PREFIX|g" -e "s|@LIBDIR@|$LIBDIR|g" \
	    -e "s|@INCLUDEDIR@|$INCLUDEDIR|g" -e "s|@VERSION@|$VERSION|g" \
	    -e "s|:-/usr/sbin/elfsig-keyloader}|:-$SBINDIR/elfsig-keyloader}|g" "$1"
}

do_install() {
	local pkg kind mode src dst tmp all
	all=$(rows) || exit 1
	while read -r pkg kind mode src dst; do
		case $kind in
		file)
			install -D -m "$mode" "$TOP/$src" "$DESTDIR$dst" ;;
		subst)
			tmp=$(mktemp)
			subst "$TOP/$src" > "$tmp"
			install -D -m "$mode" "$tmp" "$DESTDIR$dst"
			rm -f "$tmp" ;;
		link)
			install -d "$DESTDIR${dst%/*}"
			ln -sfn "$src" "$DESTDIR$dst" ;;
		esac
	done <<< "$all"
}

do_uninstall() {
	local pkg kind mode src dst d all
	all=$(rows) || exit 1
	while read -r pkg kind mode src dst; do
		rm -f "$DESTDIR$dst"
		# Directories of our own (include/elfsig/..., 91elfsig/) go
		# when empty; the system's (bin/, man1/, ...) stay.
		d=${dst%/*}
		case "$d/" in */elfsig/*|*/91elfsig/*) ;; *) continue ;; esac
		while rmdir "$DESTDIR$d" 2>/dev/null; do
			case ${d##*/} in elfsig|91elfsig) break ;; esac
			d=${d%/*}
		done
	done <<< "$all"
}

case ${1:-} in
install) do_install ;;
uninstall) do_uninstall ;;
list)
	[ $# = 2 ] || die "usage: $PROG list PACKAGE"
	out=$(rows) || exit 1
	out=$(printf '%s\n' "$out" | awk -v p="$2" '$1 == p { print substr($5, 2) }')
	[ -n "$out" ] || die "no package '$2' in packaging/files"
	printf '%s\n' "$out" ;;
packages)
	out=$(rows) || exit 1
	printf '%s\n' "$out" | awk '!seen[$1]++ { print $1 }' ;;
*) die "usage: $PROG install|uninstall|list PACKAGE|packages" ;;
esac
