# hackdesk — run `make help` for the targets.

SHELL := /bin/bash
BIN   := $(CURDIR)/bin
export GOBIN := $(BIN)

TEMPORAL_VERSION  := v1.5.1
SQLC_VERSION      := v1.31.1
VERSITYGW_VERSION := v1.8.0
TOXIPROXY_VERSION := v2.5.0

TEMPORAL  := $(BIN)/temporal
SQLC      := $(BIN)/sqlc
VERSITYGW := $(BIN)/versitygw
HACKDESK  := $(BIN)/hackdesk

# Each tool is built once and rebuilt only when its pinned version changes.
$(BIN)/.temporal-$(TEMPORAL_VERSION):
	@mkdir -p $(BIN)
	go install github.com/temporalio/cli/cmd/temporal@$(TEMPORAL_VERSION)
	@rm -f $(BIN)/.temporal-* && touch $@
$(BIN)/.sqlc-$(SQLC_VERSION):
	@mkdir -p $(BIN)
	go install github.com/sqlc-dev/sqlc/cmd/sqlc@$(SQLC_VERSION)
	@rm -f $(BIN)/.sqlc-* && touch $@
$(BIN)/.versitygw-$(VERSITYGW_VERSION):
	@mkdir -p $(BIN)
	go install github.com/versity/versitygw/cmd/versitygw@$(VERSITYGW_VERSION)
	@rm -f $(BIN)/.versitygw-* && touch $@
# toxiproxy's server command is named "server"; it is kept as toxiproxy-server.
$(BIN)/.toxiproxy-$(TOXIPROXY_VERSION):
	@mkdir -p $(BIN)
	go install github.com/Shopify/toxiproxy/v2/cmd/server@$(TOXIPROXY_VERSION)
	mv -f $(BIN)/server $(BIN)/toxiproxy-server
	@rm -f $(BIN)/.toxiproxy-* && touch $@

TOOLS := $(BIN)/.temporal-$(TEMPORAL_VERSION) $(BIN)/.sqlc-$(SQLC_VERSION) $(BIN)/.versitygw-$(VERSITYGW_VERSION)

.PHONY: help tools build run test reliability bench fuzz generate sqlc-diff vet fmt-check check clean

help: ## list the targets
	@grep -hE '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN{FS=":.*## "}{printf "  %-12s %s\n", $$1, $$2}'

tools: $(TOOLS) ## build the pinned Temporal CLI, sqlc and versitygw into ./bin (once)

build: ## build ./bin/hackdesk
	go build -o $(HACKDESK) ./cmd/hackdesk

run: tools build ## run the whole stack on loopback (PostgreSQL, Temporal + UI, S3, worker, API)
	$(HACKDESK) dev

test: tools ## run every test against a throw-away stack
	go test -count=1 -timeout 20m ./...

reliability: tools $(BIN)/.toxiproxy-$(TOXIPROXY_VERSION) build ## fault injection on the real stack (toxiproxy, SIGKILLs, two replicas); table in docs/reliability.md (< 12 min)
	go run ./reliability

bench: tools build ## measure the hot paths against pgbench on a seeded throw-away stack (< 10 min)
	go run ./cmd/bench

# Each fuzz target runs for FUZZTIME (make fuzz FUZZTIME=1m). Targets are
# found anew each run: every package with a `func Fuzz` in a test file, and
# in it what `go test -list '^Fuzz'` names. A failing input is written under
# the package's testdata/fuzz/<Target>/; commit it as a regression seed.
FUZZTIME ?= 15s

fuzz: ## run every fuzz target for FUZZTIME each (default 15s)
	@n=0; failed=""; \
	for dir in $$(grep -rl --include='*_test.go' --exclude-dir=bin --exclude-dir=.data '^func Fuzz' . | xargs -n1 dirname | sort -u); do \
	  for target in $$(go test -list '^Fuzz' $$dir | grep '^Fuzz'); do \
	    n=$$((n+1)); echo "fuzz: $$dir $$target for $(FUZZTIME)"; \
	    go test $$dir -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) || failed="$$failed $$dir.$$target"; \
	  done; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzz: $$n targets, failed:$$failed"; exit 1; fi; \
	echo "fuzz: $$n targets, none failed"

generate: $(BIN)/.sqlc-$(SQLC_VERSION) ## regenerate the sqlc code in db/
	$(SQLC) generate

sqlc-diff: $(BIN)/.sqlc-$(SQLC_VERSION) ## fail when the committed sqlc code is stale
	$(SQLC) diff

vet: ## go vet
	go vet ./...

fmt-check: ## fail when gofmt would change a file
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

check: test vet fmt-check sqlc-diff ## everything CI runs

clean: ## remove built binaries (keeps .data)
	rm -rf $(BIN)
