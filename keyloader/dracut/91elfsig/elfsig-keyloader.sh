#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# dracut pre-udev hook: fill and lock the .elfsig keyring (see
# docs/keyloader.md); boot goes on whatever the outcome.
# shellcheck disable=SC1091 # present in the initramfs, not here
[ -f /etc/elfsig/initramfs.conf ] && . /etc/elfsig/initramfs.conf
if [ ! -e /dev/tpmrm0 ]; then
	modprobe -q tpm_crb 2>/dev/null
	modprobe -q tpm_tis 2>/dev/null
	i=0
	while [ ! -e /dev/tpmrm0 ] && [ "$i" -lt "${ELFSIG_TPM_WAIT:-30}" ]; do
		sleep 0.1
		i=$((i + 1))
	done
fi
# shellcheck disable=SC2086
/usr/sbin/elfsig-keyloader ${ELFSIG_KEYLOADER_OPTS-} ||
	warn "elfsig-keyloader exited with status $?"
