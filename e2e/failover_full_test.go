//go:build long

package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestFailover is `make failover` (issue 51 §5): the sale day's load on a pg_auto_failover
// formation. geth --dev mines a block every 2 s; three instances of the real binary behind
// HAProxy follow the formation's primary (DATABASE_URL names both nodes); 1,000 wallets send
// 2,000 payments over 3 minutes (5 % wrong, every other one in USDC, some through a referral
// code), then 3,000 over 2 minutes, while 1,000 trackers and 200 pollers read and an operator
// adds a referral code every second. The ledger's primary is kill -9ed as the burst begins and
// again once the old one is back as the standby; an instance is kill -9ed every 2 minutes, as on
// the sale day. FAILOVER_SCALE (1) scales the wallets, payments and clients. It writes
// bench/FAILOVER.md, and fails on a payment lost or doubled, a write acknowledged and lost, a 5xx
// other than a 503 with retry-after, more than 30 s of 503s a failover, or a backlog still there
// 2 minutes after the last promotion.
func TestFailover(t *testing.T) {
	scale := scaleOf(t, "FAILOVER_SCALE")
	n := func(full int) int { return max(1, int(float64(full)*scale+0.5)) }
	profiles := filepath.Join(root, ".data", "failover")
	if err := os.MkdirAll(profiles, 0o750); err != nil {
		t.Fatal(err)
	}
	p := saleParams{
		instances: 3, blockSec: 2, gasLimit: 30_000_000, confirmations: 12,
		wallets: n(1000), steady: n(2000), steadyFor: 3 * time.Minute, burst: n(3000), burstFor: 2 * time.Minute,
		trackers: n(1000), pollers: n(200), killEvery: 2 * time.Minute, drainFor: 15 * time.Minute,
		haproxy: true, profiles: profiles, usdc: true, verifyAll: true, ha: true, dbKills: 2,
	}
	r := runSaleDay(t, p)
	report(t, "FAILOVER.md", "Failover", "make failover", "FAILOVER_SCALE", scale, "", r)
}
