# The two commands the README opens with:
#   make demo   install what is missing, build Release, run the demo
#   make test   install what is missing, build, check formatting and clang-tidy (lint), run
#               every test (plain and ASan/UBSan), each
#               fuzz target for a fixed number of inputs (fuzz-gate) and the concurrency tests
#               under TSan
.PHONY: demo test deps test-deps build build-asan lint unit asan bench format clean build-fuzz fuzz fuzz-gate build-tsan tsan

JOBS ?= $(shell nproc)
# ccache keys on paths relative to the checkout, so another clone of the repository (CI's) reuses
# what this one compiled.
export CCACHE_BASEDIR ?= $(CURDIR)
# The debug builds (ASan, fuzz, TSan) carry -g, and ccache then hashes the working directory
# too (it goes into the debug info): without this every new clone recompiles them all.
export CCACHE_NOHASHDIR ?= 1
BUILD_DIR ?= build/release
ASAN_DIR ?= build/asan
FUZZ_DIR ?= build/fuzz
TSAN_DIR ?= build/tsan
FUZZ_SECONDS ?= 30

deps:
	@./scripts/install_deps.sh

# node, npm and @duckdb/node-api for the differential tests (tests/differential).
test-deps:
	@./scripts/install_deps.sh --node

build: deps
	@cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(BUILD_DIR) -j $(JOBS)

build-asan: deps
	@cmake -S . -B $(ASAN_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSHEARS_SANITIZE=ON -DSHEARS_BUILD_BENCH=OFF >/dev/null
	@cmake --build $(ASAN_DIR) -j $(JOBS)

unit: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

asan: build-asan
	@cd $(ASAN_DIR) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS)

# Formatting and the clang-tidy baseline (scripts/lint.sh), before any test.
lint: build
	@./scripts/lint.sh $(BUILD_DIR)

test: test-deps lint unit asan fuzz-gate tsan

# libFuzzer targets (clang, ASan+UBSan). fuzz explores, each target for FUZZ_SECONDS;
# fuzz-gate (in make test) runs each on a fixed set of inputs made from a fixed seed, so a commit
# gets the same verdict on any machine (GATE_VARIANTS overrides the per-target counts of
# scripts/fuzz.sh). FUZZ_TARGETS picks some.
build-fuzz: deps
	@CC=clang CXX=clang++ cmake -S . -B $(FUZZ_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSHEARS_FUZZ=ON -DSHEARS_BUILD_BENCH=OFF >/dev/null
	@cmake --build $(FUZZ_DIR) -j $(JOBS) --target fuzz_all

fuzz: build-fuzz
	@./scripts/fuzz.sh $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-gate: build-fuzz
	@./scripts/fuzz.sh --gate $(FUZZ_DIR) $(FUZZ_TARGETS)

# The concurrency tests and the threaded hash-join build under ThreadSanitizer (only those,
# to bound the time).
build-tsan: deps
	@cmake -S . -B $(TSAN_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSHEARS_TSAN=ON -DSHEARS_BUILD_BENCH=OFF >/dev/null
	@cmake --build $(TSAN_DIR) -j $(JOBS) --target shears_tests

tsan: build-tsan
	@TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 SHEARS_SOURCE_DIR=$(CURDIR) \
	  $(TSAN_DIR)/shears_tests \
	  --gtest_filter='ConcurrencyTest.*:JoinHashTableTest.*:OperatorMetricsTest.*:Sql/SqlLogicTest.Run/runtime_filter_parallel_build_test'

demo: build
	@./scripts/demo.sh $(BUILD_DIR)/shears

bench: build
	@$(BUILD_DIR)/shears_bench

format:
	@git ls-files '*.cpp' '*.h' | xargs clang-format -i

clean:
	rm -rf build
