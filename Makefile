# relaykit — build, test, bench.
#   make                 programs in bin/
#   make test            unit tests (cmocka), CLI tests (bats), tree-sitter corpus tests, README's
#                        examples (make check-docs)
#   make test SAN=1      the same, built with AddressSanitizer + UndefinedBehaviorSanitizer
#   make bench           throughput against peers; see bench/RESULTS.md
#   make check-slow      the hostile suite: 100 MB files, deep nesting (ASan), minutes and GBs
#   make check-tvm       against a real TVM (skipped without one; FULL=1 for the long version,
#                        ONLY=bugs,module,fidelity,reduce,pipeline for some groups)
#   make grammar         regenerate parser/src/parser.c from parser/grammar.js
#   make install PREFIX=/usr/local

CC      ?= cc
PREFIX  ?= /usr/local
SAN     ?= 0
PKGS    := jansson libgit2 libpcre2-8
CSTD    := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
WARN    := -Wall -Wextra -Werror
OPT     ?= -O2 -g
ifeq ($(SAN),1)
  OPT   := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
  BUILD := build/san
  BIN   := build/san/bin
else
  BUILD := build/rel
  BIN   := bin
endif
# tree-sitter's runtime is built from parser/vendor/tree-sitter (0.20.8, see its README.md):
# Debian's 0.20.7 corrupts its heap on a node of more than 65,535 children.
TS_LIB     := parser/vendor/tree-sitter/lib
PKG_CFLAGS := -I$(TS_LIB)/include $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   := $(shell pkg-config --libs $(PKGS))
CFLAGS_ALL := $(CSTD) $(WARN) $(OPT) $(PKG_CFLAGS) $(CFLAGS)
LDFLAGS_ALL := $(OPT) $(LDFLAGS)

SUPPORT_SRC := $(wildcard support/*.c)
PARSER_SRC  := parser/parse.c parser/lower.c parser/comments.c parser/print.c parser/dump.c parser/literal.c parser/build.c parser/clone.c parser/children.c parser/join.c
GRAMMAR_SRC := parser/src/parser.c parser/src/scanner.c $(TS_LIB)/src/lib.c
# typegen/ in layer order: types, the operator registry, inference, the generator
TYPEGEN_SRC := $(filter-out typegen/infer/rcheck.c typegen/gen/rgen.c,$(wildcard typegen/types/*.c typegen/ops/*.c typegen/infer/*.c typegen/gen/*.c))
RUN_SRC     := $(filter-out interestingness/roracle.c,$(wildcard interestingness/*.c))
PROGRAM_SRC := $(wildcard program/*.c)
REDUCE_SRC  := $(filter-out reduce/rreduce.c,$(wildcard reduce/*.c))
MUTATE_SRC  := $(filter-out mutate/rmutate.c,$(wildcard mutate/*.c))
CAMPAIGN_SRC := $(filter-out campaign/rfuzz.c,$(wildcard campaign/*.c))
LIB_SRC     := $(SUPPORT_SRC) $(PARSER_SRC) $(TYPEGEN_SRC) $(PROGRAM_SRC) $(RUN_SRC) $(REDUCE_SRC) $(MUTATE_SRC) $(CAMPAIGN_SRC)
# Data built into the programs: interestingness/tvm-limitations.txt as a C string (rfuzz, roracle).
GEN_SRC     := $(BUILD)/gen/limitations.c
LIB_OBJ     := $(LIB_SRC:%.c=$(BUILD)/%.o) $(GRAMMAR_SRC:%.c=$(BUILD)/%.o) $(GEN_SRC:%.c=%.o)
PROGRAMS    := rfmt rcheck rgen rreduce roracle rmutate rfuzz
UNIT_TESTS  := $(patsubst tests/unit/%.c,%,$(wildcard tests/unit/test_*.c))

.PHONY: all check test unit cli corpus-test grammar grammar-check bench install clean fuzz check-tvm check-slow check-docs
all: $(PROGRAMS:%=$(BIN)/%)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

# Generated code: tree-sitter's output is not ours to hold to -Wextra -Werror.
$(BUILD)/parser/src/%.o: parser/src/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(OPT) -Iparser/src -MMD -MP -c $< -o $@

# tree-sitter's runtime, as its own Makefile builds it (one file that includes the others).
$(BUILD)/$(TS_LIB)/src/lib.o: $(TS_LIB)/src/lib.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu99 $(OPT) -I$(TS_LIB)/src -I$(TS_LIB)/include -MMD -MP -c $< -o $@

$(BUILD)/gen/limitations.c: interestingness/tvm-limitations.txt
	@mkdir -p $(dir $@)
	{ echo '/* Generated from interestingness/tvm-limitations.txt by the Makefile: do not edit. */'; \
	  echo 'const char shipped_limitations[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/  "/' -e 's/$$/\\n"/' $<; echo '  "";'; } > $@

$(BUILD)/gen/%.o: $(BUILD)/gen/%.c
	$(CC) $(CFLAGS_ALL) -c $< -o $@

$(BUILD)/librelaykit.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN)/rfmt: $(BUILD)/parser/rfmt.o $(BUILD)/librelaykit.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(PKG_LIBS)

$(BIN)/rcheck: $(BUILD)/typegen/infer/rcheck.o $(BUILD)/librelaykit.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(PKG_LIBS)

$(BIN)/rgen: $(BUILD)/typegen/gen/rgen.o $(BUILD)/librelaykit.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(PKG_LIBS)

$(BIN)/rreduce: $(BUILD)/reduce/rreduce.o $(BUILD)/librelaykit.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(PKG_LIBS)

$(BIN)/roracle: $(BUILD)/interestingness/roracle.o $(BUILD)/librelaykit.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(PKG_LIBS)

$(BIN)/rmutate: $(BUILD)/mutate/rmutate.o $(BUILD)/librelaykit.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(PKG_LIBS)

$(BIN)/rfuzz: $(BUILD)/campaign/rfuzz.o $(BUILD)/librelaykit.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(PKG_LIBS)

$(BUILD)/bench/bench_parse: $(BUILD)/bench/bench_parse.o $(BUILD)/librelaykit.a
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(PKG_LIBS)

$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(BUILD)/librelaykit.a
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(PKG_LIBS) -lcmocka

# ---------------------------------------------------------------- tests
# Each runner prints its own counts; tests/run.sh adds them up into one closing line.
test: all $(UNIT_TESTS:%=$(BUILD)/tests/%)
	@bash tests/run.sh

# What CI runs: the tests, again under ASan+UBSan, the grammar check and a libFuzzer smoke run.
check: all $(UNIT_TESTS:%=$(BUILD)/tests/%)
	@bash tests/run.sh --full

# Runs the examples README.md marks (<!-- check-docs -->) and compares their output with what
# README.md shows (scripts/check-docs); make test runs it too.
check-docs: all
	@python3 scripts/check-docs

grammar:
	ts=$$(scripts/tree-sitter-cli) && cd parser && "$$ts" generate

# Fails when parser/src/parser.c is not what grammar.js generates.
grammar-check:
	@bash tests/grammar_check.sh

# ---------------------------------------------------------------- fuzzing (clang + libFuzzer)
fuzz: build/fuzz/fuzz_parse build/fuzz/fuzz_check build/fuzz/fuzz_reduce build/fuzz/fuzz_comments
FUZZ_FLAGS  := -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_SRC    := $(LIB_SRC) $(filter-out $(TS_LIB)/src/lib.c,$(GRAMMAR_SRC)) build/rel/gen/limitations.c
# tree-sitter's runtime once, with its own flags, under the sanitizers but without libFuzzer's
# coverage: its comparison tracing made a parse 10 times slower (20 s for a 1.5 MB input), and
# the grammar's states, the scanner and ours give the fuzzer its feedback.
build/fuzz/tree-sitter.o: $(TS_LIB)/src/lib.c
	@mkdir -p $(dir $@)
	clang -std=gnu99 $(FUZZ_FLAGS) -I$(TS_LIB)/src -I$(TS_LIB)/include -c $< -o $@
# The library's objects once for the four harnesses (each used to compile all of it again), with
# libFuzzer's coverage but not its main(); make -j builds them side by side.
FUZZ_OBJ    := $(FUZZ_SRC:%.c=build/fuzz/obj/%.o)
-include $(FUZZ_OBJ:.o=.d)
build/fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	clang $(CSTD) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link $(PKG_CFLAGS) -Iparser/src -MMD -MP -c $< -o $@
build/fuzz/%: tests/fuzz/%.c $(FUZZ_OBJ) build/fuzz/tree-sitter.o
	@mkdir -p $(dir $@)
	clang $(CSTD) $(FUZZ_FLAGS) -fsanitize=fuzzer $(PKG_CFLAGS) -Iparser/src \
	  -o $@ $< $(FUZZ_OBJ) build/fuzz/tree-sitter.o $(PKG_LIBS)

# The hostile suite too slow for CI (bench/hostile.sh): the small inputs (65,533 comments,
# 100,000-deep nesting of every construct, absurd sizes) under AddressSanitizer + UBSan, then
# everything, the 100 MB files included, with the release build (ASan would need twice the
# memory).  Each ends with "crashes 0, hangs 0, files changed 0" when all is well.
check-slow: all
	$(MAKE) -s SAN=1 all
	HOSTILE_SMALL=1 bash bench/hostile.sh $(CURDIR)/build/san/bin
	bash bench/hostile.sh $(CURDIR)/bin

# Needs `import tvm` (RELAYKIT_PYTHON, TVM_HOME, PYTHONPATH); says "skipped: no TVM" otherwise.
check-tvm: all
	@bash tests/tvm/run.sh

# ---------------------------------------------------------------- bench
bench: all
	@bash bench/run.sh

# The TVM tests live with their shared module under lib/relaykit/ (they find it beside their
# real path), with links in bin/; the Python module goes where $(PYTHON) looks under PREFIX
# (Debian: lib/python3.X/dist-packages), else to lib/relaykit/python (then set PYTHONPATH).
PYTHON      ?= python3
RK_LIB      := $(PREFIX)/lib/relaykit
PYTHONDIR   ?= $(shell $(PYTHON) -c 'import sys; d = [p for p in sys.path if p.startswith("$(PREFIX)/") and p.endswith("-packages")]; print(d[0] if d else "")' 2>/dev/null)
PYTHONDIR_  := $(if $(PYTHONDIR),$(PYTHONDIR),$(RK_LIB)/python)
MANDIR      ?= $(PREFIX)/share/man
TVM_SCRIPTS := $(sort $(notdir $(filter-out %.txt,$(wildcard interestingness/tvm-*)))) server-adapter
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(RK_LIB)/interestingness $(DESTDIR)$(PYTHONDIR_)/relaykit
	install -m 755 $(PROGRAMS:%=$(BIN)/%) $(DESTDIR)$(PREFIX)/bin/
	install -m 755 $(TVM_SCRIPTS:%=interestingness/%) $(DESTDIR)$(RK_LIB)/interestingness/
	install -m 644 interestingness/relaykit_repro.py interestingness/relaykit_outcome.py interestingness/README.md interestingness/PROTOCOL.md interestingness/tvm-limitations.txt $(DESTDIR)$(RK_LIB)/interestingness/
	rm -f $(DESTDIR)$(RK_LIB)/interestingness/relaykit_tvm.py  # one file before it was a package
	install -d $(DESTDIR)$(RK_LIB)/interestingness/relaykit_tvm
	install -m 644 interestingness/relaykit_tvm/*.py $(DESTDIR)$(RK_LIB)/interestingness/relaykit_tvm/
	for s in $(TVM_SCRIPTS); do ln -sf ../lib/relaykit/interestingness/$$s $(DESTDIR)$(PREFIX)/bin/$$s; done
	install -m 644 python/relaykit/*.py $(DESTDIR)$(PYTHONDIR_)/relaykit/
	printf '# written by make install: where relaykit.reduce, mutate and check find the programs\nBIN = "%s"\n' '$(PREFIX)/bin' > $(DESTDIR)$(PYTHONDIR_)/relaykit/_installed.py
	install -d $(DESTDIR)$(MANDIR)/man1
	for p in $(PROGRAMS:%=$(BIN)/%) $(TVM_SCRIPTS:%=interestingness/%); do \
	  RELAYKIT_BIN=$(BIN) scripts/man.sh $$p > $(DESTDIR)$(MANDIR)/man1/$$(basename $$p).1 || exit 1; done
	@echo "installed: programs and TVM tests in $(PREFIX)/bin, their man pages in $(MANDIR)/man1, the Python module relaykit in $(PYTHONDIR_)"

clean:
	rm -rf build bin

-include $(shell find build -name '*.d' 2>/dev/null)
