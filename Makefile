# lifelog — targets:
#   make deps     install the Debian packages the build needs (only those missing; sudo for users)
#   make build    release build, Swift standard library linked statically
#   make test     deps, debug build, release build, all tests
#   make demo     build, then log a day of meals and activities in a temporary database
#   make bench    build, then print benchmark figures as JSON lines (see docs/benchmarks.md)
#   make soak     the sync convergence simulation over many more seeds (SEEDS=5000)
#   make install  install the binary to $(PREFIX)/bin (PREFIX=/usr/local)
#   make format   rewrite sources with swift format;  make lint  check them
#   make clean    remove build products

PREFIX ?= /usr/local
SWIFT ?= swift
DEBIAN_PACKAGES := libsqlite3-dev libmicrohttpd-dev libcurl4-openssl-dev libsodium-dev pkg-config
RELEASE_FLAGS := -c release --static-swift-stdlib
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build test demo bench soak install format lint clean

deps:
	@missing=""; for p in $(DEBIAN_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product lifelog

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) build $(RELEASE_FLAGS) --product lifelog
	$(SWIFT) test --skip-build --parallel

demo: build
	@scripts/demo.sh "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/lifelog"

bench: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product lifelog
	$(SWIFT) build $(RELEASE_FLAGS) --product lifelog-bench
	@bin="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)"; "$$bin/lifelog-bench" "$$bin/lifelog"

SEEDS ?= 5000
soak: deps
	$(SWIFT) build --build-tests
	LIFELOG_SOAK_SEEDS=$(SEEDS) $(SWIFT) test --skip-build --filter ConvergenceSimulation

install: build
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 0755 "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/lifelog" "$(DESTDIR)$(PREFIX)/bin/lifelog"

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

clean:
	rm -rf .build
