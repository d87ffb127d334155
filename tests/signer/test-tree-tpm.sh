#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# signelf sign --tree with keys that live in a TPM (swtpm): the key is
# loaded into the TPM once for the whole tree, not once per file. The TSS
# traces every ESAPI call (TSS2_LOG=esys+trace); the suite counts them.
set -u
. "$(dirname "$0")/../tpm/lib-tpm.sh"
. "$(dirname "$0")/fixtures.sh"
tpm_need swtpm
fixtures_init
tpm_start || { t_fail tpm-start "cannot start swtpm"; exit 0; }
D=$T_TMP

$TPM_TOOL keygen --type rsa --out "$D/rsa.tss2.pem" --subject "/CN=elfsig tree RSA" --cert "$D/rsa.pem" >/dev/null &&
	$TPM_TOOL keygen --type ecc --handle 0x81000001 --subject "/CN=elfsig tree ECC" --cert "$D/ecc.pem" >/dev/null ||
	{ t_fail keygen "could not create the TPM keys"; exit 0; }

# calls FUNCTION LOG: how many times the TSS ran Esys_FUNCTION (Initialize:
# how many TPM connections it opened).
calls() {
	case $1 in
	Initialize) grep -c ':tctildr_get_tcti()' "$2" ;;
	*) grep -c "Esys_$1_Async()" "$2" ;;
	esac
}
traced() { # LOG SIGNELF-ARGS...
	local log=$1; shift
	TSS2_LOG=esys+trace,tcti+trace "$SIGNELF" sign "$@" > "$log.out" 2> "$log"
}

libc=$(ldd /bin/ls | awk '/libc.so/ {print $3}')
for key in rsa.tss2.pem:rsa.pem handle:0x81000001:ecc.pem; do
	k=${key%:*} c=$D/${key##*:}
	[ "${k#handle:}" = "$k" ] && k=$D/$k
	name=${key##*:}; name=${name%.pem}
	rm -rf "$D/tree" "$D/one"; mkdir -p "$D/tree/bin" "$D/tree/lib" "$D/one"
	for i in 1 2 3 4 5 6; do cp "$FIX/bin/musl-static" "$D/tree/bin/s$i"; done
	cp /usr/bin/ls "$D/tree/bin/ls"; cp "$libc" "$D/tree/lib/"
	cp /usr/bin/true "$D/one/true"
	traced "$D/one.log" --key "$k" --cert "$c" "$D/one/true" ||
		{ t_fail "$name: sign one file" "$(grep -v '^trace' "$D/one.log" | head -2)"; continue; }
	if ! traced "$D/tree.log" --key "$k" --cert "$c" --tree "$D/tree"; then
		t_fail "$name: sign a tree of 8 files" "$(grep -v '^trace' "$D/tree.log" | head -2)"; continue
	fi
	grep -q "signed 8, skipped 0, failed 0" "$D/tree.log.out" &&
		"$SIGNELF" verify -q --cert "$c" "$D"/tree/bin/* "$D"/tree/lib/* &&
		t_pass "$name: a tree of 8 files signed by a TPM key, every file verifies" ||
		t_fail "$name: a tree of 8 files signed by a TPM key, every file verifies" "$(cat "$D/tree.log.out")"
	one_init=$(calls Initialize "$D/one.log") tree_init=$(calls Initialize "$D/tree.log")
	one_load=$(calls Load "$D/one.log") tree_load=$(calls Load "$D/tree.log")
	one_rp=$(calls ReadPublic "$D/one.log") tree_rp=$(calls ReadPublic "$D/tree.log")
	tree_sign=$(calls Sign "$D/tree.log")
	echo "# $name: one file: $one_init TSS contexts, $one_load loads, $one_rp reads; tree: $tree_init, $tree_load, $tree_rp, $tree_sign signatures"
	[ "$tree_init" = "$one_init" ] && [ "$tree_load" = "$one_load" ] && [ "$tree_rp" = "$one_rp" ] &&
		[ "$tree_init" -ge 1 ] && [ "$((tree_load + tree_rp))" -ge 1 ] &&
		t_pass "$name: the tree opened the TPM and loaded the key as often as one file does ($tree_init, $tree_load + $tree_rp)" ||
		t_fail "$name: the tree opened the TPM and loaded the key as often as one file does" \
			"one: $one_init/$one_load/$one_rp, tree: $tree_init/$tree_load/$tree_rp"
	# The count tells: two files signed by two runs load the key twice.
	cp /usr/bin/true "$D/one/true2"
	traced "$D/two.log" --key "$k" --cert "$c" "$D/one/true2"
	cat "$D/one.log" >> "$D/two.log"
	[ "$(calls Load "$D/two.log")" = $((2 * one_load)) ] &&
		[ "$(calls ReadPublic "$D/two.log")" = $((2 * one_rp)) ] &&
		[ "$(calls Initialize "$D/two.log")" = $((2 * one_init)) ] &&
		t_pass "$name: (two runs for two files: twice the connections and loads)" ||
		t_fail "$name: (two runs for two files: twice the connections and loads)"
	[ "$tree_sign" = 8 ] && t_pass "$name: one TPM signature per file (8)" ||
		t_fail "$name: one TPM signature per file (8)" "$tree_sign"
done
[ -z "$(tpm2_getcap handles-transient)" ] && t_pass "no transient object left in the TPM" ||
	t_fail "no transient object left in the TPM"
exit 0
