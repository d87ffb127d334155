#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# dracut module: elfsig-keyloader, its libraries, the TCTI modules tpm2-tss
# dlopens, the TPM drivers and the enrolment (/etc/elfsig).

# ELFSIG_KEYLOADER and ELFSIG_ETC override the defaults, as in the
# initramfs-tools hook.
check() {
	require_binaries "${ELFSIG_KEYLOADER:-/usr/sbin/elfsig-keyloader}" || return 1
	return 0
}

depends() {
	return 0
}

installkernel() {
	hostonly='' instmods tpm_tis tpm_crb
}

install() {
	local bin tctildr tcti lib f etc=${ELFSIG_ETC:-/etc/elfsig}

	bin=${ELFSIG_KEYLOADER:-/usr/sbin/elfsig-keyloader}
	inst_binary "$bin" /usr/sbin/elfsig-keyloader || return 1
	# Loaded with dlopen by libtss2-tctildr, so not in the ldd closure.
	tctildr=$(ldd "$bin" | sed -n 's/^[[:blank:]]*libtss2-tctildr\.so\.0 => \([^ ]*\) .*/\1/p')
	[ -n "$tctildr" ] || { derror "elfsig: $bin lacks libtss2-tctildr"; return 1; }
	for tcti in device swtpm mssim; do
		lib=${tctildr%/*}/libtss2-tcti-$tcti.so.0
		[ -e "$lib" ] && inst_library "$lib"
	done
	if [[ -f $etc/policy && -f $etc/policy.sealed ]]; then
		inst_simple "$etc/policy" /etc/elfsig/policy
		inst_simple "$etc/policy.sealed" /etc/elfsig/policy.sealed
		# The authority's public key, the policy's signature and the
		# signed PCR policies (absent from a version 1 enrolment); with
		# the pcrsig opt-in, the systemd key, its object and .pcrsig files.
		for f in policy.sig authority.pem counter counter.sig \
			 pcrsig-key.pem pcrsig.sealed; do
			[[ -f $etc/$f ]] && inst_simple "$etc/$f" "/etc/elfsig/$f"
		done
		for f in "$etc"/certs/* "$etc"/pcr-policies/* "$etc"/pcrsig/*; do
			[[ -f $f ]] && inst_simple "$f" "/etc/elfsig/${f#"$etc"/}"
		done
	else
		dwarn "elfsig: no enrolment in $etc: the loader will lock an empty .elfsig keyring"
	fi
	[[ -f $etc/initramfs.conf ]] && inst_simple "$etc/initramfs.conf" /etc/elfsig/initramfs.conf
	# pre-udev: the earliest hook point, before udev and the initqueue.
	# shellcheck disable=SC2154 # moddir is set by dracut
	inst_hook pre-udev 00 "$moddir/elfsig-keyloader.sh"
}
