// SPDX-License-Identifier: GPL-2.0-only
/* bench - exec-and-exit payload of about 2 MiB (musl static) for vm-exec.sh. */
#define PAD (2000 << 10)
static const volatile unsigned char pad[PAD] = { 1, [PAD - 1] = 1 };

int main(void)
{
	return pad[0] - pad[PAD - 1];
}
