# SPDX-License-Identifier: GPL-2.0-only
#
# PV test kernels: build/guests/NAME.elf for every tests/guests/NAME/main.c,
# each linked with the guest library in tests/guests/lib.  Included by the
# top-level Makefile (paths are relative to the repository root); on its
# own: `make -f tests/guests/guests.mk guests`.
#
# Defines GUEST_ELFS (the kernels), GUEST_NAMES and the phony `guests`;
# included, it leaves the includer's default goal alone.

GUEST_STANDALONE := $(filter 1,$(words $(MAKEFILE_LIST)))
GUEST_OLD_GOAL   := $(.DEFAULT_GOAL)

GUEST_SRC   := tests/guests
GUEST_OUT   := build/guests
GUEST_NAMES := $(filter-out lib,\
                 $(patsubst $(GUEST_SRC)/%/main.c,%,\
                   $(wildcard $(GUEST_SRC)/*/main.c)))
GUEST_ELFS  := $(GUEST_NAMES:%=$(GUEST_OUT)/%.elf)

GUEST_LIB_SRCS := $(wildcard $(GUEST_SRC)/lib/*.c $(GUEST_SRC)/lib/*.S)
GUEST_LIB_OBJS := $(patsubst $(GUEST_SRC)/lib/%,$(GUEST_OUT)/lib/%.o,\
                    $(GUEST_LIB_SRCS))
GUEST_LDS      := $(GUEST_SRC)/lib/guest.lds

GUEST_CC ?= gcc
GUEST_LD ?= ld
Q        ?= $(if $(filter 1,$(V)),,@)
guest_say = $(if $(Q),@printf '  %-7s %s\n' $(1) $(2))

# Only the Xen headers (through build/include/xen) and gcc's own headers.
GUEST_CPPFLAGS := -nostdinc
GUEST_CPPFLAGS += -isystem $(shell $(GUEST_CC) -print-file-name=include)
GUEST_CPPFLAGS += -Ibuild/include -I$(GUEST_SRC)/lib
GUEST_CPPFLAGS += -D__XEN_INTERFACE_VERSION__=__XEN_LATEST_INTERFACE_VERSION__
GUEST_CFLAGS   := -std=gnu11 -ffreestanding -m64 -march=x86-64 -mno-red-zone
GUEST_CFLAGS   += -mgeneral-regs-only -fno-pic -fno-pie -mcmodel=small
GUEST_CFLAGS   += -fno-stack-protector -fno-asynchronous-unwind-tables
GUEST_CFLAGS   += -fcf-protection=none -fno-common -fno-strict-aliasing
GUEST_CFLAGS   += -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter
GUEST_CFLAGS   += -MMD -MP
GUEST_ASFLAGS  := -m64 -D__ASSEMBLY__ -MMD -MP -Wa,--fatal-warnings
GUEST_LDFLAGS  := -m elf_x86_64 -nostdlib -static -z max-page-size=0x1000
GUEST_LDFLAGS  += -z noexecstack --build-id=none --fatal-warnings

.PHONY: guests
guests: $(GUEST_ELFS)

# The Xen headers come in through a link, as in the top-level Makefile.
$(GUEST_OUT)/.xen-include:
	@mkdir -p build/include $(dir $@)
	$(Q)[ -e build/include/xen ] || ln -sfn /usr/include/xen build/include/xen
	@touch $@

$(filter %.c.o,$(GUEST_LIB_OBJS)): $(GUEST_OUT)/lib/%.c.o: \
        $(GUEST_SRC)/lib/%.c | $(GUEST_OUT)/.xen-include
	$(call guest_say,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(GUEST_CC) $(GUEST_CPPFLAGS) $(GUEST_CFLAGS) -c -o $@ $<

$(filter %.S.o,$(GUEST_LIB_OBJS)): $(GUEST_OUT)/lib/%.S.o: \
        $(GUEST_SRC)/lib/%.S | $(GUEST_OUT)/.xen-include
	$(call guest_say,AS,$<)
	@mkdir -p $(dir $@)
	$(Q)$(GUEST_CC) $(GUEST_CPPFLAGS) $(GUEST_ASFLAGS) -c -o $@ $<

$(GUEST_NAMES:%=$(GUEST_OUT)/%/main.o): $(GUEST_OUT)/%/main.o: \
        $(GUEST_SRC)/%/main.c | $(GUEST_OUT)/.xen-include
	$(call guest_say,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(GUEST_CC) $(GUEST_CPPFLAGS) $(GUEST_CFLAGS) -c -o $@ $<

$(GUEST_ELFS): $(GUEST_OUT)/%.elf: $(GUEST_OUT)/%/main.o $(GUEST_LIB_OBJS) \
        $(GUEST_LDS)
	$(call guest_say,LD,$@)
	$(Q)$(GUEST_LD) $(GUEST_LDFLAGS) -T $(GUEST_LDS) -o $@ $< $(GUEST_LIB_OBJS)

-include $(GUEST_LIB_OBJS:.o=.d) $(GUEST_NAMES:%=$(GUEST_OUT)/%/main.d)

ifeq ($(GUEST_STANDALONE),)
.DEFAULT_GOAL := $(GUEST_OLD_GOAL)
endif
