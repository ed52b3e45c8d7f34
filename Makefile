# Thin wrapper over CMake so that the quick start is `make demo` and
# `make test` on a fresh Debian machine.
BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
CLANG_BUILD ?= build-clang
# seconds each libFuzzer target runs in `make test-fuzz` (docs/testing.md)
FUZZ_SECONDS ?= 60
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
DEMO       ?= examples/bouncing_ball.xml
RESULTS    ?= results

.PHONY: all deps configure build demo test test-asan test-clang test-fuzz docs clean

all: build

deps:
	@sh scripts/install-deps.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo

build: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

demo: deps build
	@mkdir -p $(RESULTS)
	$(BUILD)/blocksim run $(DEMO) -o $(RESULTS)/demo.csv --stats
	@echo "results written to $(RESULTS)/demo.csv"

test: deps build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	$(MAKE) test-asan

# The same tests under AddressSanitizer and UndefinedBehaviorSanitizer.
test-asan:
	@test -f $(ASAN_BUILD)/CMakeCache.txt || \
	  cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DBSIM_SANITIZE=ON
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS)

# The same tests built by clang with its ASan and UBSan, whose UBSan checks
# more than GCC's (a NULL pointer offset by 0, docs/testing.md); .ci/run
# runs it.
test-clang:
	@test -f $(CLANG_BUILD)/CMakeCache.txt || \
	  cmake -S . -B $(CLANG_BUILD) -DCMAKE_C_COMPILER=clang \
	    -DCMAKE_BUILD_TYPE=Debug -DBSIM_SANITIZE=ON
	cmake --build $(CLANG_BUILD) -j $(JOBS)
	cd $(CLANG_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS)

# The libFuzzer targets of fuzz/ (clang, ASan + UBSan), each for
# FUZZ_SECONDS from the seed corpora: ctest label "fuzz".
test-fuzz:
	@test -f $(FUZZ_BUILD)/CMakeCache.txt || \
	  cmake -S . -B $(FUZZ_BUILD) -DCMAKE_C_COMPILER=clang \
	    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBSIM_FUZZ=ON
	cmake -S . -B $(FUZZ_BUILD) -DBSIM_FUZZ_SECONDS=$(FUZZ_SECONDS)
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz
	cd $(FUZZ_BUILD) && ctest -L fuzz --output-on-failure

# Documents generated from the code (a test fails when they are stale).
docs: build
	$(BUILD)/blocksim blocks --markdown > docs/block-reference.md

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(CLANG_BUILD) $(FUZZ_BUILD) $(RESULTS)
