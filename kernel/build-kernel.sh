#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Build elfsig's test kernel: extract Debian's linux-source, apply the
# series, merge the config fragments, build bzImage.
#
#   kernel/build-kernel.sh [tiny|kasan|tiny-6.1|system|deb] [--source]
#
# system: the real-system test kernel (tinyconfig + elfsig.config +
# system.config) as Debian packages (make bindeb-pkg) in
# build/kernel/system/. deb: the same from a platform's own full config,
# KCONFIG=FILE (e.g. Debian's /boot/config-*) with the elfsig options of
# platform.config merged, packages in build/kernel/deb/. For both,
# PLATFORM_CA=FILE (a PEM certificate) is the builtin trusted key; without
# it, the test platform CA (kernel/platform-ca.sh).
#
# --source: only extract the source and apply the series (what the host
# suites that compile fs/elfsig/ in userspace need), no configure or build.
#
# tiny and kasan: linux-source-6.12 with kernel/patches/; tiny-6.1:
# linux-source-6.1 with the 6.12 series and the 6.1 delta of
# kernel/delta-6.1/ (the second target). kernel/series.sh says which
# patches, in which order, applied how.
#
# Incremental: the source is extracted once; when the series changes, the
# previously applied series is reversed and the new one applied, so only
# the touched files rebuild. Each variant builds into its own object
# directory (O=) next to the shared source tree.
set -euo pipefail

# shellcheck source=kernel/series.sh
. "$(dirname "$0")/series.sh"
VARIANT=${1:-tiny}
SOURCE_ONLY=0
case ${2:-} in
"") ;;
--source) SOURCE_ONLY=1 ;;
*) echo "build-kernel: unknown option '$2'" >&2; exit 2 ;;
esac
TOP=$SERIES_TOP
KDIR=$TOP/build/kernel
OBJ=$KDIR/obj-$VARIANT
JOBS=${JOBS:-2}
case $VARIANT in
*-6.1)
	VERSION=6.1
	SRC=$KDIR/src-6.1
	APPLIED=$KDIR/applied-series-6.1 ;;
*)
	VERSION=6.12
	SRC=$KDIR/src
	APPLIED=$KDIR/applied-series ;;
esac
TARBALL=$(series_tarball "$VERSION")

case $VARIANT in
tiny)  FRAGS=("$TOP/kernel/config/elfsig.config") ;;
tiny-6.1) FRAGS=("$TOP/kernel/config/elfsig.config" "$TOP/kernel/config/6.1.config") ;;
kasan) FRAGS=("$TOP/kernel/config/elfsig.config" "$TOP/kernel/config/kasan.config") ;;
system) FRAGS=("$TOP/kernel/config/elfsig.config" "$TOP/kernel/config/system.config") ;;
deb)
	[ -n "${KCONFIG:-}" ] || { echo "build-kernel: deb needs KCONFIG=FILE (a full kernel config)" >&2; exit 2; }
	[ -r "$KCONFIG" ] || { echo "build-kernel: KCONFIG: cannot read '$KCONFIG'" >&2; exit 2; }
	FRAGS=("$TOP/kernel/config/platform.config") ;;
*)     echo "build-kernel: unknown variant '$VARIANT'" >&2; exit 2 ;;
esac

say() { echo "kernel[$VARIANT]: $*"; }

# The packaged variants: make bindeb-pkg, the packages moved to $DEBDIR.
TARGET=bzImage
case $VARIANT in
system|deb)
	TARGET=bindeb-pkg
	DEBDIR=$KDIR/$VARIANT
	if [ -n "${PLATFORM_CA:-}" ]; then
		openssl x509 -in "$PLATFORM_CA" -noout 2>/dev/null ||
			{ echo "build-kernel: PLATFORM_CA: '$PLATFORM_CA' is not a PEM certificate" >&2; exit 2; }
		PLATFORM_CA=$(realpath "$PLATFORM_CA")
	fi ;;
esac

# Not the caller's make flags (-s would hide the progress, -j/jobserver
# would fight -j$JOBS): this script drives the kernel build on its own.
unset MAKEFLAGS MFLAGS MAKELEVEL

[ -r "$TARBALL" ] || { echo "build-kernel: $TARBALL missing (apt-get install $(basename "$TARBALL" .tar.xz))" >&2; exit 1; }
mkdir -p "$KDIR"
# Serialise concurrent invocations (tiny and kasan share the source tree).
exec 9>"$KDIR/.lock"
flock 9

extract() {
	say "extracting $(basename "$TARBALL")"
	rm -rf "$SRC" "$APPLIED" "$SRC.tmp"
	mkdir -p "$SRC.tmp"
	tar -xf "$TARBALL" -C "$SRC.tmp" --strip-components=1
	mv "$SRC.tmp" "$SRC"
	mkdir -p "$APPLIED"
}

shopt -s nullglob
# The series applied in $SRC: copies of its patches, NN-NAME.patch in the
# order they were applied, their options in $APPLIED/options ("NN-NAME.patch
# OPTIONS" lines; a series applied before there were options has none)
# and what series_sum said in $APPLIED/sum.
STEPS=$(series_steps "$VERSION")
mapfile -t NEW < <(cut -f2 <<< "$STEPS")
same_series() { [ "$(series_sum "$VERSION")" = "$(cat "$APPLIED/sum" 2>/dev/null)" ]; }

# patch_src PATCH [GIT-APPLY-OPTIONS...]: git apply, as patch(1) would,
# outside any repository (not this one, which holds build/).
patch_src() {
	local p=$1 out; shift
	# It says where -C put a hunk: only a failure is news.
	out=$(GIT_CEILING_DIRECTORIES=$KDIR git -C "$SRC" apply --whitespace=nowarn "$@" "$p" 2>&1) ||
		{ echo "$out" >&2; return 1; }
}

unapply() {
	local i opts
	local -a old=("$APPLIED"/*.patch)
	for ((i = ${#old[@]} - 1; i >= 0; i--)); do
		opts=$(awk -v f="$(basename "${old[i]}")" '$1 == f { $1 = ""; print }' "$APPLIED/options" 2>/dev/null)
		# shellcheck disable=SC2086 # options are single words
		patch_src "${old[i]}" -R $opts || return 1
		rm -f "${old[i]}"
	done
	rm -f "$APPLIED/sum" "$APPLIED/options"
}

apply_series() {
	local phase p opts n=0 copy
	: > "$APPLIED/options"
	while IFS=$'\t' read -r phase p opts; do
		[ -n "$p" ] || continue
		n=$((n + 1))
		say "applying $phase $(basename "$p")${opts:+ ($opts)}"
		# shellcheck disable=SC2086 # options are single words
		patch_src "$p" $opts || {
			echo "build-kernel: $(basename "$p") does not apply" >&2
			return 1
		}
		copy=$(printf '%02d-%s' "$n" "$(basename "$p")")
		cp "$p" "$APPLIED/$copy"
		echo "$copy $opts" >> "$APPLIED/options"
	done <<< "$STEPS"
	series_sum "$VERSION" > "$APPLIED/sum"
}

# Files a series touches, relative to $SRC.
touched() { sed -n 's@^+++ b/@@p; s@^--- a/@@p' "$@" /dev/null | sort -u; }

# Reversing and re-applying rewrites every touched file; give the files
# whose content ends up unchanged their old mtime back, so that make only
# rebuilds what really changed.
save_stamps() {
	local f
	touched "$APPLIED"/*.patch "${NEW[@]}" | while read -r f; do
		[ -f "$SRC/$f" ] && echo "$(stat -c %Y "$SRC/$f") $(sha256sum < "$SRC/$f" | cut -c1-64) $f"
	done > "$KDIR/stamps" || true
}
restore_stamps() {
	local t sum f
	while read -r t sum f; do
		[ -f "$SRC/$f" ] && [ "$(sha256sum < "$SRC/$f" | cut -c1-64)" = "$sum" ] &&
			touch -d "@$t" "$SRC/$f"
	done < "$KDIR/stamps"
	return 0
}

[ -f "$SRC/Makefile" ] && [ -d "$APPLIED" ] || extract
# A fresh source (nothing applied yet): the series goes on, nothing to
# reverse or to say about it.
applied=("$APPLIED"/*.patch)
if [ ${#applied[@]} = 0 ] && [ ! -e "$APPLIED/sum" ]; then
	apply_series || { rm -rf "$APPLIED"; exit 1; }
elif ! same_series; then
	say "patch series changed: reversing the old one"
	save_stamps
	if ! unapply; then
		say "old series does not reverse cleanly: re-extracting"
		extract
	fi
	apply_series || { rm -rf "$APPLIED"; exit 1; }
	restore_stamps
fi
if [ "$SOURCE_ONLY" = 1 ]; then
	say "source ready: ${SRC#"$TOP"/}"
	exit 0
fi

# The test platform CA the config builds in (CONFIG_SYSTEM_TRUSTED_KEYS).
"$TOP/kernel/platform-ca.sh" init

# Regenerate .config when a fragment or the series changed.
mkdir -p "$OBJ"
# The packaged variants name their CA in one more fragment, by absolute
# path (the platform's, or the test CA); its PEM file is read at every
# build (the kernel's certs/ rule has FORCE).
if [ "$TARGET" = bindeb-pkg ]; then
	cafrag=$OBJ/platform-ca.config
	printf 'CONFIG_SYSTEM_TRUSTED_KEYS="%s"\n' "${PLATFORM_CA:-$KDIR/platform-ca.pem}" > "$cafrag.tmp"
	mv "$cafrag.tmp" "$cafrag"
	FRAGS+=("$cafrag")
fi
cfgsum=$(cat "${FRAGS[@]}" ${KCONFIG:+"$KCONFIG"} "$APPLIED"/*.patch | sha256sum)
if [ ! -f "$OBJ/.config" ] || [ "$(cat "$OBJ/.elfsig-config-sum" 2>/dev/null)" != "$cfgsum" ]; then
	say "configuring (tinyconfig + $(basename -a "${FRAGS[@]}" | tr '\n' ' '))"
	if [ "$VARIANT" = deb ]; then
		cp "$KCONFIG" "$OBJ/.config"
	else
		make -s -C "$SRC" O="$OBJ" tinyconfig >/dev/null
	fi
	"$SRC"/scripts/kconfig/merge_config.sh -m -O "$OBJ" "$OBJ/.config" "${FRAGS[@]}" >/dev/null
	make -s -C "$SRC" O="$OBJ" olddefconfig >/dev/null
	# Every option a fragment asks for must have survived olddefconfig.
	missing=$(grep -hE '^CONFIG_[A-Z0-9_]+=' "${FRAGS[@]}" |
		grep -v '^CONFIG_SYSTEM_TRUSTED_KEYS=' | while read -r l; do
		grep -qxF "$l" "$OBJ/.config" || echo "$l"; done)
	if [ -n "$missing" ]; then
		echo "build-kernel: options not satisfied by Kconfig: ${missing//$'\n'/ }" >&2
		exit 1
	fi
	echo "$cfgsum" > "$OBJ/.elfsig-config-sum"
fi

# A packaged build takes a quarter of an hour; with the source and its
# own object directory ready it holds the lock no longer, so that the
# other variants' incremental builds are not kept waiting behind it.
[ "$TARGET" = bindeb-pkg ] && flock -u 9
say "building $TARGET (make -j$JOBS, log: ${OBJ#"$TOP"/}/build.log)"
start=$(date +%s)
set +e
if [ "$TARGET" = bindeb-pkg ]; then
	# The packages land in $OBJ/.. (build/kernel/): none of an earlier run.
	rm -f "$KDIR"/linux-*.deb "$KDIR"/linux-*_*.buildinfo "$KDIR"/linux-*_*.changes
fi
make -C "$SRC" O="$OBJ" -j"$JOBS" "$TARGET" > "$OBJ/build.log" 2>&1 &
mpid=$!
n=0
while kill -0 "$mpid" 2>/dev/null; do
	sleep 1
	n=$((n + 1))
	[ $((n % 30)) = 0 ] && kill -0 "$mpid" 2>/dev/null &&
		say "... $(grep -c '^  [A-Z]' "$OBJ/build.log") steps, $(( $(date +%s) - start )) s"
done
wait "$mpid"; rc=$?
set -e
if [ "$rc" != 0 ]; then
	grep -E 'error|Error' "$OBJ/build.log" | head -40 >&2
	echo "build-kernel: build failed (see $OBJ/build.log)" >&2
	exit 1
fi
if grep -E '^[^ ].*warning:' "$OBJ/build.log" | grep -q 'binfmt_elf_sig\|elfsig'; then
	grep -E 'warning:' "$OBJ/build.log" | grep 'elfsig' >&2
fi
cp "$OBJ/arch/x86/boot/bzImage" "$KDIR/bzImage-$VARIANT"
if [ "$TARGET" = bindeb-pkg ]; then
	rm -rf "$DEBDIR.tmp"
	mkdir -p "$DEBDIR.tmp"
	mv "$KDIR"/linux-*.deb "$DEBDIR.tmp/"
	rm -f "$KDIR"/linux-*_*.buildinfo "$KDIR"/linux-*_*.changes
	cp "$OBJ/include/config/kernel.release" "$DEBDIR.tmp/kernel.release"
	rm -rf "$DEBDIR"
	mv "$DEBDIR.tmp" "$DEBDIR"
	say "packages: $(cd "$DEBDIR" && echo *.deb)"
fi
say "done in $(( $(date +%s) - start )) s: ${KDIR#"$TOP"/}/bzImage-$VARIANT"
