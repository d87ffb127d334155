#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# dracut module: elfsig-keyloader, its libraries, the TPM drivers and the
# enrolment (/etc/elfsig). The TCTI modules libtss2-tctildr dlopens come
# from dracut's own tpm2-tss module.

# ELFSIG_KEYLOADER and ELFSIG_ETC override the defaults, as in the
# initramfs-tools hook.
check() {
	require_binaries "${ELFSIG_KEYLOADER:-/usr/sbin/elfsig-keyloader}" || return 1
	return 0
}

depends() {
	echo tpm2-tss
	return 0
}

installkernel() {
	hostonly='' instmods tpm_tis tpm_crb
}

install() {
	local bin f etc=${ELFSIG_ETC:-/etc/elfsig}

	bin=${ELFSIG_KEYLOADER:-/usr/sbin/elfsig-keyloader}
	inst_binary "$bin" /usr/sbin/elfsig-keyloader || return 1
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
