package store_test

import (
	"testing"

	"nodeledger/store"
	"nodeledger/store/storetest"
)

// TestTryLockOnABrokenConnection: the pool's one idle connection dies under it (a failover, a
// proxy or a firewall dropping it: reset, closed, or held silent and then reset when the path
// heals), and TryLock's query meets the dead socket, before it is sent or after: it takes the
// lock on a new connection rather than failing the pass. The last way failed the payments
// pass of TestPassesThroughNetworkFaults now and then ("connection reset by peer").
func TestTryLockOnABrokenConnection(t *testing.T) {
	t.Parallel()
	proxy, through := storetest.ProxyURL(t, storetest.NewURL(t))
	db, err := storetest.Open(t.Context(), through)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.DB().SetMaxOpenConns(1)
	for _, f := range storetest.Faults {
		if f.Name == "slow" {
			continue // slow is no broken connection
		}
		t.Run(f.Name, func(t *testing.T) {
			if err := db.DB().PingContext(t.Context()); err != nil { // one idle connection, open
				t.Fatal(err)
			}
			proxy.Inject(f)
			proxy.Heal(f)
			unlock, ok, err := db.TryLock(t.Context(), store.LockPayments)
			if err != nil || !ok {
				t.Fatalf("TryLock: %v, %v", ok, err)
			}
			unlock()
		})
	}
}
