# lifelog — targets:
#   make deps     install the Debian packages the build needs (only those missing; sudo for users)
#   make build    release build, Swift standard library and libstdc++ linked statically
#   make test     deps and test packages, the module graph (scripts/check-imports.sh), debug
#                 build, release build, all tests, then the HTTP
#                 tests again on a throwaway PostgreSQL cluster (LIFELOG_TEST_STORE=postgres),
#                 then the API contract on both stores (make contract), then the Debian package
#                 (make deb, then packaging/deb/test.sh: lintian, install into a throwaway root)
#   make contract docs/openapi.yaml checked by openapi-spec-validator, and schemathesis against a
#                 live server on SQLite and on PostgreSQL (tools in .build/venv, installed once)
#   make demo     build, then log a day of meals and activities in a temporary database
#   make bench    build, then print benchmark figures as JSON lines (see docs/benchmarks.md)
#   make soak     the sync convergence simulation over many more seeds (SEEDS=5000)
#   make faults   the fault-injection campaign (libfiu, a full tmpfs) over FAULT_RUNS=1000 runs
#                 against the release binary (docs/reliability.md); make test runs 150 of them
#   make fuzz     every parser's libFuzzer harness for FUZZ_SECONDS (30) each (docs/testing.md)
#   make sanitize the in-process test suites under ThreadSanitizer, then AddressSanitizer
#   make install  install the binary, the man page and the bash/zsh/fish completions under $(PREFIX)
#   make deb      build .build/deb/lifelog_<version>_amd64.deb with dpkg-deb (packaging/deb)
#   make man      regenerate docs/lifelog.1 from the command configurations
#   make catalogs check and compile po/*.po with msgfmt into .build/catalogs, and embed them
#                 (Sources/LifelogCore/Localization/EmbeddedCatalogs.swift; make lint checks it)
#   make golden   rewrite the golden files (every --help, the report snapshots, docs/lifelog.1)
#   make format   rewrite sources with swift format;  make lint  check them, the module
#                 graph (scripts/check-imports.sh: no module imports one it may not;
#                 scripts/module-graph.py: docs/architecture.md's graph is Package.swift's), and
#                 that the list of web app files built into the binary is Web/'s (scripts/web-embed.sh)
#   make clean    remove build products

PREFIX ?= /usr/local
SWIFT ?= swift
# clang, lld, wasi-libc and libclang-rt-dev-wasm32 build the web app's libsodium WebAssembly module
# from libsodium's source (scripts/web-wasm.sh, fetched with pip into python3-venv's .build/venv).
# gettext's msgfmt compiles the message catalogs (make catalogs).
DEBIAN_PACKAGES := libsqlite3-dev libmicrohttpd-dev libcurl4-openssl-dev libsodium-dev libreadline-dev libpq-dev zlib1g-dev libqrencode-dev libxlsxwriter-dev pkg-config gettext \
	clang lld wasi-libc libclang-rt-dev-wasm32 python3-venv
# Only the tests need these: a terminal for the shell, the shells the completions are for, groff,
# PostgreSQL's server for throwaway clusters (also for make bench), Python's venv for the API
# contract tools (scripts/api-contract.sh installs them, pinned, into .build/venv), and
# timewarrior and taskwarrior, which make bench times lifelog's add, list, due --short and
# report against (docs/benchmarks.md, "Peers side by side"), and lintian, which checks
# the Debian package, and time (/usr/bin/time, the peak memory of the reports in make bench),
# and Apache httpd (mod_dav) and rclone, the WebDAV servers of the WebDAV tests. Python's icalendar
# (the ics export tests) goes into .build/venv too
# (scripts/python-tools.sh). libfiu (fiu-utils, libfiu-dev) injects the faults of make faults.
# Node.js runs the web app's sync core under test (node --test Web/test/,
# docs/web.md); chromium and chromium-driver run the page itself, driven by selenium (in .build/venv).
# poppler-utils reads the PDF reports back (pdftotext, pdffonts, pdftoppm); cairo and pango
# (libpangocairo-1.0-0) draw them, in DejaVu (fonts-dejavu-core). Gnumeric's ssconvert (gnumeric)
# opens the xlsx exports and reports, as openpyxl (in .build/venv) reads them back.
TEST_PACKAGES := strace tmux zsh fish groff-base postgresql python3-venv timewarrior taskwarrior lintian libxml2 time apache2 apache2-utils rclone fiu-utils libfiu-dev nodejs chromium chromium-driver poppler-utils libpangocairo-1.0-0 fonts-dejavu-core gnumeric
# make deb: dpkg-shlibdeps (for Depends) and chrpath (to drop the toolchain's RUNPATH).
DEB_PACKAGES := dpkg-dev chrpath binutils
POSTGRES_SUITES := LifelogEndToEndTests\.(ServerTests|ServerChangesTests|ServerAccountTests|HTTPSyncTests|HTTPSyncFailureTests)|LifelogServerTests\.(AdmissionTests|WireRangeRouteTests|InfoRouteTests|BatchRouteTests|ChangesRouteTests|SnapshotRouteTests|KeyRouteTests|RouteGoldenTests|DeviceRouteTests|ShareRouteTests)
# --disable-local-rpath: no RUNPATH $ORIGIN, which made every start of lifelog look for each of
# its five libraries in the binary's folder first (25 failing openat/stat calls; docs/benchmarks.md).
# -L$(STATIC_CXX): libstdc++ linked statically, one library fewer to load and bind at every start
# (half the dynamic loader's symbol lookups). The linker searches that folder first and finds only
# libstdc++.a there (make deps links it); where gcc has none, the shared library is linked as before.
STATIC_CXX := $(CURDIR)/.build/static-cxx
RELEASE_FLAGS := -c release --static-swift-stdlib --disable-local-rpath -Xlinker -L$(STATIC_CXX)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Installs those of the Debian packages $(1) that are missing (apt-get update only then).
install-missing = missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

.PHONY: faults faults-run deps test-deps wasm build test catalogs contract contract-run demo bench soak fuzz sanitize install man golden format lint clean \
	deb deb-run

deps:
	@$(call install-missing,$(DEBIAN_PACKAGES))
	@mkdir -p $(STATIC_CXX); archive="$$($(CC) -print-file-name=libstdc++.a)"; \
	  if [ -f "$$archive" ]; then ln -sf "$$archive" $(STATIC_CXX)/libstdc++.a; fi

test-deps:
	@$(call install-missing,$(TEST_PACKAGES) $(DEB_PACKAGES))
	@scripts/python-tools.sh >/dev/null

# The web app's libsodium module, built into .build/wasm and from there into lifelog serve.
wasm: deps
	@scripts/web-wasm.sh

build: deps wasm
	$(SWIFT) build $(RELEASE_FLAGS) --product lifelog

test: deps test-deps wasm
	scripts/check-imports.sh
	scripts/catalogs.sh --check
	scripts/import-tools.sh
	$(SWIFT) build --build-tests
	$(SWIFT) build $(RELEASE_FLAGS) --product lifelog
	$(SWIFT) test --skip-build --parallel
	node --test Web/test/
	@$(MAKE) --no-print-directory faults-run FAULT_RUNS=$(FAULT_RUNS_TEST)
	LIFELOG_TEST_STORE=postgres $(SWIFT) test --skip-build --filter '$(POSTGRES_SUITES)'
	@$(MAKE) --no-print-directory contract-run
	@$(MAKE) --no-print-directory deb-run TEST_DEB=1

contract: deps test-deps wasm
	$(SWIFT) build $(RELEASE_FLAGS) --product lifelog
	@$(MAKE) --no-print-directory contract-run

# The contract on both stores, against the release binary already built.
contract-run:
	@bin="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/lifelog"; \
	  scripts/api-contract.sh "$$bin" sqlite && scripts/api-contract.sh "$$bin" postgres

demo: build
	@scripts/demo.sh "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/lifelog"

bench: deps test-deps wasm
	$(SWIFT) build $(RELEASE_FLAGS) --product lifelog
	$(SWIFT) build $(RELEASE_FLAGS) --product lifelog-bench
	@bin="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)"; "$$bin/lifelog-bench" "$$bin/lifelog" && \
	  scripts/ics-bench.sh "$$bin/lifelog" && scripts/web-bench.sh "$$bin/lifelog"

# The fault campaign (scripts/faults.sh): FAULT_RUNS runs from seed FAULT_SEED; it fails on the
# honesty invariants too (what a failing command says; docs/reliability.md) unless FAULT_HONEST=0.
FAULT_RUNS ?= 1000
FAULT_RUNS_TEST ?= 150
FAULT_SEED ?= 24000
faults: deps test-deps
	$(SWIFT) build $(RELEASE_FLAGS) --product lifelog
	@$(MAKE) --no-print-directory faults-run

# The campaign against the release binary already built.
faults-run:
	FAULT_SEED=$(FAULT_SEED) scripts/faults.sh "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/lifelog" $(FAULT_RUNS)

SEEDS ?= 5000
soak: deps wasm
	$(SWIFT) build --build-tests
	LIFELOG_SOAK_SEEDS=$(SEEDS) $(SWIFT) test --skip-build --filter ConvergenceSimulation

# Fuzzing (docs/testing.md): one binary, lifelog-fuzz, holds a harness per parser; it exists only
# when LIFELOG_FUZZ=1 (Package.swift). New inputs go to .build/fuzz-corpus/<target>, crashes to
# .build/fuzz-artifacts/<target>; the committed seeds in Fuzz/Corpus/<target> are only read.
FUZZ_TARGETS ?= batch envelope json csv time duration http changes zip elements foreign cronometer multistatus
FUZZ_SECONDS ?= 30
# More libFuzzer flags, e.g. FUZZ_FLAGS='-fork=2 -ignore_crashes=1' to go on past a crash.
FUZZ_FLAGS ?=
FUZZ_BUILD := LIFELOG_FUZZ=1 $(SWIFT) build -c release --scratch-path .build/fuzz \
	-Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing
fuzz: deps
	$(FUZZ_BUILD) --product lifelog-fuzz
	@bin="$$($(FUZZ_BUILD) --show-bin-path)/lifelog-fuzz"; failed=""; \
	for target in $(FUZZ_TARGETS); do \
	  mkdir -p .build/fuzz-corpus/$$target .build/fuzz-artifacts/$$target .build/fuzz-logs; \
	  log=.build/fuzz-logs/$$target.log; \
	  case $$target in http) dict=http;; time|duration|csv) dict=time;; zip) dict=zip;; \
	    elements|foreign|cronometer) dict=foreign;; multistatus) dict=multistatus;; *) dict=json;; esac; \
	  printf '%-10s %s s: ' $$target $(FUZZ_SECONDS); \
	  if SWIFT_BACKTRACE=enable=no LIFELOG_FUZZ_TARGET=$$target "$$bin" -max_total_time=$(FUZZ_SECONDS) \
	    -timeout=10 -dict=Fuzz/Dictionaries/$$dict.dict -print_final_stats=1 \
	    -artifact_prefix=.build/fuzz-artifacts/$$target/ $(FUZZ_FLAGS) \
	    .build/fuzz-corpus/$$target Fuzz/Corpus/$$target >$$log 2>&1; then \
	    sed -n 's|^#\([0-9]*\).*DONE *cov: \([0-9]*\).*exec/s: \([0-9]*\).*|\1 inputs (\3/s), coverage \2, no crash|p' $$log; \
	    grep -q DONE $$log || echo "no crash (see $$log)"; \
	  else \
	    echo "FAILED (see $$log and .build/fuzz-artifacts/$$target)"; failed="$$failed $$target"; \
	  fi; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzzing found crashes in:$$failed"; exit 1; fi

# Sanitizers (docs/testing.md): each in its own scratch folder, so the normal build is kept;
# LeakSanitizer ignores the toolchain's own leaks (scripts/lsan-suppressions.txt).
# The end-to-end suite runs the binary built beside the tests, here the sanitized one; it takes
# long under ThreadSanitizer, so it is left out unless SANITIZE_SUITES says otherwise.
SANITIZERS ?= thread address
SANITIZE_SUITES ?= LifelogSQLiteTests|LifelogCoreTests|LifelogProtocolTests|LifelogSyncTests|LifelogServerTests|LifelogCLITests
sanitize: deps test-deps wasm
	@failed=""; for sanitizer in $(SANITIZERS); do \
	  echo "== $$sanitizer sanitizer"; \
	  case $$sanitizer in thread) scratch=.build/tsan;; address) scratch=.build/asan;; \
	    *) scratch=.build/$$sanitizer-sanitizer;; esac; \
	  $(SWIFT) build --build-tests --sanitize=$$sanitizer --scratch-path $$scratch && \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan-suppressions.txt \
	  $(SWIFT) test --skip-build --sanitize=$$sanitizer --scratch-path $$scratch \
	    --filter '$(SANITIZE_SUITES)' || failed="$$failed $$sanitizer"; \
	done; \
	if [ -n "$$failed" ]; then echo "the tests failed under:$$failed"; exit 1; fi

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

deb: deps wasm
	@$(call install-missing,$(DEB_PACKAGES))
	$(SWIFT) build $(RELEASE_FLAGS) --product lifelog
	@$(MAKE) --no-print-directory deb-run

# The package from the release binary already built; TEST_DEB=1 also checks it (packaging/deb).
deb-run:
	@deb="$$(packaging/deb/build.sh "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/lifelog" \
	  .build/deb)" && echo "built $$deb" && \
	  if [ -n "$(TEST_DEB)" ]; then packaging/deb/test.sh "$$deb"; fi

man: deps wasm
	$(SWIFT) build --product lifelog
	"$$($(SWIFT) build --show-bin-path)/lifelog" __manpage > docs/lifelog.1

# The golden files from what the code prints now (RECORD_SNAPSHOTS=1, docs/testing.md): review
# the diff before committing it.
GOLDEN_SUITES := HelpGoldenTests|ReportCommandTests|ManualPageTests
golden: deps wasm
	$(SWIFT) build --build-tests
	RECORD_SNAPSHOTS=1 $(SWIFT) test --skip-build --filter '$(GOLDEN_SUITES)'

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests

catalogs: deps
	scripts/catalogs.sh

lint:
	scripts/check-imports.sh
	scripts/web-embed.sh --check
	scripts/module-graph.py check
	scripts/catalogs.sh --check
	scripts/check-modulepreload.py
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

clean:
	rm -rf .build
