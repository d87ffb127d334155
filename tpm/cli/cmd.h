/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd.h - elfsig-tpm's subcommands (the helpers they share: tpm_cli.h). */
#ifndef ELFSIG_TPM_CMD_H
#define ELFSIG_TPM_CMD_H

#include "tpm_cli.h"

int cmd_keygen(int argc, char **argv);
int cmd_seal(int argc, char **argv);
int cmd_unseal(int argc, char **argv);
int cmd_pcrread(int argc, char **argv);
int cmd_pcrextend(int argc, char **argv);
int cmd_evict(int argc, char **argv);
int cmd_srkname(int argc, char **argv);

#endif
