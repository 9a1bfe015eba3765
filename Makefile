# SPDX-License-Identifier: GPL-2.0-only
#
# pvshim: `make` builds the shim (CONFIG=default|debug|perfc|no-thunk, V=1 shows
# commands), `make run` boots a Debian disk image, `make check` runs every
# test, `make install` (PREFIX, DESTDIR) installs it, `make deb` packages it.

CONFIG ?= default
include configs/$(CONFIG).config

BUILD := build/$(CONFIG)
Q := $(if $(filter 1,$(V)),,@)
say = $(if $(Q),@printf '  %-7s %s\n' $(1) $(2))

CC      := gcc
LD      := ld
OBJCOPY := objcopy
NM      := nm
HOSTCC  := cc
GCCINC  := $(shell $(CC) -print-file-name=include)

# Xen and multiboot headers come from Debian; link only those folders in,
# so libc's headers stay out of the freestanding build.
SYSINC := build/include

CPPFLAGS := -nostdinc -isystem $(GCCINC) -I. -I$(SYSINC) -I$(BUILD)/include
# We implement the interface of the headers we build with.
CPPFLAGS += -D__XEN_INTERFACE_VERSION__=0x00040e00
CPPFLAGS += $(if $(filter y,$(CONFIG_DEBUG)),-DCONFIG_DEBUG=1)
CPPFLAGS += $(if $(filter y,$(CONFIG_INDIRECT_THUNK)),-DCONFIG_INDIRECT_THUNK=1)
CPPFLAGS += $(if $(filter y,$(CONFIG_UNIFIED_HYPERCALL)),-DCONFIG_UNIFIED_HYPERCALL=1)
CPPFLAGS += $(if $(filter y,$(CONFIG_PERF_COUNTERS)),-DCONFIG_PERF_COUNTERS=1)

CFLAGS := -std=gnu11 -ffreestanding -m64 -march=x86-64 -mno-red-zone
CFLAGS += -mgeneral-regs-only -fpie -fno-stack-protector
CFLAGS += -fno-omit-frame-pointer -fno-asynchronous-unwind-tables
CFLAGS += -fno-strict-aliasing -fcf-protection=none -fno-common
CFLAGS += -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter
CFLAGS += -MMD -MP
ifeq ($(CONFIG_INDIRECT_THUNK),y)
CFLAGS += -mindirect-branch=thunk-extern -mindirect-branch-register
# A switch must not become an indirect jump through a thunk (as Linux).
CFLAGS += -fno-jump-tables
CFLAGS += -mfunction-return=keep
endif
ASFLAGS := -m64 -D__ASSEMBLER__ -D__ASSEMBLY__ -DASM_FILE -MMD -MP
LDFLAGS := -nostdlib -static -z max-page-size=0x1000 -z noexecstack
LDFLAGS += --build-id=sha1

HOSTCFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror

SRCS := boot/head.S $(wildcard boot/*.c)
SRCS += $(filter-out arch/x86/asm-offsets.c,$(wildcard arch/x86/*.c))
SRCS += $(filter-out arch/x86/indirect-thunk.S,$(wildcard arch/x86/*.S))
SRCS += $(wildcard shim/*.c shim/lib/*.c shim/decompress/*.c)
SRCS += $(filter-out pv/compat/layout-gen.c,$(wildcard pv/*.c pv/*/*.c pv/*.S))
SRCS += $(wildcard backends/*.c backends/*/*.c)
SRCS += $(wildcard drivers/*.c drivers/*/*.c)
ifeq ($(CONFIG_INDIRECT_THUNK),y)
SRCS += arch/x86/indirect-thunk.S
endif
OBJS := $(patsubst %,$(BUILD)/%.o,$(basename $(SRCS)))

GEN := $(SYSINC)/xen $(SYSINC)/multiboot $(BUILD)/include/asm-offsets.h \
       $(BUILD)/include/shim/version.h $(SYSINC)/compat-layout.h

.PHONY: all run run-initramfs run-demo check unit bench linux-check initramfs clean distclean deps FORCE
.PHONY: install uninstall deb
all: $(BUILD)/pvshim $(BUILD)/pvshim-pvh

$(SYSINC)/xen $(SYSINC)/multiboot:
	@mkdir -p $(SYSINC)
	$(Q)ln -sfn /usr/include/$(notdir $@) $@

# The `.ascii "->SYM VALUE"` lines of an offsets file's assembly, as
# `#define SYM VALUE`.
ASCII_DEFINES := sed -n 's/^[[:space:]]*\.ascii[[:space:]]*"->\([A-Za-z_0-9]*\) \$$\{0,1\}\(-\{0,1\}[0-9]*\)"/\#define \1 \2/p'

# Its own dependencies too (the structures' headers): a new field in
# struct cpu_info must move the entry code's offsets with it.
$(BUILD)/include/asm-offsets.h: arch/x86/asm-offsets.c $(SYSINC)/xen
	$(call say,GEN,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -MF $@.d -MT $@ -S -o $@.s $<
	$(Q)$(ASCII_DEFINES) $@.s > $@.tmp && mv $@.tmp $@

# The 32-bit (compat) guest's layout of the Xen structures pv/compat/
# translates: the same headers compiled -m32, to assembly only (nothing
# is linked, so no 32-bit libc is needed), one define per "->" line.
COMPAT_GEN_FLAGS := -std=gnu11 -m32 -ffreestanding -O2 -Wall -Wextra -Werror

$(SYSINC)/compat-layout.h: pv/compat/layout-gen.c pv/compat/same.h \
                           | $(SYSINC)/xen
	$(call say,GEN,$@)
	$(Q)$(CC) $(CPPFLAGS) $(COMPAT_GEN_FLAGS) -S -o $@.s $<
	$(Q){ echo '/* Generated from $< by gcc -m32: do not edit. */'; \
	  echo '#ifndef COMPAT_LAYOUT_H'; echo '#define COMPAT_LAYOUT_H'; \
	  $(ASCII_DEFINES) $@.s; \
	  echo '#endif'; } > $@.tmp && mv $@.tmp $@ && rm -f $@.s

# Rewritten only when the text changes, so version bumps don't rebuild all.
$(BUILD)/include/shim/version.h: FORCE
	@mkdir -p $(dir $@)
	@v=$${PVSHIM_VERSION:-$$(git describe --always --dirty 2>/dev/null || \
	    echo unknown)}; \
	 c=$$($(CC) --version | head -n1); \
	 printf '#define PVSHIM_VERSION "%s"\n#define PVSHIM_COMPILER "%s"\n' \
	     "$$v" "$$c" > $@.tmp; \
	 cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

# Objects depend on the flags too: a config change rebuilds what it must.
$(BUILD)/.flags: FORCE
	@mkdir -p $(dir $@)
	@echo '$(CPPFLAGS) $(CFLAGS) $(ASFLAGS) $(LDFLAGS)' > $@.tmp; \
	 cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(BUILD)/%.o: %.c $(BUILD)/.flags | $(GEN)
	$(call say,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/%.o: %.S $(BUILD)/.flags | $(GEN)
	$(call say,AS,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(ASFLAGS) -c -o $@ $<

$(BUILD)/shim.lds: boot/shim.lds.S arch/x86/layout.h
	@mkdir -p $(dir $@)
	$(Q)$(CC) -E -P -D__ASSEMBLER__ -I. -x c $< -o $@

# Two links: the first has an empty symbol table, the second the real one,
# placed after all text so no function moves (checked below).
$(BUILD)/symbols-empty.S:
	@mkdir -p $(dir $@)
	$(Q)tools/gen-symbols.sh /dev/null > $@

$(BUILD)/pvshim-syms.1: $(OBJS) $(BUILD)/symbols-empty.o $(BUILD)/shim.lds
	$(call say,LD,$@)
	$(Q)$(LD) $(LDFLAGS) -T $(BUILD)/shim.lds -o $@ $(OBJS) \
	    $(BUILD)/symbols-empty.o

$(BUILD)/symbols.S: $(BUILD)/pvshim-syms.1 tools/gen-symbols.sh
	$(Q)$(NM) -n $< | tools/gen-symbols.sh /dev/stdin > $@

$(BUILD)/%.o: $(BUILD)/%.S
	$(Q)$(CC) $(ASFLAGS) -c -o $@ $<

$(BUILD)/pvshim-syms: $(OBJS) $(BUILD)/symbols.o $(BUILD)/shim.lds
	$(call say,LD,$@)
	$(Q)$(LD) $(LDFLAGS) -T $(BUILD)/shim.lds -o $@ $(OBJS) $(BUILD)/symbols.o
	$(Q)$(NM) -n $(BUILD)/pvshim-syms.1 | grep ' [tT] ' > $@.t1
	$(Q)$(NM) -n $@ | grep ' [tT] ' > $@.t2
	$(Q)cmp -s $@.t1 $@.t2 || { echo "symbols moved between links" >&2; \
	    rm -f $@; exit 1; }

# Multiboot loaders (QEMU -kernel, GRUB) get a 32-bit ELF, as Xen's do.
$(BUILD)/pvshim: $(BUILD)/pvshim-syms $(BUILD)/tools/mkelf32
	$(call say,MKELF32,$@)
	$(Q)$(BUILD)/tools/mkelf32 $< $@

# PVH: the ELF64 itself, with the multiboot1 header zeroed, because QEMU
# takes the multiboot path for any image that has one.
$(BUILD)/pvshim-pvh: $(BUILD)/pvshim-syms
	$(call say,OBJCOPY,$@)
	$(Q)head -c 12 /dev/zero > $@.zero
	$(Q)$(OBJCOPY) --strip-debug --update-section .mb1=$@.zero $< $@

$(BUILD)/tools/%: tools/%.c
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(HOSTCFLAGS) -o $@ $<

# ---------------------------------------------------------------- install

# make install [PREFIX=/usr/local] [DESTDIR=] [CONFIG=...]: CONFIG's shim
# images into PREFIX/lib/pvshim (boot images for x86-64 machines, so
# architecture-dependent: lib, not share, as Debian's Xen keeps its
# xen-shim in /usr/lib/xen-4.17/boot), the tools into PREFIX/bin with
# that directory written in as their default (the line
# `default_shim_dir=` of each), every docs/man/*.1, and README.md and
# docs/ (its links kept) into PREFIX/share/doc/pvshim.  DESTDIR is a
# staging root, as packagers use it (debian/rules).
PREFIX ?= /usr/local
bindir := $(PREFIX)/bin
pkglibdir := $(PREFIX)/lib/pvshim
man1dir := $(PREFIX)/share/man/man1
docdir := $(PREFIX)/share/doc/pvshim
INSTALL_TOOLS := $(wildcard tools/pvshim-run tools/pvshim-image)
INSTALL_MAN1 := $(wildcard docs/man/*.1)
INSTALL_DOCS := $(wildcard docs/*.md)
INSTALL_DOC_IMAGES := $(wildcard docs/bench/*.png)
D := $(DESTDIR)

install: all
	$(call say,INSTALL,$(D)$(PREFIX))
	$(Q)install -d $(D)$(bindir) $(D)$(pkglibdir) $(D)$(man1dir) \
	    $(D)$(docdir)/docs/bench
	$(Q)install -m 644 $(BUILD)/pvshim $(BUILD)/pvshim-pvh $(D)$(pkglibdir)
	$(Q)for t in $(INSTALL_TOOLS); do \
	    sed 's|^default_shim_dir=.*|default_shim_dir="$(pkglibdir)"|' \
	        $$t >$(D)$(bindir)/$${t##*/}.tmp && \
	    chmod 755 $(D)$(bindir)/$${t##*/}.tmp && \
	    mv $(D)$(bindir)/$${t##*/}.tmp $(D)$(bindir)/$${t##*/} || exit 1; \
	done
	$(Q)grep -qx 'default_shim_dir="$(pkglibdir)"' $(D)$(bindir)/pvshim-run \
	    || { echo "make install: no default_shim_dir= line in" \
	        "tools/pvshim-run to point at $(pkglibdir)" >&2; exit 1; }
	$(Q)install -m 644 $(INSTALL_MAN1) $(D)$(man1dir)
	$(Q)install -m 644 README.md $(D)$(docdir)
	$(Q)install -m 644 $(INSTALL_DOCS) $(D)$(docdir)/docs
	$(Q)install -m 644 $(INSTALL_DOC_IMAGES) $(D)$(docdir)/docs/bench

uninstall:
	$(Q)rm -f $(patsubst tools/%,$(D)$(bindir)/%,$(INSTALL_TOOLS)) \
	    $(patsubst docs/man/%,$(D)$(man1dir)/%,$(INSTALL_MAN1))
	$(Q)rm -rf $(D)$(pkglibdir) $(D)$(docdir)

# The Debian package (debian/, dpkg-buildpackage), built from a copy of
# the checkout's files and checked by lintian: build/deb/pvshim_*.deb.
deb:
	$(Q)tools/make-deb

# ---------------------------------------------------------------- tests

include tests/guests/guests.mk
include tests/fuzz/fuzz.mk

# The fuzz guests over many seeds and both widths (make check runs a
# short one of each in every guest pass, the pass's number its seed;
# make fuzz adds these to the libFuzzer runs): mm-fuzz
# for the MMU, hcall-fuzz for every hypercall (grants, MMU and memory_op
# aimed at its own tables and grants), each with the frame table audited
# after every call that moves references.  Each seed also picks its own
# hypercall-batch, so continuations fall in different places.
FUZZ_GUEST_SEEDS ?= 1 2 3 4 5 6 7 8
FUZZ_GUEST_OPS   ?= 20000
FUZZ_HCALL_OPS   ?= 200000

# $(call fuzz_seeds,GUEST,OPS,SHIM-OPTIONS): one PASS/FAIL line a seed and
# width; a shim fault, panic or failed audit fails it.
define fuzz_seeds
	@mkdir -p build/fuzz
	$(Q)for s in $(FUZZ_GUEST_SEEDS); do for w in 64 32; do \
	    sfx=$$(test $$w = 32 && echo 32); \
	    dir=build/guests$$sfx; log=build/fuzz/$(1)$$sfx-$$s.log; \
	    if tools/pvshim-run $$dir/$(1).elf --memory 128M \
	        --timeout 7200 --shim-cmdline "$(3) hypercall-batch=$$s" \
	        --guest-cmdline "seed=$$s iterations=$(2)" \
	        </dev/null >$$log 2>&1 && \
	       grep -aq 'Test result: SUCCESS' $$log && \
	       ! grep -aqE 'Panic on CPU|FATAL TRAP|mm audit: FAILED' $$log; \
	    then echo "PASS: fuzz: $(1) pv$$w seed $$s ($(2) ops)"; \
	    else echo "FAIL: fuzz: $(1) pv$$w seed $$s ($$log)"; \
	    fi; done; done
endef

.PHONY: fuzz-guest fuzz-hcall
fuzz-guest: all guests
	$(call fuzz_seeds,mm-fuzz,$(FUZZ_GUEST_OPS),mm-audit)
fuzz-hcall: all guests
	$(call fuzz_seeds,hcall-fuzz,$(FUZZ_HCALL_OPS),mm-audit)
fuzz: fuzz-guest fuzz-hcall

UNIT_TESTS := $(patsubst tests/unit/%.c,build/unit/%,\
                $(wildcard tests/unit/test-*.c))
UNIT_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -Werror \
               -fsanitize=address,undefined -fno-sanitize-recover=all \
               -I. -I$(SYSINC) -DSHIM_HOST_TEST -MMD -MP

build/unit/%: tests/unit/%.c | $(SYSINC)/xen $(SYSINC)/multiboot
	$(call say,HOSTCC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(UNIT_CFLAGS) $< -o $@

# The compat tests also link the fixtures a 32-bit guest would pass:
# compiled -m32 against the same headers into data alone, then made an
# x86-64 object, so the tests need no 32-bit libc (see
# tests/unit/compat-fixtures.h).
COMPAT_FX := build/unit/compat-fixtures32.o
XEN_IFACE := $(filter -D__XEN_INTERFACE_VERSION__=%,$(CPPFLAGS))

$(COMPAT_FX): tests/unit/compat-fixtures32.c | $(SYSINC)/xen
	$(call say,CC32,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(COMPAT_GEN_FLAGS) -MMD -MP -MF $@.d -MT $@ \
	    -c -o $@.i386 $<
	$(Q)$(OBJCOPY) -I elf32-i386 -O elf64-x86-64 $@.i386 $@

build/unit/test-compat-%: tests/unit/test-compat-%.c $(COMPAT_FX) \
                          | $(SYSINC)/xen $(SYSINC)/compat-layout.h
	$(call say,HOSTCC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(UNIT_CFLAGS) $(XEN_IFACE) $< $(COMPAT_FX) -o $@

# mem_flags (xen/memory.h) exist from interface 0x00030209: the shim's.
build/unit/test-memop-bits: UNIT_CFLAGS += $(XEN_IFACE)
# ring.h's barriers are the includer's from interface 0x00030209 on.
build/unit/test-blkif-ring build/unit/test-gpt: UNIT_CFLAGS += $(XEN_IFACE)
# ring.h's barriers: the shim's interface version, whose it defines.
build/unit/test-netback: UNIT_CFLAGS += $(XEN_IFACE)

# Two threads on the xenstore ring: the guest's and the backend's.
build/unit/test-xenstore-race: UNIT_CFLAGS += -pthread
# The guest's and the shim's CPUs on the FIFO queues.
build/unit/test-event-fifo-race: UNIT_CFLAGS += -pthread
build/unit/test-page-type-race: UNIT_CFLAGS += -pthread

unit: $(UNIT_TESTS)

deps:
	$(Q)ci/deps.sh

# A Debian 12 guest from its own disk, as Xen users boot one: Debian's PV
# GRUB reads the image's grub.cfg from xvda and starts its kernel, to a
# login on hvc0 (root, password root).  The disk is build/debian/run.img,
# a copy of ci/deps.sh's image (tools/make-debian-image) kept between
# runs, made afresh when that image is rebuilt.  The NIC is a virtio-net
# device on QEMU's user network restricted to this machine (pvshim-run
# --net user), which the shim's network backend gives the guest as eth0;
# the guest takes its address by DHCP.  Leave with poweroff (or Ctrl-a x).
RUN_DISK := build/debian/run.img
run: deps all
	$(Q)img=$$(tools/make-debian-image --cached) || { echo "make run: no" \
	    "Debian image: ci/deps.sh builds it (a network is needed)"; \
	    exit 1; }; \
	[ $(RUN_DISK) -nt "$$img" ] || \
	    cp --sparse=always "$$img" $(RUN_DISK) || exit 1; \
	grub=$$(tools/fetch-pvgrub) || exit 1; \
	tools/pvshim-run --shim-dir $(BUILD) "$$grub" --memory 1G \
	    --disk $(RUN_DISK) --net user --on-reboot restart

# Debian's Linux on the shim, to its busybox shell on hvc0: leave with
# poweroff (or Ctrl-a x).
run-initramfs: deps all initramfs
	$(Q)tools/pvshim-run --shim-dir $(BUILD) build/linux/vmlinux \
	    --initrd build/initramfs/initramfs.cpio --guest-cmdline "console=hvc0"

# The small demo guest (what make run booted before Linux did).
run-demo: deps all guests
	$(Q)tools/pvshim-run --shim-dir $(BUILD) build/guests/hello.elf \
	    --guest-cmdline "console=hvc0 the demo's command line"

# Every configuration built, then every test as jobs side by side: as
# many as the host has cores, or -jN, or CHECK_JOBS=N (ci/check.sh).
check: deps
	$(Q)ci/check.sh

bench: deps all
	$(Q)tests/bench/run.sh

# The busybox initramfs Linux boots (build/initramfs/initramfs.cpio).
initramfs:
	$(Q)tools/make-initramfs

# Debian's Linux PV kernel on the shim: how far it boots (make check too).
linux-check: deps all
	$(Q)tests/boot/linux.sh

clean:
	rm -rf build

-include $(OBJS:.o=.d) $(UNIT_TESTS:=.d) $(COMPAT_FX).d \
         $(BUILD)/include/asm-offsets.h.d
