# Front door for snag. `make demo` and `make test` do all the set-up on a fresh
# Debian 12 machine: they install missing packages, configure and build.
BUILD   ?= build
PREFIX  ?= /usr/local
JOBS    ?= $(shell nproc)
CONFIG  ?= RelWithDebInfo

.PHONY: all deps configure build demo test install bench fuzz clean

all: build

deps:
	@scripts/install-deps.sh

$(BUILD)/build.ninja: | deps
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=$(CONFIG)

configure: deps $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	@scripts/demo.sh $(BUILD)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

bench: build
	@bench/run.sh $(BUILD)

fuzz: build
	cmake --build $(BUILD) --target fuzz

clean:
	rm -rf $(BUILD)
