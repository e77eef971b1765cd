package sale

import (
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"testing"
	"time"

	"nodeledger/migrations"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// migrated is a fresh, migrated ledger of the test's own.
func migrated(t *testing.T) *store.Store {
	t.Helper()
	db, err := store.Open(t.Context(), storetest.EmptyDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Migrate(t.Context(), migrations.FS); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestTierRules: a tier's supply never drops below what it sold, and price steps always open.
func TestTierRules(t *testing.T) {
	db := migrated(t)
	sl := New(db, nil, 0, 0, 0, WalletCodes{}, nil, slog.New(slog.DiscardHandler))
	ctx := t.Context()
	supply := func(n int) *int { return &n }
	put := func(id int, s *int, after *int) error {
		_, err := sl.PutTier(ctx, store.AuditEntry{Action: store.ActionTierPut}, store.Tier{ID: id, Label: fmt.Sprint("T", id),
			PriceWei: store.Uint256{Int: big.NewInt(1)}, MaxPerWallet: 5, HoldingWei: store.Uint256{Int: big.NewInt(0)}, Enabled: true,
			Supply: s, OpensAfterTier: after}, Kept{}, true, func(e *store.AuditEntry, _ *store.Tier, _ store.Tier) {
			e.Outcome = store.AuditOutcome{Code: store.OutcomeTierSaved}
		})
		return err
	}
	rule := func(err error) string {
		var re *RuleError
		if errors.As(err, &re) {
			return fmt.Sprintf("%s %d %d", re.Rule, re.Sold, re.Other)
		}
		return fmt.Sprint(err)
	}
	one, two, three := 1, 2, 3
	if err := put(1, supply(2), nil); err != nil {
		t.Fatal(err)
	}
	storetest.Node(t, db, "1", "0x00000000000000000000000000000000000b0b01", time.Now())
	storetest.Node(t, db, "2", "0x00000000000000000000000000000000000b0b01", time.Now())
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"supply below sold", put(1, supply(1), nil), "supply_below_sold 2 0"},
		{"supply equal to sold", put(1, supply(2), nil), "<nil>"},
		{"after itself", put(2, supply(5), &two), "opens_after_self 0 2"},
		{"after a tier that does not exist", put(2, supply(5), &three), "opens_after_missing 0 3"},
		{"after a tier with a supply", put(2, nil, &one), "<nil>"},
		{"after a tier without a supply", put(3, nil, &two), "opens_after_no_cap 0 2"},
		{"the supply of a tier another opens after", put(1, nil, nil), "supply_needed 0 2"},
		{"after a tier whose supply was removed", put(1, supply(2), &two), "opens_after_no_cap 0 2"},
	} {
		if got := rule(tc.err); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
	if err := put(2, supply(5), &one); err != nil {
		t.Fatal(err)
	}
	if got := rule(put(1, supply(2), &two)); got != "opens_after_cycle 0 2" {
		t.Errorf("a cycle: %s", got)
	}
	if err := put(3, supply(1), &two); err != nil {
		t.Fatal(err)
	}
	if got := rule(put(1, supply(2), &three)); got != "opens_after_cycle 0 3" {
		t.Errorf("a cycle through another tier: %s", got)
	}
}
