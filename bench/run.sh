#!/usr/bin/env bash
# make bench: measures, in one run against one seeded ledger, the SQL ceiling (pgbench running
# the handlers' own queries), the server (wrk), the peer (pREST) and the passes at scale, then
# prints one table and rewrites bench/RESULTS.md. bench/README.md explains each row.
set -euo pipefail
cd "$(dirname "$0")/.."

. bench/common.sh
DURATION=${BENCH_DURATION:-8}    # seconds each measurement runs (wrk after a warm-up of 2)
CONNS=64                         # wrk connections, as the issue sets
CLIENTS=32                       # pgbench clients, pREST's connections and the server's (DB_MAX_CONNS)
SERVER=127.0.0.1:18080
PREST=127.0.0.1:18081
METRICS=127.0.0.1:18082          # the server's /debug/pprof, for BENCH_PROFILE

# --- tools -------------------------------------------------------------------------------------
command -v wrk >/dev/null || { log "installing wrk"; as_root apt-get install -y -q wrk >/dev/null; }
command -v pgbench >/dev/null || { log "installing pgbench"; as_root apt-get install -y -q postgresql-client >/dev/null; }

# pREST, the peer: built from a throwaway module that requires it (v1.5.5: newer tags are refused
# by the module proxy here). Nothing of it is committed.
if [ ! -x "$OUT/prestd" ]; then
  log "building pREST v1.5.5"
  rm -rf "$OUT/prest-build" && mkdir -p "$OUT/prest-build"
  cat >"$OUT/prest-build/go.mod" <<'EOF'
module prestbuild

go 1.26

require github.com/prest/prest v1.5.5
EOF
  cat >"$OUT/prest-build/main.go" <<'EOF'
package main

import (
	"github.com/prest/prest/cmd"
	"github.com/prest/prest/config"
)

func main() {
	config.Load()
	cmd.Execute()
}
EOF
  (cd "$OUT/prest-build" && GOFLAGS=-mod=mod go mod tidy >/dev/null 2>&1 && go build -o ../prestd .)
fi

# --- the ledger --------------------------------------------------------------------------------
seed_ledger

# 128 owners (pgbench takes at most 128 scripts), the same for pgbench, wrk and pREST, taken
# spread over the owner range by a hash, so mostly small holders with the odd whale.
psql "$DBURL" -XAtc "SELECT owner FROM (SELECT DISTINCT owner FROM nodes) o ORDER BY md5(owner) LIMIT 128" \
  >"$OUT/owners.txt"
sed 's|^|/api/nodes/|' "$OUT/owners.txt" >"$OUT/paths-nodes.txt"
# The 128 are read again and again, so the server answers them from memory (each wallet's answer
# is kept until the ledger announces a change: handlers.NodesOfWallet). The long tail reads any
# of the ledger's owners at random, far more than it keeps: the answer built from the database.
psql "$DBURL" -XAtc "SELECT DISTINCT owner FROM nodes" | sed 's|^|/api/nodes/|' >"$OUT/paths-nodes-tail.txt"
# Its pgbench script names owners by the seed's rule (bench/sql/nodes-tail.sql): each must hold a node.
[ "$(psql "$DBURL" -XAtc "SELECT count(DISTINCT owner) FROM nodes WHERE owner IN (SELECT '0x' || md5('owner' || k) || left(md5('owner.' || k), 8) FROM generate_series(0, $OWNERS - 1) k)")" = "$OWNERS" ] ||
  { log "bench/sql/nodes-tail.sql names owners the seed did not make (store/seed.go)"; exit 1; }
seq 1 "$HOT" | sed 's|^|/api/node/|' >"$OUT/paths-node.txt"
echo /api/distributions >"$OUT/paths-distributions.txt"
echo /api/stats >"$OUT/paths-stats.txt"
echo /bench/hello >"$OUT/paths-hello.txt"
awk -v db="/$DB/public/nodes" '{ printf "%s?owner=%s&_order=created_at,id&_select=id,tier,owner,balance_wei,cumulative_wei,withdrawn_wei,price_wei,mint_tx,status,created_at\n", db, $1 }' \
  "$OUT/owners.txt" >"$OUT/paths-prest.txt"

# --- measurements ------------------------------------------------------------------------------
# pgbench_tps <script...> [-- extra args]: transactions per second over DURATION, -M prepared.
pgbench_tps() {
  pgbench "$DBURL" -n -M prepared -c "$CLIENTS" -j 2 -T "$DURATION" -D hot="$HOT" -D owners="$OWNERS" "$@" 2>>"$OUT/pgbench.log" |
    awk '/^tps = / { printf "%.0f\n", $3 }' | grep . || { log "pgbench failed: see $OUT/pgbench.log"; return 1; }
}

nodes_scripts=()
i=0
while read -r owner; do
  sed "s/:owner/:o$i/" bench/sql/nodes.sql >"$OUT/nodes-$i.sql"
  nodes_scripts+=(-f "$OUT/nodes-$i.sql" -D "o$i=$owner")
  i=$((i + 1))
done <"$OUT/owners.txt"

# wrk_run <paths file> <base url> [profile name]: one JSON line (see bench/wrk/paths.lua), after a
# warm-up. With BENCH_PROFILE set and a name, the server's CPU profile over the run is written to
# $OUT/<name>.pprof (go tool pprof -top $OUT/nodeledger $OUT/<name>.pprof): where its time goes.
wrk_run() {
  WRK_PATHS=$1 wrk -t 2 -c "$CONNS" -d 2s -s bench/wrk/paths.lua "$2" >/dev/null 2>&1 || true
  local prof=
  if [ -n "${BENCH_PROFILE:-}" ] && [ -n "${3:-}" ]; then
    curl -fso "$OUT/$3.pprof" "http://$METRICS/debug/pprof/profile?seconds=$DURATION" & prof=$!
  fi
  WRK_PATHS=$1 wrk -t 2 -c "$CONNS" -d "${DURATION}s" --timeout 5s -s bench/wrk/paths.lua "$2" | tail -n 1
  if [ -n "$prof" ]; then wait "$prof"; fi
}
json() { sed -E "s/.*\"$2\":([0-9.]+).*/\1/" <<<"$1"; }


pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

# Both servers run throughout; an idle one costs nothing.
# BENCH_MODE lifts the rate limits and serves /bench/hello; the chain is not needed to serve
# the ledger, so ETH_RPC_URL names a port where nothing listens and the passes idle. The server
# reaches PostgreSQL over its Unix socket where it can (store.localSocket), pgbench and pREST over
# TCP; BENCH_SERVER_TCP=1 keeps the server on TCP too (the host named in the query), to compare.
SERVER_DBURL=$DBURL
[ -n "${BENCH_SERVER_TCP:-}" ] && SERVER_DBURL="$DBURL&host=127.0.0.1"
BENCH_MODE=true LISTEN_ADDR=$SERVER METRICS_ADDR=$METRICS DATABASE_URL=$SERVER_DBURL DB_MAX_CONNS=$CLIENTS ETH_RPC_URL=http://127.0.0.1:9 CHAIN_ID=1337 REFUND_POLICY="within 2 working days" \
  FACTORY_ADDRESS=0x00000000000000000000000000000000000000f1 PUBLIC_URL=http://$SERVER \
  SESSION_SECRET=bench-bench-bench-bench-bench-bench TICK_SEC=86400 \
  "$OUT/nodeledger" serve 2>"$OUT/server.log" &
server=$!
pids+=("$server")
PREST_HTTP_HOST=127.0.0.1 PREST_HTTP_PORT=${PREST##*:} PREST_PG_URL=$DBURL PREST_PG_MAXOPENCONN=$CLIENTS \
  PREST_PG_MAXIDLECONN=$CLIENTS PREST_JWT_DEFAULT=false PREST_SSL_MODE=disable PREST_PG_SSL_MODE=disable \
  PREST_CONF=$OUT/prest-none.toml "$OUT/prestd" >"$OUT/prest.log" 2>&1 &
pids+=("$!")
# /livez: the server migrates before it listens; /readyz wants a chain, which the benchmark has none of.
wait_http "http://$SERVER/livez"
wait_http "http://$PREST$(head -n 1 "$OUT/paths-prest.txt")"

# The machine is shared and its speed drifts by a quarter within minutes, so every figure is
# taken REPEATS times, the rounds interleaved so that each ratio compares neighbours in time,
# and the median is kept.
REPEATS=${BENCH_REPEATS:-3}
declare -A runs
for round in $(seq 1 "$REPEATS"); do
  log "round $round of $REPEATS: pgbench (${DURATION}s, $CLIENTS clients), wrk (${DURATION}s, $CONNS connections)"
  runs[ceil_nodes]+=" $(pgbench_tps "${nodes_scripts[@]}")"
  last=$([ "$round" = "$REPEATS" ] && echo yes || true)
  runs[nodes]+=" $(wrk_run "$OUT/paths-nodes.txt" "http://$SERVER" ${last:+profile-nodes})"
  runs[prest]+=" $(wrk_run "$OUT/paths-prest.txt" "http://$PREST")"
  runs[ceil_tail]+=" $(pgbench_tps -f bench/sql/nodes-tail.sql)"
  runs[tail]+=" $(wrk_run "$OUT/paths-nodes-tail.txt" "http://$SERVER" ${last:+profile-tail})"
  runs[ceil_node]+=" $(pgbench_tps -f bench/sql/node.sql)"
  runs[node]+=" $(wrk_run "$OUT/paths-node.txt" "http://$SERVER")"
  runs[ceil_rounds]+=" $(pgbench_tps -f bench/sql/distributions.sql)"
  runs[rounds]+=" $(wrk_run "$OUT/paths-distributions.txt" "http://$SERVER")"
  runs[hello]+=" $(wrk_run "$OUT/paths-hello.txt" "http://$SERVER")"
  runs[stats]+=" $(wrk_run "$OUT/paths-stats.txt" "http://$SERVER" ${last:+profile-stats})"
done
runs[ceil_stats]=$(pgbench_tps -f bench/sql/stats.sql)
rss_mb=$(awk '/VmHWM/ { printf "%.0f", $2 / 1024 }' "/proc/$server/status")

# median <numbers...>
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# wrk_median <name>: a JSON line of the medians of the runs of name, field by field.
wrk_median() {
  local out='{' f vals
  for f in rps p50_ms p99_ms non2xx errors; do
    vals=()
    for r in ${runs[$1]}; do vals+=("$(json "$r" "$f")"); done
    out+="\"$f\":$(median "${vals[@]}"),"
  done
  echo "${out%,}}"
}
ceil_nodes=$(median ${runs[ceil_nodes]})
ceil_tail=$(median ${runs[ceil_tail]})
ceil_node=$(median ${runs[ceil_node]})
ceil_rounds=$(median ${runs[ceil_rounds]})
ceil_stats=${runs[ceil_stats]}
r_nodes=$(wrk_median nodes)
r_tail=$(wrk_median tail)
r_prest=$(wrk_median prest)
r_node=$(wrk_median node)
r_rounds=$(wrk_median rounds)
r_hello=$(wrk_median hello)
r_stats=$(wrk_median stats)

# --- latency at a load --------------------------------------------------------------------------
# wrk's p99 above is the queue its own connections make: 64 of them at 6,000 answers a second
# wait 10.7 ms on average (Little's law), however fast the server. A latency target is a promise
# at a load the server carries, so each route is then sent half its ceiling, open loop
# (bench/rate: each request is due at its time, and its latency counts from then).
go build -o "$OUT/rate" ./bench/rate
half() { awk -v c="$1" 'BEGIN { printf "%d", c / 2 }'; }
# rate_run <paths file> <rate>: one JSON line (bench/rate), after a warm-up.
rate_run() {
  "$OUT/rate" -url "http://$SERVER" -paths "$1" -rate "$2" -duration 2s -conns "$CONNS" >/dev/null
  "$OUT/rate" -url "http://$SERVER" -paths "$1" -rate "$2" -duration "${DURATION}s" -conns "$CONNS"
}
rate_nodes=$(half "$ceil_nodes") rate_tail=$(half "$ceil_tail") rate_node=$(half "$ceil_node") rate_rounds=$(half "$ceil_rounds")
for round in $(seq 1 "$REPEATS"); do
  log "latency round $round of $REPEATS: each route at half its ceiling (bench/rate)"
  runs[lat_nodes]+=" $(rate_run "$OUT/paths-nodes.txt" "$rate_nodes")"
  runs[lat_tail]+=" $(rate_run "$OUT/paths-nodes-tail.txt" "$rate_tail")"
  runs[lat_node]+=" $(rate_run "$OUT/paths-node.txt" "$rate_node")"
  runs[lat_rounds]+=" $(rate_run "$OUT/paths-distributions.txt" "$rate_rounds")"
done
l_nodes=$(wrk_median lat_nodes) l_tail=$(wrk_median lat_tail) l_node=$(wrk_median lat_node) l_rounds=$(wrk_median lat_rounds)
# errors are summed, not medianed: one is one too many.
errors_total=0
for k in nodes tail prest node rounds hello stats lat_nodes lat_tail lat_node lat_rounds; do
  for r in ${runs[$k]}; do errors_total=$((errors_total + $(json "$r" non2xx) + $(json "$r" errors))); done
done

log "passes at scale (Go benchmarks)"
# Each iteration is a whole round; the 1M case seeds a million nodes of its own first.
go test ./store -run '^$' -bench 'BenchmarkCreditRound' -benchtime 2x -timeout 60m >"$OUT/credit.txt" 2>&1 ||
  { cat "$OUT/credit.txt" >&2; exit 1; }
go test ./jobs -run '^$' -bench 'BenchmarkPaymentsScan|BenchmarkQuietScanRequests' -benchtime 5x >"$OUT/scan.txt" 2>&1 ||
  { cat "$OUT/scan.txt" >&2; exit 1; }
log "reads on a standby (Go benchmark: a primary and its synchronous standby of its own)"
# Three interleaved pairs of runs; the benchmark reports the medians.
go test ./web -run '^$' -bench '^BenchmarkNodesOnAStandby$' -benchtime 3x -timeout 30m >"$OUT/standby.txt" 2>&1 ||
  { cat "$OUT/standby.txt" >&2; exit 1; }
# metric <file> <unit> [benchmark]: the value Go's benchmark output gives for that unit, on the
# line of that benchmark (its name without the -GOMAXPROCS suffix) or of any.
metric() {
  awk -v unit="$2" -v name="${3:-}" '/^Benchmark/ {
    b = $1; sub(/-[0-9]+$/, "", b)
    if (name == "" || b == name) for (i = 2; i < NF; i++) if ($(i + 1) == unit) print $i
  }' "$1"
}
# credit <unit> <nodes>: that metric of the credit round benchmark at that many nodes.
credit() { metric "$OUT/credit.txt" "$1" "BenchmarkCreditRound/nodes=$2"; }

# --- the table ---------------------------------------------------------------------------------
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
verdict() { awk -v v="$1" -v op="$2" -v t="$3" 'BEGIN { ok = (op == ">=") ? v >= t : v <= t; print (ok ? "met" : "NOT MET") }'; }
row() { printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$@"; }

table() {
  echo '| route, 64 connections (wrk) | ceiling (pgbench tx/s) | server req/s | p50 ms | p99 ms | ÷ ceiling | ÷ pREST | target |'
  echo '|---|---|---|---|---|---|---|---|'
  local n_rps; n_rps=$(json "$r_nodes" rps)
  local n_ratio; n_ratio=$(ratio "$n_rps" "$ceil_nodes")
  local n_prest; n_prest=$(ratio "$n_rps" "$(json "$r_prest" rps)")
  row '`/api/nodes/{owner}`, 128 owners (kept)' "$ceil_nodes" "$n_rps" "$(json "$r_nodes" p50_ms)" "$(json "$r_nodes" p99_ms)" \
    "$n_ratio" "$n_prest" \
    "≥0.8× ceiling: $(verdict "$n_ratio" '>=' 0.8); ≥3× pREST: $(verdict "$n_prest" '>=' 3)"
  local t_rps; t_rps=$(json "$r_tail" rps)
  local t_ratio; t_ratio=$(ratio "$t_rps" "$ceil_tail")
  row "\`/api/nodes/{owner}\`, any of $OWNERS owners (built)" "$ceil_tail" "$t_rps" "$(json "$r_tail" p50_ms)" "$(json "$r_tail" p99_ms)" \
    "$t_ratio" "$(ratio "$t_rps" "$(json "$r_prest" rps)")" "a figure: the answer built each time"
  local d_rps; d_rps=$(json "$r_node" rps)
  local d_ratio; d_ratio=$(ratio "$d_rps" "$ceil_node")
  row '`/api/node/{id}`' "$ceil_node" "$d_rps" "$(json "$r_node" p50_ms)" "$(json "$r_node" p99_ms)" \
    "$d_ratio" - "≥0.7× ceiling: $(verdict "$d_ratio" '>=' 0.7)"
  local h_rps; h_rps=$(json "$r_hello" rps)
  local r_ratio; r_ratio=$(ratio "$(json "$r_rounds" rps)" "$ceil_rounds")
  row '`/api/distributions` (memoised 1 s)' "$ceil_rounds" "$(json "$r_rounds" rps)" "$(json "$r_rounds" p50_ms)" \
    "$(json "$r_rounds" p99_ms)" "$r_ratio ($(ratio "$(json "$r_rounds" rps)" "$h_rps") of hello)" - "≥0.7× ceiling: $(verdict "$r_ratio" '>=' 0.7)"
  local s_ratio; s_ratio=$(ratio "$(json "$r_stats" rps)" "$h_rps")
  row '`/api/stats` (memoised)' "hello: $h_rps req/s; SQL: $ceil_stats tx/s" "$(json "$r_stats" rps)" \
    "$(json "$r_stats" p50_ms)" "$(json "$r_stats" p99_ms)" "$s_ratio (of hello)" - \
    "≥0.8× hello: $(verdict "$s_ratio" '>=' 0.8)"
  row '`/bench/hello` (HTTP ceiling)' - "$h_rps" "$(json "$r_hello" p50_ms)" "$(json "$r_hello" p99_ms)" - - -
  row 'pREST `/nodes?owner=`' - "$(json "$r_prest" rps)" "$(json "$r_prest" p50_ms)" "$(json "$r_prest" p99_ms)" - - -
  row 'server peak RSS' - - - - - - "$rss_mb MB ≤150 MB: $(verdict "$rss_mb" '<=' 150)"
  echo
  echo '| route at half its ceiling, open loop (bench/rate) | rate (req/s) | server req/s | p50 ms | p99 ms | target |'
  echo '|---|---|---|---|---|---|'
  local spec name rate l
  for spec in '`/api/nodes/{owner}`, 128 owners (kept)':nodes "\`/api/nodes/{owner}\`, any of $OWNERS owners (built)":tail \
    '`/api/node/{id}`':node '`/api/distributions`':rounds; do
    name=${spec%%:*} rate=rate_${spec##*:} l=l_${spec##*:}
    printf '| %s | %s | %s | %s | %s | p99 ≤10 ms: %s |\n' "$name" "${!rate}" "$(json "${!l}" rps)" \
      "$(json "${!l}" p50_ms)" "$(json "${!l}" p99_ms)" "$(verdict "$(json "${!l}" p99_ms)" '<=' 10)"
  done
  echo
  echo "Non-2xx answers and socket errors over all wrk and bench/rate runs: $errors_total."
  echo
  echo '| pass at scale | ledger | raw SQL / RPC | ratio | target |'
  echo '|---|---|---|---|---|'
  local size n label w p
  for size in 100000:100k 1000000:1M; do
    n=${size%%:*} label="credit pass, ${size#*:} nodes"
    w=$(credit write/raw-insert "$n") p=$(credit pass/raw "$n")
    printf '| %s: writing the round | %s s | %s s (INSERT … SELECT) | %s × raw | ≤1.5× raw: %s |\n' \
      "$label" "$(credit write-s/op "$n")" "$(credit raw-insert-s/op "$n")" "$w" "$(verdict "$w" '<=' 1.5)"
    printf '| %s: confirming the round | %s s | %s s (UPDATE … FROM) | %s × raw | |\n' \
      "$label" "$(credit confirm-s/op "$n")" "$(credit raw-update-s/op "$n")" \
      "$(ratio "$(credit confirm-s/op "$n")" "$(credit raw-update-s/op "$n")")"
    printf '| %s: whole database part | | | %s × raw | ≤1.5× raw: %s |\n' "$label" "$p" "$(verdict "$p" '<=' 1.5)"
  done
  local r; r=$(metric "$OUT/scan.txt" raw/scan)
  printf '| payments scan, 20 geth --dev blocks of %s txs | %s s | %s s (eth_getBlockByNumber) | %s × raw speed | ≥0.9× raw: %s |\n' \
    "$(metric "$OUT/scan.txt" txs/block)" "$(metric "$OUT/scan.txt" scan-s/op)" "$(metric "$OUT/scan.txt" raw-fetch-s/op)" \
    "$r" "$(verdict "$r" '>=' 0.9)"
  local every skipping share
  every=$(metric "$OUT/scan.txt" every-block-requests/10k-blocks) skipping=$(metric "$OUT/scan.txt" skipping-requests/10k-blocks)
  share=$(awk -v s="$skipping" -v e="$every" 'BEGIN { printf "%.1f", 100 * s / e }')
  printf '| payments scan, a quiet chain: 10,000 blocks, 24 transfers of the wallet | %s requests | %s requests (every block read) | %s %% of every block | ≤5 %%: %s |\n' \
    "$skipping" "$every" "$share" "$(verdict "$share" '<=' 5)"
  echo
  echo '| reads on a standby (`DATABASE_READ_URL`) | the primary alone | with its standby | ratio | target |'
  echo '|---|---|---|---|---|'
  local sb="$OUT/standby.txt"
  printf '| `/api/nodes/{owner}`, 200,000 nodes, 64 clients (Go, in the benchmark'"'"'s process) | %s req/s, p99 %s ms | %s req/s, p99 %s ms | %s × | a figure: both servers share these %s cores |\n' \
    "$(metric "$sb" primary-req/s)" "$(metric "$sb" primary-p99-ms)" "$(metric "$sb" standby-req/s)" "$(metric "$sb" standby-p99-ms)" \
    "$(metric "$sb" standby/primary)" "$(nproc)"
}

result=$(table)
echo "$result"
dirty=$(git diff --quiet || echo ' (with uncommitted changes)')
# Only the server connects over a socket (psql, pgbench and pREST name 127.0.0.1): its pool's
# idle connections say which way it went.
transport=TCP
[ "$(psql "$DBURL" -XAtc "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND client_addr IS NULL AND backend_type = 'client backend'")" != 0 ] &&
  transport="its Unix socket"
{
  echo '# Benchmark results'
  echo
  echo "Written by \`make bench\` on $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)$dirty."
  echo "Machine: $(nproc) cores ($(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) RAM, $(psql "$DBURL" -XAtc 'SHOW server_version' | cut -d' ' -f1) PostgreSQL, $(go version | cut -d' ' -f3)."
  echo "Ledger: $NODES nodes, $OWNERS owners, $ROUNDS rounds ($(psql "$DBURL" -XAtc 'SELECT count(*) FROM credits') credits), $WITHDRAWALS withdrawals."
  echo "Each figure is the median of $REPEATS interleaved runs of ${DURATION} s (wrk after a 2 s warm-up); wrk at $CONNS connections, pgbench and pREST with $CLIENTS (the server's pool size, DB_MAX_CONNS)."
  echo "The server reaches PostgreSQL over $transport; pgbench and pREST over TCP."
  echo
  echo "$result"
} >bench/RESULTS.md
log "wrote bench/RESULTS.md"
