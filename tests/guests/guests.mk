# SPDX-License-Identifier: GPL-2.0-only
#
# PV test kernels, two of each test as XTF builds its pv64 and pv32pae
# environments: build/guests/NAME.elf (64-bit, kernel in ring 3) and
# build/guests32/NAME.elf (32-bit PAE, "compat": kernel in ring 1) for
# every tests/guests/NAME/main.c, each linked with the guest library in
# tests/guests/lib (lib/*.c for both, lib/x86_64/ or lib/x86_32/ for what
# differs by width).  A test whose expect file has a `pv64-only` line is
# built for 64-bit guests only.  Included by the top-level Makefile
# (paths are relative to the repository root); on its own:
# `make -f tests/guests/guests.mk guests`.
#
# Defines GUEST_ELFS and GUEST32_ELFS (the kernels), GUEST_NAMES and
# GUEST32_NAMES, and the phony `guests`, `guests64` and `guests32`;
# included, it leaves the includer's default goal alone.

GUEST_STANDALONE := $(filter 1,$(words $(MAKEFILE_LIST)))
GUEST_OLD_GOAL   := $(.DEFAULT_GOAL)

GUEST_SRC     := tests/guests
GUEST_OUT     := build/guests
GUEST32_OUT   := build/guests32
GUEST_NAMES   := $(filter-out lib,\
                   $(patsubst $(GUEST_SRC)/%/main.c,%,\
                     $(wildcard $(GUEST_SRC)/*/main.c)))
GUEST_PV64_ONLY := $(patsubst $(GUEST_SRC)/%/expect,%,\
                     $(shell grep -l '^pv64-only' \
                       $(wildcard $(GUEST_SRC)/*/expect) /dev/null))
GUEST32_NAMES := $(filter-out $(GUEST_PV64_ONLY),$(GUEST_NAMES))
GUEST_ELFS    := $(GUEST_NAMES:%=$(GUEST_OUT)/%.elf)
GUEST32_ELFS  := $(GUEST32_NAMES:%=$(GUEST32_OUT)/%.elf)
GUEST_LDS     := $(GUEST_SRC)/lib/guest.lds

GUEST_CC ?= gcc
GUEST_LD ?= ld
Q        ?= $(if $(filter 1,$(V)),,@)
guest_say = $(if $(Q),@printf '  %-7s %s\n' $(1) $(2))

# Only the Xen headers (through build/include/xen) and gcc's own headers;
# the Xen headers take the guest's width from -m64 / -m32 (__i386__ picks
# xen-x86_32.h, the compat ABI's layouts).
GUEST_CPPFLAGS := -nostdinc
GUEST_CPPFLAGS += -isystem $(shell $(GUEST_CC) -print-file-name=include)
GUEST_CPPFLAGS += -Ibuild/include -I$(GUEST_SRC)/lib
GUEST_CPPFLAGS += -D__XEN_INTERFACE_VERSION__=__XEN_LATEST_INTERFACE_VERSION__
GUEST_CFLAGS   := -std=gnu11 -ffreestanding -mgeneral-regs-only -fno-pic
GUEST_CFLAGS   += -fno-pie -fno-stack-protector
GUEST_CFLAGS   += -fno-asynchronous-unwind-tables
GUEST_CFLAGS   += -fcf-protection=none -fno-common -fno-strict-aliasing
GUEST_CFLAGS   += -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter
GUEST_CFLAGS   += -MMD -MP
GUEST_ASFLAGS  := -D__ASSEMBLY__ -MMD -MP -Wa,--fatal-warnings
GUEST_LDFLAGS  := -nostdlib -static -z max-page-size=0x1000
GUEST_LDFLAGS  += -z noexecstack --build-id=none --fatal-warnings

# Per width: the compiler's mode, its arch directory, the linker's.
GUEST64_ARCH   := -m64 -march=x86-64 -mno-red-zone -mcmodel=small
GUEST64_DIR    := x86_64
GUEST64_EMUL   := elf_x86_64
# i686: cmpxchg8b, which 64-bit atomics (PTEs, event words) need.
GUEST32_ARCH   := -m32 -march=i686
GUEST32_DIR    := x86_32
GUEST32_EMUL   := elf_i386

.PHONY: guests guests64 guests32
guests: guests64 guests32
guests64: $(GUEST_ELFS)
guests32: $(GUEST32_ELFS)

# The Xen headers come in through a link, as in the top-level Makefile.
build/include/.guest-xen-include:
	@mkdir -p build/include
	$(Q)[ -e build/include/xen ] || ln -sfn /usr/include/xen build/include/xen
	@touch $@

# $(call guest_set,OUT,WIDTH,NAMES): the rules for one width's kernels
# in OUT: lib/*.c and lib/x86_WIDTH/*.{c,S} into OUT/lib, each test's
# main.c into OUT/NAME/main.o, linked into OUT/NAME.elf.
define guest_set
$(1)_LIB_SRCS := $$(wildcard $$(GUEST_SRC)/lib/*.c \
                   $$(GUEST_SRC)/lib/$$(GUEST$(2)_DIR)/*.c \
                   $$(GUEST_SRC)/lib/$$(GUEST$(2)_DIR)/*.S)
$(1)_LIB_OBJS := $$(patsubst $$(GUEST_SRC)/lib/%,$(1)/lib/%.o,\
                   $$($(1)_LIB_SRCS))
$(1)_FLAGS    := $$(GUEST$(2)_ARCH) \
                 -I$$(GUEST_SRC)/lib/$$(GUEST$(2)_DIR)

$$(filter %.c.o,$$($(1)_LIB_OBJS)): $(1)/lib/%.c.o: $$(GUEST_SRC)/lib/%.c \
        | build/include/.guest-xen-include
	$$(call guest_say,CC$(2),$$<)
	@mkdir -p $$(dir $$@)
	$$(Q)$$(GUEST_CC) $$(GUEST_CPPFLAGS) $$($(1)_FLAGS) $$(GUEST_CFLAGS) \
	    -c -o $$@ $$<

$$(filter %.S.o,$$($(1)_LIB_OBJS)): $(1)/lib/%.S.o: $$(GUEST_SRC)/lib/%.S \
        | build/include/.guest-xen-include
	$$(call guest_say,AS$(2),$$<)
	@mkdir -p $$(dir $$@)
	$$(Q)$$(GUEST_CC) $$(GUEST_CPPFLAGS) $$($(1)_FLAGS) $$(GUEST_ASFLAGS) \
	    -c -o $$@ $$<

$$($(3):%=$(1)/%/main.o): $(1)/%/main.o: $$(GUEST_SRC)/%/main.c \
        | build/include/.guest-xen-include
	$$(call guest_say,CC$(2),$$<)
	@mkdir -p $$(dir $$@)
	$$(Q)$$(GUEST_CC) $$(GUEST_CPPFLAGS) $$($(1)_FLAGS) $$(GUEST_CFLAGS) \
	    -c -o $$@ $$<

$$($(3):%=$(1)/%.elf): $(1)/%.elf: $(1)/%/main.o $$($(1)_LIB_OBJS) \
        $$(GUEST_LDS)
	$$(call guest_say,LD$(2),$$@)
	$$(Q)$$(GUEST_LD) -m $$(GUEST$(2)_EMUL) $$(GUEST_LDFLAGS) \
	    -T $$(GUEST_LDS) -o $$@ $$< $$($(1)_LIB_OBJS)

-include $$($(1)_LIB_OBJS:.o=.d) $$($(3):%=$(1)/%/main.d)
endef

$(eval $(call guest_set,$(GUEST_OUT),64,GUEST_NAMES))
$(eval $(call guest_set,$(GUEST32_OUT),32,GUEST32_NAMES))

ifeq ($(GUEST_STANDALONE),)
.DEFAULT_GOAL := $(GUEST_OLD_GOAL)
endif
