package jobs

import (
	"strings"
	"testing"
)

func TestDriftReport(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.pay(0, e.dc.Payments, priceOne)
	e.pay(1, e.dc.Payments, priceOne)
	mustPass(t, e.j)

	rep, err := e.j.Drift(t.Context(), 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Checked != 2 || len(rep.Nodes) != 0 || len(rep.Payments) != 0 || rep.NextFrom != 0 {
		t.Fatalf("a ledger in line with the chain: %+v", rep)
	}

	mustExec(t, e.db, `UPDATE nodes SET balance_wei = 5, owner = $1 WHERE id = 2`, strings.ToLower(e.buyer(3).Hex()))
	// A payment minted in a block the chain has replaced since (a reorg deeper than the
	// confirmations): the drift report names it.
	fake := "0x" + strings.Repeat("cd", 32)
	mustExec(t, e.db, `UPDATE payments SET block_hash = $1 WHERE from_address = $2`, fake, strings.ToLower(e.buyer(0).Hex()))

	rep, err = e.j.Drift(t.Context(), 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Checked != 1 || rep.NextFrom == 0 || len(rep.Nodes) != 0 {
		t.Fatalf("first page of one: %+v", rep)
	}
	if len(rep.Payments) != 1 || rep.Payments[0].LedgerHash != fake || rep.Payments[0].ChainHash == fake {
		t.Fatalf("payment drift %+v", rep.Payments)
	}
	rep, err = e.j.Drift(t.Context(), rep.NextFrom, 1)
	if err != nil {
		t.Fatal(err)
	}
	fields := map[string]string{}
	for _, d := range rep.Nodes {
		fields[d.Field] = d.Ledger + " vs " + d.Chain
	}
	if len(fields) != 2 || fields["balanceWei"] != "5 vs 0" || !strings.Contains(fields["owner"], strings.ToLower(e.buyer(1).Hex())) {
		t.Fatalf("node drift %v", fields)
	}
}
