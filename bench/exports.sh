#!/usr/bin/env bash
# make bench-exports: the admin exports (GET /api/admin/exports/{name}.csv) over make bench's
# ledger (1M nodes, each with the minted payment that bought it; 200k owners; 50 rounds; 100k
# withdrawals). Each export runs on a server started for it alone, so that its peak RSS
# (VmHWM) is the export's; the file is read whole by curl and thrown away. Writes
# bench/EXPORTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."

. bench/common.sh
SERVER=127.0.0.1:18082
KEY=bench-exports-admin-key-0123456789abcdef
seed_ledger

rows=()
for name in payments nodes rounds withdrawals audit; do
  # As make bench serves: no chain (the exports read only the ledger), the passes idle.
  LISTEN_ADDR=$SERVER DATABASE_URL=$DBURL ETH_RPC_URL=http://127.0.0.1:9 CHAIN_ID=1337 REFUND_POLICY="within 2 working days" \
    FACTORY_ADDRESS=0x00000000000000000000000000000000000000f1 PUBLIC_URL=http://$SERVER ADMIN_KEY=$KEY \
    SESSION_SECRET=bench-bench-bench-bench-bench-bench TICK_SEC=86400 \
    "$OUT/nodeledger" serve 2>"$OUT/exports-server.log" &
  server=$!
  trap 'kill $server 2>/dev/null || true' EXIT
  # /livez: the server migrates before it listens; /readyz wants a chain, which the benchmark has none of.
  wait_http "http://$SERVER/livez"
  idle=$(awk '/VmHWM/ { printf "%.0f", $2 / 1024 }' "/proc/$server/status")
  log "exporting $name.csv"
  stats=$(curl -fsS -H "X-Admin-Key: $KEY" -o "$OUT/export.csv" -w '%{time_total} %{size_download}' "http://$SERVER/api/admin/exports/$name.csv")
  peak=$(awk '/VmHWM/ { printf "%.0f", $2 / 1024 }' "/proc/$server/status")
  lines=$(($(wc -l <"$OUT/export.csv") - 1))
  read -r secs bytes <<<"$stats"
  rows+=("$(awk -v n="$name" -v l="$lines" -v b="$bytes" -v s="$secs" -v i="$idle" -v p="$peak" \
    'BEGIN { printf "| %s.csv | %d | %.0f MB | %.1f s | %s MB | %s MB |", n, l, b / 1048576, s, i, p }')")
  kill "$server"; wait "$server" 2>/dev/null || true
done
rm -f "$OUT/export.csv"

{
  echo "# Exports"
  echo
  echo "\`make bench-exports\` on $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD), on $(nproc) cores."
  echo "Ledger: make bench's, as \`nodeledger seed\` makes it: $NODES nodes, each with the minted payment that bought it, $OWNERS owners, $ROUNDS rounds, $WITHDRAWALS withdrawals."
  echo "Each export is read whole by curl from a server started for it alone; RSS is that server's VmHWM, idle before the export and at its end."
  echo
  echo "| export | rows | size | time | RSS idle | RSS peak |"
  echo "|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
} | tee bench/EXPORTS.md
