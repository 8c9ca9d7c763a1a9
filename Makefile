# kernpack -- Lua templates -> NVRTC cubin packs -> a tiny Driver-API runtime.
#
#   make            check/install build deps, build lib, CLI, generator and packs
#   make test       build everything, then run the Check suite (GPU cases skip
#                   visibly without a GPU)
#   make bench      build the benchmark (run it on a GPU machine)
#   make fuzz       build and run the libFuzzer targets (pack reader, tuning table,
#                   kp's shape files), FUZZ_TIME seconds each
#   make sanitize   ASan + UBSan build in $(O)-asan (build/ untouched, its packs
#                   reused): the CPU tests and the tools' CPU paths under it
#   make install    PREFIX=/usr/local DESTDIR=
#   V=1 shows full commands; O=dir moves the build directory.

CUDA_HOME ?= /usr/local/cuda
O ?= build
B := $(O)
PREFIX ?= /usr/local
ARCHS ?= sm_80 sm_86 sm_89 sm_90a sm_120 compute_80 compute_100 compute_103
# The targets whose cubin packs hold only the variants the ranking picks for
# some call (gen/ranked.h): every cubin target.  The rest of the template
# space is for tuning: `kp tune` times what the pack holds, so tune on a GPU
# with its target built whole, `make WHOLE_ARCHS=sm_90a` (or `make
# RANKED_ARCHS=`, every pack whole); `kp regen` and first-use JIT reach the
# rest from any pack.  compute_80, compute_100 and compute_103 (PTX: a GPU
# without a cubin pack of its own JIT-compiles from it -- an sm_80-sm_9x
# from compute_80's, an sm_100 or sm_110 from compute_100's, an sm_103 from
# compute_103's, by ptxas alone: runtime/jit.c) stay whole.  compute_120 and
# compute_121 are routes too (an sm_120 / sm_121 from its own PTX) but left
# out by default: the sm_120 cubin pack serves both GPUs (ARCHS+=compute_120
# for a set of packs without it, +55 s of make -j2 each).  sm_90a was whole
# until the default build reached its 10 minutes (bench/NOTES.md, build
# time): its 805 tuner-only variants were 223 s of its 434 s of NVRTC.
WHOLE_ARCHS ?=
RANKED_ARCHS ?= $(filter-out $(WHOLE_ARCHS),sm_80 sm_86 sm_89 sm_90a sm_120)
# The targets `make test` also builds whole, in $(B)/packs-whole (the other
# targets' packs linked there as they are), and runs the suites over: every
# variant of the space is checked -- float64 on a GPU, SASS on any machine --
# not only the shipped picks.  sm_90a: the target measured and tuned here.
TEST_WHOLE_ARCHS ?= sm_90a
# NVRTC_EXTRA: one extra NVRTC option for every compile, build time and JIT
# (experiments: make O=build/ofc NVRTC_EXTRA=--Ofast-compile=mid)
NVRTC_EXTRA ?=

CC ?= cc
ifeq ($(origin CC),default)
CC := gcc
endif
WARN := -Wall -Wextra -Wshadow -Wpointer-arith -Wcast-align -Wstrict-prototypes \
        -Wmissing-prototypes -Wno-unused-parameter -Wformat=2 -Wundef -Wno-format-truncation
CFLAGS ?= -O2 -g
LDFLAGS ?=
# Every link line takes $(CFLAGS) $(LDFLAGS), so that
# `make CFLAGS=-fsanitize=... ` links the runtimes it needs.
LINK = $(CC) $(CFLAGS) $(LDFLAGS)
KP_CFLAGS := -std=gnu11 $(WARN) -fPIC -fvisibility=hidden -pthread -Iinclude -Iruntime -Igen \
             -DKP_DEFAULT_PACK_DIR=\"$(PREFIX)/share/kernpack/packs\" \
             -isystem $(CUDA_HOME)/include -MMD -MP
ifneq ($(NVRTC_EXTRA),)
KP_CFLAGS += -DKP_NVRTC_EXTRA='"$(NVRTC_EXTRA)"'
endif
LUA_CFLAGS := $(shell pkg-config --cflags lua5.4 2>/dev/null)
LUA_LIBDIR := $(shell pkg-config --variable=libdir lua5.4 2>/dev/null)
LUA_STATIC := $(LUA_LIBDIR)/liblua5.4.a
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBDIR := $(shell pkg-config --variable=libdir check 2>/dev/null)
CHECK_STATIC := $(CHECK_LIBDIR)/libcheck_pic.a $(CHECK_LIBDIR)/libsubunit.a
NVRTC_LIBS := -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lnvrtc

ifeq ($(V),1)
Q :=
say = @true
else
Q := @
say = @printf '  %-7s %s\n' $(1) $(2)
endif

.PHONY: all deps lib packs packs-whole test bench fuzz install clean build-all run-tests \
        build-bench run-fuzz do-install
.SUFFIXES:
.DELETE_ON_ERROR:
.SECONDARY:

# The user-facing targets first make sure the Debian packages are there, then
# run the real work in a sub-make, whose pkg-config queries and generated
# rules ($(B)/variants.mk) see the freshly installed packages.
SUBMAKE = $(MAKE) --no-print-directory KP_SUB=1
all: deps
	+$(Q)$(SUBMAKE) build-all
test: deps
	+$(Q)$(SUBMAKE) build-all
	+$(Q)$(SUBMAKE) packs-whole
	+$(Q)$(SUBMAKE) run-tests
bench: deps
	+$(Q)$(SUBMAKE) build-bench
fuzz: deps
	+$(Q)$(SUBMAKE) run-fuzz
install: deps
	+$(Q)$(SUBMAKE) do-install

build-all: lib $(B)/bin/kp packs

# ---- dependencies -----------------------------------------------------------
# Installs missing Debian packages when we are root (or sudo works without a
# password); otherwise prints the exact command and stops.
DEB_PKGS := liblua5.4-dev check pkg-config
deps:
	$(Q)missing=""; \
	for p in $(DEB_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  elif sudo -n true 2>/dev/null; then sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else echo "kernpack needs:$$missing -- run: sudo apt-get install$$missing"; exit 1; fi; \
	fi; \
	test -x $(CUDA_HOME)/bin/nvcc -o -f $(CUDA_HOME)/lib64/libnvrtc.so || \
	  { echo "CUDA toolkit not found in $(CUDA_HOME) (set CUDA_HOME)"; exit 1; }

# ---- runtime library --------------------------------------------------------
RT_SRC := $(wildcard runtime/*.c)
RT_OBJ := $(RT_SRC:%.c=$(B)/obj/%.o)

$(B)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) $(CFLAGS) $(KP_CFLAGS) $(LUA_CFLAGS) $(CHECK_CFLAGS) -c $< -o $@

lib: $(B)/lib/libkernpack.a $(B)/lib/libkernpack.so

$(B)/lib/libkernpack.a: $(RT_OBJ)
	@mkdir -p $(@D)
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/lib/libkernpack.so: $(RT_OBJ)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(LINK) -shared -Wl,-soname,libkernpack.so.0 -o $@ $^ -ldl -lpthread -lm
	$(Q)ln -sf libkernpack.so $(@D)/libkernpack.so.0

# ---- generator --------------------------------------------------------------
GEN_SRC := $(wildcard gen/*.c)
GEN_OBJ := $(GEN_SRC:%.c=$(B)/obj/%.o)
GEN_LIB_OBJ := $(filter-out $(B)/obj/gen/kpgen.o,$(GEN_OBJ))
KPGEN := $(B)/bin/kpgen

$(KPGEN): $(GEN_OBJ) $(B)/lib/libkernpack.a
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(LINK) -o $@ $^ $(LUA_STATIC) $(NVRTC_LIBS) -lm -ldl -lpthread

# ---- variants and packs -----------------------------------------------------
TEMPLATES := $(sort $(wildcard templates/*.lua))
SRCDIR := $(B)/src

kp_emit = $(call say,GEN,$(1)) ; $(KPGEN) emit $(1) $(SRCDIR) && touch $@

# (RANKED_ARCHS' value is a prerequisite through a file rewritten when it changes)
RANKED_STAMP := $(B)/.ranked-archs
$(RANKED_STAMP): FORCE
	@mkdir -p $(@D) && { echo '$(RANKED_ARCHS)' | cmp -s - $@ || echo '$(RANKED_ARCHS)' > $@; }
.PHONY: FORCE
FORCE:

$(B)/variants.mk: $(TEMPLATES) templates/kp_device.cuh $(KPGEN) $(RANKED_STAMP)
	$(call say,GEN,$@)
	$(Q)mkdir -p $(SRCDIR) && $(KPGEN) mk $(SRCDIR) --ranked '$(RANKED_ARCHS)' $(TEMPLATES) > $@.tmp \
	  && mv $@.tmp $@

ifeq ($(KP_SUB),1)
-include $(B)/variants.mk
endif

# one target per (target, variant): $(B)/obj/<target>/<variant>.bin (+ .info)
.SECONDEXPANSION:
# (two rules, not one with two targets: that would mean one recipe makes both).
# A variant depends on its source and on how it is compiled (nvrtc_compile.o,
# which includes nvrtc_opts.h), not on the rest of kpgen: a runtime change must
# not recompile 1170 variants.
# Each compile prints the build's progress line (done / total, elapsed, ETA,
# target/variant; kpgen.c): one line rewritten on a terminal, plain lines in a
# log or with V=1, nothing with make -s.  progress-init counts the compiles
# to run, once per make run and before any of them (an order-only prerequisite),
# after the families' sources are regenerated (their stamps: a template edit
# rewrites the sources it changes, and only those bins are then stale); the
# list of every variant x target goes in a file (too long for a command).
define kp_compile_rule
$(B)/obj/$(1)%.bin: $(SRCDIR)/$$$$(notdir $$$$*).cu $(B)/obj/gen/nvrtc_compile.o | $(KPGEN) progress-init
	@mkdir -p $$(@D)
	$$(Q)$$(KPGEN) compile $$< $$(notdir $$(@D)) $$(basename $$@) $(PROGRESS)
endef
PROGRESS := $(B)/.progress
PROGRESS_MODE = $(if $(findstring s,$(firstword -$(MAKEFLAGS))),2,$(if $(filter 1,$(V)),1,0))
.PHONY: progress-init
progress-init: | $(KPGEN) $(foreach f,$(KP_FAMILIES),$(SRCDIR)/.$(f).stamp)
	$(file >$(PROGRESS).bins,$(foreach t,$(ARCHS),$(call variant_bins,$(t))) \
	  $(if $(filter packs-whole,$(MAKECMDGOALS)),$(foreach t,$(TEST_WHOLE_ARCHS),$(call all_bins,$(t)))))
	$(Q)$(KPGEN) progress-init $(PROGRESS) $(PROGRESS_MODE) $(SRCDIR) $(B)/obj/gen/nvrtc_compile.o \
	  @$(PROGRESS).bins
$(eval $(call kp_compile_rule,sm_))
$(eval $(call kp_compile_rule,compute_))
# sm_80, sm_86 and sm_89 cubins by ptxas alone from compute_80's PTX, which is
# what NVVM makes for each of them (gen/ptxas.c; bench/NOTES.md 91): NVRTC's
# front end and NVVM, about 70% of a compile, run once for the four targets.
# These rules take every variant the two share (the sm_8x-only ones stay on
# NVRTC); PTXAS= puts all of them back on NVRTC.
PTXAS ?= $(wildcard $(CUDA_HOME)/bin/ptxas)
PTX_ROUTE := sm_80 sm_86 sm_89
ptx_route_bins = $(foreach v,$(filter $(KP_VARIANTS) $(KP_VARIANTS_compute_80),$(KP_VARIANTS) \
                   $(KP_VARIANTS_$(1))),$(B)/obj/$(1)/$(v).bin)
define kp_ptxas_rule
$(call ptx_route_bins,$(1)): $(B)/obj/$(1)/%.bin: $(B)/obj/compute_80/%.bin $(B)/obj/gen/ptxas.o | $(KPGEN) progress-init
	@mkdir -p $$(@D)
	$$(Q)$$(KPGEN) assemble $(PTXAS) $$< $(1) $$(basename $$@) $(PROGRESS)
endef
ifneq ($(PTXAS),)
$(foreach t,$(PTX_ROUTE),$(eval $(call kp_ptxas_rule,$(t))))
endif

# (the pattern stem above includes the target dir; this helper lists them)
# (variants declared with `targets` are built for those targets alone; a
# target of RANKED_ARCHS gets the ranking's picks, KP_PICKS_<target>)
ranked = $(filter $(1),$(RANKED_ARCHS))
variant_bins = $(foreach v,$(if $(call ranked,$(1)),$(KP_PICKS_$(1)),$(KP_VARIANTS) $(KP_VARIANTS_$(1))),$(B)/obj/$(1)/$(v).bin)

$(B)/packs/%.kpk: $$(call variant_bins,$$*) $(TEMPLATES) $(KPGEN) $(RANKED_STAMP)
	@mkdir -p $(@D)
	$(Q)KP_PROGRESS=$(PROGRESS) $(KPGEN) pack $(if $(call ranked,$*),--ranked) $* $(B)/obj/$* \
	  $(SRCDIR) $@ $(TEMPLATES)

PACKS := $(ARCHS:%=$(B)/packs/%.kpk)
packs: $(PACKS)

# $(B)/packs-whole: the packs of TEST_WHOLE_ARCHS' targets with every variant
# (where the default pack holds the ranking's picks), links to the others
all_bins = $(foreach v,$(KP_VARIANTS) $(KP_VARIANTS_$(1)),$(B)/obj/$(1)/$(v).bin)
whole_extra = $(filter $(TEST_WHOLE_ARCHS),$(call ranked,$(1)))
WHOLE_DIR := $(B)/packs-whole
WHOLE_PACKS := $(ARCHS:%=$(WHOLE_DIR)/%.kpk)
# (a link left by a build where the target was whole in $(B)/packs is
# replaced, never written through)
$(WHOLE_DIR)/%.kpk: $$(if $$(call whole_extra,$$*),$$(call all_bins,$$*) $(TEMPLATES) $(KPGEN) \
                    $$(shell test -L $$@ && echo FORCE),$(B)/packs/$$*.kpk)
	@mkdir -p $(@D)
	$(Q)rm -f $@ && $(if $(call whole_extra,$*),KP_PROGRESS=$(PROGRESS) $(KPGEN) pack $* \
	  $(B)/obj/$* $(SRCDIR) $@ $(TEMPLATES),ln -s ../packs/$*.kpk $@)
ifeq ($(KP_SUB),1)
packs-whole: $(WHOLE_PACKS)
else # (from the top, as `make test` runs it: the variants' rules are the sub-make's)
packs-whole: deps
	+$(Q)$(SUBMAKE) build-all
	+$(Q)$(SUBMAKE) packs-whole
endif

# ---- CLI --------------------------------------------------------------------
TOOL_SRC := $(wildcard tools/*.c)
$(B)/bin/kp: $(TOOL_SRC:%.c=$(B)/obj/%.o) $(B)/obj/gen/pack_write.o $(B)/obj/gen/progress.o \
            $(B)/obj/gen/ranked.o $(B)/lib/libkernpack.a
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(LINK) -o $@ $^ -ldl -lpthread -lm

# ---- tests ------------------------------------------------------------------
TEST_SRC := $(wildcard tests/*.c)
TEST_BIN := $(B)/tests/check_kernpack
$(TEST_BIN): $(TEST_SRC:%.c=$(B)/obj/%.o) $(GEN_LIB_OBJ) $(B)/lib/libkernpack.a
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(LINK) -o $@ $^ $(CHECK_STATIC) $(LUA_STATIC) $(NVRTC_LIBS) -lm -ldl -lpthread -lrt

# cuobjdump for the gemm SASS checks (tests/check_sass.c): the toolkit's, else
# one on PATH, else the one pip's nvidia-cuda-cuobjdump put in Python's
# nvidia/*/bin; none: those checks print SKIP.
CUOBJDUMP_PIP = $(shell python3 -c 'import glob, nvidia; h = sorted(x for p in nvidia.__path__ for x in glob.glob(p + "/*/bin/cuobjdump")); print(h[0] if h else "")' 2>/dev/null)
CUOBJDUMP ?= $(or $(wildcard $(CUDA_HOME)/bin/cuobjdump),$(shell command -v cuobjdump 2>/dev/null),$(CUOBJDUMP_PIP))
TEST_ENV = KP_PACK_DIR=$(abspath $(PACK_DIR)) KP_TEMPLATE_DIR=$(abspath templates) CUOBJDUMP=$(CUOBJDUMP)
# (the suites run over $(B)/packs-whole: every variant, make test builds it)
PACK_DIR ?= $(WHOLE_DIR)

# Then the Python binding's tests, when python3 is there: the CPU ones
# (import, "no GPU", argument checks) need neither torch nor pytest; the GPU
# ones skip visibly without torch or a GPU.  Nothing is built with Python.
run-tests: $(TEST_BIN) $(if $(filter $(WHOLE_DIR),$(PACK_DIR)),$(WHOLE_PACKS))
	$(Q)$(TEST_ENV) $(TEST_BIN)
	$(Q)if command -v python3 >/dev/null 2>&1; then \
	  KP_LIB=$(abspath $(B)/lib/libkernpack.so) KP_PACK_DIR=$(abspath $(PACK_DIR)) \
	    python3 python/tests/run_tests.py; \
	else echo "python tests: skipped (no python3)"; fi

# ---- benchmark --------------------------------------------------------------
build-bench: build-all $(B)/bin/kpbench $(B)/bin/nvrtc_phases
$(B)/bin/kpbench: $(B)/obj/bench/kpbench.o $(B)/lib/libkernpack.a
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(LINK) -o $@ $^ -ldl -lpthread -lm
$(B)/bin/nvrtc_phases: $(B)/obj/bench/nvrtc_phases.o
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(LINK) -o $@ $^ $(NVRTC_LIBS)

# ---- fuzzing (clang + libFuzzer) ------------------------------------------------
FUZZ_TIME ?= 60
# fuzz_pack's seed: a small pack cut from a built one (fuzz/seed_pack.c),
# written afresh each run (a seed of an older pack format stops at the
# version check)
run-fuzz: $(B)/bin/fuzz_pack $(B)/bin/fuzz_tune $(B)/bin/fuzz_shapes $(B)/bin/seed_pack
	$(Q)mkdir -p $(B)/fuzz-corpus && $(B)/bin/seed_pack $(B)/packs/sm_90a.kpk \
	  $(B)/fuzz-corpus/seed.kpk 200000 && \
	$(B)/bin/fuzz_pack -max_total_time=$(FUZZ_TIME) -max_len=262144 $(B)/fuzz-corpus
	$(Q)mkdir -p $(B)/fuzz-tune-corpus && cp -n tests/data/*.tune $(B)/fuzz-tune-corpus/ 2>/dev/null; \
	$(B)/bin/fuzz_tune -max_total_time=$(FUZZ_TIME) -max_len=8192 $(B)/fuzz-tune-corpus
	$(Q)mkdir -p $(B)/fuzz-shapes-corpus && cp bench/shapes_*.txt $(B)/fuzz-shapes-corpus/ && \
	$(B)/bin/fuzz_shapes -max_total_time=$(FUZZ_TIME) -max_len=4096 $(B)/fuzz-shapes-corpus
$(B)/bin/fuzz_shapes: fuzz/fuzz_shapes.c tools/kp_shapes.c $(RT_SRC)
	@mkdir -p $(@D)
	$(call say,CLANG,$@)
	$(Q)clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Iinclude -Iruntime -Itools -Igen -isystem $(CUDA_HOME)/include \
	  -o $@ $^ -ldl -lpthread -lm
$(B)/bin/fuzz_tune: fuzz/fuzz_tune.c $(RT_SRC)
	@mkdir -p $(@D)
	$(call say,CLANG,$@)
	$(Q)clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Iinclude -Iruntime -isystem $(CUDA_HOME)/include \
	  -o $@ $^ -ldl -lpthread
$(B)/bin/seed_pack: fuzz/seed_pack.c $(B)/obj/gen/pack_write.o $(B)/lib/libkernpack.a | packs
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(LINK) -Iinclude -Iruntime -o $@ $^ -ldl -lpthread -lm
$(B)/bin/fuzz_pack: fuzz/fuzz_pack.c runtime/pack_read.c runtime/dims.c runtime/checksum.c runtime/status.c | packs
	@mkdir -p $(@D)
	$(call say,CLANG,$@)
	$(Q)clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Iinclude -Iruntime -o $@ $^

# ---- sanitizers ---------------------------------------------------------------
# The library, kp, kpgen and the tests built with ASan + UBSan into their own
# directory; the packs come from the normal build (compiling 1170 variants
# again under ASan would only slow NVRTC down).  Then the Check suite (its
# GPU cases too, where there is a GPU: protect_shadow_gap=0 lets the CUDA
# driver map its memory) and tests/tools_cpu.sh: kp's and kpgen's paths that
# need no GPU (kpgen compiles a few variants).
SAN_O ?= $(O)-asan
SAN_CFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# (ASan runs the tests 2-4x slower: Check's per-test timeouts, set for the plain
# build, are stretched by CK_TIMEOUT_MULTIPLIER rather than tripped on a slow machine)
SAN_ENV := CK_TIMEOUT_MULTIPLIER=4 ASAN_OPTIONS=detect_leaks=1:check_initialization_order=1:protect_shadow_gap=0 \
           UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
.PHONY: sanitize run-sanitize
sanitize: deps
	+$(Q)$(SUBMAKE) build-all
	+$(Q)$(SUBMAKE) packs-whole
	+$(Q)$(MAKE) --no-print-directory O=$(SAN_O) CFLAGS="$(SAN_CFLAGS)" \
	  PACK_DIR=$(abspath $(WHOLE_DIR)) run-sanitize
run-sanitize: $(TEST_BIN) $(B)/bin/kp $(KPGEN)
	$(Q)$(SAN_ENV) $(TEST_ENV) $(TEST_BIN)
	$(Q)$(SAN_ENV) tests/tools_cpu.sh $(B)/bin $(PACK_DIR) templates $(B)/tools-cpu

# ---- install ------------------------------------------------------------------
do-install: build-all
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/bin \
	  $(DESTDIR)$(PREFIX)/share/kernpack/packs $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 include/kernpack.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(B)/lib/libkernpack.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(B)/lib/libkernpack.so $(DESTDIR)$(PREFIX)/lib/libkernpack.so.0
	ln -sf libkernpack.so.0 $(DESTDIR)$(PREFIX)/lib/libkernpack.so
	install -m 755 $(B)/bin/kp $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(PACKS) $(DESTDIR)$(PREFIX)/share/kernpack/packs/
	printf 'prefix=%s\nlibdir=$${prefix}/lib\nincludedir=$${prefix}/include\n\nName: kernpack\nDescription: GPU transformer kernels from cubin packs\nVersion: 0.1.0\nLibs: -L$${libdir} -lkernpack\nLibs.private: -ldl -lpthread -lm\nCflags: -I$${includedir}\n' \
	  $(PREFIX) > $(DESTDIR)$(PREFIX)/lib/pkgconfig/kernpack.pc

clean:
	rm -rf $(B)

-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)
