#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Loader wall time in the VM (patched kernel, QEMU without KVM, the guest's
# swtpm) for 1, 10 and 100 enrolled keys: per count, boot 1 enrols (an
# authority-signed policy, a signed PCR policy, PolicyAuthorize), boot 2
# times elfsig-keyloader from /proc/uptime (10 ms ticks) over the real
# .elfsig keyring. Prints a markdown table.
#
#   tests/bench/vm-keyloader.sh [COUNTS...]     (default: 1 10 100)
set -u
. "$(dirname "$0")/../lib.sh"
t_mktemp
VMRUN=${VMRUN:-$TOP/tests/vm/run}
KERNEL=${KERNEL:-$TOP/build/kernel/bzImage-tiny}
counts=${*:-1 10 100}
W=$T_TMP
"$TOP/tests/vm/stage-loader" "$W/stage" "$BUILD/elfsig-keyloader" "$BUILD/elfsig-enroll" \
	"$BUILD/elfsig-tpm" || exit 1

echo "# elfsig-keyloader in the VM ($(date -u +%Y-%m-%d), QEMU TCG, 1 vCPU)"
echo
echo "Command: \`tests/bench/vm-keyloader.sh $counts\`"
echo
echo "| enrolled keys | loader wall time (s) | per key (ms) | vs 1 key |"
echo "| --- | --- | --- | --- |"
base=
for n in $counts; do
	rm -rf "$W/opt" "$W/tpm" "$W/stage/etc"; mkdir -p "$W/opt/certs" "$W/stage/etc/elfsig/certs" "$W/tpm"
	for i in $(seq "$n"); do
		openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 \
			-out "$W/k.pem" 2>/dev/null
		"$TOP/kernel/platform-ca.sh" issue "$W/k.pem" "$W/opt/certs/k$i.pem" "bench $i"
	done
	cp "$W"/opt/certs/*.pem "$W/stage/etc/elfsig/certs/"
	openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$W/opt/auth.key" 2>/dev/null
	# The enrolment: the policy signed by the authority, the object bound
	# to it, a signed PCR policy for the guest's state; or, for a baseline
	# build from before the authority (BUILD=DIR), the sealed policy.
	if "$BUILD/elfsig-enroll" --help | grep -q -- --authority-key; then
		files="policy policy.sig policy.sealed authority.pem pcr-policies/boot.pcrpol"
		create='/usr/sbin/elfsig-enroll create /opt/b/certs/*.pem --dir /tmp/e --authority-key /opt/b/auth.key'
		# With rollback protection: the counter binding too.
		"$BUILD/elfsig-enroll" --help | grep -q '^  counter ' &&
			files="$files counter counter.sig"
	else
		files="policy policy.sealed"
		create='/usr/sbin/elfsig-enroll create /opt/b/certs/*.pem --policy /tmp/e/policy --sealed /tmp/e/policy.sealed'
	fi
	# shellcheck disable=SC2016 # guest code
	printf '%s\n' 'export TPM2TOOLS_TCTI=device:/dev/tpmrm0' \
		'mkdir -p /tmp/e' "$create" \
		'mv /tmp/e/pcr-policies/*.pcrpol /tmp/e/pcr-policies/boot.pcrpol 2>/dev/null' \
		"for f in $files; do echo \"ELFSIG-FILE-BEGIN \$f\"; base64 /tmp/e/\$f; echo ELFSIG-FILE-END; done" \
		> "$W/enrol.sh"
	"$VMRUN" --kernel "$KERNEL" --tpmstate "$W/tpm" --root "$W/stage" --add "$W/opt:b" \
		--script "$W/enrol.sh" --timeout 300 > "$W/enrol.log" 2>&1
	mkdir -p "$W/stage/etc/elfsig/pcr-policies"
	for f in $files; do
		awk -v f="$f" '$1 == "ELFSIG-FILE-BEGIN" && $2 == f {on=1; next}
			on && /^ELFSIG-FILE-END/ {on=0} on' "$W/enrol.log" | base64 -d > "$W/stage/etc/elfsig/$f"
	done
	# shellcheck disable=SC2016 # guest code
	printf '%s\n' 'export TPM2TOOLS_TCTI=device:/dev/tpmrm0' \
		'mkdir -p /run && mount -t tmpfs tmpfs /run' \
		'a=$(cut -d" " -f1 /proc/uptime)' \
		'/usr/sbin/elfsig-keyloader > /tmp/out 2>&1; rc=$?' \
		'b=$(cut -d" " -f1 /proc/uptime)' \
		'echo "BENCH rc=$rc keys=$(keyctl rlist %keyring:.elfsig | wc -w) start=$a end=$b"' \
		> "$W/load.sh"
	"$VMRUN" --kernel "$KERNEL" --tpmstate "$W/tpm" --root "$W/stage" --add "$W/opt:b" \
		--script "$W/load.sh" --timeout 300 > "$W/load.log" 2>&1
	line=$(grep '^BENCH' "$W/load.log")
	keys=$(sed -n 's/.*keys=\([0-9]*\).*/\1/p' <<< "$line")
	secs=$(awk '{for (i=1;i<=NF;i++) {split($i,kv,"="); v[kv[1]]=kv[2]} printf "%.2f", v["end"]-v["start"]}' <<< "$line")
	[ "$keys" = "$n" ] || { echo "| $n | failed: $line | | |"; continue; }
	[ -z "$base" ] && base=$secs
	echo "| $n | $secs | $(echo "$secs * 1000 / $n" | bc -l | xargs printf '%.1f') | $(echo "$secs / $base" | bc -l | xargs printf '%.1f')x |"
done
