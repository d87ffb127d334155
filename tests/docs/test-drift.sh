#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# What the docs must not say, because it goes stale by itself: the number
# of a kernel patch or the count of the series (it is re-cut; docs name the
# feature and its file under fs/elfsig/ instead), and an option that does
# nothing written as if it did something. Reads README.md, docs/*.md and
# man/*; each check prints the places it found (file:line: text).
set -u
. "$(dirname "$0")/../lib.sh"
t_mktemp

cd "$TOP" || { t_fail "drift: the source tree" "no $TOP"; exit 0; }
DOCS=(README.md docs/*.md man/*.[0-9])

# drift NAME ERE: PASS when no doc line matches ERE (case-insensitive).
drift() {
	local name=$1 ere=$2
	if grep -nEi -- "$ere" "${DOCS[@]}" > "$T_TMP/hits"; then
		t_fail "$name" "$(wc -l < "$T_TMP/hits") line(s): $(head -5 "$T_TMP/hits" | cut -c1-120 | tr '\n' '|')"
	else
		t_pass "$name"
	fi
}

NUM='(two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|[0-9]+)'
drift "docs cite no patch by number (patch 12, patches 1-28, [PATCH 3/6])" \
	'\bpatch(es)?( of the series| of the elfsig series)?[ -]*#?[0-9]'
drift "docs name no patch file (0001-..., 0022)" \
	'\b000[0-9]-|\b00[0-3][0-9]\b'
drift "docs count no patches (twenty-three patches, 31 patches)" \
	"(^|[^.0-9a-z])$NUM([- ][a-z]+)? (kernel |elfsig |more |post |prep |later |earlier )?patch(es)?\\b"
drift "docs count no prefixes of the series (of the seventeen, prefixes 21-28)" \
	'\bof the (two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty)[a-z-]*[:,.]|\bprefix(es)? [0-9]'
# signelf accepts --allow-interp and ignores it; man/signelf.1 says so,
# and no other doc names it.
grep -n -- '--allow-interp\|\\-\\-allow\\-interp' README.md docs/*.md man/*.[0-9] |
	grep -v '^man/signelf\.1:' > "$T_TMP/hits"
if [ -s "$T_TMP/hits" ]; then
	t_fail "--allow-interp is named only in signelf(1)" "$(head -5 "$T_TMP/hits" | cut -c1-120 | tr '\n' '|')"
else
	t_pass "--allow-interp is named only in signelf(1)"
fi
# In signelf(1), each description of it says it has no effect.
awk '/allow\\-interp$/ { getline; if ($0 !~ /^No effect/) print FILENAME ":" NR ": " $0 }' \
	man/signelf.1 > "$T_TMP/hits"
if [ -s "$T_TMP/hits" ] || ! grep -q 'allow\\-interp$' man/signelf.1; then
	t_fail "signelf(1) says --allow-interp has no effect" "$(head -3 "$T_TMP/hits" | tr '\n' '|')"
else
	t_pass "signelf(1) says --allow-interp has no effect"
fi
# Dynamic programs run verified (signed ld.so and libraries): no doc says
# a signed PT_INTERP program is refused.
drift "docs do not say a signed PT_INTERP program is refused" \
	'PT_INTERP[^.]*(is|are) (refused|rejected)|(refuses|rejects) [^.]*PT_INTERP'
exit 0
