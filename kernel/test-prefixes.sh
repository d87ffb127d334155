#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Each prefix of the 6.12 series builds and boots on its own: for K = 1..N,
# patches 1..K of kernel/patches/ on the pristine source, the tiny config
# (tinyconfig + kernel/config/elfsig.config; the options a prefix does not
# have yet drop out), one boot in QEMU (tests/vm/run) with a smoke script:
# the kernel comes up, the parser's KUnit suite passes and the .elfsig
# keyring is in /proc/keys (once a prefix has them). One PASS/FAIL line per prefix, then the totals (tests/lib.sh).
#
#   kernel/test-prefixes.sh [FIRST [LAST]]   (make kernel-prefix-check)
#
# Slow (a kernel build per patch: ~1-3 min each on two CPUs after the
# first), so not part of make check. The source is a work tree of
# build/kernel/git-6.12's repository (kernel/refresh.sh tree makes it) at
# build/kernel/prefix-src, the objects in build/kernel/obj-prefix; both are
# kept, so that a later run rebuilds only what the patches change. Each
# prefix's kernel and boot log are in build/kernel/prefix/.
set -uo pipefail

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../tests/lib.sh"
# shellcheck source=kernel/series.sh
. "$TOP/kernel/series.sh"
KDIR=$TOP/build/kernel
REPO=$KDIR/git-6.12
SRC=$KDIR/prefix-src
OBJ=$KDIR/obj-prefix
OUT=$KDIR/prefix
JOBS=${JOBS:-2}
FRAG=$TOP/kernel/config/elfsig.config
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_CEILING_DIRECTORIES=$KDIR
unset MAKEFLAGS MFLAGS MAKELEVEL

shopt -s nullglob
mapfile -t PATCHES < <(series_patches "$TOP/kernel/patches")
N=${#PATCHES[@]}
FIRST=${1:-1} LAST=${2:-$N}
[ "$N" -gt 0 ] && [ "$FIRST" -ge 1 ] && [ "$LAST" -le "$N" ] && [ "$FIRST" -le "$LAST" ] ||
	{ echo "usage: kernel/test-prefixes.sh [FIRST [LAST]] (1 <= FIRST <= LAST <= $N)" >&2; exit 2; }

[ -d "$REPO/.git" ] || "$TOP/kernel/refresh.sh" tree >/dev/null || exit 1
mkdir -p "$OUT"
# One run at a time, and never together with a refresh (same repository).
exec 8>"$KDIR/.prefix-lock"
flock 8
if [ "$(git -C "$SRC" rev-parse --path-format=absolute --git-common-dir 2>/dev/null)" != "$REPO/.git" ]; then
	rm -rf "$SRC"
	git -C "$REPO" worktree prune
	git -C "$REPO" worktree add -q --detach "$SRC" refs/elfsig/base || exit 1
fi
"$TOP/kernel/platform-ca.sh" init >/dev/null || exit 1

# reset: the pristine source. Only files a patch changed are rewritten, so
# the others keep their mtime and the build stays incremental.
reset() {
	git -C "$SRC" checkout -q -f --detach refs/elfsig/base &&
		git -C "$SRC" clean -q -fdx
}

# configure: tinyconfig plus the fragment; what this prefix's Kconfig
# does not know is dropped by olddefconfig.
configure() {
	make -s -C "$SRC" O="$OBJ" tinyconfig >/dev/null &&
		"$SRC"/scripts/kconfig/merge_config.sh -m -O "$OBJ" "$OBJ/.config" "$FRAG" >/dev/null &&
		make -s -C "$SRC" O="$OBJ" olddefconfig >/dev/null
}

SMOKE=$(mktemp "${TMPDIR:-/tmp}/elfsig-prefix.XXXXXX")
trap 'rm -f "$SMOKE"' EXIT
cat > "$SMOKE" <<'EOF'
echo "prefix-smoke: up $(uname -r)"
# The parser's KUnit suite ran at boot: its KTAP result line, if any.
dmesg | grep -E '(^|[] ])(not )?ok [0-9]+ elfsig_parse$' | sed 's/^/prefix-smoke: kunit /'
if grep -q ' \.elfsig: ' /proc/keys 2>/dev/null; then
	echo "prefix-smoke: keyring .elfsig"
else
	echo "prefix-smoke: no .elfsig keyring"
fi
EOF

T_PASSED=0
start_all=$(date +%s)
reset || exit 1
# Patches below FIRST, applied without a build.
for ((k = 1; k < FIRST; k++)); do
	git -C "$SRC" apply "${PATCHES[k - 1]}" || { echo "prefix: patch $k does not apply" >&2; exit 1; }
done
for ((k = FIRST; k <= LAST; k++)); do
	p=${PATCHES[k - 1]}
	name="prefix $k ($(basename "$p" .patch | cut -c6-))"
	start=$(date +%s)
	log=$OUT/$(printf '%02d' "$k")
	if ! git -C "$SRC" apply "$p" 2> "$log.apply"; then
		t_fail "$name" "does not apply ($log.apply)"
		break	# every longer prefix has it too
	fi
	if ! configure > "$log.build" 2>&1 ||
		! make -C "$SRC" O="$OBJ" -j"$JOBS" bzImage >> "$log.build" 2>&1; then
		t_fail "$name" "build failed ($(tail -1 "$log.build"); $log.build)"
		continue
	fi
	cp "$OBJ/arch/x86/boot/bzImage" "$log.bzImage"
	built=$(( $(date +%s) - start ))
	"$TOP/tests/vm/run" --kernel "$log.bzImage" --script "$SMOKE" --timeout 180 \
		--log "$log.boot" > /dev/null 2>&1
	rc=$?
	if ! grep -q 'prefix-smoke: up' "$log.boot"; then
		t_fail "$name" "did not come up (run exited $rc; $log.boot)"
	elif [ -e "$SRC/fs/elfsig/parse_kunit.c" ] &&
		{ ! grep -Eq '^prefix-smoke: kunit .*[] ]ok [0-9]+ elfsig_parse' "$log.boot" ||
		  grep -Eq '^prefix-smoke: kunit .*not ok' "$log.boot"; }; then
		t_fail "$name" "the parser's KUnit suite did not pass at boot ($log.boot)"
	elif [ -e "$SRC/fs/elfsig/keyring.c" ] &&
		! grep -q 'prefix-smoke: keyring .elfsig' "$log.boot"; then
		t_fail "$name" "no .elfsig in /proc/keys ($log.boot)"
	else
		T_PASSED=$((T_PASSED + 1))
		t_pass "$name: built in ${built} s, booted in $(( $(date +%s) - start - built )) s"
	fi
done
echo "prefixes $FIRST-$LAST: $(( $(date +%s) - start_all )) s"
echo "$T_PASSED passed, $T_FAILED failed"
[ "$T_FAILED" = 0 ]
