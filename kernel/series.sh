# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# Which patches make elfsig's kernel trees, in which order, applied how:
# sourced by kernel/build-kernel.sh and kernel/refresh.sh.
#
# 6.12: linux-source-6.12, then kernel/patches/*.patch.
# 6.1:  linux-source-6.1, then kernel/delta-6.1/pre/*.patch, then the 6.12
#       series (with the git am options kernel/delta-6.1/apply gives for
#       some of its patches), then kernel/delta-6.1/post/*.patch.

SERIES_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SERIES_6_12=$SERIES_TOP/kernel/patches
SERIES_DELTA=$SERIES_TOP/kernel/delta-6.1

series_err() { echo "${0##*/}: $*" >&2; }

# series_tarball VERSION: the pristine Debian source.
series_tarball() { echo "/usr/src/linux-source-$1.tar.xz"; }

# series_check_version VERSION
series_check_version() {
	case $1 in
	6.12|6.1) ;;
	*) series_err "unknown kernel version '$1' (6.12 or 6.1)"; return 1 ;;
	esac
}

# series_apply: the "NNNN OPTION..." lines of kernel/delta-6.1/apply.
series_apply() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$SERIES_DELTA/apply"; }

# series_options PATCH: the git am options kernel/delta-6.1/apply gives a
# 6.12 patch on 6.1 ("NNNN OPTION..." lines, NNNN its number), checked:
# only --exclude=FILE (a file the patch touches) and -C<n>.
series_options() {
	local p=$1 num opt opts=()
	num=$(basename "$p" | cut -c1-4)
	# One option a word: the file's words are the parser.
	# shellcheck disable=SC2046
	set -- $(series_apply | awk -v n="$num" '$1 == n { $1 = ""; print }')
	for opt; do
		case $opt in
		--exclude=*)
			grep -qxF "diff --git a/${opt#--exclude=} b/${opt#--exclude=}" "$p" || {
				series_err "$SERIES_DELTA/apply: $num does not touch ${opt#--exclude=}"
				return 1
			} ;;
		-C[0-9]) ;;
		*) series_err "$SERIES_DELTA/apply: $num: option '$opt' not allowed (--exclude=FILE, -C<n>)"; return 1 ;;
		esac
		opts+=("$opt")
	done
	echo "${opts[*]}"
}

# series_patches DIR: the patch files of DIR in order, one a line; a
# 0000 file is the series' cover letter, which applies nothing.
series_patches() {
	local p
	for p in "$1"/*.patch; do
		case ${p##*/} in 0000-*) continue ;; esac
		[ -e "$p" ] && echo "$p"
	done
	return 0
}

# series_list DIR PHASE: a "PHASE<TAB>PATCH<TAB>" line per patch of DIR.
series_list() {
	local p
	while read -r p; do
		[ -n "$p" ] && printf '%s\t%s\t\n' "$2" "$p"
	done < <(series_patches "$1")
	return 0
}

# series_steps VERSION: one "PHASE<TAB>PATCH<TAB>OPTIONS" line per patch,
# in the order they apply. PHASE is pre, upstream (a patch of the 6.12
# series) or post; OPTIONS are git am (and git apply) options.
series_steps() {
	local v=$1 p n opts
	series_check_version "$v" || return 1
	if [ "$v" = 6.12 ]; then
		series_list "$SERIES_6_12" upstream
		return 0
	fi
	series_list "$SERIES_DELTA/pre" pre
	while read -r p; do
		[ -n "$p" ] || continue
		opts=$(series_options "$p") || return 1
		printf 'upstream\t%s\t%s\n' "$p" "$opts"
	done < <(series_patches "$SERIES_6_12")
	series_list "$SERIES_DELTA/post" post
	# Every numbered line of apply must name a patch of the series.
	series_apply | while read -r n _; do
		compgen -G "$SERIES_6_12/$n-*.patch" >/dev/null ||
			{ series_err "$SERIES_DELTA/apply: no 6.12 patch $n"; return 1; }
	done
}

# series_sum VERSION: a digest of everything series_steps applies, how.
series_sum() {
	local steps phase p opts
	steps=$(series_steps "$1") || return 1
	while IFS=$'\t' read -r phase p opts; do
		[ -n "$p" ] || continue
		printf '%s %s %s\n' "$phase" "$(basename "$p")" "$opts"
		cat "$p"
	done <<< "$steps" | sha256sum | cut -c1-64
}
