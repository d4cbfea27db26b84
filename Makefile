# lifelog — targets:
#   make deps     install the Debian packages the build needs (only those missing; sudo for users)
#   make build    release build, Swift standard library linked statically
#   make test     deps and test packages, debug build, release build, all tests, then the HTTP
#                 tests again on a throwaway PostgreSQL cluster (LIFELOG_TEST_STORE=postgres),
#                 then the API contract on both stores (make contract)
#   make contract docs/openapi.yaml checked by openapi-spec-validator, and schemathesis against a
#                 live server on SQLite and on PostgreSQL (tools in .build/venv, installed once)
#   make demo     build, then log a day of meals and activities in a temporary database
#   make bench    build, then print benchmark figures as JSON lines (see docs/benchmarks.md)
#   make soak     the sync convergence simulation over many more seeds (SEEDS=5000)
#   make install  install the binary, the man page and the bash/zsh/fish completions under $(PREFIX)
#   make man      regenerate docs/lifelog.1 from the command configurations
#   make format   rewrite sources with swift format;  make lint  check them
#   make clean    remove build products

PREFIX ?= /usr/local
SWIFT ?= swift
DEBIAN_PACKAGES := libsqlite3-dev libmicrohttpd-dev libcurl4-openssl-dev libsodium-dev libreadline-dev libpq-dev pkg-config
# Only the tests need these: a terminal for the shell, the shells the completions are for, groff,
# PostgreSQL's server for throwaway clusters (also for make bench), Python's venv for the API
# contract tools (scripts/api-contract.sh installs them, pinned, into .build/venv), and
# timewarrior, which make bench times 'lifelog due --short' against.
TEST_PACKAGES := tmux zsh fish groff-base postgresql python3-venv timewarrior
POSTGRES_SUITES := LifelogEndToEndTests\.(ServerTests|HTTPSyncTests)
RELEASE_FLAGS := -c release --static-swift-stdlib
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Installs those of the Debian packages $(1) that are missing (apt-get update only then).
install-missing = missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

.PHONY: deps test-deps build test contract contract-run demo bench soak install man format lint clean

deps:
	@$(call install-missing,$(DEBIAN_PACKAGES))

test-deps:
	@$(call install-missing,$(TEST_PACKAGES))

build: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product lifelog

test: deps test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) build $(RELEASE_FLAGS) --product lifelog
	$(SWIFT) test --skip-build --parallel
	LIFELOG_TEST_STORE=postgres $(SWIFT) test --skip-build --filter '$(POSTGRES_SUITES)'
	@$(MAKE) --no-print-directory contract-run

contract: deps test-deps
	$(SWIFT) build $(RELEASE_FLAGS) --product lifelog
	@$(MAKE) --no-print-directory contract-run

# The contract on both stores, against the release binary already built.
contract-run:
	@bin="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/lifelog"; \
	  scripts/api-contract.sh "$$bin" sqlite && scripts/api-contract.sh "$$bin" postgres

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
	@bin="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/lifelog"; set -e; \
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/man/man1" \
	  "$(DESTDIR)$(PREFIX)/share/bash-completion/completions" "$(DESTDIR)$(PREFIX)/share/zsh/site-functions" \
	  "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d"; \
	install -m 0755 "$$bin" "$(DESTDIR)$(PREFIX)/bin/lifelog"; \
	install -m 0644 docs/lifelog.1 "$(DESTDIR)$(PREFIX)/share/man/man1/lifelog.1"; \
	"$$bin" completion bash > "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/lifelog"; \
	"$$bin" completion zsh > "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_lifelog"; \
	"$$bin" completion fish > "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/lifelog.fish"; \
	chmod 0644 "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/lifelog" \
	  "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_lifelog" \
	  "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/lifelog.fish"

man: deps
	$(SWIFT) build --product lifelog
	"$$($(SWIFT) build --show-bin-path)/lifelog" __manpage > docs/lifelog.1

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

clean:
	rm -rf .build
