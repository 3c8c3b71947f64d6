# The two commands the README opens with:
#   make demo   install what is missing, build Release, run the demo
#   make test   install what is missing, build, run every test (plain and ASan/UBSan)
.PHONY: demo test deps test-deps build build-asan unit asan bench format clean

JOBS ?= $(shell nproc)
BUILD_DIR ?= build/release
ASAN_DIR ?= build/asan

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

test: test-deps unit asan

demo: build
	@./scripts/demo.sh $(BUILD_DIR)/shears

bench: build
	@$(BUILD_DIR)/shears_bench

format:
	@find src tests bench -name '*.cpp' -o -name '*.h' | xargs clang-format -i

clean:
	rm -rf build
