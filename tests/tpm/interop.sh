#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tpm/: objects sealed by tpm2-tools unseal through tpm/, and the reverse.
set -u
. "$(dirname "$0")/lib-tpm.sh"
tpm_need swtpm tpm2_createprimary tpm2_create tpm2_createpolicy tpm2_load \
	tpm2_unseal tpm2_pcrread tpm2_flushcontext tpm2_startauthsession tpm2_policypcr
t_mktemp
tpm_start || { t_fail tpm-start "cannot start swtpm"; exit 0; }
T=$TPM_TOOL
D=$T_TMP
SEL=sha256:0,4,7
SRK_ATTRS='restricted|decrypt|fixedtpm|fixedparent|sensitivedataorigin|userwithauth|noda'

# No resource manager in front of swtpm: flush after every tpm2-tools step.
srk() {
	tpm2_createprimary -Q -C o -g sha256 -G ecc256:aes128cfb -a "$SRK_ATTRS" -c "$1" &&
		tpm2_flushcontext -t
}
load() {
	tpm2_load -Q -C "$1" -u "$2" -r "$3" -c "$4" && tpm2_flushcontext -t
}
$T pcrextend --pcr 4 --data boot-loader

# tpm2-tools seals, tpm/ unseals
head -c 32 /dev/urandom >"$D/secret1"
if srk "$D/srk.ctx" &&
	tpm2_pcrread -Q -o "$D/pcr.bin" "$SEL" &&
	tpm2_createpolicy -Q --policy-pcr -l "$SEL" -f "$D/pcr.bin" -L "$D/pol.dat" &&
	tpm2_create -Q -C "$D/srk.ctx" -L "$D/pol.dat" -a 'fixedtpm|fixedparent' \
		-i "$D/secret1" -u "$D/t.pub" -r "$D/t.priv" &&
	tpm2_flushcontext -t; then
	if $T unseal --tss "$D/t.pub" "$D/t.priv" --pcrs "$SEL" --out "$D/out1" &&
		cmp -s "$D/secret1" "$D/out1"; then
		t_pass tpm2-tools-sealed-unseals-via-tpm
	else
		t_fail tpm2-tools-sealed-unseals-via-tpm
	fi
else
	t_fail tpm2-tools-sealed-unseals-via-tpm "tpm2-tools could not seal"
fi

# tpm2-tools' default sealing attributes include userWithAuth when asked
# for it: such an object opens without the policy, and tpm/ refuses it.
tpm2_create -Q -C "$D/srk.ctx" -L "$D/pol.dat" -a 'fixedtpm|fixedparent|userwithauth' \
	-i "$D/secret1" -u "$D/w.pub" -r "$D/w.priv" 2>/dev/null
tpm2_flushcontext -t
msg=$($T unseal --tss "$D/w.pub" "$D/w.priv" --pcrs "$SEL" 2>&1 >/dev/null); rc=$?
[ $rc = 5 ] && [[ $msg == *"can be opened without the PCR policy"* ]] &&
	t_pass userwithauth-object-refused || t_fail userwithauth-object-refused "rc=$rc $msg"

# tpm/ seals, tpm2-tools unseals (standard PolicyPCR, standard SRK)
head -c 32 /dev/urandom >"$D/secret2"
$T seal --pcrs "$SEL" --in "$D/secret2" --out "$D/e.sealed" --export-tss "$D/e.pub" "$D/e.priv"
srk "$D/srk2.ctx"
if load "$D/srk2.ctx" "$D/e.pub" "$D/e.priv" "$D/obj.ctx" &&
	tpm2_unseal -c "$D/obj.ctx" -p "pcr:$SEL" -o "$D/out2" && cmp -s "$D/secret2" "$D/out2"; then
	t_pass tpm-sealed-unseals-via-tpm2-tools
else
	t_fail tpm-sealed-unseals-via-tpm2-tools
fi
tpm2_flushcontext -t; tpm2_flushcontext -s 2>/dev/null

# the exported pair equals what is in the sealed file
$T unseal --tss "$D/e.pub" "$D/e.priv" --pcrs "$SEL" --out "$D/out3" && cmp -s "$D/secret2" "$D/out3" &&
	t_pass exported-pair-unseals-via-tpm || t_fail exported-pair-unseals-via-tpm

# the policy digests agree: tpm2_createpolicy over the same PCRs gives
# the authPolicy of our object (bytes 12..43 of the marshalled TPM2B_PUBLIC)
tpm2_pcrread -Q -o "$D/pcr2.bin" "$SEL"
tpm2_createpolicy -Q --policy-pcr -l "$SEL" -f "$D/pcr2.bin" -L "$D/pol2.dat"
ours=$(od -An -tx1 -v -j 12 -N 32 "$D/e.pub" | tr -d ' \n')
theirs=$(od -An -tx1 -v "$D/pol2.dat" | tr -d ' \n')
[ -n "$ours" ] && [ "$ours" = "$theirs" ] && t_pass policy-digest-matches-tpm2_createpolicy ||
	t_fail policy-digest-matches-tpm2_createpolicy "$ours != $theirs"

# after a sealed PCR changes, both sides refuse
$T pcrextend --pcr 7 --data changed
msg=$($T unseal --tss "$D/t.pub" "$D/t.priv" --pcrs "$SEL" 2>&1 >/dev/null); rc=$?
[ $rc = 4 ] && [ "$msg" = "elfsig-tpm: PCR policy not satisfied: one of PCRs $SEL changed since the secret was sealed" ] &&
	t_pass tpm2-tools-object-policy-failure-message || t_fail tpm2-tools-object-policy-failure-message "rc=$rc $msg"
load "$D/srk2.ctx" "$D/e.pub" "$D/e.priv" "$D/obj2.ctx"
if tpm2_unseal -c "$D/obj2.ctx" -p "pcr:$SEL" >/dev/null 2>"$D/err"; then
	t_fail tpm2-tools-refuses-after-extend "unsealed"
elif grep -qi 'policy' "$D/err"; then
	t_pass tpm2-tools-refuses-after-extend
else
	t_fail tpm2-tools-refuses-after-extend "$(cat "$D/err")"
fi
tpm2_flushcontext -t; tpm2_flushcontext -s 2>/dev/null
exit 0
