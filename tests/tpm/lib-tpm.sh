# SPDX-License-Identifier: GPL-2.0-only
# Helpers for the tpm/ suites: a private swtpm on a free port.
# shellcheck shell=bash
# shellcheck source=../lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

TPM_TOOL=${TPM_TOOL:-$BUILD/elfsig-tpm}
export TSS2_LOG=${TSS2_LOG:-all+none}
# Sanitizer builds: a report must never pass as an ordinary failure.
export ASAN_OPTIONS=${ASAN_OPTIONS:-exitcode=99:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:exitcode=99:print_stacktrace=1}

# tpm_need TOOL...: exit 77 when a tool the suite needs is missing.
tpm_need() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 || {
			echo "SKIP: $(basename "$0"): $t not installed"; exit 77; }
	done
	[ -x "$TPM_TOOL" ] || { echo "FAIL: $(basename "$0"): $TPM_TOOL not built"; exit 1; }
}

# tpm_free_port: like t_free_port, but below the ephemeral range (32768+)
# and checking every socket, not just listeners: an outgoing connection
# elsewhere on a busy host can hold a port in the ephemeral range.
tpm_free_port() {
	local p
	for _ in $(seq 1 200); do
		p=$(( 20000 + (RANDOM % 6000) * 2 ))
		if ! ss -Han "sport = :$p or sport = :$((p + 1))" 2>/dev/null | grep -q .; then
			echo "$p"; return 0
		fi
	done
	return 1
}

# tpm_swtpm DIR: a fresh swtpm with its state in DIR, stopped on exit,
# answering; sets TPM_PORT and TPM_PID and prints nothing.
tpm_swtpm() {
	local dir=$1
	mkdir -p "$dir"
	for _ in 1 2 3 4 5; do
		TPM_PORT=$(tpm_free_port) || return 1
		if swtpm socket --tpm2 --tpmstate dir="$dir" \
			--server type=tcp,port="$TPM_PORT",bindaddr=127.0.0.1 \
			--ctrl type=tcp,port=$((TPM_PORT + 1)),bindaddr=127.0.0.1 \
			--flags not-need-init,startup-clear \
			--pid file="$dir/swtpm.pid" --daemon 2>"$dir/swtpm.log"; then
			break
		fi
	done
	[ -s "$dir/swtpm.pid" ] || { echo "swtpm did not start: $(cat "$dir/swtpm.log")" >&2; return 1; }
	TPM_PID=$(cat "$dir/swtpm.pid")
	t_on_exit "kill $TPM_PID 2>/dev/null"
	# Ready when it answers.
	for _ in $(seq 1 50); do
		TPM2TOOLS_TCTI="swtpm:host=127.0.0.1,port=$TPM_PORT" \
			tpm2_getrandom 1 >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	echo "swtpm on port $TPM_PORT does not answer" >&2
	return 1
}

# tpm_start: the suite's swtpm; sets TPM_PORT, TCTI and the variables
# tpm2-tools and the tpm2 provider read.
tpm_start() {
	[ -n "${T_TMP:-}" ] || t_mktemp
	tpm_swtpm "$T_TMP/tpmstate" || return 1
	TCTI="swtpm:host=127.0.0.1,port=$TPM_PORT"
	export TPM2TOOLS_TCTI=$TCTI TPM2OPENSSL_TCTI=$TCTI
}

# tpm_other NAME: a second, unrelated TPM (state in $T_TMP/NAME); sets
# OTHER_TCTI and leaves the suite's TPM selected.
tpm_other() {
	local port=$TPM_PORT pid=$TPM_PID
	tpm_swtpm "$T_TMP/$1" || return 1
	# shellcheck disable=SC2034 # read by the suites
	OTHER_TCTI="swtpm:host=127.0.0.1,port=$TPM_PORT"
	TPM_PORT=$port TPM_PID=$pid
}
