# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# kl_fuzz_seeds DIR: the keyloader fuzz seed corpus, made at test time.
# Each seed's first byte selects the parser (0 policy, 1 certificate,
# 2 PCR values), as in fuzz_keyloader.c.
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
	rm -f "$d/.key" "$d/.pem" "$d/.der"
}
