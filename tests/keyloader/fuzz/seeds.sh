# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# kl_fuzz_seeds DIR: the keyloader fuzz seed corpus, made at test time.
# Each seed's first byte selects the parser (0 policy, 1 certificate,
# 2 PCR values, 3 signed PCR policy, 4 TCG event log, 5 rollback counter
# binding, 6 systemd .pcrsig JSON), as in
# fuzz_keyloader.c.
kl_fuzz_seeds() {
	local d=$1 fp
	mkdir -p "$d"
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$d/.key" -out "$d/.pem" \
		-subj "/CN=fuzz seed/O=elfsig" -days 1 2>/dev/null || return 1
	openssl x509 -in "$d/.pem" -outform DER -out "$d/.der" || return 1
	fp=$(sha256sum < "$d/.der" | cut -d' ' -f1)
	{ printf '\x00# reviewed\nelfsig-policy 1\npcrs sha256:0,2,4,7\nmeasure-pcr 13\n\n# CN=fuzz seed\nkey sha256:%s\n' "$fp"; } > "$d/policy"
	printf '\x00elfsig-policy 1\npcrs sha256:0-7\nmeasure-pcr 15\n' > "$d/policy-empty"
	{ printf '\x01'; cat "$d/.pem"; } > "$d/cert-pem"
	{ printf '\x01'; cat "$d/.der"; } > "$d/cert-der"
	{ printf '\x02'; for i in 0 2 4 7; do printf 'sha256:%d=%064x\n' "$i" "$i"; done; } > "$d/pcrs"
	{ printf '\x02  sha1:\n    0 : 0x%040x\n  sha256:\n' 0; for i in 0 2 4 7; do printf '    %d : 0x%064X\n' "$i" "$i"; done; } > "$d/pcrs-tpm2"
	{ printf '\x00elfsig-policy 2\nauthority sha256:%s\npcrs sha256:0,2,4,7\nmeasure-pcr 13\n\n# CN=fuzz seed\nkey sha256:%s\n' "$fp" "$fp"; } > "$d/policy-v2"
	# A signed PCR policy for sha256:0,2,4,7 all zero (the policy digest
	# is checked against the values; the signature is not, here).
	{ printf '\x03# seed\nelfsig-pcr-policy 1\nauthority sha256:%s\npcrs sha256:0,2,4,7\n' "$fp"
	  for i in 0 2 4 7; do printf 'pcr sha256:%d=%064d\n' "$i" 0; done
	  printf 'policy 4f04c837291ac05d8c8fceb5d03ac530d3189c1dd24dc744f2145cf71eaa9cf6\nsignature %0140x\n' 7
	} > "$d/pcr-policy"
	{ printf '\x03elfsig-pcr-policy 2\nauthority sha256:%s\ngeneration 3\npcrs sha256:0,2,4,7\n' "$fp"
	  for i in 0 2 4 7; do printf 'pcr sha256:%d=%064d\n' "$i" 0; done
	  printf 'policy 4f04c837291ac05d8c8fceb5d03ac530d3189c1dd24dc744f2145cf71eaa9cf6\nsignature %0140x\ngeneration-signature %0140x\n' 7 9
	} > "$d/pcr-policy-v2"
	{ printf '\x03elfsig-pcr-policy 3\nauthority sha256:%s\ngeneration 3\nsrk 000b%s\npcrs sha256:0,2,4,7\n' "$fp" "$fp"
	  for i in 0 2 4 7; do printf 'pcr sha256:%d=%064d\n' "$i" 0; done
	  printf 'policy 4f04c837291ac05d8c8fceb5d03ac530d3189c1dd24dc744f2145cf71eaa9cf6\nsignature %0140x\ngeneration-signature %0140x\n' 7 9
	} > "$d/pcr-policy-v3"
	{ printf '\x00elfsig-policy 4\nauthority sha256:%s\ngeneration 12\nsrk 000b%s\npcrs sha256:0,2,4,7\nmeasure-pcr 13\n\nkey sha256:%s\n' "$fp" "$fp" "$fp"; } > "$d/policy-v4"
	{ printf '\x00elfsig-policy 3\nauthority sha256:%s\ngeneration 12\npcrs sha256:0,2,4,7\nmeasure-pcr 13\n\nkey sha256:%s\n' "$fp" "$fp"; } > "$d/policy-v3"
	{ printf '\x05# seed\nelfsig-counter 1\nauthority sha256:%s\nsrk 000b%s\nnv-index 0x0100e15f\nnv-name 000b%s\nbase 18446744073709551615\n' "$fp" "$fp" "$fp"; } > "$d/binding"
	{ printf '\x00elfsig-policy 3\nauthority sha256:%s\ngeneration 1\npcrs sha256:0,2,4,7\nmeasure-pcr 13\npcrsig-key sha256:%s\npcrsig-pcrs sha256:11\n\nkey sha256:%s\n' "$fp" "$fp" "$fp"; } > "$d/policy-pcrsig"
	# systemd-measure sign's shape: two banks, the sha256 one with two
	# phases (the signatures are not checked here).
	{ printf '\x06{"sha1":[{"pcrs":[11],"pkfp":"%s","pol":"%s","sig":"AAEC"}],' "$fp" "$fp"
	  printf '"sha256":[{"pcrs":[11],"pkfp":"%s","pol":"%s","sig":"cVfDaw7RzsVHES8z//b69A=="},' "$fp" "$fp"
	  printf ' {"pcrs" : [ 4, 11 ], "sig":"AA==", "pol":"%s", "pkfp":"%s"}]}\n' "$fp" "$fp"
	} > "$d/pcrsig"
	# A crypto-agile event log: Spec ID, StartupLocality, two events.
	python3 - "$d/event-log" <<'PY' || return 1
import hashlib, struct, sys
def ev2(pcr, typ, data, d256=None):
    return (struct.pack("<III", pcr, typ, 2) + struct.pack("<H", 4) + hashlib.sha1(data).digest() +
            struct.pack("<H", 0xb) + (d256 or hashlib.sha256(data).digest()) +
            struct.pack("<I", len(data)) + data)
spec = (b"Spec ID Event03\0" + struct.pack("<IBBBBI", 0, 0, 2, 0, 2, 2) +
        struct.pack("<HHHH", 4, 20, 0xb, 32) + b"\0")
log = b"\4" + struct.pack("<II", 0, 3) + b"\0" * 20 + struct.pack("<I", len(spec)) + spec
log += ev2(0, 3, b"StartupLocality\0\3", b"\0" * 32)
log += ev2(0, 8, b"firmware") + ev2(4, 0xd, b"loader", b"\0" * 32)
open(sys.argv[1], "wb").write(log)
PY
	rm -f "$d/.key" "$d/.pem" "$d/.der"
}
