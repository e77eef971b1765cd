# nodeledger: `make run` starts the whole product, `make test` runs every test.
GO        ?= go
FUZZTIME  ?= 20s
# geth for the end-to-end tests; newer cmd/geth tags need a module the proxy here refuses.
GETH_VERSION := v1.17.8
GETH         := $(CURDIR)/.data/bin/geth-$(GETH_VERSION)
# clef, the external signer, for the signer tests: cmd/clef is gone from go-ethereum v1.17.
CLEF_VERSION := v1.16.9
CLEF         := $(CURDIR)/.data/bin/clef-$(CLEF_VERSION)
# viem, for the test that signs in with a real wallet library; playwright-core for the browser
# tests (they drive Debian's chromium).
VIEM         := web/testdata/viem/node_modules/viem/package.json
BROWSER      := web/testdata/browser/node_modules/playwright-core/package.json

# A Node.js that .ci/setup installs when the machine's is too old for the tests (Debian 12's).
export PATH := $(CURDIR)/.data/node/bin:$(PATH)

CONTRACTS := NodeFactory TestToken MockAggregator SanctionsList Reenterer Rejecter Forwarder TokenBatch SignerWallet Safe SafeProxyFactory MultiSendCallOnly CompatibilityFallbackHandler

.PHONY: ha ha-kill failover setup-ha image image-test setup-image run build test bench bench-exports verify-bench drill chaos soak saleday lint vulncheck fuzz contracts generate static clean setup-run setup-test setup-saleday

# What run and test need from the machine, installed with apt when missing (.ci/setup says what,
# one line each, and nothing when all is there): run, PostgreSQL's server binaries for its private
# cluster (unless DATABASE_URL is set, or in .env); test, the same (unless TEST_DATABASE_URL is
# set or a server answers on 127.0.0.1:5432), gcc, Node.js (20 or newer) with npm, and chromium.
setup-run:
	@.ci/setup run

setup-test:
	@.ci/setup test

# saleday's HAProxy (Debian's package) and database server, installed with apt when missing.
setup-saleday:
	@.ci/setup saleday

run: setup-run
	$(GO) run .

# A pg_auto_failover formation on this machine (issue 51): a monitor, a primary and its synchronous
# standby under .data/ha, made fresh, until Ctrl-C; it prints the DATABASE_URL that make run takes.
# ha-kill kill -9s its primary (docs/operations.md, "Lose the primary").
setup-ha:
	@.ci/setup ha

ha: setup-ha
	$(GO) run . ha

ha-kill:
	$(GO) run . ha kill

build:
	$(GO) build -o nodeledger .

# The container image (Dockerfile), with podman (Debian's package; setup-image installs it): the
# static binary, the CA certificates and an empty /tmp (a tar, so that its mode survives) on
# scratch, pulled from no registry. image-test runs it against the machine's PostgreSQL and waits
# for /readyz (e2e/image_test.go).
IMAGE ?= localhost/nodeledger:dev
setup-image:
	@.ci/setup image

image: setup-image
	rm -rf .data/image && mkdir -p .data/image/tmp && chmod 1777 .data/image/tmp
	CGO_ENABLED=0 $(GO) build -trimpath -tags timetzdata -ldflags='-s -w' -o .data/image/nodeledger .
	cp /etc/ssl/certs/ca-certificates.crt .data/image/
	cd .data/image && tar --owner=0 --group=0 -cf tmp.tar tmp
	podman build -q -t $(IMAGE) .

image-test: image
	IMAGE=$(IMAGE) $(GO) test -tags long -run '^TestImage$$' -count=1 -v -timeout 10m ./e2e

# Tests need a PostgreSQL server: TEST_DATABASE_URL, or postgres@127.0.0.1:5432 with trust auth
# (else each test package starts a private one), gcc, Node.js and chromium (setup-test), geth, clef
# and the npm packages, which this target installs. Browser screenshots land in .data/artifacts/browser.
# Every route and pass test runs under the race detector, each on a database of its own and most
# in parallel: they wait on chains and sockets far more than they compute, so TEST_PARALLEL of
# them at once on any machine. The browser and end-to-end tests run without it (they drive a
# real binary or Chromium, whose pages the race detector would slow tenfold and not watch).
# 30 minutes a package leaves a slower machine room and still stops a hung test.
TEST_PARALLEL ?= 8
test: setup-test $(GETH) $(CLEF) $(VIEM) $(BROWSER)
	GETH=$(GETH) CLEF=$(CLEF) $(GO) test -race -count=1 -timeout 30m -parallel $(TEST_PARALLEL) $$($(GO) list ./... | grep -v /e2e$$)
	GETH=$(GETH) CLEF=$(CLEF) $(GO) test -count=1 -timeout 30m -parallel $(TEST_PARALLEL) ./e2e
	$(GO) test -count=1 -timeout 30m -parallel 3 -run '^TestBrowser$$' ./web # its three lanes at once, whatever the cores

$(BROWSER): web/testdata/browser/package-lock.json | setup-test
	cd web/testdata/browser && npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(VIEM): web/testdata/viem/package-lock.json | setup-test
	cd web/testdata/viem && npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(GETH):
	mkdir -p $(dir $@)
	GOBIN=$(dir $@) $(GO) install github.com/ethereum/go-ethereum/cmd/geth@$(GETH_VERSION)
	mv $(dir $@)geth $@

$(CLEF):
	mkdir -p $(dir $@)
	GOBIN=$(dir $@) $(GO) install github.com/ethereum/go-ethereum/cmd/clef@$(CLEF_VERSION)
	mv $(dir $@)clef $@

# Seeds a 1M-node ledger in PostgreSQL (once; BENCH_PG names the server) and measures the routes
# and passes side by side; writes bench/RESULTS.md. bench/README.md explains it.
bench: $(GETH)
	GETH=$(GETH) bash bench/run.sh

# Rebuild and verify from the chain and the settings log alone (issue 50 §8): a sale's chain of
# VERIFY_BENCH_PAYMENTS payments (13,000) and a quiet chain of VERIFY_BENCH_QUIET empty blocks
# (100,000), on the in-process dev chain; writes bench/VERIFY.md.
verify-bench:
	$(GO) test -tags long -run '^TestVerifyBench$$' -count=1 -v -timeout 60m ./jobs

# The admin exports over a 1M-node ledger: time, size and peak RSS of each; writes bench/EXPORTS.md.
bench-exports:
	bash bench/exports.sh

# The long runs (build tag long), against the real binary and geth --dev. chaos kill -9s the
# server during payments, credit and reconciler passes, CHAOS_KILLS times each (50), then checks
# the ledger against the chain and that a webhook receiver heard of every settled payment
# (e2e/chaos_test.go), and kills it mid-delivery of a webhook
# (e2e/webhooks_test.go); soak loads it at half its capacity for
# SOAK_DURATION (10m) with passes running, and writes bench/SOAK.md (e2e/soak_test.go).
# The drill (issue 50 §7): a sale of 300 payments with treasury batches, a round, a reorg and the
# service cut off and restarted; the database dropped, rebuilt from the chain and a settings
# export, compared row for row, and the service selling on. `make test` runs it with 12 payments.
drill:
	$(GO) test -tags long -run '^TestDrill$$' -count=1 -v -timeout 30m .

chaos: $(GETH)
	GETH=$(GETH) $(GO) test -tags long -run '^(TestChaos|TestWebhookSurvivesAKill)$$' -count=1 -v -timeout 60m ./e2e

soak: $(GETH)
	GETH=$(GETH) $(GO) test -tags long -run '^TestSoak$$' -count=1 -v -timeout 60m ./e2e

# The sale day (issue 24): geth --dev with 2 s blocks, three instances behind HAProxy, 10,000
# payments over 10 minutes then 3,000 within 30 s, an instance kill -9ed every 2 minutes; writes
# bench/SALEDAY.md (bench/README.md, Sale day). SALEDAY_SCALE (1) scales its counts.
saleday: setup-saleday $(GETH)
	GETH=$(GETH) GO=$(GO) bash bench/saleday.sh

# Lose the primary (issue 51): the sale day's load on a pg_auto_failover formation whose primary is
# kill -9ed twice; writes bench/FAILOVER.md (bench/README.md, Failover). FAILOVER_SCALE (1) scales it.
failover: setup-saleday setup-ha $(GETH)
	GETH=$(GETH) GO=$(GO) bash bench/failover.sh

# gosec skips two rules, reviewed on 2026-11-22: G104 (unchecked errors) flags only Close, Stop
# and Rollback on cleanup paths, after the error that matters was returned; G115 (integer
# conversions) flags block numbers, nonces, log and call indexes and tier ids, each bounded by the
# chain or a CHECK constraint far inside its type (the one that was not, deploy's
# -max-per-wallet, is range-checked). Other findings are fixed or carry a #nosec with its reason.
GOSEC_VERSION       := v2.30.0
GOVULNCHECK_VERSION := v1.9.0

lint:
	$(GO) vet ./...
	$(GO) tool staticcheck $$($(GO) list ./... | grep -v /chain/bindings) # bindings: abigen's code
	@test -z "$$(gofmt -l .)" || { echo "gofmt needed:"; gofmt -l .; exit 1; }
	$(GO) run github.com/securego/gosec/v2/cmd/gosec@$(GOSEC_VERSION) -quiet -exclude-dir=chain/bindings -exclude=G104,G115 ./...
	@if curl -fsS -m 10 -o /dev/null https://vuln.go.dev/index/db.json 2>/dev/null; then $(MAKE) vulncheck; \
	else echo "govulncheck: its database (vuln.go.dev) cannot be reached from here; run 'make vulncheck' where it can"; fi

vulncheck:
	$(GO) run golang.org/x/vuln/cmd/govulncheck@$(GOVULNCHECK_VERSION) ./...

# Runs every fuzz target for FUZZTIME each. Their corpora are committed in web/testdata/fuzz,
# which plain `go test` replays; copy what a long run finds from $(go env GOCACHE)/fuzz there.
# Each execution is an HTTP request and a query, so Go's default 60 s spent minimising each new
# input would stall a short run: 5 s is enough for these inputs.
FUZZ_TARGETS := FuzzNodeRoute FuzzNodesRoute FuzzDistributionsLimit FuzzSignInBody FuzzSignInNonce FuzzSessionCookie FuzzSyncBody FuzzAdminTierBody FuzzPaymentRoute FuzzPaymentsFrom
fuzz:
	for f in $(FUZZ_TARGETS); do $(GO) test ./web -run '^$$' -fuzz "^$$f\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 5s || exit 1; done

# Compiles the contracts with the pinned solc-js and regenerates the committed ABI, bytecode and
# Go bindings; CI runs it and fails when the committed files differ.
contracts:
	cd chain/contracts && npm ci --no-audit --no-fund --loglevel=error && node build.js
	for c in $(CONTRACTS); do \
		$(GO) tool abigen --v2 --pkg bindings --type $$c --abi chain/contracts/build/$$c.abi \
			--bin chain/contracts/build/$$c.bin --out chain/bindings/$$(echo $$c | tr A-Z a-z).go || exit 1; \
	done

# Regenerates the committed Go code of the templ components (views/*_templ.go); CI fails when
# it differs from what is committed.
generate:
	$(GO) tool templ generate -path ./views

# Vendors the pinned front-end packages into static/ (embedded in the binary).
static:
	cd static && npm ci --no-audit --no-fund --loglevel=error
	cp static/node_modules/htmx.org/dist/htmx.min.js static/htmx.min.js

clean:
	rm -rf .data nodeledger
