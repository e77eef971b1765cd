package store_test

import (
	"testing"

	"nodeledger/store"
	"nodeledger/store/storetest"
)

func TestSeedOperators(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	ctx := t.Context()
	const a, b, c = "0x00000000000000000000000000000000000000a1", "0x00000000000000000000000000000000000000b2", "0x00000000000000000000000000000000000000c3"
	by := store.Actor{Who: "setting OPERATORS"}
	list := func() map[string]store.OperatorRole {
		ops, err := db.Operators(ctx)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]store.OperatorRole{}
		for _, o := range ops {
			m[o.Address] = o.Role
		}
		return m
	}
	audited := func() int {
		rs, err := db.AuditLog(ctx, 1000)
		if err != nil {
			t.Fatal(err)
		}
		return len(rs)
	}

	if err := db.SeedOperators(ctx, []store.Operator{{Address: a, Role: store.RoleAdmin}, {Address: b, Role: store.RoleViewer}}, by); err != nil {
		t.Fatal(err)
	}
	// An operator an admin added from the page.
	if err := db.Audited(ctx, store.AuditEntry{Actor: store.Actor{Who: a}, Action: store.ActionOperatorPut, Target: c,
		Outcome: store.AuditOutcome{Code: store.OutcomeOperatorAdded, Args: store.AuditArgs{Address: c, Role: store.RoleOperator}}}, func(tx store.Tx, _ *store.AuditEntry) error {
		return tx.PutOperator(ctx, store.Operator{Address: c, Role: store.RoleOperator})
	}); err != nil {
		t.Fatal(err)
	}
	if n := audited(); n != 3 {
		t.Fatalf("%d audit entries", n)
	}
	t.Run("a start with the same setting changes nothing", func(t *testing.T) {
		if err := db.SeedOperators(ctx, []store.Operator{{Address: a, Role: store.RoleAdmin}, {Address: b, Role: store.RoleViewer}}, by); err != nil {
			t.Fatal(err)
		}
		if n := audited(); n != 3 {
			t.Fatalf("%d audit entries", n)
		}
	})
	t.Run("the setting's roles win, its dropped entries go, the page's stay", func(t *testing.T) {
		if err := db.SeedOperators(ctx, []store.Operator{{Address: b, Role: store.RoleOperator}}, by); err != nil {
			t.Fatal(err)
		}
		got := list()
		if len(got) != 2 || got[b] != store.RoleOperator || got[c] != store.RoleOperator {
			t.Fatalf("operators %v", got)
		}
		rs, _ := db.AuditLog(ctx, 2)
		if rs[0].Action != "operator.remove" || rs[0].Target != a || rs[0].Actor != "setting OPERATORS" || rs[1].Action != "operator.put" || rs[1].Target != b {
			t.Fatalf("audit %+v", rs)
		}
	})
}
