#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tpm/: libelfsig-tpm exports only elfsig_tpm_* names, and every one of
# them is declared in the public header.
set -u
. "$(dirname "$0")/../lib.sh"
LIB=$BUILD/libelfsig-tpm.a
command -v readelf >/dev/null || { echo "SKIP: symbols.sh: readelf missing"; exit 77; }
[ -f "$LIB" ] || { t_fail symbols "$LIB not built"; exit 0; }

# GLOBAL DEFAULT (visible) defined symbols of the archive's members
syms=$(readelf -sW "$LIB" | awk '$5 == "GLOBAL" && $6 == "DEFAULT" && $7 != "UND" { print $8 }' | sort -u)
bad=$(grep -v '^elfsig_tpm_' <<<"$syms")
[ -n "$syms" ] && [ -z "$bad" ] && t_pass exported-names-prefixed ||
	t_fail exported-names-prefixed "unprefixed: $bad"
missing=
for s in $syms; do
	grep -q "\b$s(" "$TOP/tpm/lib/elfsig_tpm.h" || missing="$missing $s"
done
[ -z "$missing" ] && t_pass exported-names-declared || t_fail exported-names-declared "$missing"
hidden=$(readelf -sW "$LIB" | awk '$5 == "GLOBAL" && $6 == "HIDDEN" && $7 != "UND" { print $8 }' | grep -c '^tpm_')
[ "$hidden" -gt 0 ] && t_pass internals-hidden || t_fail internals-hidden "no hidden tpm_* symbols"
exit 0
