# The two commands of the README are `make run` and `make test`.
GO ?= go

.PHONY: run test deps bench lint fuzz eval eval-record

run: ## start the server on embedded defaults (no Redis, Qdrant or LLM key needed)
	@echo "building gameassist: the first build compiles SQLite (cgo) and takes a few minutes; later ones seconds"
	$(GO) run ./cmd/gameassist serve --demo-player

test: deps ## the whole test suite, with the race detector, against a real redis-server
	$(GO) test -race -count=1 -timeout 20m ./...

deps: ## install redis-server and chromium when missing (the tests start their own Redis and drive a headless chromium)
	@command -v redis-server >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null; \
	  else echo "redis-server is missing: sudo apt-get install -y redis-server" >&2; exit 1; fi; }
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "chromium is missing (browser tests): sudo apt-get install -y chromium" >&2; exit 1; fi; }

bench: ## every benchmark; figures go in docs/performance.md
	$(GO) test -run '^$$' -bench . -benchmem ./...

fuzz: ## a short fuzzing pass over the executor's argument handling
	$(GO) test -run '^$$' -fuzz FuzzExecutorArguments -fuzztime 30s ./tool/

lint: ## golangci-lint v2 with .golangci.yml (a cold install takes about 3 minutes)
	$(GO) run github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v2.15.0 run ./...

eval: ## the committed eval suite against the offline responder (in-process, embedded defaults)
	$(GO) run ./cmd/gameassist eval eval/suite

eval-record: deps ## re-record eval/cassettes from the scripted fake LLM, then replay them (after prompt changes)
	$(GO) test -count=1 -run '^TestEvalSuiteCassettes$$' ./cmd/gameassist/ -eval-record
