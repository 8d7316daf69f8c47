# Set-up and everyday commands. `make demo` and `make test` are all a fresh Debian machine with
# the Swift toolchain needs: both install missing system packages first (as root), or print the
# exact command to run.

SWIFT ?= swift
# Release builds carry the Swift runtime and Foundation inside the binary: a `compose` process
# then starts in about half the time (docs/cli.md, "Start-up"). Every release build here uses
# the same flags, so they share one build and none recompiles another's modules.
RELEASE := $(SWIFT) build -c release --static-swift-stdlib
# Text: HarfBuzz shapes, ICU breaks lines and orders bidi text, Inter (variable) stands in for SF
# Pro; Noto (per script, colour emoji), Droid Sans Fallback (CJK) and DejaVu are the fallback
# chain, fontconfig its last resort, Noto Serif, JetBrains Mono and Quicksand the serif, monospaced
# and rounded designs.
PACKAGES := libpixman-1-dev libpng-dev pkg-config binutils python3-numpy parallel python3-yaml libharfbuzz-dev libicu-dev libfontconfig-dev fonts-inter-variable \
            fonts-noto-core fonts-noto-color-emoji fonts-droid-fallback fonts-dejavu-core fonts-jetbrains-mono \
            fonts-quicksand
BENCH_PACKAGES := $(PACKAGES) libcairo2-dev libfreetype-dev python3-pip
# Headless Chromium for the report and preview tests in a real browser (ReportBrowserTests):
# without recommends it is about 100 MB. Where it cannot start, those tests are skipped and say
# why.
BROWSER_PACKAGES := chromium

.PHONY: deps deps-bench deps-browser build demo examples test svg-suite svg-suite-check packages docs check-kernels sanitize fuzz bench bench-quick clean

# Installs whatever of $(1) dpkg does not list as installed (with apt-get options $(2)); as
# non-root, prints the command.
define install_missing
	@missing=""; \
	for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(2) $$missing; \
	  else \
	    echo "missing system packages:$$missing"; \
	    echo "run:  sudo apt-get install -y $(2)$$missing"; \
	    exit 1; \
	  fi; \
	fi
endef

deps:
	$(call install_missing,$(PACKAGES))

deps-bench:
	$(call install_missing,$(BENCH_PACKAGES))

# Not fatal: without root and without Chromium, the browser tests are skipped (and say so).
deps-browser:
	-$(call install_missing,$(BROWSER_PACKAGES),--no-install-recommends)

# The CLI, with the libraries it is built from. (Every product would include PixelTesting,
# whose Swift Testing module the toolchain has no static build of: --static-swift-stdlib
# cannot link it.)
build: deps
	$(RELEASE) --product compose

# Builds the CLI and renders the built-in demo scene to out/demo.png.
demo: deps
	$(RELEASE) --product compose
	@mkdir -p out
	.build/release/compose render --demo -o out/demo.png
	.build/release/compose render Examples/circles.scene -o out/circles.png
	@echo "wrote out/demo.png and out/circles.png"

# Renders every scene in Examples/ to the PNG beside it. Those PNGs are the examples' reference
# images (ExampleSceneTests compares with them exactly): look at the diff before committing.
examples: deps
	$(RELEASE) --product compose
	@# Scenes showing another example's PNG (image.scene shows radar-seal.png) come last; SVG
	@# files render to the PNG beside them too.
	@for scene in $$(grep -L '\.png"' Examples/*.scene) $$(grep -l '\.png"' Examples/*.scene); do \
	  time=""; grep -q '^state ' "$$scene" && time="--time 50%"; \
	  .build/release/compose render "$$scene" $$time -o "$${scene%.scene}.png" || exit 1; \
	  echo "rendered $${scene%.scene}.png"; \
	done
	@for svg in Examples/*.svg; do \
	  .build/release/compose render "$$svg" -o "$${svg%.svg}.png" || exit 1; \
	  echo "rendered $${svg%.svg}.png"; \
	done
	Examples/make-readme.sh
	@echo "wrote Examples/README.md"

# Reference images are compared, never recorded: a missing one fails (with the command that
# records it) instead of being written silently, as in CI. Warnings are errors, here, in the
# Benchmarks/ and Fuzz/ packages, which are compiled first (see `packages`), and in the DocC
# catalogs (see `docs`).
test: deps-bench deps-browser packages docs check-kernels
	SNAPSHOT_TESTING_RECORD=never $(SWIFT) test -Xswiftc -warnings-as-errors
	$(MAKE) --no-print-directory svg-suite-check

# The SVG suite (Tests/SVGSuite: resvg's tests and reference renders, MIT): every test rendered
# at its manifest size by `compose render`, then scored (docs/svg.md). `svg-suite` prints the
# table; `svg-suite-check` (part of `make test`) also fails when the tier-1 pass count drops
# below the committed floor, Tools/svg-suite-floor.txt.
SVG_SUITE ?= Tests/SVGSuite
svg-suite: deps
	$(SWIFT) build --product compose
	Tools/svg-suite.sh .build/debug/compose $(SVG_SUITE) .build/svg-suite

svg-suite-check: deps
	$(SWIFT) build --product compose
	Tools/svg-suite.sh .build/debug/compose $(SVG_SUITE) .build/svg-suite Tools/svg-suite-floor.txt

# The pixel kernels of an optimised build call nothing (no runtime, no library call left in
# their SIMD code): Compositor compiled in release, its object files disassembled.
check-kernels: deps
	$(RELEASE) --target Compositor --quiet
	Tools/check-kernel-calls.sh .build/release/Compositor.build/*.o

# Compiles the Benchmarks/ and Fuzz/ packages with warnings as errors, without timing or
# fuzzing anything, so a change that breaks them fails `make test` (and CI). The fuzz targets
# are compiled but not linked: linking needs libFuzzer's runtime, which `make fuzz` adds.
packages: deps-bench
	touch Benchmarks/Package.swift Fuzz/Package.swift
	cd Benchmarks && $(SWIFT) build --quiet -Xswiftc -warnings-as-errors
	@for t in $(FUZZ_TARGETS); do \
	  echo "compiling Fuzz/fuzz-$$t"; \
	  (cd Fuzz && $(SWIFT) build --quiet -Xswiftc -parse-as-library -Xswiftc -warnings-as-errors --target fuzz-$$t) || exit 1; \
	done

# DocC catalogs of the library modules, built with the toolchain's own docc from the symbol
# graphs SwiftPM writes (no outside plugin), warnings as errors (a broken symbol link or an
# undocumented parameter of a documented function fails): one static-hosting archive per module
# in .build/docs/. Browse one with `docc preview Sources/<M>/<M>.docc
# --additional-symbol-graph-dir .build/docs/symbols/<M>`, or serve .build/docs/<M>.doccarchive.
DOCC ?= docc
DOC_MODULES := Compositor SceneGraph SceneFile SVG Report PixelTesting
docs: deps
	@# It also tries the test modules, which fail unless the tests are built; the library
	@# modules' graphs come first, and their files are checked below.
	@mkdir -p .build && rm -rf .build/*/symbolgraph
	-$(SWIFT) package dump-symbol-graph --minimum-access-level public > .build/dump-symbol-graph.log 2>&1
	@for m in $(DOC_MODULES); do \
	  rm -rf .build/docs/symbols/$$m .build/docs/$$m.doccarchive && mkdir -p .build/docs/symbols/$$m; \
	  cp .build/*/symbolgraph/$$m.symbols.json .build/docs/symbols/$$m/ || { tail -20 .build/dump-symbol-graph.log; exit 1; }; \
	  cp .build/*/symbolgraph/$$m@*.symbols.json .build/docs/symbols/$$m/ 2>/dev/null || true; \
	  $(DOCC) convert Sources/$$m/$$m.docc --additional-symbol-graph-dir .build/docs/symbols/$$m \
	    --fallback-display-name $$m --fallback-bundle-identifier compositor.$$m \
	    --output-path .build/docs/$$m.doccarchive --transform-for-static-hosting --warnings-as-errors \
	    > .build/docs/$$m.log 2>&1 || { cat .build/docs/$$m.log; exit 1; }; \
	  echo "wrote .build/docs/$$m.doccarchive"; \
	done

# The suite under AddressSanitizer (with LeakSanitizer) and ThreadSanitizer, each in its own
# build folder. Leaks inside the toolchain's XCTest and Foundation are suppressed (.ci/lsan.supp;
# the fuzzers use the same file).
SANITIZE_BUILD ?= .build/sanitize
sanitize: deps
	SNAPSHOT_TESTING_RECORD=never LSAN_OPTIONS=suppressions=$(CURDIR)/.ci/lsan.supp \
		$(SWIFT) test --sanitize=address --scratch-path $(SANITIZE_BUILD)/address
	SNAPSHOT_TESTING_RECORD=never $(SWIFT) test --sanitize=thread --scratch-path $(SANITIZE_BUILD)/thread

# Each libFuzzer target (Fuzz/, its own package) for FUZZ_SECONDS, starting from the committed
# seeds in Fuzz/Corpus/<target>/; new interesting inputs go to Fuzz/.work/<target>/, crashing
# ones to Fuzz/Findings/ (turn each into a file in Fuzz/Regressions/<target>/ after the fix: the
# test suite replays them). Stops at the first finding.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= scene svg svgdoc raster stroke boolean png text
# Touching the sub-package's manifest makes SwiftPM re-plan the build, so it sees source files
# added to the root package since its last build (a path dependency's file list is cached).
fuzz: deps
	touch Fuzz/Package.swift
	cd Fuzz && $(SWIFT) build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
	@mkdir -p Fuzz/Findings Fuzz/.work && touch Fuzz/.work/started
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p Fuzz/.work/$$t; \
	  echo "fuzzing $$t for $(FUZZ_SECONDS) s"; \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/.ci/lsan.supp \
	  Fuzz/.build/release/fuzz-$$t Fuzz/.work/$$t Fuzz/Corpus/$$t -max_total_time=$(FUZZ_SECONDS) \
	    -artifact_prefix=Fuzz/Findings/$$t- -print_final_stats=1 2>&1 | grep -E "stat::number_of_executed_units|Done|ERROR|SUMMARY|Test unit" \
	    || true; \
	  if [ -n "$$(find Fuzz/Findings -name "$$t-*" -newer Fuzz/.work/started)" ]; then \
	    echo "finding in $$t: see Fuzz/Findings/"; exit 1; fi; \
	done

# Reference scenes timed side by side with cairo in one process (Benchmarks/ is its own package).
# Native Blend2D (b2dbench and b2dtext) is built first: its columns sit beside cairo's.
bench: deps-bench
	touch Benchmarks/Package.swift
	Benchmarks/blend2d/build.sh >/dev/null
	cd Benchmarks && $(SWIFT) run -c release bench

bench-quick: deps-bench
	touch Benchmarks/Package.swift
	Benchmarks/blend2d/build.sh >/dev/null
	cd Benchmarks && $(SWIFT) run -c release bench --quick

clean:
	rm -rf .build Benchmarks/.build out
