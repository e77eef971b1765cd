#!/usr/bin/env bash
# `make saleday`: runs TestSaleDay (e2e/saleday_full_test.go, build tag long), which writes
# bench/SALEDAY.md; the run's log is kept in .data/saleday/run.log, with a CPU profile of each
# instance over the burst. SALEDAY_SCALE (1) scales the wallets, payments and clients, not the
# times. bench/README.md (Sale day) says what it measures.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${GETH:?set GETH to the pinned geth (make saleday does)}"
command -v haproxy >/dev/null || { echo "saleday: haproxy is missing: make saleday installs it" >&2; exit 1; }
mkdir -p .data/saleday
echo "saleday: SALEDAY_SCALE=${SALEDAY_SCALE:-1}: about 25 minutes (10 of payments, then the burst and the backlog); log in .data/saleday/run.log"
GETH="$GETH" SALEDAY_SCALE="${SALEDAY_SCALE:-1}" "${GO:-go}" test -tags long -run '^TestSaleDay$' -count=1 -v -timeout 90m ./e2e 2>&1 |
  tee .data/saleday/run.log
