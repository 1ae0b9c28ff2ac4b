# hackdesk — run `make help` for the targets.

SHELL := /bin/bash
BIN   := $(CURDIR)/bin
export GOBIN := $(BIN)

TEMPORAL_VERSION  := v1.5.1
SQLC_VERSION      := v1.31.1
VERSITYGW_VERSION := v1.8.0
TOXIPROXY_VERSION := v2.5.0
# workflowcheck is released apart from the Go SDK; v0.6.0 analyses code
# written against go.temporal.io/sdk v1.50 (go.mod).
WORKFLOWCHECK_VERSION := v0.6.0
GOLANGCI_LINT_VERSION := v2.15.0

TEMPORAL  := $(BIN)/temporal
SQLC      := $(BIN)/sqlc
VERSITYGW := $(BIN)/versitygw
HACKDESK  := $(BIN)/hackdesk
WORKFLOWCHECK := $(BIN)/workflowcheck
GOLANGCI_LINT := $(BIN)/golangci-lint

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

$(BIN)/.workflowcheck-$(WORKFLOWCHECK_VERSION):
	@mkdir -p $(BIN)
	go install go.temporal.io/sdk/contrib/tools/workflowcheck@$(WORKFLOWCHECK_VERSION)
	@rm -f $(BIN)/.workflowcheck-* && touch $@
$(BIN)/.golangci-lint-$(GOLANGCI_LINT_VERSION):
	@mkdir -p $(BIN)
	go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_LINT_VERSION)
	@rm -f $(BIN)/.golangci-lint-* && touch $@

TOOLS := $(BIN)/.temporal-$(TEMPORAL_VERSION) $(BIN)/.sqlc-$(SQLC_VERSION) $(BIN)/.versitygw-$(VERSITYGW_VERSION)

.PHONY: help tools build run test reliability bench bench-large lighthouse fuzz generate sqlc-diff vet lint workflowcheck fmt-check check clean web web-dev web-diff lint-openapi

help: ## list the targets
	@grep -hE '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN{FS=":.*## "}{printf "  %-12s %s\n", $$1, $$2}'

tools: $(TOOLS) ## build the pinned Temporal CLI, sqlc and versitygw into ./bin (once)

# The build id Temporal's Worker Versioning routes pinned workflows by
# (hackdesk version): the commit's short hash, and for a tree with
# uncommitted changes to tracked files "-dirty-" and a hash of the diff, so
# two different builds never share an id. REVISION=... overrides it.
REVISION ?= $(shell rev=$$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown); \
	if [ -n "$$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then \
	  rev="$$rev-dirty-$$(git diff HEAD | sha256sum | cut -c1-8)"; fi; echo $$rev)
LDFLAGS := -X hackdesk/internal/platform/version.Revision=$(REVISION)

build: ## build ./bin/hackdesk, stamped with its build id (REVISION)
	go build -ldflags "$(LDFLAGS)" -o $(HACKDESK) ./cmd/hackdesk

run: tools build ## run the whole stack on loopback (PostgreSQL, Temporal + UI, S3, worker, API)
	$(HACKDESK) dev

# Each test has its own database and task queue; the e2e tests mostly wait
# on the stack (workflows, timers, the browser), so eight at a time beat the
# default of one per core (GOMAXPROCS) even on two cores.
test: tools ## run every test against a throw-away stack
	go test -count=1 -timeout 20m -parallel 8 ./...

reliability: tools $(BIN)/.toxiproxy-$(TOXIPROXY_VERSION) build ## fault injection on the real stack (toxiproxy, SIGKILLs, two replicas, an upgrade from RELIABILITY_UPGRADE_FROM, default HEAD~1); table in docs/reliability.md (< 15 min)
	go run ./dev/reliability

bench: tools build ## measure the hot paths against pgbench on a seeded throw-away stack (< 10 min)
	go run ./cmd/bench

bench-large: tools build ## the review queue, review submit and leaderboard with 3 hackathon editions of 100,000 applications, the leaderboard again at 10M reviews
	go run ./cmd/bench -large

# Lighthouse has its own folder and lockfile (tools/lighthouse), so web/'s
# npm ci stays as fast as CI needs it; it is installed on first use.
# LIGHTHOUSE_PAGES=/review,/checkin runs only those patterns.
tools/lighthouse/node_modules/.package-lock.json: tools/lighthouse/package-lock.json
	cd tools/lighthouse && npm ci --no-audit --no-fund
	@touch $@

lighthouse: tools tools/lighthouse/node_modules/.package-lock.json ## Lighthouse 12.2.3 (mobile) on every page of the page table on a seeded throw-away stack; fails below 95 performance / 100 accessibility
	CI=1 go test -v -tags lighthouse -count=1 -timeout 60m -run '^TestLighthouse$$' ./e2e/

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

# The layering (which package may import which: depguard) and the
# linters' findings; the rules and every exception are in .golangci.yml.
lint: $(BIN)/.golangci-lint-$(GOLANGCI_LINT_VERSION) ## golangci-lint (pinned): the import rules of docs/design.md, errcheck, staticcheck, unused, gocritic
	$(GOLANGCI_LINT) run ./...

workflowcheck: $(BIN)/.workflowcheck-$(WORKFLOWCHECK_VERSION) ## find non-deterministic code in the workflows (Temporal's workflowcheck)
	$(WORKFLOWCHECK) ./workflows/...

fmt-check: ## fail when gofmt would change a file
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# The front end (web/). Node is needed only here: the built web/dist is
# committed and embedded, so `make run` and `make test` need none.
WEB_NPM := cd web && npm

web/node_modules/.package-lock.json: web/package-lock.json
	$(WEB_NPM) ci --no-audit --no-fund
	@touch $@

web: web/node_modules/.package-lock.json ## build the front end: npm ci, API types and rules, svelte-check, vitest, vite build, the pages' JS budget
	$(WEB_NPM) run gen
	$(WEB_NPM) run check
	$(WEB_NPM) test
	$(WEB_NPM) run build
	$(WEB_NPM) run budget
	cp web/node_modules/axe-core/axe.min.js dev/testenv/browser/axe.min.js

# The dev loop builds into web/dev-dist (not web/dist, which Go embeds: a
# Go build during a rebuild would find it half written).
web-dev: web/node_modules/.package-lock.json ## rebuild the front end into web/dev-dist on every change; serve it with WEB_DIR=web/dev-dist make run
	$(WEB_NPM) run gen
	$(WEB_NPM) run watch -- --outDir dev-dist --emptyOutDir

# Like sqlc-diff: rebuild from the lockfile and fail when the committed
# build, the generated types and rules, or the vendored axe-core differ.
web-diff: web ## fail when the committed web/dist or generated front-end files are stale
	@out=$$(git status --porcelain -- web/dist web/src/lib/api.d.ts web/src/lib/rules.gen.ts dev/testenv/browser/axe.min.js); \
	if [ -n "$$out" ]; then echo "web-diff: rebuild and commit (make web):"; echo "$$out"; exit 1; fi

lint-openapi: web/node_modules/.package-lock.json ## lint api/openapi.yaml with the pinned redocly (0 errors)
	$(WEB_NPM) run lint:openapi

check: test vet lint workflowcheck fmt-check sqlc-diff lint-openapi ## everything CI runs

clean: ## remove built binaries (keeps .data)
	rm -rf $(BIN)
