# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# Shared helpers for elfsig's shell test suites.
#
# A suite prints one line per test case, "PASS: name", "FAIL: name: why" or
# "SKIP: name: why"; tests/run counts them. A suite exits 0, or 77 when it
# cannot run at all here (a genuinely missing tool; never in CI).

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
T_FAILED=0

t_pass() { echo "PASS: $1"; }
t_fail() { echo "FAIL: $1: ${2:-failed}"; T_FAILED=$((T_FAILED + 1)); }
t_skip() { echo "SKIP: $1: ${2:-skipped}"; }

# t_check NAME CMD...: pass when CMD succeeds.
t_check() {
	local name=$1; shift
	if "$@"; then t_pass "$name"; else t_fail "$name" "command failed: $*"; fi
}

# t_probe NAME CMD...: can this host do NAME? Runs CMD (quietly, 20 s at
# most). ELFSIG_TEST_PROBE_FAIL, a comma-separated list of probe names
# (i386-exec, asymmetric-keyring, ...), makes those probes fail, to show
# what the suites do on a host without them (README, "Building and testing").
t_probe() {
	local name=$1; shift
	case ",${ELFSIG_TEST_PROBE_FAIL:-}," in *",$name,"*) return 1 ;; esac
	timeout 20 "$@" >/dev/null 2>&1
}

# t_mktemp: a scratch directory removed when the suite exits.
t_mktemp() {
	T_TMP=$(mktemp -d "${TMPDIR:-/tmp}/elfsig-test.XXXXXX")
	trap 't_cleanup' EXIT
}
t_cleanup() {
	local f
	for f in "${T_CLEANUP[@]}"; do eval "$f" || true; done
	[ -n "${T_TMP:-}" ] && rm -rf "$T_TMP"
}
T_CLEANUP=()
t_on_exit() { T_CLEANUP+=("$1"); }

# t_free_port: a TCP port P such that P and P+1 are free on loopback. Ports
# come from below the kernel's ephemeral range (32768+ by default), so an
# outgoing connection cannot take one between this check and the bind; every
# socket, not only listeners, is checked.
t_free_port() {
	local p lo=20000 hi
	hi=$(awk '{print $1 - 2}' /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null)
	[ -n "$hi" ] && [ "$hi" -gt $((lo + 1000)) ] || hi=32766
	for _ in $(seq 1 200); do
		p=$(( lo + (RANDOM * 32768 + RANDOM) % (hi - lo) ))
		if ! ss -Hatn "sport = :$p or sport = :$((p + 1))" 2>/dev/null | grep -q .; then
			echo "$p"; return 0
		fi
	done
	return 1
}

# t_resign_raw FILE KEY CERT: sign FILE again in place as an external
# signer would, with none of the checks signelf sign makes: its message
# (signelf digest --message), openssl cms, and the DER written over the
# bytes of its .signature (tests/tools/elfcraft.py setsig: same length, so
# FILE must be signed already with a key of that size). For the files
# the signer refuses, to show what the kernel and signelf verify do.
t_resign_raw() {
	local f=$1 key=$2 cert=$3
	"$BUILD/signelf" digest --message "$f.msg" "$f" >/dev/null &&
	openssl cms -sign -binary -noattr -nocerts -outform DER -md sha256 \
		-signer "$cert" -inkey "$key" -in "$f.msg" -out "$f.der" 2>/dev/null &&
	python3 "$TOP/tests/tools/elfcraft.py" setsig "$f" "$f.der" &&
	rm -f "$f.msg" "$f.der"
}
