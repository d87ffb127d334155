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
# A tree's state, in its git directory: elfsig-state, "SUM HEAD" once the
# tree is what the patch files with series_sum SUM make, HEAD the commit
# it was at; elfsig-pending, "SUM", while the developer finishes a git am
# of the post patches that stopped.
state_file() { echo "$(g "$1" rev-parse --absolute-git-dir)/elfsig-state"; }
pending_file() { echo "$(g "$1" rev-parse --absolute-git-dir)/elfsig-pending"; }
print_file() { echo "$(g "$1" rev-parse --absolute-git-dir)/elfsig-upstream"; }
built_from() { # DIR: the SUM of the state, or of the pending git am
	cat "$(pending_file "$1")" 2>/dev/null || cut -d' ' -f1 "$(state_file "$1")" 2>/dev/null || true
}

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
	g "$d.tmp" config rebase.updateRefs true
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
		g "$d" config rebase.updateRefs true
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
	elif [ -f "$(pending_file "$d")" ]; then
		# git am --abort puts HEAD back there: nothing of its own.
		rec_head=$(g "$d" rev-parse "$(mark_ref "$d" upstream)")
	else
		rec_head=$(g "$d" rev-parse refs/elfsig/base)
	fi
	[ "$head" = "$rec_head" ] && echo no || echo yes
}

# record VERSION DIR: the tree is what the committed patch files make.
record() {
	echo "$(series_sum "$1") $(g "$2" rev-parse HEAD)" > "$(state_file "$2")"
	rm -f "$(pending_file "$2")"
}

# mark_ref DIR PHASE: the branch that marks where PHASE (pre, upstream)
# ends in DIR: elfsig-pre, elfsig-upstream in the developer's tree,
# scratch-* in a scratch tree. Branches, so that git rebase (with
# rebase.updateRefs, set in the repositories) moves them with the
# commits it rewrites.
mark_ref() {
	case $1 in
	"$KDIR"/scratch-*) echo "refs/heads/scratch-$2" ;;
	*) echo "refs/heads/elfsig-$2" ;;
	esac
}
mark() {
	local d=$1 p; shift
	for p; do g "$d" update-ref "$(mark_ref "$d" "$p")" HEAD; done
}

# upstream_print DIR: the 6.12 commits of a 6.1 tree, as messages and
# patch ids: they come from kernel/patches/, never from an edit there.
upstream_print() {
	local range
	range=$(mark_ref "$1" pre)..$(mark_ref "$1" upstream)
	{ g "$1" log --format=%B "$range"; g "$1" log -p --format= "$range" | g "$1" patch-id --stable; } |
		sha256sum | cut -c1-64
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

# apply VERSION DIR [PENDING]: reset DIR's HEAD to the pristine source and
# apply every patch with git am, one commit each (kernel/series.sh). A pre
# or 6.12 patch that does not apply is an error, and DIR is left at the
# pristine source; the post patches (the 6.1 delta) go in one git am -3,
# which is left stopped for the developer when PENDING (a file to write
# the series' digest to) is given.
apply() {
	local v=$1 d=$2 pending=${3:-} steps phase p opts out post=()
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
			g "$d" reset -q --hard refs/elfsig/base
			die "$v: $(rel "$p") does not apply${opts:+ with git am $opts}"
		fi
		case $phase in
		pre) mark "$d" pre upstream ;;
		upstream) mark "$d" upstream ;;
		esac
	done <<< "$steps"
	[ "$v" = 6.12 ] || upstream_print "$d" > "$(print_file "$d")"
	[ -z "$pending" ] || series_sum "$v" > "$pending"
	if [ "${#post[@]}" != 0 ] &&
		! g "$d" am -q -3 --committer-date-is-author-date "${post[@]}" >/dev/null; then
		if [ -n "$pending" ]; then
			echo "refresh: $v: resolve in $(rel "$d") ('git am --continue'), then run kernel/refresh.sh export" >&2
		else
			g "$d" am --abort
		fi
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
		[ "$(built_from "$d")" = "$(series_sum "$v")" ]; then
		say "$v: $(rel "$d") is up to date"
		return 0
	fi
	[ "$FORCE" = 1 ] || [ "$(has_work "$d")" = no ] ||
		die "$v: $(rel "$d") has commits or changes not exported: run kernel/refresh.sh export, or tree --force to drop them"
	say "$v: applying the series in $(rel "$d")"
	unstop "$d"
	g "$d" checkout -q -f -B elfsig refs/elfsig/base
	rm -f "$(state_file "$d")" "$(pending_file "$d")"
	apply "$v" "$d" "$(pending_file "$d")"
	record "$v" "$d"
}

# format DIR RANGE OUT [COVER]: the patches of RANGE as files in OUT,
# replacing OUT/*.patch. The options fix everything that could vary
# between runs, machines or git configurations (no version signature, no
# commit ids, 9-digit blob abbreviations as the series always had). With
# COVER, a text file (the subject, a blank line, the body), the series'
# cover letter too: 0000-cover-letter.patch, from the last patch's author
# and date, with git's shortlog and diffstat of the series.
format() {
	local d=$1 range=$2 out=$3 cover=${4:-} last
	mkdir -p "$out"
	rm -f "$out"/*.patch
	[ -z "$(g "$d" rev-list "$range")" ] && return 0
	if [ -z "$cover" ]; then
		g "$d" format-patch -q --zero-commit --no-signature --abbrev=9 \
			--no-renames --stat=72 --summary --no-cover-letter -o "$out" "$range"
		return 0
	fi
	[ -s "$cover" ] || die "$(rel "$cover"): no cover letter text"
	last=$(g "$d" rev-list -1 "$range")
	GIT_COMMITTER_NAME=$(g "$d" log -1 --format=%an "$last") \
	GIT_COMMITTER_EMAIL=$(g "$d" log -1 --format=%ae "$last") \
	GIT_COMMITTER_DATE=$(g "$d" log -1 --format=%aI "$last") \
		g "$d" format-patch -q --zero-commit --no-signature --abbrev=9 \
			--no-renames --stat=72 --summary --cover-letter -o "$out" "$range"
	# git's placeholders, replaced by the text: the subject's, then the body's.
	awk -v cover="$cover" '
		BEGIN {
			getline subject < cover
			while ((getline line < cover) > 0) body = body line "\n"
			sub(/^\n+/, "", body); sub(/\n+$/, "", body)
		}
		/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subject); n++ }
		/^\*\*\* BLURB HERE \*\*\*$/ { print body; n++; next }
		{ print }
		END { if (n != 2) exit 1 }' "$out/0000-cover-letter.patch" > "$out/0000-cover-letter.tmp" ||
		die "format-patch's cover letter has no placeholders to fill"
	mv "$out/0000-cover-letter.tmp" "$out/0000-cover-letter.patch"
}

# write VERSION DIR ROOT: DIR's series as patch files under ROOT/kernel/.
write() {
	local v=$1 d=$2 root=$3 r pre up
	if [ "$v" = 6.12 ]; then
		format "$d" refs/elfsig/base..HEAD "$root/kernel/patches" "$TOP/kernel/cover-letter.txt"
		return 0
	fi
	# The 6.12 commits in a 6.1 tree come from kernel/patches/, never from
	# an edit there: pre, then the 6.12 series, then post, in that order.
	pre=$(mark_ref "$d" pre) up=$(mark_ref "$d" upstream)
	for r in refs/elfsig/base "$pre" "$up"; do
		g "$d" merge-base --is-ancestor "$r" HEAD ||
			die "6.1: $(rel "$d"): $r is not below HEAD: rebase with rebase.updateRefs, or kernel/refresh.sh tree"
	done
	[ "$FORCE" = 1 ] || [ "$(upstream_print "$d")" = "$(cat "$(print_file "$d")" 2>/dev/null)" ] ||
		die "6.1: the 6.12 commits in $(rel "$d") changed: they come from kernel/patches/, change them in git-6.12 (or export --force)"
	format "$d" "refs/elfsig/base..$pre" "$root/kernel/delta-6.1/pre"
	format "$d" "$up..HEAD" "$root/kernel/delta-6.1/post"
}

# export_tree VERSION: write the committed patch files from the tree.
export_tree() {
	local v=$1 d untracked
	d=$(tree_dir "$v")
	[ -n "$(built_from "$d")" ] || die "$v: no tree: kernel/refresh.sh tree"
	[ "$FORCE" = 1 ] || [ "$(built_from "$d")" = "$(series_sum "$v")" ] ||
		die "$v: $(rel "$d") was built from other patch files than the committed ones: kernel/refresh.sh tree (or export --force)"
	! busy "$d" || die "$v: a git am or rebase is stopped in $(rel "$d"): finish it first"
	[ ! -f "$(pending_file "$d")" ] || [ "$(has_work "$d")" = yes ] ||
		die "$v: the git am of the post patches was aborted in $(rel "$d"): kernel/refresh.sh tree"
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

# The 6.1 delta first when git-6.1 has work of its own (it was made on
# that tree's 6.12 series), then 6.12; then, when the patch files changed
# under it, the 6.1 tree is rebuilt and its delta written again, so that
# its context follows the 6.12 series.
cmd_export() {
	local t61
	t61=$(tree_dir 6.1)
	if [ -d "$t61/.git" ] && [ "$(has_work "$t61")" = yes ]; then
		export_tree 6.1
	fi
	export_tree 6.12
	if [ ! -d "$t61/.git" ] || [ "$(built_from "$t61")" != "$(series_sum 6.1)" ]; then
		build 6.1
	fi
	# Always written: delta files that came from elsewhere (a merge) apply
	# with other blob ids and context than the tree writes.
	export_tree 6.1
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
