# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# Helpers for the packaging suites that build a fresh bookworm chroot with
# mmdebstrap: the archive probe, mmdebstrap with its failure told apart
# (no archive: SKIP; anything else: FAIL), and commands run inside.
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

# The archive the host's apt uses (mmdebstrap reads the same mirror).
MIRROR=${ELFSIG_TEST_MIRROR:-http://deb.debian.org/debian}

# chroot_need_archive NAME: SKIP the suite NAME (exit 0) when the archive
# cannot be reached.
chroot_need_archive() {
	t_probe debian-archive python3 -c 'import sys, urllib.request
urllib.request.urlopen(sys.argv[1] + "/dists/bookworm/InRelease", timeout=15)' "$MIRROR" && return 0
	t_skip "$1" "the Debian archive ($MIRROR) is not reachable"
	exit 0
}

# chroot_make NAME WHAT DIR MMDEBSTRAP-OPTION...: a bookworm chroot in
# DIR (removed when the suite exits), mmdebstrap's log in DIR.log; on
# failure the suite ends: SKIP when the archive went away, else a FAIL of
# WHAT.
chroot_make() {
	local name=$1 what=$2 dir=$3 rc start
	shift 3
	start=$(date +%s)
	mmdebstrap --variant=apt "$@" bookworm "$dir" "$MIRROR" > "$dir.log" 2>&1
	rc=$?
	echo "# mmdebstrap: $(( $(date +%s) - start )) s"
	if [ "$rc" != 0 ]; then
		if grep -qE 'Temporary failure resolving|Could not resolve|Failed to fetch|Connection (timed out|refused)' "$dir.log"; then
			t_skip "$name" "mmdebstrap cannot reach the archive: $(grep -m1 -E 'resolv|fetch|Connection' "$dir.log")"
		else
			t_fail "$what" "$(grep -E '^(E|W):' "$dir.log" | head -n 5 | tr '\n' '|')"
		fi
		exit 0
	fi
	t_on_exit "rm -rf '$dir'"
	CH=$dir
}

# inch CMD...: run CMD in the chroot $CH, with /dev and /proc (a private
# mount namespace, so nothing stays mounted).
inch() {
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare -m sh -c 'mount --rbind /dev "$0/dev" && mount -t proc proc "$0/proc" &&
		exec chroot "$0" "$@"' "$CH" "$@"
}
