# ptoc — build with gcc and make only.
#   make            build build/ptoc and build/libptoc.a
#   make test       unit, golden and end-to-end tests; prints "N passed, M failed" last
#   make test SAN=1 the same under AddressSanitizer + UBSan (separate build dir)
#   make bench      speed figures as ratios against a baseline run side by side
#   make run        build, then run examples/matmul.py on the simulator
#   make fuzz       the differential program fuzzer: FUZZ_TIME=SEC or FUZZ_COUNT=N, FUZZ_SEED=N,
#                   FUZZ_FEATURES=spec, FUZZ_OUT=dir (docs/fuzzing.md)
#   make install PREFIX=/usr/local
#   make fuzz-parse [FUZZ_TIME=600] [FUZZ_RUNS=N]   libFuzzer on the front end and compiler (clang)

CC      ?= gcc
PREFIX  ?= /usr/local
SAN     ?= 0
OPT     ?= -O2

ifeq ($(SAN),1)
  BUILD   := build/san
  SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
  OPT     := -O1
else
  BUILD   := build
  SANFLAGS :=
endif

CFLAGS  := -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -Wno-unused-parameter \
           -ffp-contract=off -fno-fast-math -g $(OPT) $(SANFLAGS) -Iinclude -Isrc -MMD -MP
LDFLAGS := $(SANFLAGS)
LDLIBS  := -lm -lpthread

LIB_SRC  := $(sort $(wildcard src/base/*.c src/target/*.c src/ir/*.c src/front/*.c src/tile/*.c \
              src/interp/*.c src/pass/*.c src/mir/*.c src/back/*.c src/sim/*.c src/rt/*.c src/driver/*.c))
CLI_SRC  := $(sort $(wildcard src/cli/*.c))
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

PTOC   := $(BUILD)/ptoc
LIBA   := $(BUILD)/libptoc.a

.PHONY: all test run bench install clean unit fuzz fuzz-parse test-slow check-pto-isa
all: $(PTOC) $(LIBA)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(LIBA): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(PTOC): $(CLI_OBJ) $(LIBA)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(LIBA) $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c tests/unit/test.h $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit -o $@ $< $(LIBA) $(LDLIBS)

$(BUILD)/tests/embed: examples/embed.c $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(LIBA) $(LDLIBS)

# npycmp: the .npy comparer of tests/cli/test_vec.sh (standalone, not a unit test)
$(BUILD)/tests/npycmp: tests/cli/npycmp.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< -lm

FUZZ_SRC := $(sort $(wildcard tests/fuzz/progfuzz*.c))
$(BUILD)/progfuzz: $(FUZZ_SRC) tests/fuzz/progfuzz.h $(LIBA)
	$(CC) $(CFLAGS) -o $@ $(FUZZ_SRC) $(LIBA) $(LDLIBS)

FUZZ_SEED     ?= 1
FUZZ_COUNT    ?=
FUZZ_TIME     ?=
FUZZ_FEATURES ?= default
FUZZ_OUT      ?= fuzz-out
fuzz: $(BUILD)/progfuzz
	$(BUILD)/progfuzz --seed $(FUZZ_SEED) --features $(FUZZ_FEATURES) --out $(FUZZ_OUT) \
	    $(if $(FUZZ_COUNT),--count $(FUZZ_COUNT)) $(if $(FUZZ_TIME),--time $(FUZZ_TIME)) \
	    $(if $(or $(FUZZ_COUNT),$(FUZZ_TIME)),,--time 600)

# the slow tier (not part of test or .ci/run): 2048^3 matmuls blocked by AutoTileL1, with data
test-slow: all
	bash tests/slow/run_slow.sh $(BUILD)

# every example and tests/pto_isa/sweep/ through pto-isa's CPU simulation, bit for bit (docs/backend.md);
# skips with a message when PTO_ISA has no headers. Not part of `make test`.
PTO_ISA ?= ../shared/third_party/pto-isa
check-pto-isa: all
	bash tests/pto_isa/run.sh $(BUILD) $(PTO_ISA)

unit: $(UNIT_BIN)

test: all $(UNIT_BIN) $(BUILD)/tests/embed $(BUILD)/progfuzz $(BUILD)/tests/npycmp
	@bash tests/run.sh $(BUILD)

run: all
	$(PTOC) run examples/matmul.py

bench: all
	@bash bench/run.sh $(BUILD)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 755 $(PTOC) $(DESTDIR)$(PREFIX)/bin/ptoc
	install -m 644 $(LIBA) $(DESTDIR)$(PREFIX)/lib/libptoc.a
	install -m 644 include/ptoc.h $(DESTDIR)$(PREFIX)/include/ptoc.h
	sed -e 's|@PREFIX@|$(PREFIX)|g' ptoc.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/ptoc.pc

clean:
	rm -rf build

# ---- fuzz-parse: tests/fuzz/fuzz_compile.c under libFuzzer + ASan + UBSan, built by clang in its
# own directory; tests/fuzz/run_fuzz_parse.sh seeds the corpus and runs it (docs in that script) ----
FUZZ_DIR   := build/fuzz
FUZZ_RUNS  ?= -1
FUZZ_FLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -Wno-unused-parameter -ffp-contract=off -g -O2 \
              -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -Iinclude -Isrc -MMD -MP
$(FUZZ_DIR)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	clang $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c $< -o $@
$(FUZZ_DIR)/fuzz_compile: tests/fuzz/fuzz_compile.c $(LIB_SRC:%.c=$(FUZZ_DIR)/obj/%.o)
	clang $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)
fuzz-parse: $(FUZZ_DIR)/fuzz_compile
	@bash tests/fuzz/run_fuzz_parse.sh $(FUZZ_DIR) $(or $(FUZZ_TIME),60) $(FUZZ_RUNS)
-include $(wildcard $(FUZZ_DIR)/obj/src/*/*.d)

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(UNIT_BIN:=.d)
