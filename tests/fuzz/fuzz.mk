# SPDX-License-Identifier: GPL-2.0-only
#
# libFuzzer targets, included from the top-level Makefile (paths are
# relative to the repository root):
#   fuzz-build  build every harness tests/fuzz/fuzz-<name>.c
#   fuzz-check  each on a copy of its corpus: the whole corpus replayed,
#               then a short seeded run (FUZZ_RUNS inputs, default 30000:
#               seconds each), printing "PASS: fuzz: <name> (N runs)" or
#               "FAIL: ..." each; fuzz-check-<name> runs one (make check
#               runs each as a job of its own)
#   fuzz        a long run of each (FUZZ_TIME seconds, default 600)

FUZZ_CC      ?= clang
FUZZ_NAMES   := $(patsubst tests/fuzz/fuzz-%.c,%,\
                  $(wildcard tests/fuzz/fuzz-*.c))
FUZZ_BINS    := $(FUZZ_NAMES:%=build/fuzz/fuzz-%)
FUZZ_CFLAGS  := -std=gnu11 -g -O1 -Wall -Wextra -Werror \
                -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
                -I. -Ibuild/include -DSHIM_HOST_TEST -MMD -MP
FUZZ_RUNS    ?= 30000
FUZZ_TIME    ?= 600
FUZZ_Q       := $(if $(filter 1,$(V)),,@)
# -seed and -runs make fuzz-check repeatable; max_total_time only bounds
# it on a slow or loaded machine.  libFuzzer runs every input of the
# corpus directory first, whatever -runs says.
FUZZ_CHECK_FLAGS := -seed=1 -runs=$(FUZZ_RUNS) -max_total_time=120 \
                    -max_len=16384 -print_final_stats=1

.PHONY: fuzz-build fuzz-check fuzz

# ring.h's barriers are the includer's from interface 0x00030209 on.
build/fuzz/fuzz-blkring: FUZZ_CFLAGS += \
    $(filter -D__XEN_INTERFACE_VERSION__=%,$(CPPFLAGS))

fuzz-build: $(FUZZ_BINS)

# The Xen headers link is the top-level Makefile's $(SYSINC)/xen; made
# here too so that this fragment also works on its own.
build/fuzz/fuzz-%: tests/fuzz/fuzz-%.c
	@mkdir -p $(dir $@) build/include
	@[ -e build/include/xen ] || ln -sfn /usr/include/xen build/include/xen
	$(if $(FUZZ_Q),@printf '  %-7s %s\n' FUZZCC $@)
	$(FUZZ_Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $< -o $@

# Each run works on a copy of the corpus in build/, so new inputs that
# libFuzzer saves never land in the tree; crashes go to build/fuzz/.
# $(call fuzz_check_one,NAME): one harness's line; false if it failed.
define fuzz_check_one
{ n=$(1); dir=build/fuzz/corpus-$$n log=build/fuzz/fuzz-$$n.log; \
  rm -rf $$dir build/fuzz/crash-$$n-* && mkdir -p $$dir && \
  cp tests/fuzz/corpus/$$n/* $$dir/ 2>/dev/null; \
  if build/fuzz/fuzz-$$n $(FUZZ_CHECK_FLAGS) \
         -artifact_prefix=build/fuzz/crash-$$n- $$dir >$$log 2>&1; \
  then \
      runs=$$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' $$log); \
      echo "PASS: fuzz: $$n ($$runs runs)"; \
  else \
      crash=$$(ls build/fuzz/crash-$$n-* 2>/dev/null | head -n1); \
      echo "FAIL: fuzz: $$n (log: $$log, input: $${crash:-none})"; \
      false; \
  fi; }
endef

fuzz-check: fuzz-build
	@status=0; for n in $(FUZZ_NAMES); do \
	    $(call fuzz_check_one,$$n) || status=1; \
	done; exit $$status

# Not phony: make looks for pattern rules only for targets that aren't.
fuzz-check-%: build/fuzz/fuzz-%
	@$(call fuzz_check_one,$*)

fuzz: fuzz-build
	@for n in $(FUZZ_NAMES); do \
	    dir=build/fuzz/corpus-$$n; \
	    mkdir -p $$dir && cp -n tests/fuzz/corpus/$$n/* $$dir/ 2>/dev/null; \
	    build/fuzz/fuzz-$$n -max_total_time=$(FUZZ_TIME) -max_len=16384 \
	        -artifact_prefix=build/fuzz/crash-$$n- $$dir || exit 1; \
	done

-include $(FUZZ_BINS:=.d)
