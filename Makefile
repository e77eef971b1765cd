# nodeledger: `make run` starts the whole product, `make test` runs every test.
GO        ?= go
FUZZTIME  ?= 20s

.PHONY: run build test lint fuzz clean

run:
	$(GO) run .

build:
	$(GO) build -o nodeledger .

# Tests need a PostgreSQL server: TEST_DATABASE_URL, or postgres@127.0.0.1:5432 with trust auth.
test:
	$(GO) test -race -count=1 ./...

lint:
	$(GO) vet ./...
	$(GO) tool staticcheck ./...
	@test -z "$$(gofmt -l .)" || { echo "gofmt needed:"; gofmt -l .; exit 1; }

# Runs every fuzz target for FUZZTIME each.
fuzz:
	$(GO) test ./web -run '^$$' -fuzz '^FuzzNodeRoute$$' -fuzztime $(FUZZTIME)
	$(GO) test ./web -run '^$$' -fuzz '^FuzzNodesRoute$$' -fuzztime $(FUZZTIME)

clean:
	rm -rf .data nodeledger
