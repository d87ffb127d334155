#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The kernel series as code: git trees of Debian's kernel sources with one
# commit per patch, and the committed patch files regenerated from them.
#
#   kernel/refresh.sh tree [--force]   build/kernel/git-6.12 and git-6.1:
#                                      the pristine source, then one
#                                      commit per patch (kernel/series.sh)
#   kernel/refresh.sh export [--force] write kernel/patches/ and
#                                      kernel/delta-6.1/{pre,post}/ from
#                                      the trees, 6.1 rebuilt on the new
#                                      6.12 series
#   kernel/refresh.sh regen OUT        apply the committed patches in
#                                      scratch trees, write them back
#                                      under OUT/kernel/
#   kernel/refresh.sh check            regen, and fail on any difference
#                                      with the committed patches
#
# A tree that has commits or changes of its own (not exported yet) is never
# rebuilt without --force; export refuses a tree built from other patch
# files than the committed ones. docs/kernel.md, "Changing the kernel
# series", has the workflow.
set -euo pipefail

# shellcheck source=kernel/series.sh
. "$(dirname "$0")/series.sh"
TOP=$SERIES_TOP
KDIR=$TOP/build/kernel

# Only the options written here shape the output, never a user's or the
# system's git configuration; the committer (not exported) is fixed too,
# so a tree built twice has the same commits.
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_COMMITTER_NAME="elfsig refresh" GIT_COMMITTER_EMAIL="refresh@elfsig.invalid"
# The trees live inside this repository's build/: never fall back to it.
export GIT_CEILING_DIRECTORIES=$KDIR

die() { echo "refresh: $*" >&2; exit 1; }
say() { echo "refresh: $*"; }
rel() { echo "${1#"$TOP"/}"; }

FORCE=0
tree_dir() { echo "$KDIR/git-$1"; }
scratch_dir() { echo "$KDIR/scratch-$1"; }
g() { local d=$1; shift; git -C "$d" "$@"; }
state_file() { echo "$(g "$1" rev-parse --absolute-git-dir)/elfsig-state"; }

# import VERSION: the repository with the pristine source as its root
# commit, refs/elfsig/base, checked out on branch elfsig. Debian's
# top-level .gitignore ignores every file: add -f, take them all.
import() {
	local v=$1 d tarball sum
	d=$(tree_dir "$v")
	tarball=$(series_tarball "$v")
	[ -r "$tarball" ] || die "$tarball missing (apt-get install linux-source-$v)"
	say "$v: importing $(basename "$tarball") into $(rel "$d")"
	rm -rf "$d" "$d.tmp"
	mkdir -p "$d.tmp"
	tar -xf "$tarball" -C "$d.tmp" --strip-components=1
	sum=$(sha256sum < "$tarball" | cut -c1-64)
	g "$d.tmp" init -q -b elfsig
	g "$d.tmp" config gc.auto 0
	g "$d.tmp" config core.looseCompression 1
	g "$d.tmp" add -A -f
	GIT_AUTHOR_NAME=Debian GIT_AUTHOR_EMAIL=debian-kernel@lists.debian.org \
	GIT_AUTHOR_DATE="@$(stat -c %Y "$tarball") +0000" \
	GIT_COMMITTER_DATE="@$(stat -c %Y "$tarball") +0000" \
		g "$d.tmp" commit -q -m "linux-source-$v as Debian ships it" \
			-m "$(basename "$tarball") sha256 $sum"
	g "$d.tmp" update-ref refs/elfsig/base HEAD
	mv "$d.tmp" "$d"
}

# repo VERSION: make sure the repository exists and its base is the
# installed tarball.
repo() {
	local v=$1 d want
	d=$(tree_dir "$v")
	if [ -d "$d/.git" ]; then
		want=$(sha256sum < "$(series_tarball "$v")" | cut -c1-64)
		g "$d" log -1 --format=%b refs/elfsig/base | grep -q "sha256 $want" && return 0
		[ "$FORCE" = 1 ] || [ "$(has_work "$d")" = no ] ||
			die "$v: $(series_tarball "$v") changed and $(rel "$d") has work of its own: export it, or --force"
		say "$v: $(series_tarball "$v") changed"
	fi
	import "$v"
}

# busy DIR: a git am or rebase stopped in DIR.
busy() {
	local gd
	gd=$(g "$1" rev-parse --absolute-git-dir)
	[ -d "$gd/rebase-apply" ] || [ -d "$gd/rebase-merge" ]
}

# has_work DIR: "yes" when the tree has commits or changes that were
# neither built from nor exported to the committed patch files.
has_work() {
	local d=$1 head rec_head
	head=$(g "$d" rev-parse HEAD)
	if busy "$d" || [ -n "$(g "$d" status --porcelain --untracked-files=no)" ]; then
		echo yes; return
	fi
	if [ -f "$(state_file "$d")" ]; then
		read -r _ rec_head < "$(state_file "$d")"
	else
		rec_head=$(g "$d" rev-parse refs/elfsig/base)
	fi
	[ "$head" = "$rec_head" ] && echo no || echo yes
}

# record VERSION DIR: the tree is what the committed patch files make.
record() { echo "$(series_sum "$1") $(g "$2" rev-parse HEAD)" > "$(state_file "$2")"; }

# mark DIR PHASE...: where each phase ends (refs/worktree/ is per tree).
mark() {
	local d=$1 p; shift
	for p; do g "$d" update-ref "refs/worktree/elfsig/$p" HEAD; done
}

# unstop DIR: end a git am or rebase that stopped in DIR.
unstop() {
	local gd
	gd=$(g "$1" rev-parse --absolute-git-dir)
	if [ -e "$gd/rebase-apply/applying" ]; then
		g "$1" am --abort
	elif busy "$1"; then
		g "$1" rebase --abort
	fi
}

# apply VERSION DIR: reset DIR's HEAD to the pristine source and apply every
# patch with git am, one commit each (kernel/series.sh). A pre or 6.12
# patch that does not apply is an error; the post patches (the 6.1 delta)
# go in one git am -3, left stopped for the developer when not in scratch.
apply() {
	local v=$1 d=$2 steps phase p opts out post=()
	steps=$(series_steps "$v") || exit 1
	g "$d" reset -q --hard refs/elfsig/base
	g "$d" clean -q -fdx
	mark "$d" pre upstream
	while IFS=$'\t' read -r phase p opts; do
		[ -n "$p" ] || continue
		if [ "$phase" = post ]; then post+=("$p"); continue; fi
		# git apply says where fuzz (-C) placed a hunk: only a failure
		# is news. Options are single words.
		# shellcheck disable=SC2086
		if ! out=$(g "$d" am -q --committer-date-is-author-date $opts "$p" 2>&1); then
			echo "$out" >&2
			g "$d" am --abort
			die "$v: $(rel "$p") does not apply${opts:+ with git am $opts}"
		fi
		case $phase in
		pre) mark "$d" pre upstream ;;
		upstream) mark "$d" upstream ;;
		esac
	done <<< "$steps"
	if [ "${#post[@]}" != 0 ] &&
		! g "$d" am -q -3 --committer-date-is-author-date "${post[@]}" >/dev/null; then
		case $d in
		"$(scratch_dir "$v")") g "$d" am --abort ;;
		*) echo "refresh: $v: resolve in $(rel "$d") ('git am --continue'), then run kernel/refresh.sh export" >&2 ;;
		esac
		die "$v: a patch of $(rel "$SERIES_DELTA")/post does not apply"
	fi
	# Nothing left over: no rejects, no stray or modified file.
	[ -z "$(g "$d" status --porcelain --ignored --untracked-files=all)" ] ||
		die "$v: $(rel "$d") is not clean after the series"
}

# build VERSION: the developer's tree from the committed patch files.
build() {
	local v=$1 d
	d=$(tree_dir "$v")
	repo "$v"
	if [ -f "$(state_file "$d")" ] && [ "$(has_work "$d")" = no ] &&
		[ "$(cut -d' ' -f1 "$(state_file "$d")")" = "$(series_sum "$v")" ]; then
		say "$v: $(rel "$d") is up to date"
		return 0
	fi
	[ "$FORCE" = 1 ] || [ "$(has_work "$d")" = no ] ||
		die "$v: $(rel "$d") has commits or changes not exported: run kernel/refresh.sh export, or tree --force to drop them"
	say "$v: applying the series in $(rel "$d")"
	unstop "$d"
	g "$d" checkout -q -f -B elfsig refs/elfsig/base
	# The state names the inputs even while a post patch waits for the
	# developer: what they resolve is work on top of these inputs.
	echo "$(series_sum "$v") $(g "$d" rev-parse HEAD)" > "$(state_file "$d")"
	apply "$v" "$d"
	record "$v" "$d"
}

# format DIR RANGE OUT: the patches of RANGE as files in OUT, replacing
# OUT/*.patch. The options fix everything that could vary between runs,
# machines or git configurations (no version signature, no commit ids,
# 9-digit blob abbreviations as the series always had).
format() {
	local d=$1 range=$2 out=$3
	mkdir -p "$out"
	rm -f "$out"/*.patch
	[ -z "$(g "$d" rev-list "$range")" ] && return 0
	g "$d" format-patch -q --zero-commit --no-signature --abbrev=9 \
		--no-renames --stat=72 --summary --no-cover-letter -o "$out" "$range"
}

# write VERSION DIR ROOT: DIR's series as patch files under ROOT/kernel/.
write() {
	local v=$1 d=$2 root=$3 r
	if [ "$v" = 6.12 ]; then
		format "$d" refs/elfsig/base..HEAD "$root/kernel/patches"
		return 0
	fi
	# The 6.12 commits in a 6.1 tree come from kernel/patches/, never from
	# an edit there: pre, then the 6.12 series, then post, in that order.
	for r in refs/elfsig/base refs/worktree/elfsig/pre refs/worktree/elfsig/upstream; do
		g "$d" merge-base --is-ancestor "$r" HEAD ||
			die "6.1: $(rel "$d"): the 6.12 commits were rewritten: change them in git-6.12"
	done
	[ "$(g "$d" rev-list --count refs/worktree/elfsig/pre..refs/worktree/elfsig/upstream)" = \
	  "$(find "$SERIES_6_12" -maxdepth 1 -name '*.patch' | wc -l)" ] ||
		die "6.1: $(rel "$d") does not hold the 6.12 series: kernel/refresh.sh tree"
	format "$d" refs/elfsig/base..refs/worktree/elfsig/pre "$root/kernel/delta-6.1/pre"
	format "$d" refs/worktree/elfsig/upstream..HEAD "$root/kernel/delta-6.1/post"
}

# export_tree VERSION: write the committed patch files from the tree.
export_tree() {
	local v=$1 d untracked
	d=$(tree_dir "$v")
	[ -f "$(state_file "$d")" ] || die "$v: no tree: kernel/refresh.sh tree"
	[ "$FORCE" = 1 ] || [ "$(cut -d' ' -f1 "$(state_file "$d")")" = "$(series_sum "$v")" ] ||
		die "$v: $(rel "$d") was built from other patch files than the committed ones: kernel/refresh.sh tree (or export --force)"
	! busy "$d" || die "$v: a git am or rebase is stopped in $(rel "$d"): finish it first"
	[ -z "$(g "$d" status --porcelain --untracked-files=no)" ] ||
		die "$v: $(rel "$d") has uncommitted changes: commit them first"
	# Debian's .gitignore hides every untracked file from git status.
	untracked=$(g "$d" ls-files --others | head -5)
	[ -z "$untracked" ] ||
		echo "refresh: $v: warning: untracked files in $(rel "$d") (git add -f what belongs to a patch): ${untracked//$'\n'/ }" >&2
	write "$v" "$d" "$TOP"
	record "$v" "$d"
	say "$v: exported $(rel "$d")"
}

# The 6.1 delta first (it was made on the 6.1 tree's 6.12 series), then
# 6.12; then the 6.1 tree is rebuilt on the new 6.12 series and its delta
# written again, so that its context follows.
cmd_export() {
	local before
	if [ -f "$(tree_dir 6.1)/.git/elfsig-state" ] && [ "$(has_work "$(tree_dir 6.1)")" = yes ]; then
		export_tree 6.1
	fi
	before=$(series_sum 6.1)
	export_tree 6.12
	if [ "$(series_sum 6.1)" != "$before" ] || [ ! -f "$(tree_dir 6.1)/.git/elfsig-state" ]; then
		build 6.1
		export_tree 6.1
	fi
}

# regen OUT: both series, from the committed files, in scratch trees
# (build/kernel/scratch-*, work trees of the developer's repositories).
cmd_regen() {
	local out=$1 v d
	for v in 6.12 6.1; do
		d=$(scratch_dir "$v")
		repo "$v"
		if [ "$(g "$d" rev-parse --path-format=absolute --git-common-dir 2>/dev/null)" != "$(tree_dir "$v")/.git" ]; then
			rm -rf "$d"
			g "$(tree_dir "$v")" worktree prune
			g "$(tree_dir "$v")" worktree add -q --detach "$d" refs/elfsig/base
		fi
		unstop "$d"
		g "$d" checkout -q -f --detach refs/elfsig/base
		apply "$v" "$d"
		write "$v" "$d" "$out"
	done
}

cmd_check() {
	local tmp rc=0 dir
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/elfsig-refresh.XXXXXX")
	# shellcheck disable=SC2064 # the name is fixed now
	trap "rm -rf '$tmp'" EXIT
	cmd_regen "$tmp"
	for dir in kernel/patches kernel/delta-6.1/pre kernel/delta-6.1/post; do
		mkdir -p "$TOP/$dir" "$tmp/$dir"
		diff -ru "$TOP/$dir" "$tmp/$dir" >&2 || rc=1
	done
	[ "$rc" = 0 ] || die "the committed patches differ from what the trees make (diff above: - committed, + regenerated)"
	say "both series regenerate to the committed patches"
}

usage() { echo "usage: kernel/refresh.sh tree|export [--force] | regen OUT | check" >&2; exit 2; }

[ $# -ge 1 ] || usage
cmd=$1; shift
case $cmd in
tree|export)
	case ${1:-} in --force) FORCE=1; shift ;; esac
	[ $# = 0 ] || usage ;;
regen) [ $# = 1 ] || usage ;;
check) [ $# = 0 ] || usage ;;
*) usage ;;
esac
mkdir -p "$KDIR"
# One refresh at a time: they share the repositories.
exec 8>"$KDIR/.refresh-lock"
flock 8
case $cmd in
tree) build 6.12; build 6.1 ;;
export) cmd_export ;;
regen) mkdir -p "$1"; cmd_regen "$(cd "$1" && pwd)" ;;
check) cmd_check ;;
esac
