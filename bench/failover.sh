#!/usr/bin/env bash
# `make failover`: runs TestFailover (e2e/failover_full_test.go, build tag long), the sale day on a
# pg_auto_failover formation whose primary is kill -9ed twice, which writes bench/FAILOVER.md; the
# run's log is kept in .data/failover/run.log. FAILOVER_SCALE (1) scales the wallets, payments and
# clients, not the times. bench/README.md (Failover) says what it measures.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${GETH:?set GETH to the pinned geth (make failover does)}"
command -v haproxy >/dev/null || { echo "failover: haproxy is missing: make failover installs it" >&2; exit 1; }
command -v pg_autoctl >/dev/null || { echo "failover: pg_autoctl is missing: make failover installs it" >&2; exit 1; }
mkdir -p .data/failover
echo "failover: FAILOVER_SCALE=${FAILOVER_SCALE:-1}: about 15 minutes; log in .data/failover/run.log"
GETH="$GETH" FAILOVER_SCALE="${FAILOVER_SCALE:-1}" "${GO:-go}" test -tags long -run '^TestFailover$' -count=1 -v -timeout 90m ./e2e 2>&1 |
  tee .data/failover/run.log
