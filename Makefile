# The two entry points of the README: `make demo` and `make test`.
# Both install missing Debian packages, configure and build (Release) first.
PRESET ?= release
BUILD_DIR := build/$(PRESET)
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

# -Werror in CI (CI=true), warnings stay warnings on a developer's machine.
ifeq ($(CI),true)
  WERROR := -DWARPSCOPE_WERROR=ON
endif

.PHONY: all deps configure build demo test unit-test fuzz-smoke bench clean

all: build

deps:
	@bash scripts/install-deps.sh

configure: deps
	@cmake --preset $(PRESET) $(WERROR) >/dev/null

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

demo: build
	@$(BUILD_DIR)/warpscope demo --html $(BUILD_DIR)/demo.html

test: fuzz-smoke unit-test

unit-test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

# Every file parser's libFuzzer target, for a short fixed time, from its seed corpus
# (copied, so the repository's corpus is not modified).
FUZZ_SECONDS ?= 20
FUZZ_TARGETS := fuzz_trace_reader fuzz_arch_file fuzz_lane_expr fuzz_analyze fuzz_validate_inputs fuzz_sass_listing fuzz_ptx
fuzz-smoke: deps
	@cmake --preset fuzz >/dev/null
	@cmake --build build/fuzz -j $(JOBS) --target $(FUZZ_TARGETS)
	@for t in $(FUZZ_TARGETS); do \
	  corpus=$$(mktemp -d); seeds=fuzz/corpus/$${t#fuzz_}; \
	  if [ -d $$seeds ]; then cp -r $$seeds/. $$corpus/; fi; \
	  dict=fuzz/$${t#fuzz_}.dict; if [ -f $$dict ]; then dict=-dict=$$dict; else dict=; fi; \
	  echo "fuzz-smoke: $$t for $(FUZZ_SECONDS) s"; \
	  build/fuzz/fuzz/$$t -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -print_final_stats=0 $$dict $$corpus >/tmp/$$t.log 2>&1 \
	    || { tail -40 /tmp/$$t.log; rm -rf $$corpus; exit 1; }; \
	  grep -h "^Done" /tmp/$$t.log; rm -rf $$corpus; \
	done

bench: build
	@$(BUILD_DIR)/bench/warpscope_bench --benchmark_min_time=0.3

clean:
	rm -rf build
