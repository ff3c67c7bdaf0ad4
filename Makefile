# cogflow — build, test and demo. `make demo` and `make test` are the two
# commands a fresh machine needs; both install what they use.

GO      ?= go
BIN     := bin/cogflow
PKGS    := ./...

.PHONY: all build test lint vet fmt-check deps temporal-cli demo demo-android bench fuzz soak clean eval-replay eval-replay-devtools

all: build

build:
	$(GO) build -o $(BIN) ./cmd/cogflow

# System packages the tests and the demo use (graphviz, chromium …).
deps:
	./tools/install-deps.sh

# The Temporal CLI whose dev server the Temporal tests run, built once into
# ~/.cache/cogflow/temporal-VERSION (about 4 minutes); the demo needs none.
temporal-cli:
	GO=$(GO) ./tools/install-temporal.sh >/dev/null

lint: fmt-check vet

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "not gofmt-ed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)

# The Windows-only code (the uia driver's COM layer) is compiled and vetted
# for Windows on every run, so that it never rots unseen.
# cmd/cogflow's interrupt trials (3 of each kind) take minutes: hence the
# timeout above go test's default ten.
# Screenshots the browser tests save (t.ArtifactDir: the graph page, the
# HTML report) are kept in bin/test-artifacts/_artifacts.
test: deps temporal-cli lint test-editors
	mkdir -p $(CURDIR)/bin/test-artifacts
	$(GO) test -count=1 -timeout 30m -artifacts -outputdir $(CURDIR)/bin/test-artifacts $(PKGS)
	./tools/windows-check.sh

# The demo: check the examples, then serve the demo site and run the
# LLM-free reading-list workflow in headless Chromium, showing the run and
# what it changed on the site.
demo: deps build
	./$(BIN) check examples/*.cog
	./$(BIN) demo run examples/demo_uppercase_titles.cog

# The Android demo: serve the simulated phone (cogflow demo android), run
# the Android example on it and show the contact it added. No device needed.
demo-android: build
	./$(BIN) check examples/android_add_contact.cog
	BIN=$(BIN) ./tools/demo-android.sh

bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

# The interrupt trials at length: SOAK_TRIALS runs of each kind (SIGINT,
# SIGKILL of cogflow, SIGKILL of Chromium) against the demo site; each logs
# its seed, and COGFLOW_SOAK_SEED=N replays one. Not part of `make test`.
SOAK_TRIALS ?= 20
soak: deps
	COGFLOW_SOAK_TRIALS=$(SOAK_TRIALS) $(GO) test -count=1 -timeout 240m -v -run 'TestE2EInterrupts/trials' ./cmd/cogflow

# Run every fuzz target of the project (go test -list 'Fuzz.*'), each for
# FUZZTIME (FUZZTIME=5m make fuzz). Not part of `make test`; an input that
# crashes a target stays in its package's testdata/fuzz.
FUZZTIME ?= 30s
fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) ./tools/fuzz.sh

# Both replay evaluations on the third-party fixtures (issue 12's tables).
eval-replay: eval-replay-devtools eval-replay-miniwob

# Replay the DevTools Recorder corpus (third-party, read from
# ../shared/fixtures or $$COGFLOW_FIXTURES) through import, compile and run in
# one headless Chromium; prints a table. Not part of `make test`.
eval-replay-devtools:
	$(GO) run ./tools/eval/devtools

clean:
	rm -rf bin

# What the compiler's api-first stage buys (issue 19): the keyword task is
# demonstrated once on the demo site, compiled with and without the stage,
# and both workflows run interleaved in one headless Chromium; prints the
# median wall time each way, the ratio, the steps saved and whether the
# site ended in the same state. APIFIRST_FLAGS="-runs 9 -keep DIR".
.PHONY: eval-apifirst
eval-apifirst:
	$(GO) run ./tools/eval/apifirst $(APIFIRST_FLAGS)

# Same-seed replay of MiniWoB++ demonstrations: a scripted person solves
# each task while `cogflow record` runs, the trace is compiled with no
# model and replayed on the same seed; prints a per-task table. Reads the
# third-party pages from ../shared/fixtures or $COGFLOW_FIXTURES; not part
# of `make test`. MINIWOB_FLAGS="-tasks a,b -seed 3 -replay-seed 4".
.PHONY: eval-replay-miniwob
eval-replay-miniwob:
	$(GO) run ./tools/eval/miniwob replay $(MINIWOB_FLAGS)

# Generalization from one demonstration (issue 13): each MiniWoB++ task is
# demonstrated once (seed A; the kind-4 tasks once per kind of instance,
# merged: issue 16), compiled with no model, and run on N fresh
# seeds, next to a literal replay (`compile --literal`) of the same
# demonstration; prints per task its kind, both success rates, how the
# steps are answered, and the means by kind. About 30 minutes on 2 cores;
# not part of `make test`. EVAL_FLAGS="-tasks a,b -seed 3 -fresh 10 -parallel 2".
.PHONY: eval
eval:
	$(GO) run ./tools/eval/miniwob eval $(EVAL_FLAGS)

# Goals identified from trajectories (issue 19): each MiniWoB++ task is
# demonstrated once; its instruction (#query) is the reference goal, masked
# in the trace before inferring; the project's own demonstrations with
# known task titles are added; `cogflow eval goals` prints the agreement
# table. Rules only unless GOALS_FLAGS=-model (the configured model).
# Fixtures from ../shared/fixtures or $COGFLOW_FIXTURES, never copied.
# First, the protocol end to end on three of those tasks with a scripted
# model that checks no prompt shows the instruction (a test that reads the
# third-party fixtures, so it runs here and not in make test).
.PHONY: eval-goals
eval-goals:
	COGFLOW_EVAL_FIXTURES=1 $(GO) test -count=1 -run TestGoalsProtocolOnFixtures ./tools/eval/miniwob
	$(GO) run ./tools/eval/miniwob goals $(GOALS_FLAGS)

# The browser's API-first actions (read_table, set_value) solving MiniWoB++
# tasks (read-table, choose-list, enter-time), judged by the tasks' own
# rewards. Third-party fixtures, so not part of `make test`.
.PHONY: eval-browser-actions
eval-browser-actions:
	COGFLOW_EVAL_FIXTURES=1 $(GO) test -count=1 -run TestAPIActionsOnMiniWoB ./runtime/driver/browser

# The VS Code extension (editor-support/vscode). Its npm packages are
# installed exactly as package-lock.json pins them; npm ci fails when npm or
# its registry cannot be reached, so the tests never skip. `make vsix`
# packages the extension as bin/cogflow.vsix with the pinned @vscode/vsce;
# `make test-editors` runs the grammar tests (vscode-tmgrammar-test, the
# examples and docs tokenized) and the client's start-up errors (a cogflow
# missing or without lsp), builds the .vsix and checks its manifest,
# and starts cogflow lsp with the extension's default arguments.
.PHONY: vsix test-editors
VSCODE_EXT := editor-support/vscode
VSIX       := bin/cogflow.vsix

$(VSCODE_EXT)/node_modules/.package-lock.json: $(VSCODE_EXT)/package-lock.json $(VSCODE_EXT)/package.json
	cd $(VSCODE_EXT) && npm ci --no-audit --no-fund

vsix: deps $(VSCODE_EXT)/node_modules/.package-lock.json
	mkdir -p bin
	cd $(VSCODE_EXT) && ./node_modules/.bin/vsce package --out ../../$(VSIX)

test-editors: vsix build
	cd $(VSCODE_EXT) && npm test
	$(GO) run ./tools/vsixcheck $(VSIX)
	cd $(VSCODE_EXT) && node test/server.js ../../$(BIN)
