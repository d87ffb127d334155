# SPDX-License-Identifier: GPL-2.0-only
# signer/: libelfsig and signelf (filled in by the signer work).
