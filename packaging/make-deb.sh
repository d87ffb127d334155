#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make deb: build the Debian packages (dpkg-buildpackage -us -uc -b) from a
# copy of the tree's files (git's, with this tree's changes) in
# build/deb/elfsig-VERSION, so that the .debs, which dpkg-buildpackage writes into the
# parent directory, land in build/deb/ and the tree stays clean. Then
# lintian, whose errors fail the build. LINTIAN=0 skips it.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP"
OUT=$TOP/build/deb
VERSION=$(cat VERSION)
SRC=$OUT/elfsig-$VERSION

changelog=$(dpkg-parsechangelog -S Version)
if [ "$changelog" != "$VERSION" ]; then
	echo "make deb: debian/changelog is at $changelog, VERSION at $VERSION" >&2
	exit 1
fi
rm -rf "$OUT"
mkdir -p "$SRC"
# (A file deleted in the tree but not in git is left out.)
git ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
	tar --null -T - -cf - | tar -xf - -C "$SRC"
(cd "$SRC" && dpkg-buildpackage -us -uc -b) > "$OUT/build.log" 2>&1 || {
	tail -n 20 "$OUT/build.log" >&2
	echo "make deb: dpkg-buildpackage failed (build/deb/build.log)" >&2
	exit 1
}
rm -rf "$SRC"
ls "$OUT"/*.deb
if [ "${LINTIAN:-1}" != 0 ]; then
	lintian --pedantic --fail-on error "$OUT"/*.changes
fi
