#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A boot state predicted from the TCG event log, with a component replaced
# (a new boot loader), signed before the update: the firmware is played by
# extending swtpm's PCRs with the log's events; the "update" boots with the
# new component's digest; the old state still loads. The replay agrees
# with the TPM and with tpm2_eventlog; hostile logs predict nothing.
set -u
. "$(dirname "$0")/lib-kl.sh"

kl_need swtpm swtpm_ioctl keyctl openssl tpm2_pcrextend tpm2_eventlog tpm2_startup python3 timeout
if [ -z "${KL_IN_SESSION:-}" ]; then
	KL_IN_SESSION=1 exec keyctl session - "$0" "$@"
fi
[ -x "$KL" ] && [ -x "$ENROLL" ] || { echo "FAIL: build: $KL or $ENROLL missing"; exit 1; }
t_mktemp
kl_swtpm_start || { echo "FAIL: swtpm: did not start"; exit 1; }
kl_cert k1 && kl_cert k3 && kl_authority auth || { echo "FAIL: openssl"; exit 1; }
kl_need_keyring k1

OLD=$(printf 'boot loader 1' | sha256sum | cut -d' ' -f1)
NEW=$(printf 'boot loader 2' | sha256sum | cut -d' ' -f1)

# mklog FILE LOCALITY LOADER: a crypto-agile event log (sha1 and sha256)
# of a small firmware: StartupLocality, then events into PCRs 0, 2, 4, 7
# and a separator in each; LOADER is the boot loader's sha256 (PCR 4).
mklog() {
	python3 - "$@" <<'PY'
import hashlib, struct, sys
out, loc, loader = sys.argv[1], int(sys.argv[2]), bytes.fromhex(sys.argv[3])
def ev2(pcr, typ, data, sha256=None):
    d256 = sha256 or hashlib.sha256(data).digest()
    d1 = hashlib.sha1(data).digest()
    return (struct.pack("<III", pcr, typ, 2) + struct.pack("<H", 4) + d1 +
            struct.pack("<H", 0xb) + d256 + struct.pack("<I", len(data)) + data)
spec = (b"Spec ID Event03\0" + struct.pack("<IBBBBI", 0, 0, 2, 0, 2, 2) +
        struct.pack("<HHHH", 4, 20, 0xb, 32) + b"\0")
log = struct.pack("<II", 0, 3) + b"\0" * 20 + struct.pack("<I", len(spec)) + spec
log += ev2(0, 3, b"StartupLocality\0" + bytes([loc]), b"\0" * 32)
log += ev2(0, 8, b"firmware version 1.2")			# EV_S_CRTM_VERSION
log += ev2(2, 0x80000007, b"option rom")			# EV_EFI_ACTION
log += ev2(7, 0x80000007, b"SecureBoot=1")
for pcr in (0, 2, 4, 7):
    log += ev2(pcr, 4, b"\0\0\0\0")				# EV_SEPARATOR
log += ev2(4, 0xd, b"grubx64.efi", loader)			# EV_IPL
open(out, "wb").write(log)
PY
}

# boot LOADER: a fresh boot of this TPM (PCRs reset, state kept) whose
# "firmware" extends the events of the log made with LOADER.
boot() {
	local port=${TPM2TOOLS_TCTI##*port=} ev d
	swtpm_ioctl --tcp "127.0.0.1:$((port + 1))" -i >/dev/null 2>&1 &&
		tpm2_startup -c >/dev/null 2>&1 || return 1
	mklog "$T_TMP/boot.log" 0 "$1"
	tpm2_eventlog "$T_TMP/boot.log" 2>/dev/null > "$T_TMP/boot.yaml" || return 1
	# Every extended event's sha256, in log order, from tpm2_eventlog.
	python3 - "$T_TMP/boot.yaml" > "$T_TMP/boot.ext" <<'PY' || return 1
import re, sys
pcr = typ = None
for line in open(sys.argv[1]):
    m = re.match(r"\s*PCRIndex: (\d+)", line)
    if m: pcr = int(m.group(1))
    m = re.match(r"\s*EventType: (\w+)", line)
    if m: typ = m.group(1)
    m = re.match(r'\s*Digest: "([0-9a-f]{64})"', line)
    if m and typ != "EV_NO_ACTION":
        print(pcr, m.group(1))
PY
	while read -r ev d; do
		tpm2_pcrextend "$ev:sha256=$d" || return 1
	done < "$T_TMP/boot.ext"
}

D=$T_TMP/e
mkdir -p "$D/certs"; cp "$T_TMP/k1.pem" "$D/certs/"
boot "$OLD" || { echo "FAIL: the simulated firmware did not run"; exit 1; }
[ "$(wc -l < "$T_TMP/boot.ext")" = 8 ] || t_fail "tpm2_eventlog reads the crafted log" "$(cat "$T_TMP/boot.ext")"
"$ENROLL" create -d "$D" -K "$T_TMP/auth.key" "$T_TMP/k1.pem" >"$D/enroll.out" 2>&1 ||
	{ echo "FAIL: enrol: $(cat "$D/enroll.out")"; exit 1; }

# 1. The replay of the log is the TPM's state.
mklog "$T_TMP/old.log" 0 "$OLD"
"$ENROLL" predict -d "$D" --event-log "$T_TMP/old.log" > "$T_TMP/predicted" 2>&1
"$BUILD/elfsig-tpm" pcrread sha256:0,2,4,7 > "$T_TMP/actual"
cmp -s "$T_TMP/predicted" "$T_TMP/actual" &&
	t_pass "predict: the replay of the event log is the TPM's PCR values" ||
	t_fail "predict: the replay of the event log is the TPM's PCR values" \
		"$(paste -d' ' "$T_TMP/predicted" "$T_TMP/actual" | tr '\n' '|')"

# 2. A firmware that started at locality 3: PCR 0 starts at 0...03 (TCG
# PC Client PFP, StartupLocality), computed here independently. (Debian
# 12's tpm2_eventlog 5.4 extends the no-action event's zero digest into
# PCR 0 and so disagrees with the TPM itself; case 1 shows ours agrees.)
mklog "$T_TMP/loc3.log" 3 "$OLD"
"$ENROLL" predict --pcrs sha256:0 --event-log "$T_TMP/loc3.log" > "$T_TMP/loc3" 2>&1
want=$(python3 -c '
import hashlib
p = b"\0" * 31 + b"\3"
for d in (hashlib.sha256(b"firmware version 1.2").digest(), hashlib.sha256(b"\0\0\0\0").digest()):
    p = hashlib.sha256(p + d).digest()
print("sha256:0=" + p.hex())')
[ "$(cat "$T_TMP/loc3")" = "$want" ] &&
	t_pass "predict: StartupLocality 3 makes PCR 0 start at 0...03" ||
	t_fail "predict: StartupLocality 3 makes PCR 0 start at 0...03" "$(cat "$T_TMP/loc3") / $want"

# 3. Sign the state with the new boot loader before the update, ship it,
# boot the update: the keys load, no TPM write; the old state still loads.
sealed_sum=$(sha256sum < "$D/policy.sealed")
if TPM2TOOLS_TCTI=swtpm:host=127.0.0.1,port=1 "$ENROLL" sign-pcr-policy -d "$D" -K "$T_TMP/auth.key" \
	--event-log "$T_TMP/old.log" --replace-digest "$OLD=sha256:$NEW" \
	-o "$D/pcr-policies/zz-loader-2.pcrpol" >"$T_TMP/out" 2>&1; then
	t_pass "sign-pcr-policy: the state with the new boot loader, predicted and signed without a TPM"
else
	t_fail "sign-pcr-policy: the state with the new boot loader, predicted and signed without a TPM" "$(cat "$T_TMP/out")"
fi
if boot "$NEW"; then
	kl_load updated
	kl_expect "the updated boot loader: the predicted PCR policy opens the enrolment" 0 1 \
		"elfsig-keyloader: enrolment unsealed under $D/pcr-policies/zz-loader-2.pcrpol"
else
	t_fail "boot the update" "the simulated firmware did not run"
fi
if boot "$OLD"; then
	kl_load fallback
	kl_expect "the old boot loader (fallback): its PCR policy still opens it" 0 1
else
	t_fail "boot the old state" "the simulated firmware did not run"
fi
[ "$(sha256sum < "$D/policy.sealed")" = "$sealed_sum" ] &&
	t_pass "the update took no TPM write (the sealed object is unchanged)" ||
	t_fail "the update took no TPM write"
if boot "$(printf 'boot loader 3' | sha256sum | cut -d' ' -f1)"; then
	kl_load unpredicted
	kl_expect "a boot loader nobody predicted: nothing loads" 5 0
fi

# 4. Refusals: a replacement that matches no event, hostile logs. One
# line each, exit 1, never a crash or a hang.
out=$("$ENROLL" predict -d "$D" --event-log "$T_TMP/old.log" --replace-digest "$NEW=$OLD" 2>&1); rc=$?
[ "$rc" = 1 ] && [[ $out == *"no event measured sha256:$NEW (nothing to replace)" ]] &&
	t_pass "a replacement that matches no event is an error, not the old state signed" ||
	t_fail "a replacement that matches no event is an error" "$rc $out"
out=$("$ENROLL" predict -d "$D" --replace-digest "$OLD=$NEW" 2>&1); rc=$?
[ "$rc" = 2 ] && t_pass "--replace-digest without --event-log: usage error" ||
	t_fail "--replace-digest without --event-log: usage error" "$rc $out"
size=$(stat -c %s "$T_TMP/old.log")
bad=0 why=
for n in $(seq 0 7 $((size - 1))); do
	head -c "$n" "$T_TMP/old.log" > "$T_TMP/cut.log"
	out=$(timeout 10 "$ENROLL" predict --pcrs sha256:0 --event-log "$T_TMP/cut.log" 2>&1); rc=$?
	# A cut at an event boundary is a shorter, valid log.
	if [ "$rc" != 0 ] && { [ "$rc" != 1 ] || [ "$(wc -l <<<"$out")" != 1 ]; }; then
		bad=$((bad + 1)); why="at $n: rc=$rc $out"
	fi
done
[ "$bad" = 0 ] && t_pass "every truncation of the log: a shorter log or one line, exit 1" ||
	t_fail "every truncation of the log" "$why"
python3 - "$T_TMP/old.log" "$T_TMP" <<'PY'
import struct, sys
g, d = open(sys.argv[1], "rb").read(), sys.argv[2]
hdr = 32 + struct.unpack("<I", g[28:32])[0]
def w(name, data): open(d + "/" + name + ".log", "wb").write(data)
w("bad-spec", g[:32] + b"Spec ID Event02\0" + g[48:])	# an older spec
w("many-algs", g[:32 + 24] + struct.pack("<I", 99) + g[32 + 28:])
w("pcr-99", g[:hdr] + struct.pack("<I", 99) + g[hdr + 4:])
w("count-huge", g[:hdr + 8] + struct.pack("<I", 0xffffffff) + g[hdr + 12:])
w("unknown-alg", g[:hdr + 12] + struct.pack("<H", 0x12) + g[hdr + 14:])
w("size-huge", g[:-4 - 11] + struct.pack("<I", 0x7fffffff) + g[-11:])	# "grubx64.efi"
PY
for f in bad-spec many-algs pcr-99 count-huge unknown-alg size-huge; do
	out=$(timeout 10 "$ENROLL" predict --pcrs sha256:0 --event-log "$T_TMP/$f.log" 2>&1); rc=$?
	[ "$rc" = 1 ] && [ "$(wc -l <<<"$out")" = 1 ] && t_pass "hostile log $f: one line, exit 1" ||
		t_fail "hostile log $f" "rc=$rc $out"
done
head -c 5000 /dev/urandom > "$T_TMP/random.log"
out=$(timeout 10 "$ENROLL" predict --pcrs sha256:0 --event-log "$T_TMP/random.log" 2>&1); rc=$?
[ "$rc" = 1 ] && t_pass "random bytes: refused" || t_fail "random bytes: refused" "rc=$rc $out"
exit 0
