# SPDX-License-Identifier: GPL-2.0
#
# Dynamic ftrace, ours: build, boot and test the Linux 6.1 base with our
# overlay (default) or untouched (STOCK=1).  See README.md.
#
#   make run       build, boot, show function tracing in the guest
#   make check     build, boot, run every test, print the table: x86_64,
#                  then arm64 (ARCH= to check one); of both arches, also
#                  make htmldocs
#   make check-both  make check on stock, then on ours, then make compare
#   make compare   tests whose results differ between the last two checks
#   make timings   seconds per test of the last check (for case-costs.txt)
#   make bench     the core benchmark, ours and stock side by side
#   make stress    the reliability cases with their full counts (fuzzer,
#                  fault injection, churn, hotplug, module cycles, graph
#                  exit, trampoline W+X)
#   make boot-loop BOOTS=N
#                  boot N times with the boot self-tests and KUnit alone,
#                  keeping the failed boots (for a failure that comes once
#                  in many boots)
#   make conformance-golden STOCK=1
#                  record stock's answers to every file of the core (the
#                  reference that ftrace/func-conformance.tc compares with)
#   make htmldocs  our tree's Documentation/trace in HTML (build/docs);
#                  fails on a Sphinx warning that names one of our files
#
# Variables:
#   BASE=6.12      build and test on Linux 6.12 (base-6.12/README.md: the
#                  port under way; build/6.12 holds its builds)
#   STOCK=1        work on the untouched base instead of ours
#   DEBUG=1        build with the memory and object checkers
#                  (kernel/configs/ftrace-debug.config: KASAN, kmemleak,
#                  debug objects, W+X) into build/VARIANT-debug; make check
#                  DEBUG=1 checks stock, then ours (x86_64 unless ARCH=)
#   PART=K/N       run the K-th of N parts of the suites (shard.py
#                  --part): N runs, in N sessions if need be, cover every
#                  test once; for DEBUG=1, whose suite outlasts a session
#   ARCH=arm64     build and boot for arm64 (default x86_64; make check
#                  without ARCH checks both, one after the other): a cross
#                  compiler, qemu-system-aarch64, and a guest root made of
#                  Debian's arm64 packages (build/arm64-root)
#   TESTS="a b"    make check: run only these ftracetest cases (paths under
#                  test.d, e.g. ftrace/func_set_ftrace_file.tc) and livepatch
#                  kselftests (livepatch/test-ftrace.sh); the boot
#                  self-tests and KUnit always run
#   SKIP="a b"     make check: leave these tests out (the output names them)
#   INTERACTIVE=1  make run: a shell on the guest console instead of the demo
#   TIMEOUT=N      hard limit in seconds for one guest boot (default 2700)
#   CASE_SCALE=N   make check: a case is stopped after N times its measured
#                  cost, at least 600 s (default 3, 24 under DEBUG=1; 0: never;
#                  under DEBUG=1 a case listed in case-costs-debug.txt gets 3
#                  times its cost there)
#   KEXEC=1|0      make check: end the last guest with the kexec step
#                  (default 1 on BASE=6.12 without TESTS or DEBUG)
#   SHARDS=N       make check: guests that share the suites, all at once
#                  (default 2, one per host core)
#   ROUNDS=N       make bench: times each figure is taken per boot (default 5)
#   BOOTS=N        make bench: boots of each kernel (default 2)
#   BENCH_OPS=N    make bench: ops registered for the Nth-ops rows (default 1000)
#   JOBS=N         parallel kernel build jobs (default: number of CPUs)
#   KCC=...        the kernel's compiler, for one ARCH (default: ccache and
#                  the arch's gcc, when ccache is installed)
#   KCMDLINE="..." extra kernel command line for the guest, for debugging
#                  (e.g. KCMDLINE=slub_debug=FZPU)
#   FH_ACCEL=tcg|kvm  x86_64 guests: force TCG or KVM (default: KVM when
#                  QEMU runs under it, a guest QEMU reports a KVM failure
#                  for, or silent a minute before its job, booted again
#                  under TCG; FH_KVM_STALL=N seconds instead of 60;
#                  qemu-run.sh, accel.sh)

# FLOOR=1 (make bench's third kernel): the base without the function tracer.
VARIANT    := $(if $(filter 1 y yes,$(FLOOR)),floor,$(if $(filter 1 y yes,$(STOCK)),stock,ours))
# 'make check' with no ARCH given checks both arches.
ALL_ARCHES := $(filter undefined,$(origin ARCH))
ARCH       ?= x86_64
override ARCH := $(patsubst x86,x86_64,$(ARCH))
ifeq ($(filter x86_64 arm64,$(ARCH)),)
$(error ARCH=$(ARCH): the harness builds x86_64 and arm64)
endif
TOP        := $(patsubst %/,%,$(dir $(realpath $(lastword $(MAKEFILE_LIST)))))
# The base: Debian's linux-source-$(BASE).  BASE=6.12 builds the port in
# progress: base-6.12/ holds what differs from the 6.1 overlay (its
# README.md says how), and every build directory is under build/6.12.
BASE       ?= 6.1
ifeq ($(filter 6.1 6.12,$(BASE)),)
$(error BASE=$(BASE): the harness builds on Linux 6.1 or 6.12)
endif
PORT       := $(if $(filter-out 6.1,$(BASE)),$(TOP)/base-$(BASE))
BUILD      := $(TOP)/build$(if $(PORT),/$(BASE))
HARNESS    := $(TOP)/tools/testing/ftrace-harness
TARBALL    := /usr/src/linux-source-$(BASE).tar.xz
BASEDIR    := $(BUILD)/base
BASE_SRC   := $(BASEDIR)/src
# A file of the overlay as the base wants it: the port's copy, if it has one.
ported      = $(firstword $(wildcard $(if $(PORT),$(PORT)/$(1))) $(TOP)/$(1))
# x86_64 keeps the historical build/ours and build/stock.
ARCHSUF    := $(if $(filter arm64,$(ARCH)),-arm64)
DEBUGSUF   := $(if $(filter 1 y yes,$(DEBUG)),-debug)
# BENCHCFG=1 (set by make bench): the production-like config, in its own
# build/VARIANT-bench.
BENCHSUF   := $(if $(filter 1 y yes,$(BENCHCFG)),-bench)
OUT        := $(BUILD)/$(VARIANT)$(ARCHSUF)$(DEBUGSUF)$(BENCHSUF)
# One source tree per variant, whatever the arch: only obj/ is per arch.
SRC        := $(if $(filter ours,$(VARIANT)),$(BUILD)/ours/src,$(BASE_SRC))
OBJ        := $(OUT)/obj
CONFIGS    := kernel/configs
FRAGMENTS  := $(foreach f,ftrace-qemu-guest ftrace-qemu-guest-$(ARCH) ftrace-test \
                ftrace-clients ftrace-clients-$(ARCH) \
                $(if $(wildcard $(call ported,$(CONFIGS)/ftrace-mitigations-$(ARCH).config)),ftrace-mitigations-$(ARCH)) \
                $(if $(DEBUGSUF),ftrace-debug) \
                $(if $(filter ours,$(VARIANT)),ftrace-ours \
                  $(if $(wildcard $(call ported,$(CONFIGS)/ftrace-ours-$(ARCH).config)),ftrace-ours-$(ARCH))) \
                $(if $(BENCHSUF),ftrace-bench $(if $(filter ours,$(VARIANT)),ftrace-bench-ours)) \
                $(if $(filter floor,$(VARIANT)),ftrace-floor), \
                $(call ported,$(CONFIGS)/$(f).config))
# The harness's data for this base (known failures, case costs, ...).
HDATA       = $(call ported,tools/testing/ftrace-harness/data/$(1))
# The kernel's image, the guest's root filesystem (x86_64: the host's own).
ifeq ($(ARCH),arm64)
export CROSS_COMPILE := aarch64-linux-gnu-
KIMAGE     := Image
ROOTFS     := $(TOP)/build/arm64-root
else
KIMAGE     := bzImage
ROOTFS     := /
endif
KIMAGE_SRC := $(OBJ)/arch/$(patsubst x86_64,x86,$(ARCH))/boot/$(KIMAGE)
export ARCH
# What qemu-run.sh boots: the machine and the root it shares with the guest.
export FH_ARCH := $(ARCH)
export FH_ROOTFS := $(ROOTFS)
JOBS       ?= $(shell nproc)
# A base's guests may force on mitigations the emulated CPU does not ask
# for (data/kcmdline-ARCH.txt), so that the code they change runs.
GUEST_CMDLINE := $(foreach f,$(wildcard $(call HDATA,kcmdline-$(ARCH).txt)),$(shell grep -v '^\#' $(f)))
# DEBUG=1: every KASAN report, not only the first of a boot.
export FH_KCMDLINE := $(strip $(GUEST_CMDLINE) $(KCMDLINE)$(if $(DEBUGSUF), kasan_multi_shot))
# KASAN and kmemleak slow the guests down about fourfold under TCG.
TIMEOUT    ?= $(if $(DEBUGSUF),14400,2700)
SHARDS     ?= 2
# ccache (deps.sh installs it) keeps compiled objects across builds and
# clones of this tree on one machine, so a fresh clone (CI's) recompiles
# only what differs from the last build here.  BASEDIR makes the paths
# inside the clone relative in what it hashes, NOHASHDIR leaves the build
# directory out (it shows only in debug info's compilation directory).
# KCC=gcc builds without it, and so does a machine where the cache
# directory cannot be written (the build then goes on without a cache).
# CCACHE_OK and KMAKE are expanded when a recipe runs, not when make reads
# this file: on a fresh machine deps.sh installs ccache after that, and a
# compiler command fixed before it would be "gcc" for the first build and
# "ccache gcc" for every later one, which kbuild takes as a reason to
# rebuild every object once more.
export CCACHE_DIR ?= $(if $(HOME),$(HOME)/.cache/ccache,$(BUILD)/ccache)
CCACHE_OK   = $(shell command -v ccache >/dev/null && mkdir -p "$(CCACHE_DIR)" 2>/dev/null && \
                [ -w "$(CCACHE_DIR)" ] && echo y)
KCC        ?= $(if $(CCACHE_OK),ccache )$(CROSS_COMPILE)gcc
export CCACHE_BASEDIR := $(TOP)
export CCACHE_NOHASHDIR := 1
KMAKE       = $(MAKE) -s -C $(SRC) O=$(OBJ) ARCH=$(ARCH) LOCALVERSION=-$(VARIANT) \
              CC="$(KCC)"
PHASE      := $(HARNESS)/host/phase.sh

.PHONY: all deps rootfs qemu-bpo base tree config kernel test-mods guest-tools ftracetest-dir livepatch-dir harness-selftest check check-arch compare \
	check-both run bench stress boot-loop clean distclean conformance-golden timings

all: kernel

deps:
	@$(HARNESS)/host/deps.sh $(ARCH) $(BASE)

# arm64 guests boot on a root of Debian's arm64 packages (rootfs.sh);
# x86_64 guests on the host's own root.
rootfs: deps
ifeq ($(ARCH),arm64)
	@$(PHASE) rootfs $(HARNESS)/host/rootfs.sh $(ARCH) $(ROOTFS) $(TOP)
endif

base: deps
	@$(PHASE) base $(HARNESS)/host/tree.sh base $(TARBALL) $(BASEDIR) $(BASE)

# Base + overlay + patches.  Stock builds straight from the base.
tree: base
ifeq ($(VARIANT),ours)
	@$(PHASE) overlay $(HARNESS)/host/tree.sh apply $(TOP) $(BASE_SRC) $(SRC) $(PORT)
endif

.DELETE_ON_ERROR:

$(OBJ)/.config: $(FRAGMENTS) $(HARNESS)/host/kconfig.sh $(BASEDIR)/.extracted
	@$(PHASE) config env KCC='$(KCC)' $(HARNESS)/host/kconfig.sh $(SRC) $(OBJ) $(FRAGMENTS)

config: tree
	@$(MAKE) -s --no-print-directory $(OBJ)/.config

# kernel/bpf's rule for relo_core.o does not depend on scripts/recordmcount
# as every other object does: rebuild it when the tool changed.
kernel: config
	@find $(OBJ)/kernel/bpf -name relo_core.o ! -newer $(SRC)/scripts/recordmcount.c -delete 2>/dev/null || true
	@$(PHASE) kernel sh -ec '$(KMAKE) -j$(JOBS) $(KIMAGE) modules; \
		cmp -s $(KIMAGE_SRC) $(OUT)/$(KIMAGE) || \
			cp $(KIMAGE_SRC) $(OUT)/$(KIMAGE); \
		rm -rf $(OUT)/modules.new; \
		$(KMAKE) modules_install INSTALL_MOD_PATH=$(OUT)/modules.new \
			INSTALL_MOD_STRIP=1 >/dev/null; \
		rm -rf $(OUT)/modules; mv $(OUT)/modules.new $(OUT)/modules; \
		[ $(VARIANT) != floor ] || exit 0; \
		cd $(OBJ) && $(TOP)/scripts/check-mcount-loc.py --arch $(ARCH) vmlinux \
			$$(sed "s/\.o$$/.ko/" modules.order); \
		[ $(VARIANT) = ours ] || exit 0; \
		$(TOP)/scripts/check-ftrace-layers.py --nm $(CROSS_COMPILE)nm \
			--sources $(TOP)/kernel/trace $(if $(PORT),--sources $(PORT)/kernel/trace) \
			$(call ported,kernel/trace/ftrace_internal.h) $(OBJ)/kernel/trace'
	@echo "  KERNEL  $(OUT)/$(KIMAGE) ($$(cat $(OBJ)/include/config/kernel.release)), $(VARIANT) on $$(cat $(BASEDIR)/VERSION)"

# Our cases' test modules (tools/testing/ftrace-harness/test-mods), built
# against the variant's tree and installed beside its modules (extra/), so
# that modprobe finds them in the guest.
TESTMODS   := $(OUT)/test-mods
test-mods: kernel
	@rm -rf $(TESTMODS) && cp -a $(HARNESS)/test-mods $(TESTMODS)
	@[ ! -d $(PORT)/tools/testing/ftrace-harness/test-mods ] || \
		cp -a $(PORT)/tools/testing/ftrace-harness/test-mods/. $(TESTMODS)/
	@$(KMAKE) M=$(TESTMODS) modules
	@$(KMAKE) M=$(TESTMODS) modules_install INSTALL_MOD_PATH=$(OUT)/modules \
		INSTALL_MOD_STRIP=1 >/dev/null

# Programs our cases run in the guest (tools/testing/ftrace-harness/
# guest-tools), static for the guest's arch.
GTOOLS     := $(OUT)/guest-tools
guest-tools: deps
	@mkdir -p $(GTOOLS)
	@$(MAKE) -s --no-print-directory -C $(HARNESS)/guest-tools O=$(GTOOLS) \
		CC=$(CROSS_COMPILE)gcc

# ftracetest of the base with our own test.d cases added, for either variant.
ftracetest-dir: base
	@rm -rf $(OUT)/ftracetest
	@cp -a $(BASE_SRC)/tools/testing/selftests/ftrace $(OUT)/ftracetest
	@for d in $(TOP) $(PORT); do \
		[ ! -d $$d/tools/testing/selftests/ftrace ] || \
			cp -a $$d/tools/testing/selftests/ftrace/. $(OUT)/ftracetest/; done
	@patch -s -p1 -d $(OUT)/ftracetest < $(call HDATA,ftracetest-instance-reset.patch)
	@patch -s -p1 -d $(OUT)/ftracetest < $(call HDATA,ftracetest-reset-once.patch)
	@patch -s -p1 -d $(OUT)/ftracetest < $(call HDATA,ftracetest-profiler-reset.patch)

# The base's livepatch kselftests (run by the guest job after ftracetest).
# A base whose kselftests bring their own test modules (test_modules/,
# loaded by path) and programs gets them built here against the variant.
LPDIR      := $(OUT)/livepatch
livepatch-dir: base kernel
	@rm -rf $(LPDIR)
	@cp -a $(BASE_SRC)/tools/testing/selftests/livepatch $(LPDIR)
	@# 6.12's test modules build only where the arch has livepatch.
	@if [ -d $(LPDIR)/test_modules ] && grep -q '^CONFIG_LIVEPATCH=y' $(OBJ)/.config; then \
		$(KMAKE) M=$(LPDIR)/test_modules modules && \
		$(CROSS_COMPILE)strip --strip-debug $(LPDIR)/test_modules/*.ko; fi
	@for c in $(LPDIR)/test_klp-*.c; do [ ! -f $$c ] || \
		$(CROSS_COMPILE)gcc -O2 -static -o $${c%.c} $$c || exit 1; done

# The harness's own parsers, on canned logs, before anything is built.
harness-selftest: deps
	@PYTHONDONTWRITEBYTECODE=1 $(HARNESS)/report/selftest.py
	@PYTHONDONTWRITEBYTECODE=1 $(TOP)/scripts/check-ftrace-layers.py --self-test
	@checkbashisms $$(git -C $(TOP) ls-files "tools/testing/selftests/ftrace/*.tc" \
		"tools/testing/selftests/ftrace/*.sh") || \
		{ echo "harness: bashisms in our ftracetest cases" >&2; exit 1; }

# The suites are split between $(SHARDS) guests that run at once, one per
# host core (shard.py: longest tests first, by the seconds measured in
# case-costs.txt); the summary reads every guest's results.
# What 'make check' of both arches leaves out (unless TESTS= names the
# tests), to stay within CI's limit on the slower machines CI runs on,
# where arm64 guests came near their time limit.  Each
# arch alone ('make check ARCH=x86_64', 'make check ARCH=arm64') still
# runs every case.
# x86_64: upstream's checkbashisms case, 4 minutes of one guest for a
# known failure of both variants (upstream's own cases have bashisms);
# ours are checked on the host before anything boots (harness-selftest).
X86_LEAVE := selftest/bashisms.tc
# arm64: fgraph-stress.tc (20-odd minutes there), and the cases whose code
# is the same on both arches, which x86_64 runs: upstream's event,
# trigger, dynamic-event, filter and kprobe cases (arm64 6.1 has no
# kprobes on ftrace) and the filter-file parsers' cases, upstream's and
# ours, with the conformance transcript, the fuzzer, the permission and
# sysctl-input cases.  arm64 runs what goes through its own code: boot
# self-tests, KUnit, the tracers, graph, trampolines, direct calls,
# module load, BPF, perf, trace-cmd, hotplug, W+X and module cycles.  Its
# four longest cases after those also run on x86_64 only, to keep the
# whole run within CI's limit there: upstream's ftrace-direct.tc (538 to
# 763 s on arm64 against 104 s on x86_64, not looked into yet; the arm64 direct
# calls are still run by the direct-multi, direct-modify, kprobe-direct
# and BPF trampoline cases) and the short forms of the
# fault walk, the churn and the graph-exit case (763, 566, 518 and 379 s
# there), which 'make stress ARCH=arm64' runs in full.
ARM64_LEAVE := ftrace/fgraph-stress.tc direct/ftrace-direct.tc \
	ftrace/fault-inject.tc ftrace/stress-churn.tc ftrace/stress-graph-exit.tc \
	trigger/ event/ dynevent/ filter/ kprobe/ \
	selftest/ ftrace/func-conformance.tc ftrace/fuzz-control-files.tc \
	ftrace/func-filter-edit.tc ftrace/func-filter-position.tc \
	ftrace/func-filter-nomatch-keeps.tc ftrace/func-filter-mod-glob.tc \
	ftrace/func-filter-mod-cache.tc ftrace/func-filter-glob.tc \
	ftrace/func_set_ftrace_file.tc ftrace/func-filter-stacktrace.tc \
	ftrace/func_event_triggers.tc ftrace/func_traceonoff_triggers.tc \
	ftrace/perm-unprivileged.tc ftrace/ftrace-enabled-sysctl-reject.tc
ifneq ($(DEBUGSUF),)
# DEBUG=1: both variants, one arch; what the checkers find in stock is
# listed in known-failures/stock*-debug.txt, not hidden.
check:
	@s=0; \
	$(MAKE) --no-print-directory check-arch STOCK=1 || s=1; \
	$(MAKE) --no-print-directory check-arch STOCK= || s=1; \
	exit $$s
else ifneq ($(ALL_ARCHES),)
check:
	@s=0; \
	$(if $(filter ours,$(VARIANT)),$(MAKE) --no-print-directory htmldocs || s=1;) \
	$(MAKE) --no-print-directory check-arch ARCH=x86_64 SKIP="$(if $(TESTS),,$(X86_LEAVE)) $(SKIP)" || s=1; \
	$(MAKE) --no-print-directory check-arch ARCH=arm64 SKIP="$(if $(TESTS),,$(ARM64_LEAVE)) $(SKIP)" || s=1; \
	$(HARNESS)/report/verdict.sh $(BUILD)/$(VARIANT)/results/summary.txt \
		$(BUILD)/$(VARIANT)-arm64/results/summary.txt; \
	exit $$s
else
check: check-arch
endif

RESULTS    ?= $(OUT)/results$(if $(PART),-part$(subst /,of,$(PART)))
# A case running CASE_SCALE times its measured cost (case-costs*.txt), and
# at least 600 s, is stopped by the guest (case-watchdog.sh): a FAIL with
# the stuck processes' kernel stacks, and the share goes on.  0: no limit.
CASE_SCALE ?= $(if $(DEBUGSUF),24,3)
# Under DEBUG=1, the cases whose debug cost was measured (and is far from
# 24 times their cost) get 3 times that instead.
CASE_OWN   := $(if $(DEBUGSUF),$(wildcard $(call HDATA,case-costs-debug$(ARCHSUF).txt)))
# The listed failures: the variant's, and under DEBUG=1 what only the
# checkers find.
KNOWN      := $(call HDATA,known-failures/$(VARIANT)$(ARCHSUF).txt) \
              $(if $(DEBUGSUF),$(wildcard $(call HDATA,known-failures/$(VARIANT)$(ARCHSUF)-debug.txt)))
# KEXEC=1: the last guest ends with the kexec step (kexec-step.sh): its
# kernel boots itself again with kexec, the function tracer on every
# function.  On by default for a whole run on 6.12, not under DEBUG=1
# (kmemleak's scan comes after the step) or make stress.
KEXEC      ?= $(if $(PORT),$(if $(DEBUGSUF)$(TESTS),,1))
check-arch: harness-selftest kernel test-mods guest-tools rootfs ftracetest-dir livepatch-dir
	@rm -rf $(RESULTS) && mkdir -p $(RESULTS)
	@[ -z "$(strip $(SKIP))" ] || echo "check: not run ($(ARCH), SKIP; make check ARCH=$(ARCH) runs what make check of both arches leaves out): $(strip $(SKIP))"
	@$(HARNESS)/host/shard.py $(if $(SKIP),--skip "$(SKIP)") $(if $(PART),--part $(PART)) $(SHARDS) $(call HDATA,case-costs$(ARCHSUF).txt) $(OUT)/ftracetest \
		$(OUT)/livepatch $(TESTS) > $(RESULTS)/shards.txt
	@FH_TOOLS=$(GTOOLS) FH_CASE_COSTS=$(call HDATA,case-costs$(ARCHSUF).txt) FH_CASE_SCALE=$(CASE_SCALE) \
		FH_KEXEC=$(if $(filter 1,$(KEXEC)),1,0) $(if $(CASE_OWN),FH_CASE_OWN_COSTS=$(CASE_OWN) FH_CASE_OWN_SCALE=3) \
		$(PHASE) guest $(HARNESS)/host/check-guests.sh $(RESULTS)/shards.txt \
		$(RESULTS) $(OUT)/$(KIMAGE) $(OUT)/modules $(TIMEOUT) \
		$(OUT)/ftracetest $(OUT)/livepatch || true
	@cat $(KNOWN) > $(RESULTS)/known-failures.txt
	@FH_VARIANT=$(VARIANT) FH_EXPECTED_BOOT=$(call HDATA,expected-boot.txt) \
		FH_EXPECTED_KUNIT=$(call HDATA,expected-kunit.txt) $(PHASE) summary $(HARNESS)/report/summarize.py $(RESULTS) \
		$(RESULTS)/known-failures.txt $(OUT)/ftracetest \
		"Variant:  $(VARIANT)$(if $(DEBUGSUF), (DEBUG=1: KASAN, kmemleak, debug objects, W+X))" "Base:     $$(cat $(BASEDIR)/VERSION)" \
		"Kernel:   $$(cat $(OBJ)/include/config/kernel.release)" \
		"Tests:    $(if $(TESTS),$(TESTS),all ftracetest cases and livepatch kselftests)$(if $(PART), (part $(PART))), $(SHARDS) guests$(if $(filter 1,$(KEXEC)), and the kexec step)" \
		"Results:  $(RESULTS)"

# The long forms of the reliability cases: the fuzzer, fault
# injection, churn, hotplug, module cycles, graph exit, trampoline W+X,
# with their full counts
# (FH_STRESS=full; make check runs each in a short form).  One guest: on
# ours it runs multi-threaded TCG, both vCPUs truly at once on the two host
# cores; stock runs single-threaded (its function_graph self-test hangs
# otherwise).  Results in build/VARIANT/results-stress.  The guests run on
# QEMU 10 from bookworm-backports (qemu-bpo.sh: Debian 12's QEMU 7.2 can run
# a stale translation of patched code under multi-threaded TCG), unpacked
# in build/qemu-bpo; make check keeps the host's QEMU.
QEMU_BPO   := $(TOP)/build/qemu-bpo
qemu-bpo:
	@$(PHASE) qemu $(HARNESS)/host/qemu-bpo.sh $(QEMU_BPO)
STRESS_TESTS := $(sort $(patsubst $(TOP)/tools/testing/selftests/ftrace/test.d/%,%, \
	$(wildcard $(TOP)/tools/testing/selftests/ftrace/test.d/ftrace/stress-*.tc \
		$(TOP)/tools/testing/selftests/ftrace/test.d/ftrace/fuzz-*.tc \
		$(TOP)/tools/testing/selftests/ftrace/test.d/ftrace/fault-*.tc \
		$(TOP)/tools/testing/selftests/ftrace/test.d/ftrace/tramp-wx.tc)))
stress: qemu-bpo
	@FH_QEMU_DIR=$(QEMU_BPO)/usr/bin FH_STRESS=full FH_TCG_THREAD=$(if $(filter ours,$(VARIANT)),multi,single) \
		$(MAKE) --no-print-directory check-arch SHARDS=1 CASE_SCALE=0 KEXEC=0 \
		TIMEOUT=$(if $(filter file,$(origin TIMEOUT)),10800,$(TIMEOUT)) \
		RESULTS=$(OUT)/results-stress TESTS="$(if $(TESTS),$(TESTS),$(STRESS_TESTS))"

# The kernel booted BOOTS times (20 unless given) with its boot self-tests
# and KUnit alone, on the QEMU and TCG mode make stress uses; only failed
# boots are kept, in build/VARIANT/boot-loop/bootK, with the trace buffer
# of a failed self-test (job-boots.sh).
boot-loop: kernel rootfs qemu-bpo
	@FH_QEMU_DIR=$(QEMU_BPO)/usr/bin FH_TCG_THREAD=$(if $(filter ours,$(VARIANT)),multi,single) \
		$(HARNESS)/host/boot-loop.sh $(OUT)/$(KIMAGE) $(OUT)/modules $(OUT)/boot-loop \
		$(if $(filter command line,$(origin BOOTS)),$(BOOTS),20)

# Seconds per test measured by the last 'make check', in the form
# shard.py reads: copy it over case-costs.txt (case-costs-arm64.txt for
# ARCH=arm64) when the suites change.
timings:
	@$(HARNESS)/report/timings.py $(OUT)/results $(OUT)/ftracetest

# The conformance case's reference transcript, from the untouched base.
CONFORMANCE := $(or $(PORT),$(TOP))/tools/testing/selftests/ftrace/test.d/ftrace/conformance
# Named after the guest's 'uname -m' (x86_64's is plain stock.txt).
GOLDEN     := stock$(if $(filter arm64,$(ARCH)),-aarch64).txt
conformance-golden:
	@[ $(VARIANT) = stock ] || { echo "conformance-golden: run it with STOCK=1" >&2; exit 1; }
	@$(MAKE) --no-print-directory check TESTS=ftrace/func-conformance.tc SHARDS=1 || true
	@[ -s $(OUT)/results/guest1/conformance.txt ] || \
		{ echo "conformance-golden: the guest wrote no transcript" >&2; exit 1; }
	@mkdir -p $(CONFORMANCE) && cp $(OUT)/results/guest1/conformance.txt $(CONFORMANCE)/$(GOLDEN)
	@echo "  GOLDEN  $(CONFORMANCE)/$(GOLDEN): $$(wc -l < $(CONFORMANCE)/$(GOLDEN)) operations"

# Per-test differences between the last 'make check' and 'make check STOCK=1'.
compare:
	@$(HARNESS)/report/compare.py $(BUILD)/ours/results/summary.txt \
		$(BUILD)/stock/results/summary.txt

# Both variants in one run, then the tests whose results differ.
check-both:
	@s=0; \
	$(MAKE) --no-print-directory check STOCK=1 || s=1; \
	$(MAKE) --no-print-directory check STOCK= || s=1; \
	$(MAKE) --no-print-directory compare || s=1; \
	exit $$s

run: kernel rootfs
	@printf 'FH_INTERACTIVE=%s\n. %s\n' '$(INTERACTIVE)' $(HARNESS)/guest/job-run.sh > $(OUT)/run.job
	@$(HARNESS)/host/qemu-run.sh -k $(OUT)/$(KIMAGE) -m $(OUT)/modules -o $(OUT)/run \
		-j $(OUT)/run.job -t $(TIMEOUT) $(if $(filter 1,$(INTERACTIVE)),-i,-v)

# The core benchmark: three kernels of the production-like config (make
# check's without lockdep and the other checkers: ftrace-bench.config),
# ours, stock and the floor (stock without the function tracer), each
# booted BOOTS times on one vCPU under QEMU's -icount shift=0, where every
# time the guest measures is a count of executed instructions.  After each
# boot of ours and stock, boot-count.sh counts the boot set-up of vmlinux's
# call sites exactly in a short boot of its own (record mode, gdb).
# tools/testing/ftrace-harness/report/bench-report.py prints the figures of all
# three side by side with ours/stock and the spread between runs.
ROUNDS ?= 5
# Ops the registration rows register, one each.
BENCH_OPS ?= 1000
BOOTS ?= 2
# BENCH_KERNELS=ours on the command line builds and boots only ours (to
# iterate on a change; the report then has ours alone), "ours stock"
# leaves the floor out.
BENCH_KERNELS := ours stock floor
# Where make bench writes its report: a run of all three kernels
# bench-results.md (-arm64), one of fewer bench-results-KERNELS.md.
BENCH_FILE  = bench-results$(ARCHSUF)$(if $(filter 3,$(words $(sort $(BENCH_KERNELS)))),,-$(subst $() ,-,$(strip $(BENCH_KERNELS)))).md
# BENCH_ROWS=percall: the tracing-off and per-call rows only; modload: the
# tracing-off and module load rows only; switch: the tracing-off, switch,
# filter-write and scale rows; ops: the tracing-off and Nth-ops rows;
# glob: the tracing-off and glob-write rows (job-bench.sh).
BENCH_ROWS ?= all
bench: rootfs
	@for v in $(BENCH_KERNELS); do \
		case $$v in \
		ours) a=STOCK= ;; stock) a=STOCK=1 ;; floor) a=FLOOR=1 ;; \
		*) echo "BENCH_KERNELS: no kernel called $$v" >&2; exit 1 ;; \
		esac; \
		$(MAKE) --no-print-directory kernel BENCHCFG=1 $$a || exit 1; \
	done
	@$(MAKE) --no-print-directory guest-tools BENCHCFG=1
	@for v in $(filter-out floor,$(BENCH_KERNELS)); do \
		src=$(BUILD)/ours/src; [ $$v = stock ] && src=$(BASE_SRC); \
		d=$(BUILD)/$$v$(ARCHSUF)-bench; \
		rm -rf $$d/bench-ops; \
		cp -a $(HARNESS)/bench-ops $$d/bench-ops; \
		$(MAKE) -s -C $$src O=$$d/obj ARCH=$(ARCH) \
			M=$$d/bench-ops modules || exit 1; \
	done
	@for v in $(BENCH_KERNELS); do \
		d=$(BUILD)/$$v$(ARCHSUF)-bench; \
		printf 'FH_ROUNDS=%s\nFH_TOOLS=%s\nFH_BENCH_OPS=%s\nFH_BENCH_OPS_N=%s\nFH_BENCH_ROWS=%s\n. %s\n' '$(ROUNDS)' \
			$(BUILD)/ours$(ARCHSUF)-bench/guest-tools \
			$$d/bench-ops/ftrace_bench_ops.ko '$(BENCH_OPS)' '$(BENCH_ROWS)' \
			$(HARNESS)/guest/job-bench.sh > $$d/bench.job; \
		for b in $$(seq $(BOOTS)); do \
			FH_ICOUNT=1 FH_KCMDLINE="$(KCMDLINE)" \
				$(PHASE) bench-$$v-$$b $(HARNESS)/host/qemu-run.sh -k $$d/$(KIMAGE) \
				-m $$d/modules -o $$d/bench-$$b \
				-j $$d/bench.job -t $(TIMEOUT) || exit 1; \
			case $$v in ours) f=ftrace_init ;; stock) f=ftrace_process_locs ;; *) f= ;; esac; \
			[ -z "$$f" ] || $(PHASE) boot-count-$$v-$$b $(HARNESS)/host/boot-count.sh \
				$$d/$(KIMAGE) $$d/obj/System.map $$f $$d/bench-$$b || exit 1; \
		done; \
	done
	@args=; for v in $(BENCH_KERNELS); do \
		a=; for b in $$(seq $(BOOTS)); do a=$$a$${a:+,}$(BUILD)/$$v$(ARCHSUF)-bench/bench-$$b; done; \
		args="$$args $$v=$$a"; \
	done; \
	$(HARNESS)/report/bench-report.py $$args \
		"Base: $$(cat $(BASEDIR)/VERSION); $(ARCH); command: make bench$(if $(ARCHSUF), ARCH=$(ARCH)) ROUNDS=$(ROUNDS) BOOTS=$(BOOTS) BENCH_OPS=$(BENCH_OPS)$(if $(filter-out all,$(BENCH_ROWS)), BENCH_ROWS=$(BENCH_ROWS)); $$(date -u +%F)" \
		> $(BUILD)/bench$(ARCHSUF).txt.new
	@mv $(BUILD)/bench$(ARCHSUF).txt.new $(BUILD)/bench$(ARCHSUF).txt && cat $(BUILD)/bench$(ARCHSUF).txt
	@# The committed copy at the top (x86_64: bench-results.md; a run of
	@# fewer kernels: bench-results-ours.md...): the command as given,
	@# the commit and date that produced the figures.
	@{ printf '# Bench results\n\nWritten by `make bench` after each run (the Makefile'"'"'s bench target).\n\n'; \
		printf -- '- command: `%s`\n' 'make bench$(if $(strip $(MAKEOVERRIDES)), $(strip $(MAKEOVERRIDES)))'; \
		printf -- '- commit: %s\n' "$$(git -C $(TOP) describe --always --dirty)"; \
		printf -- '- date: %s\n\n' "$$(date -u '+%F %T UTC')"; \
		printf 'What tools/testing/ftrace-harness/report/bench-report.py printed:\n\n```\n'; \
		cat $(BUILD)/bench$(ARCHSUF).txt; printf '```\n'; } > $(TOP)/$(BENCH_FILE).new
	@mv $(TOP)/$(BENCH_FILE).new $(TOP)/$(BENCH_FILE) && \
		echo "  BENCH   $(TOP)/$(BENCH_FILE)"

# Our tree's Documentation/trace in HTML, in build/docs/Documentation/
# output/trace (Sphinx: deps.sh docs installs it).  It fails on any Sphinx
# warning or error that names a file of ours: one the overlay provides or
# a patch edits.  The output is made from scratch each time, since Sphinx
# says nothing again about a file it does not read again.
DOCS       := $(BUILD)/docs
.PHONY: htmldocs
htmldocs: tree
	@[ $(VARIANT) = ours ] || { echo "htmldocs: builds our tree only (no STOCK=1)" >&2; exit 1; }
	@$(HARNESS)/host/deps.sh docs
	@rm -rf $(DOCS) && mkdir -p $(DOCS)
	@$(MAKE) -s -C $(BUILD)/ours/src O=$(DOCS) htmldocs SPHINXDIRS=trace \
		> $(DOCS)/htmldocs.log 2>&1 || { cat $(DOCS)/htmldocs.log; exit 1; }
	@cd $(TOP) && { git ls-files -- arch kernel include scripts Documentation tools; \
		sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' patches/*.patch; } | \
		sed 's|$$|:|' | sort -u > $(DOCS)/ours.txt
	@if grep -F -f $(DOCS)/ours.txt $(DOCS)/htmldocs.log >&2; then \
		echo "htmldocs: Sphinx warnings in our files (all in $(DOCS)/htmldocs.log)" >&2; exit 1; fi
	@echo "  DOCS    $(DOCS)/Documentation/output/trace/index.html"

clean:
	rm -rf $(BUILD)/ours $(BUILD)/stock

distclean:
	rm -rf $(BUILD)
