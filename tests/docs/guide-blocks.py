#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The shell blocks of a Markdown guide, as one bash script.

An indented code block (4 or more spaces, after a blank line; inside a
list item, indented past the item's text) is a block. A block right after
a comment line "<!-- guide-test: skip: WHY -->" is left out. The script
runs the blocks in order in one shell, stops at the first command that
fails, and says which block (by its line in the guide) on file descriptor
3: "PASS: GUIDE line N: FIRST LINE" after each block that ran, or
"FAIL: GUIDE line N: exit S: COMMAND" at the first that failed. Options:
--sub OLD NEW replaces text in every block (the swtpm's ports).

Usage: guide-blocks.py GUIDE [--sub OLD NEW]... > script.sh
A skip marker that no block follows is an error (exit 1).
"""
import re
import shlex
import sys

MARKER = re.compile(r"^\s*<!-- guide-test: skip: (.+?) -->\s*$")


def blocks(lines):
    """(line number, text, skip reason or None) of each indented block."""
    out = []
    i, skip, skip_line = 0, None, 0
    prev_blank = True
    while i < len(lines):
        line = lines[i]
        m = MARKER.match(line)
        if m:
            if skip:
                raise SystemExit("line %d: a second skip marker before a block" % (i + 1))
            skip, skip_line = m.group(1), i + 1
            i += 1
            prev_blank = True
            continue
        indent = len(line) - len(line.lstrip(" "))
        if prev_blank and line.strip() and indent >= 4 and not line.lstrip().startswith(("- ", "* ")) \
                and not re.match(r"\s*\d+\. ", line):
            start, body = i, []
            while i < len(lines) and (not lines[i].strip() or
                                      len(lines[i]) - len(lines[i].lstrip(" ")) >= indent):
                body.append(lines[i][indent:])
                i += 1
            while body and not body[-1].strip():
                body.pop()
            out.append((start + 1, "\n".join(body), skip))
            skip = None
            prev_blank = True
            continue
        if skip and line.strip():
            raise SystemExit("line %d: the skip marker is not right before a block" % skip_line)
        prev_blank = not line.strip()
        i += 1
    if skip:
        raise SystemExit("line %d: a skip marker at the end" % skip_line)
    return out


def main():
    args = sys.argv[1:]
    if not args:
        raise SystemExit(__doc__)
    guide, subs = args[0], []
    rest = args[1:]
    while rest:
        if rest[0] != "--sub" or len(rest) < 3:
            raise SystemExit(__doc__)
        subs.append((rest[1], rest[2]))
        rest = rest[3:]
    with open(guide) as f:
        lines = f.read().split("\n")
    name = shlex.quote("docs/" + guide.rsplit("/docs/", 1)[1] if "/docs/" in guide else guide)
    print("set -e -o pipefail")
    print("trap 'echo \"FAIL: %s line $GUIDE_LINE: exit $?: $BASH_COMMAND\" >&3' ERR" % name.strip("'"))
    ran = 0
    for n, text, skip in blocks(lines):
        if skip:
            print("# line %d: skipped: %s" % (n, skip))
            continue
        for old, new in subs:
            text = text.replace(old, new)
        first = text.split("\n", 1)[0]
        print("GUIDE_LINE=%d" % n)
        print(text)
        print("echo %s >&3" % shlex.quote("PASS: %s line %d: %s" % (name.strip("'"), n, first[:60])))
        ran += 1
    print("# %d blocks" % ran)
    if not ran:
        raise SystemExit("%s: no block to run" % guide)


if __name__ == "__main__":
    main()
