# Thin wrapper over CMake so that the quick start is `make demo` and
# `make test` on a fresh Debian machine.
BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
DEMO       ?= examples/bouncing_ball.xml
RESULTS    ?= results

.PHONY: all deps configure build demo test test-asan docs clean

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

# Documents generated from the code (a test fails when they are stale).
docs: build
	$(BUILD)/blocksim blocks --markdown > docs/block-reference.md

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(RESULTS)
