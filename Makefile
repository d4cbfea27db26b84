# lifelog — targets:
#   make deps     install the Debian packages the build needs (only those missing; sudo for users)
#   make build    release build, Swift standard library linked statically
#   make test     deps and test packages, debug build, release build, all tests, then the HTTP
#                 tests again on a throwaway PostgreSQL cluster (LIFELOG_TEST_STORE=postgres)
#   make demo     build, then log a day of meals and activities in a temporary database
#   make bench    build, then print benchmark figures as JSON lines (see docs/benchmarks.md)
#   make soak     the sync convergence simulation over many more seeds (SEEDS=5000)
#   make install  install the binary to $(PREFIX)/bin (PREFIX=/usr/local)
#   make format   rewrite sources with swift format;  make lint  check them
#   make clean    remove build products

PREFIX ?= /usr/local
SWIFT ?= swift
DEBIAN_PACKAGES := libsqlite3-dev libmicrohttpd-dev libcurl4-openssl-dev libpq-dev pkg-config
# Only the tests and benchmarks need these: PostgreSQL's server, for throwaway clusters.
TEST_PACKAGES := postgresql
POSTGRES_SUITES := LifelogEndToEndTests\.(ServerTests|HTTPSyncTests)
RELEASE_FLAGS := -c release --static-swift-stdlib
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps test-deps build test demo bench soak install format lint clean

deps test-deps:
	@missing=""; for p in $(if $(filter test-deps,$@),$(TEST_PACKAGES),$(DEBIAN_PACKAGES)); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product lifelog

test: deps test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) build $(RELEASE_FLAGS) --product lifelog
	$(SWIFT) test --skip-build --parallel
	LIFELOG_TEST_STORE=postgres $(SWIFT) test --skip-build --filter '$(POSTGRES_SUITES)'

demo: build
	@scripts/demo.sh "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/lifelog"

bench: deps test-deps
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
