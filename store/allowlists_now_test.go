package store_test

import (
	"testing"
	"time"

	"nodeledger/store"
	"nodeledger/store/storetest"
)

// TestAllowlistsAt: each tier's list in force at an instant, counted, whichever uploads came
// before or after it; an emptied list is there with no wallet, a tier never given one absent.
func TestAllowlistsAt(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	ctx := t.Context()
	for id, label := range map[int]string{1: "Standard", 2: "Pro", 3: "None"} {
		storetest.Tier(t, db, id, label, "1", true)
	}
	a, b := "0x00000000000000000000000000000000000000a1", "0x00000000000000000000000000000000000000b2"
	put := func(tier int, at string, entries ...store.AllowlistEntry) {
		t.Helper()
		var id int64
		if err := db.DB().Get(&id, `INSERT INTO allowlist_versions (tier, effective_at) VALUES ($1, $2) RETURNING id`, tier, at); err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if _, err := db.DB().Exec(`INSERT INTO allowlist_entries (version, address, allocation) VALUES ($1, $2, $3)`, id, e.Address, e.Allocation); err != nil {
				t.Fatal(err)
			}
		}
	}
	put(1, "2026-01-01T00:00:00Z", store.AllowlistEntry{Address: a, Allocation: 1})
	put(1, "2026-02-01T00:00:00Z", store.AllowlistEntry{Address: a, Allocation: 2}, store.AllowlistEntry{Address: b, Allocation: 5})
	put(1, "2026-03-01T00:00:00Z", store.AllowlistEntry{Address: b, Allocation: 9}) // later than the instant asked
	put(2, "2026-01-15T00:00:00Z", store.AllowlistEntry{Address: a, Allocation: 3})
	put(2, "2026-01-20T00:00:00Z") // emptied

	got, err := db.AllowlistsAt(ctx, time.Date(2026, 2, 15, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("lists %+v", got)
	}
	if v := got[1]; v.Rows != 2 || v.TotalAllocation != 7 || !v.EffectiveAt.Equal(time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("Standard's list %+v", v)
	}
	if v := got[2]; v.Rows != 0 || v.TotalAllocation != 0 || !v.EffectiveAt.Equal(time.Date(2026, 1, 20, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("Pro's emptied list %+v", v)
	}
}
