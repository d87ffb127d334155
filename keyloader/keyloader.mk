# SPDX-License-Identifier: GPL-2.0-only
# keyloader/: the library (keyloader/lib/) and its programs (keyloader/cli/):
# elfsig-keyloader (boot: fill and lock .elfsig), elfsig-enroll and
# elfsig-init; the initramfs-tools hooks and the dracut module.

KL_PKGS      := tss2-esys tss2-rc tss2-mu tss2-tctildr libcrypto
KL_CFLAGS    := $(shell pkg-config --cflags $(KL_PKGS) 2>/dev/null)
KL_LIBS      := $(O)/libelfsig-common.a $(O)/libelfsig-tpm.a \
		$(shell pkg-config --libs $(KL_PKGS) 2>/dev/null) -lkeyutils

KL_LIB_SRCS  := $(addprefix keyloader/lib/,util.c policy.c cert.c keyring.c \
		measure.c pcrvalues.c enroll.c authority.c pcrpolicy.c \
		eventlog.c platca.c counter.c pcrsig.c layout.c enroll_write.c)
KL_LIB_OBJS  := $(KL_LIB_SRCS:%.c=$(O)/%.o)

KL_ENROLL_SRCS := $(addprefix keyloader/cli/,elfsig-enroll.c cmd_common.c \
		  cmd_create.c cmd_add.c cmd_remove.c cmd_reseal.c cmd_show.c \
		  cmd_check.c cmd_sign_pcr_policy.c cmd_migrate.c cmd_predict.c \
		  cmd_counter.c cmd_epoch.c cmd_resign.c cmd_pcrsig.c)
KL_ENROLL_OBJS := $(KL_ENROLL_SRCS:%.c=$(O)/%.o)

$(KL_LIB_OBJS) $(O)/keyloader/cli/elfsig-keyloader.o $(KL_ENROLL_OBJS): \
	CPPFLAGS += -Ikeyloader/lib $(KL_CFLAGS)

$(O)/libelfsig-keyloader.a: $(KL_LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(O)/elfsig-keyloader: $(O)/keyloader/cli/elfsig-keyloader.o $(O)/libelfsig-keyloader.a \
		$(O)/libelfsig-common.a $(O)/libelfsig-tpm.a
	$(CC) $(LDFLAGS) -o $@ $< $(O)/libelfsig-keyloader.a $(KL_LIBS)

# elfsig-enroll signs with the authority's key through common's OSSL_STORE
# loader (common/lib/key.h: file, TPM, PKCS#11); the loader only verifies.
$(O)/elfsig-enroll: $(KL_ENROLL_OBJS) $(O)/libelfsig-keyloader.a \
		$(O)/libelfsig-common.a $(O)/libelfsig-tpm.a
	$(CC) $(LDFLAGS) -o $@ $(KL_ENROLL_OBJS) $(O)/libelfsig-keyloader.a $(KL_LIBS)

PROGRAMS += $(O)/elfsig-keyloader $(O)/elfsig-enroll

# elfsig-init: the initramfs's first process on a signed system
# (keyloader/cli/elfsig-init.c, hooks/elfsig-init). Statically linked (the
# initramfs runs it before anything else) and never sanitized: ASan
# cannot link statically.
PROGRAMS += $(O)/elfsig-init

$(O)/elfsig-init: keyloader/cli/elfsig-init.c
	@mkdir -p $(dir $@)
	$(CC) $(OPT) -std=gnu11 $(WARNINGS) -D_GNU_SOURCE -static -o $@ $<

KL_SUITES := tests/keyloader/unit.sh tests/keyloader/policy.sh \
	     tests/keyloader/load.sh tests/keyloader/srk-pin.sh \
	     tests/keyloader/authority.sh tests/keyloader/predict.sh \
	     tests/keyloader/initramfs.sh tests/keyloader/fuzz-replay.sh \
	     tests/keyloader/platform-ca.sh tests/keyloader/prefilled.sh \
	     tests/keyloader/rollback.sh tests/keyloader/pcrsig.sh \
	     tests/keyloader/faults.sh tests/keyloader/vm.sh
CHECK_SUITES += $(KL_SUITES)
# Not under ASan: initramfs.sh runs the loader from an initramfs image,
# which does not carry the sanitizer's runtime; vm.sh runs it on the
# patched kernel (needs make kernel: kernel/kernel.mk).
KL_ASAN_EXCLUDE := tests/keyloader/initramfs.sh tests/keyloader/vm.sh
ASAN_SUITES  += $(filter-out $(KL_ASAN_EXCLUDE),$(KL_SUITES))

$(O)/keyloader-unit/keyring-find: $(O)/tests/keyloader/unit/keyring_find.o $(O)/libelfsig-keyloader.a \
		$(O)/libelfsig-common.a $(O)/libelfsig-tpm.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(O)/libelfsig-keyloader.a $(KL_LIBS)
$(O)/tests/keyloader/unit/keyring_find.o: CPPFLAGS += -Ikeyloader/lib $(KL_CFLAGS)
CHECK_PREREQS += $(O)/keyloader-unit/keyring-find
$(O)/keyloader-unit/common-read: $(O)/tests/keyloader/unit/common_read.o $(O)/libelfsig-keyloader.a \
		$(O)/libelfsig-common.a $(O)/libelfsig-tpm.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(O)/libelfsig-keyloader.a $(KL_LIBS)
$(O)/tests/keyloader/unit/common_read.o: CPPFLAGS += -Icommon/lib
CHECK_PREREQS += $(O)/keyloader-unit/common-read
$(O)/keyloader-unit/pcr-gen-tbs: $(O)/tests/keyloader/unit/pcr_gen_tbs.o $(O)/libelfsig-keyloader.a \
		$(O)/libelfsig-common.a $(O)/libelfsig-tpm.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(O)/libelfsig-keyloader.a $(KL_LIBS)
$(O)/tests/keyloader/unit/pcr_gen_tbs.o: CPPFLAGS += -Ikeyloader/lib $(KL_CFLAGS)
CHECK_PREREQS += $(O)/keyloader-unit/pcr-gen-tbs

# The parsers' fuzz harness: tests/keyloader/fuzz/, built by
# tests/fuzz/fuzz.mk (make fuzz-keyloader; tests/keyloader/fuzz-replay.sh
# replays it).

# The initramfs-tools hook and the dracut module, their file lists filled
# in from the enrolment layout the programs use (keyloader/lib/kl_layout.def).
KL_LAYOUT_DEF := keyloader/lib/kl_layout.def
kl_layout = $(shell sed -n 's/^KL_LAYOUT([A-Z_]*, *"\([^"]*\)", *KL_LAYOUT_\($(1)\))$$/\1/p' $(KL_LAYOUT_DEF))
KL_LAYOUT_SUBST := -e 's|@KL_LAYOUT_REQUIRED@|$(strip $(call kl_layout,REQUIRED))|' \
		   -e 's|@KL_LAYOUT_OPTIONAL@|$(strip $(call kl_layout,OPTIONAL\|SIG))|' \
		   -e 's|@KL_LAYOUT_DIRS@|$(strip $(call kl_layout,DIR))|'
KL_HOOKS := $(O)/keyloader/initramfs-tools/hooks/elfsig \
	    $(O)/keyloader/dracut/91elfsig/module-setup.sh \
	    $(O)/keyloader/dracut/91elfsig/elfsig-keyloader.sh

$(O)/keyloader/%: keyloader/%.in $(KL_LAYOUT_DEF)
	@mkdir -p $(dir $@)
	sed $(KL_LAYOUT_SUBST) $< > $@.tmp && chmod 0755 $@.tmp && mv $@.tmp $@

$(O)/keyloader/dracut/91elfsig/elfsig-keyloader.sh: keyloader/dracut/91elfsig/elfsig-keyloader.sh
	@mkdir -p $(dir $@)
	cp $< $@

PROGRAMS += $(KL_HOOKS)
