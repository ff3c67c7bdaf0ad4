# cogflow — build, test and demo. `make demo` and `make test` are the two
# commands a fresh machine needs; both install what they use.

GO      ?= go
BIN     := bin/cogflow
PKGS    := ./...

.PHONY: all build test lint vet fmt-check deps demo bench fuzz clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/cogflow

# System packages the tests use (graphviz today; chromium and adb later).
deps:
	./tools/install-deps.sh

lint: fmt-check vet

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "not gofmt-ed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)

test: deps lint
	$(GO) test -count=1 $(PKGS)

# Until the interpreter lands, the demo checks every example, shows that
# they are in canonical layout and draws the keyword example's graph.
demo: build
	./$(BIN) check examples/*.cog
	./$(BIN) fmt -l examples/*.cog && echo "examples: all in canonical layout"
	./$(BIN) graph examples/keyword_intro.cog --format mermaid

bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

# Run the parser fuzzer for a while (FUZZTIME=5m make fuzz).
FUZZTIME ?= 60s
fuzz:
	$(GO) test ./lang/syntax -run '^$$' -fuzz FuzzParseCheckPrint -fuzztime $(FUZZTIME)

clean:
	rm -rf bin
