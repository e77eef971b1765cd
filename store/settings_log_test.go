package store_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"nodeledger/store"
	"nodeledger/store/storetest"
)

// logEntries is every entry of the log, in order.
func logEntries(t *testing.T, db *store.Store) []store.LogEntry {
	t.Helper()
	entries, err := db.SettingsLog(context.Background(), 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// change runs f in a transaction, as an operator's change runs.
func change(t *testing.T, db *store.Store, f func(tx store.Tx) error) {
	t.Helper()
	if err := db.Audited(context.Background(), store.AuditEntry{Actor: store.Actor{Who: "test"}, Action: store.ActionTierPut,
		Outcome: store.AuditOutcome{Code: store.OutcomeTierSaved}}, func(tx store.Tx, _ *store.AuditEntry) error { return f(tx) }); err != nil {
		t.Fatal(err)
	}
}

// TestSettingsLog: every decision a judgement depends on (a tier's version, an allowlist with its
// entries, a referral code's version, a binding with the sign-in that made it, minting held and
// resumed, the deployment's settings when they change) lands in the log in the transaction that
// made it, each entry chained to the one before by its hash; the log refuses to be changed.
func TestSettingsLog(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	ctx := context.Background()
	const wallet = "0x00000000000000000000000000000000000a11ce"

	storetest.Tier(t, db, 1, "Small", "100", true)
	change(t, db, func(tx store.Tx) error {
		_, err := tx.ReplaceAllowlist(ctx, 1, []store.AllowlistEntry{
			{Address: "0x00000000000000000000000000000000000000b2", Allocation: 2},
			{Address: "0x00000000000000000000000000000000000000a1", Allocation: 1}})
		return err
	})
	change(t, db, func(tx store.Tx) error {
		_, err := tx.AddReferralCode(ctx, store.ReferralCode{Code: "Alice5", Owner: wallet, DiscountBps: 500, CommissionBps: 300, Enabled: true}, "test")
		return err
	})
	if _, err := db.Bind(ctx, "0x00000000000000000000000000000000000b0b00", "alice5", 7,
		store.SignIn{Message: "example.com wants you to sign in", Signature: []byte{1, 2, 3}}); err != nil {
		t.Fatal(err)
	}
	for _, held := range []bool{true, true, false} { // the second hold changes nothing
		if err := db.HoldMinting(ctx, held); err != nil {
			t.Fatal(err)
		}
	}
	d := store.Deployment{ChainID: 1337, Factory: "0x00000000000000000000000000000000000fac70", PaymentsWallet: wallet, Confirmations: 5}
	for i, want := range []bool{true, false, true} { // the same settings again add nothing; a change does
		if i == 2 {
			d.Confirmations = 12
		}
		if logged, err := db.LogDeployment(ctx, d); err != nil || logged != want {
			t.Fatalf("deployment %d: logged %v (%v), want %v", i, logged, err, want)
		}
	}

	entries := logEntries(t, db)
	var kinds []store.LogKind
	for _, e := range entries {
		kinds = append(kinds, e.Kind)
	}
	want := []store.LogKind{store.LogTier, store.LogAllowlist, store.LogReferralCode, store.LogBinding, store.LogSetting, store.LogSetting,
		store.LogDeployment, store.LogDeployment}
	if !slices.Equal(kinds, want) {
		t.Fatalf("the log holds %v, want %v", kinds, want)
	}
	if _, err := store.CheckLog(0, store.GenesisHash, entries); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		seq  int
		want string
	}{
		{1, `"price_wei": 100`},
		{2, `"entries": [["0x00000000000000000000000000000000000000a1", 1], ["0x00000000000000000000000000000000000000b2", 2]]`},
		{3, `"discount_bps": 500`},
		{4, `"sign_in_message": "example.com wants you to sign in"`},
		{4, `"head_block": 7`},
		{5, `"value": true`},
		{6, `"value": false`},
		{8, `"confirmations": 12`},
	} {
		if e := entries[c.seq-1]; !strings.Contains(e.Entry, c.want) {
			t.Errorf("entry %d (%s) lacks %s: %s", c.seq, e.Kind, c.want, e.Entry)
		}
	}

	t.Run("a page checks against the one before", func(t *testing.T) {
		page, err := db.SettingsLog(ctx, 3, 2)
		if err != nil || len(page) != 2 || page[0].Seq != 4 {
			t.Fatalf("%+v, %v", page, err)
		}
		if _, err := store.CheckLog(3, entries[2].Hash, page); err != nil {
			t.Fatal(err)
		}
		if _, err := store.CheckLog(3, entries[1].Hash, page); err == nil {
			t.Fatal("a page checked against the wrong hash held")
		}
	})
	t.Run("append-only", func(t *testing.T) {
		for _, stmt := range []string{`UPDATE settings_log SET kind = 'tier' WHERE seq = 5`, `DELETE FROM settings_log WHERE seq = 8`, `TRUNCATE settings_log`} {
			if _, err := db.DB().Exec(stmt); err == nil || !strings.Contains(err.Error(), "append-only") {
				t.Errorf("%s: %v", stmt, err)
			}
		}
	})
}

// TestSettingsLogTampered: a log changed behind the triggers' back fails its check at the entry
// changed, whatever was changed.
func TestSettingsLogTampered(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, sql string
		seq       int64
	}{
		{"a body changed", `UPDATE settings_log SET body = jsonb_set(body, '{price_wei}', '1') WHERE seq = 2`, 2},
		{"an entry's text changed", `UPDATE settings_log SET entry = replace(entry, '"price_wei": 200', '"price_wei": 1') WHERE seq = 2`, 2},
		{"an entry rewritten with its hash", `UPDATE settings_log SET entry = replace(entry, '"price_wei": 200', '"price_wei": 1'),
			body = jsonb_set(body, '{price_wei}', '1'), hash = sha256(prev_hash || convert_to(replace(entry, '"price_wei": 200', '"price_wei": 1'), 'UTF8'))
			WHERE seq = 2`, 3},
		{"an entry deleted", `DELETE FROM settings_log WHERE seq = 2`, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			db := storetest.New(t)
			for i, price := range []string{"100", "200", "300"} {
				storetest.Tier(t, db, i+1, fmt.Sprint("Tier ", i), price, true)
			}
			if _, err := store.CheckLog(0, store.GenesisHash, logEntries(t, db)); err != nil {
				t.Fatal(err)
			}
			if _, err := db.DB().Exec(`ALTER TABLE settings_log DISABLE TRIGGER settings_log_append_only; ` + c.sql); err != nil {
				t.Fatal(err)
			}
			var broken *store.BrokenLogError
			if _, err := store.CheckLog(0, store.GenesisHash, logEntries(t, db)); !errors.As(err, &broken) || broken.Seq != c.seq {
				t.Fatalf("got %v, want entry %d named", err, c.seq)
			}
		})
	}
}

// TestSettingsLogConcurrent: changes made at once each take the next place, instances starting
// together with the same settings log them once, and the log stays one chain.
func TestSettingsLogConcurrent(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	var wg sync.WaitGroup
	var starts sync.Map
	d := store.Deployment{ChainID: 1337, Factory: "0x00000000000000000000000000000000000fac70", Confirmations: 5}
	for i := range 20 {
		wg.Go(func() {
			if _, err := db.Bind(context.Background(), fmt.Sprintf("0x%040x", i+1), "somecode", 1, store.SignIn{}); err != nil {
				t.Error(err)
			}
		})
		wg.Go(func() {
			logged, err := db.LogDeployment(context.Background(), d)
			if err != nil {
				t.Error(err)
			}
			starts.Store(i, logged)
		})
	}
	wg.Wait()
	logged := 0
	starts.Range(func(_, v any) bool {
		if v.(bool) {
			logged++
		}
		return true
	})
	entries := logEntries(t, db)
	if len(entries) != 21 || logged != 1 {
		t.Fatalf("%d entries for 20 bindings and 20 starts, %d starts logged their settings", len(entries), logged)
	}
	if _, err := store.CheckLog(0, store.GenesisHash, entries); err != nil {
		t.Fatal(err)
	}
}
