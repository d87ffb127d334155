#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tpm/: unreachable TPM, unknown TCTI, silent TPM: one clear line, no hang.
set -u
. "$(dirname "$0")/lib-tpm.sh"
tpm_need timeout python3
t_mktemp
T=$TPM_TOOL
unset TPM2TOOLS_TCTI

# expect_err NAME EXIT LINE-PATTERN CMD...: exits EXIT within 15 s with
# exactly one line on stderr matching the glob pattern.
expect_err() {
	local name=$1 want=$2 pat=$3 rc err lines; shift 3
	err=$(timeout 15 "$@" 2>&1 >/dev/null); rc=$?
	lines=$(printf '%s\n' "$err" | wc -l)
	# shellcheck disable=SC2053
	if [ "$rc" = "$want" ] && [ "$lines" = 1 ] && [[ $err == $pat ]]; then
		t_pass "$name"
	else
		t_fail "$name" "rc=$rc (want $want), stderr: $err $(cat "$T_TMP/mute.log" 2>/dev/null)"
	fi
}

port=$(tpm_free_port)
expect_err unreachable-connection-refused 3 \
	"elfsig-tpm: TPM not reachable at swtpm:host=127.0.0.1,port=$port: Connection refused" \
	"$T" pcrread sha256:0 --tcti "swtpm:host=127.0.0.1,port=$port"
expect_err unreachable-mssim 3 "elfsig-tpm: TPM not reachable at mssim:*: Connection refused" \
	"$T" pcrread sha256:0 --tcti "mssim:host=127.0.0.1,port=$port"
expect_err unknown-tcti 3 "elfsig-tpm: TPM not reachable: unknown TCTI 'nosuchtcti:x=1'*" \
	"$T" pcrread sha256:0 --tcti nosuchtcti:x=1
expect_err missing-device 3 \
	"elfsig-tpm: TPM not reachable at device:$T_TMP/nodev: No such file or directory" \
	"$T" pcrread sha256:0 --tcti "device:$T_TMP/nodev"
expect_err unresolvable-host 3 "elfsig-tpm: TPM not reachable at swtpm:host=tpm.invalid,port=2321: host name does not resolve" \
	"$T" pcrread sha256:0 --tcti swtpm:host=tpm.invalid,port=2321
expect_err unseal-unreachable 3 "elfsig-tpm: TPM not reachable at *Connection refused" \
	"$T" pcrextend --pcr 7 --data x --tcti "swtpm:host=127.0.0.1,port=$port"

# swtpm on a Unix socket (swtpm:path=): probed as such, and it works.
expect_err unix-socket-missing 3 "elfsig-tpm: TPM not reachable at swtpm:path=$T_TMP/nosock: No such file or directory" \
	"$T" pcrread sha256:0 --tcti "swtpm:path=$T_TMP/nosock"
if command -v swtpm >/dev/null; then
	mkdir "$T_TMP/us"
	swtpm socket --tpm2 --tpmstate dir="$T_TMP/us" --server type=unixio,path="$T_TMP/us/sock" \
		--ctrl type=unixio,path="$T_TMP/us/sock.ctrl" --flags not-need-init,startup-clear \
		--pid file="$T_TMP/us/pid" --daemon
	t_on_exit "kill \$(cat $T_TMP/us/pid) 2>/dev/null"
	printf 'over a unix socket' >"$T_TMP/us/s"
	if timeout 30 "$T" seal --tcti "swtpm:path=$T_TMP/us/sock" --pcrs sha256:0 --in "$T_TMP/us/s" --out "$T_TMP/us/o" &&
		[ "$(timeout 30 "$T" unseal --tcti "swtpm:path=$T_TMP/us/sock" --in "$T_TMP/us/o")" = "over a unix socket" ]; then
		t_pass unix-socket-swtpm-works
	else
		t_fail unix-socket-swtpm-works
	fi
else
	t_skip unix-socket-swtpm-works "swtpm not installed"
fi

# The convention: --tcti, else TPM2TOOLS_TCTI, else device:/dev/tpmrm0.
expect_err tcti-from-env 3 "elfsig-tpm: TPM not reachable at swtpm:host=127.0.0.1,port=$port: *" \
	env TPM2TOOLS_TCTI="swtpm:host=127.0.0.1,port=$port" "$T" pcrread sha256:0
expect_err tcti-option-beats-env 3 "elfsig-tpm: TPM not reachable at device:$T_TMP/nodev: *" \
	env TPM2TOOLS_TCTI="swtpm:host=127.0.0.1,port=$port" "$T" pcrread sha256:0 --tcti "device:$T_TMP/nodev"
if [ ! -e /dev/tpmrm0 ]; then
	expect_err tcti-default-device 3 "elfsig-tpm: TPM not reachable at device:/dev/tpmrm0: *" \
		env -u TPM2TOOLS_TCTI "$T" pcrread sha256:0
	expect_err tcti-empty-env-is-default 3 "elfsig-tpm: TPM not reachable at device:/dev/tpmrm0: *" \
		env TPM2TOOLS_TCTI= "$T" pcrread sha256:0
else
	t_skip tcti-default-device "this host has /dev/tpmrm0"
fi

# A TPM that accepts the connection and never answers: the deadline. The
# listener picks its own ports below the ephemeral range (32768+), where
# an outgoing connection elsewhere on the host cannot be holding them.
python3 - "$T_TMP/mute.port" >/dev/null 2>"$T_TMP/mute.log" <<'PY' &
import random, select, socket, sys
for _ in range(100):
    p = random.randrange(20000, 32000, 2); ls = []
    try:
        for q in (p, p + 1):
            s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("127.0.0.1", q)); s.listen(8); ls.append(s)
        break
    except OSError:
        for s in ls: s.close()
open(sys.argv[1] + ".tmp", "w").write(str(p))
import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
held = []
while True:
    for s in select.select(ls, [], [])[0]:
        held.append(s.accept()[0])
PY
mute=$!
t_on_exit "kill $mute 2>/dev/null"
for _ in $(seq 1 200); do
	[ -s "$T_TMP/mute.port" ] && break
	sleep 0.1
done
port=$(cat "$T_TMP/mute.port" 2>/dev/null)
start=$(date +%s)
expect_err silent-tpm-deadline 3 \
	"elfsig-tpm: TPM not reachable at swtpm:host=127.0.0.1,port=$port: no answer within 2 s" \
	"$T" pcrread sha256:0 --timeout 2 --tcti "swtpm:host=127.0.0.1,port=$port"
[ $(( $(date +%s) - start )) -le 5 ] && t_pass silent-tpm-bounded-time ||
	t_fail silent-tpm-bounded-time "took $(( $(date +%s) - start )) s"

# Usage errors: exit 2, one line of reason plus usage.
expect_err bad-bank 2 "elfsig-tpm: PCR selection 'md5:0': unknown bank 'md5'*" "$T" pcrread md5:0
expect_err bad-index 2 "elfsig-tpm: PCR selection 'sha256:24':*" "$T" pcrread sha256:24
expect_err bad-selection-syntax 2 "elfsig-tpm: PCR selection 'sha256:1,,2':*" "$T" pcrread sha256:1,,2
expect_err bad-srk-handle 2 "elfsig-tpm: --srk-handle 0x1234: expected a persistent handle*" \
	"$T" pcrread sha256:0 --srk-handle 0x1234
exit 0
