# Sourced by bench/run.sh and bench/exports.sh, from the repository's root: the bench ledger's
# settings, the nodeledger binary, and the ledger itself, seeded once and then reused.
PG=${BENCH_PG:-postgres://postgres@127.0.0.1:5432}
DB=${BENCH_DB:-nodeledger_bench}
NODES=${BENCH_NODES:-1000000}
OWNERS=${BENCH_OWNERS:-200000}
ROUNDS=${BENCH_ROUNDS:-50}
WITHDRAWALS=${BENCH_WITHDRAWALS:-100000}
HOT=${BENCH_HOT:-1000}
OUT=.data/bench
DBURL="$PG/$DB?sslmode=disable"

mkdir -p "$OUT"
log() { printf '== %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
command -v psql >/dev/null || { log "installing psql"; as_root apt-get install -y -q postgresql-client >/dev/null; }

wait_http() {
  for _ in $(seq 1 100); do curl -fso /dev/null "$1" && return 0; sleep 0.1; done
  log "nothing answers at $1"; return 1
}

# seed_ledger builds nodeledger into $OUT and seeds the ledger unless it holds $NODES nodes.
seed_ledger() {
  log "building nodeledger"
  go build -o "$OUT/nodeledger" .
  local seeded
  seeded=$(psql "$DBURL" -XAtc 'SELECT count(*) FROM nodes' 2>/dev/null || echo 0)
  if [ "$seeded" != "$NODES" ]; then
    log "seeding $DB: $NODES nodes (each with its payment), $OWNERS owners, $ROUNDS rounds, $WITHDRAWALS withdrawals"
    psql "$PG/postgres?sslmode=disable" -XqAc "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
    DATABASE_URL=$DBURL "$OUT/nodeledger" seed --nodes "$NODES" --owners "$OWNERS" --rounds "$ROUNDS" \
      --withdrawals "$WITHDRAWALS" --hot "$HOT" >&2
  else
    log "reusing $DB ($NODES nodes); drop it to seed anew"
  fi
}
