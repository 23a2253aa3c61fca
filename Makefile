# make test  — set up everything (Debian packages, .venv, build) and run every test.
# make bench — set up everything and run the benchmark suite against NumPy.
# Both are idempotent: a second run only rebuilds what changed.

SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
BUILD_DIR := build/python
JOBS ?= $(shell nproc)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

APT_PACKAGES := g++ cmake ninja-build ccache libgtest-dev libhwy-dev libfftw3-dev libboost-context-dev
SOURCES := CMakeLists.txt pyproject.toml $(shell find src include python tests/cpp -type f \( -name '*.h' -o -name '*.cuh' -o -name '*.cpp' -o -name '*.py' \) 2>/dev/null)

BENCH_ARGS := $(if $(QUICK),--quick) $(if $(CASES),--cases '$(CASES)') $(if $(SIZES),--sizes '$(SIZES)') $(if $(DEVICE),--device $(DEVICE)) $(if $(PEERS),--peers)

.PHONY: test bench build setup clean

# The CUDA simulator's run: two simulated devices, the tests of the CUDA device, and the
# `cuda` parameter of every file of the suite (their `cpu` parameter ran in the first run;
# test_bench.py, of the benchmark's machinery, has no device parameter). --device-run leaves
# out the tests of Python kernels compiled for the CPU (host_only), which the first run ran.
SIM_ENV := TESSERA_CUDA_SIM=1 TESSERA_CUDA_SIM_DEVICES=2 TESSERA_CACHE_DIR=$(CURDIR)/build/kernel-cache
SIM_TESTS := $(filter-out test_bench.py,$(notdir $(wildcard tests/python/test_*.py)))

# NumPy, the oracle, dispatches many float functions (tan, arcsin, expm1, log1p, power,
# exp2 ...) to SVML-based AVX-512 loops where the CPU has AVX-512, with other rounding and
# no underflow flags; tessera matches NumPy's AVX2-level loops, which every x86-64 machine
# the suite runs on has. The tests pin NumPy's dispatch there (a run-time setting of NumPy's).
ORACLE_ENV := NPY_DISABLE_CPU_FEATURES="X86_V4 AVX512_ICL AVX512_SPR"

# The C++ tests run beside the suite's CPU run, their report printed after it: they are
# mostly NVRTC and ptxas runs, which keep a core busy, while the CPU run leaves about a third
# of the two cores idle (132% of one core over its 10 minutes, measured): side by side the
# two took 11.8 minutes on 2 cores with warm kernel caches (one after the other about 15),
# 14.1 from a fresh clone.
CTEST_LOG := $(BUILD_DIR)/ctest.log

test: build
	@ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(JOBS) > $(CTEST_LOG) 2>&1 & ctest=$$!; \
	$(ORACLE_ENV) $(PY) -m pytest tests/python -n $(JOBS) -p no:cacheprovider; status=$$?; \
	wait $$ctest; ctest_status=$$?; \
	echo "--- the C++ tests (ctest), run beside it:"; cat $(CTEST_LOG); \
	test $$status -eq 0 && test $$ctest_status -eq 0
	$(ORACLE_ENV) $(SIM_ENV) $(PY) -m pytest $(addprefix tests/python/,$(SIM_TESTS)) -k "not cpu" --device-run -n $(JOBS) -p no:cacheprovider
	$(ORACLE_ENV) tests/array_api/run $(PY) -n $(JOBS) -W ignore::UserWarning

bench: build $(if $(PEERS),$(VENV)/.peers-stamp)
	$(PY) -m tessera.bench $(BENCH_ARGS)

$(VENV)/.peers-stamp: requirements-peers.txt $(VENV)/.stamp
	$(PY) -m pip install -q -r requirements.txt -r requirements-peers.txt
	@touch $@

setup: build/.apt-stamp $(VENV)/.stamp

build: build/.installed

build/.apt-stamp: Makefile
	@mkdir -p build
	@missing=$$(for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:" $$missing; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
	@touch $@

$(VENV)/.stamp: requirements.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt
	@touch $@

build/.installed: build/.apt-stamp $(VENV)/.stamp $(SOURCES)
	CMAKE_BUILD_PARALLEL_LEVEL=$(JOBS) $(PY) -m pip install -q --no-build-isolation --no-deps -e .
	@touch $@

clean:
	rm -rf build $(VENV)
