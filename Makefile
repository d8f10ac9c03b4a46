# The two entry points of the README: `make demo` and `make test`.
# Both install missing Debian packages, configure and build (Release) first.
PRESET ?= release
BUILD_DIR := build/$(PRESET)
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

# -Werror in CI (CI=true), warnings stay warnings on a developer's machine.
ifeq ($(CI),true)
  WERROR := -DWARPSCOPE_WERROR=ON
endif

.PHONY: all deps configure build demo test bench clean

all: build

deps:
	@bash scripts/install-deps.sh

configure: deps
	@cmake --preset $(PRESET) $(WERROR) >/dev/null

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

demo: build
	@$(BUILD_DIR)/warpscope demo

test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

bench: build
	@$(BUILD_DIR)/bench/warpscope_bench --benchmark_min_time=0.3s

clean:
	rm -rf build
