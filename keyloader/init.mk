# SPDX-License-Identifier: GPL-2.0-only
# elfsig-init: the initramfs's first process on a signed system
# (keyloader/elfsig-init.c, hooks/elfsig-init). Statically linked (the
# initramfs runs it before anything else) and never sanitized: ASan
# cannot link statically.
PROGRAMS += $(O)/elfsig-init

$(O)/elfsig-init: keyloader/elfsig-init.c
	@mkdir -p $(dir $@)
	$(CC) $(OPT) -std=gnu11 $(WARNINGS) -D_GNU_SOURCE -static -o $@ $<
