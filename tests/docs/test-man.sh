#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Every man page renders without warnings, and every option that a
# program's --help (and each subcommand's --help) lists is in its page.
set -u
. "$(dirname "$0")/../lib.sh"
t_mktemp

for page in "$TOP"/man/*.[0-9]; do
	prog=$(basename "${page%.*}")
	bin=$BUILD/$prog
	if [ ! -x "$bin" ]; then
		t_fail "man $prog" "no program $bin for the page"; continue
	fi
	if LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" > "$T_TMP/page" 2> "$T_TMP/warn" &&
	   [ ! -s "$T_TMP/warn" ]; then
		t_pass "man $prog renders without warnings"
	else
		t_fail "man $prog renders without warnings" "$(head -3 "$T_TMP/warn")"
	fi
	# The rendered text, with hyphenation at line ends undone.
	tr -d '\n' < "$T_TMP/page" | sed 's/‐ *//g' > "$T_TMP/flat"
	"$bin" --help > "$T_TMP/help" 2>&1
	# Subcommands: indented words of --help that answer "WORD --help".
	cmds=
	while read -r c; do
		"$bin" "$c" --help >> "$T_TMP/help.sub" 2>&1 && cmds+=" $c"
	done < <(awk '/^  [a-z][a-z0-9-]* / {print $1}' "$T_TMP/help")
	[ -f "$T_TMP/help.sub" ] && cat "$T_TMP/help.sub" >> "$T_TMP/help" && rm "$T_TMP/help.sub"
	missing=
	while read -r opt; do
		grep -qF -- "$opt" "$T_TMP/flat" || missing+=" $opt"
	done < <(grep -oE -- '--[a-z][a-z0-9-]+' "$T_TMP/help" | sort -u)
	n=$(grep -oE -- '--[a-z][a-z0-9-]+' "$T_TMP/help" | sort -u | wc -l)
	[ -z "$missing" ] && [ "$n" -gt 0 ] &&
		t_pass "man $prog documents all $n options of --help${cmds:+ and its subcommands}" ||
		t_fail "man $prog documents every --help option" "missing:$missing"
done
exit 0
