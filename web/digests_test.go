package web

import (
	"encoding/hex"
	"net/http"
	"strings"
	"testing"

	"nodeledger/handlers"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// TestLedgerDigestsRoute: GET /api/ledger/digests gives the stored digests of a range of at most
// 1,000 blocks (by default the 1,000 up to the last digested), says how far the digests go, and
// refuses a range it cannot give with a 400 that says what it takes.
func TestLedgerDigestsRoute(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{})

	rec := s.get(t, "/api/ledger/digests")
	wantStatus(t, rec, http.StatusOK)
	if got := decode[[]map[string]any](t, rec); len(got) != 0 || rec.Header().Get("x-ledger-digested-to") != "" {
		t.Fatalf("before any digest: %v, digested to %q", got, rec.Header().Get("x-ledger-digested-to"))
	}

	hash := func(b byte) string { return "0x" + hex.EncodeToString(append(make([]byte, 31), b)) }
	events := []store.LedgerEvent{
		{Block: 5, Kind: "payment", Key: "a", Line: `{"kind": "payment"}`},
		{Block: 1500, Kind: "payment", Key: "b", Line: `{"kind": "payment"}`},
		{Block: 1500, Kind: "node", Key: "1", Line: `{"kind": "node"}`},
	}
	digests := store.Digests(make([]byte, 32), events, map[int64]string{5: hash(5), 1500: hash(0x15)})
	if err := db.AppendDigests(t.Context(), digests, 2000, hash(0x20)); err != nil {
		t.Fatal(err)
	}
	type digest struct {
		Block     int64  `json:"block"`
		BlockHash string `json:"blockHash"`
		Events    int    `json:"events"`
		Digest    string `json:"digest"`
	}
	for _, tc := range []struct {
		query string
		want  []int64
	}{{"", []int64{1500}}, {"?from=0&to=999", []int64{5}}, {"?to=1000", []int64{5}}, {"?from=5&to=5", []int64{5}},
		{"?from=6&to=1005", nil}, {"?from=1001", []int64{1500}}} {
		rec := s.get(t, "/api/ledger/digests"+tc.query)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", tc.query, rec.Code, rec.Body)
		}
		got := decode[[]digest](t, rec)
		if len(got) != len(tc.want) || rec.Header().Get("x-ledger-digested-to") != "2000" {
			t.Fatalf("%s: %+v, digested to %q", tc.query, got, rec.Header().Get("x-ledger-digested-to"))
		}
		for i, d := range got {
			want := digests[0]
			if tc.want[i] == 1500 {
				want = digests[1]
			}
			if d.Block != tc.want[i] || d.BlockHash != want.BlockHash || d.Events != want.Events || d.Digest != "0x"+hex.EncodeToString(want.Digest) {
				t.Errorf("%s: %+v, want %+v", tc.query, d, want)
			}
		}
	}
	for _, query := range []string{"?from=0&to=1000", "?from=10&to=5", "?to=abc", "?from=-1", "?to=1e3", "?from=", "?to=99999999999999999999"} {
		rec := s.get(t, "/api/ledger/digests"+query)
		wantStatus(t, rec, http.StatusBadRequest)
		if got := decode[map[string]string](t, rec)["error"]; got != "from and to must be block numbers (whole numbers), from no more than to, at most 1000 blocks apart." {
			t.Errorf("%s: %q", query, got)
		}
	}
}

// TestHealthSaysTheLedgerDiffers: /api/cron/health gives how far the continuous verifier has
// verified the ledger, and is degraded with ledger_mismatch, naming the block and the command that
// says more, while the ledger differs from its rebuild; the health page says it too.
func TestHealthSaysTheLedgerDiffers(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{DistMode: "fixed", TickSec: 60, StaleAfterSec: 300})
	type body struct {
		VerifiedToBlock *int64 `json:"verifiedToBlock"`
		DegradedReasons []struct {
			Code   string `json:"code"`
			Reason string `json:"reason"`
		} `json:"degradedReasons"`
	}
	health := func() body {
		t.Helper()
		rec := s.get(t, "/api/cron/health")
		wantStatus(t, rec, http.StatusOK)
		return decode[body](t, rec)
	}
	if h := health(); h.VerifiedToBlock != nil || len(h.DegradedReasons) != 0 && h.DegradedReasons[0].Code == "ledger_mismatch" {
		t.Fatalf("before any verify: %+v", h)
	}
	to, at := int64(1233), int64(1234)
	if err := db.SaveVerification(t.Context(), store.Verification{VerifiedTo: &to, MismatchBlock: &at,
		Mismatch: []store.EventDiff{{Block: at, Kind: "payment", Key: "0xab/0/-", Live: "{}", Rebuilt: ""}}}); err != nil {
		t.Fatal(err)
	}
	h := health()
	const want = "The ledger differs from its rebuild from the chain and the settings log at block 1,234: `nodeledger verify --from 1234 --to 1234` names each event that differs."
	var found bool
	for _, r := range h.DegradedReasons {
		found = found || r.Code == "ledger_mismatch" && r.Reason == want
	}
	if h.VerifiedToBlock == nil || *h.VerifiedToBlock != to || !found {
		t.Fatalf("a mismatch at block %d: %+v", at, h)
	}
	if page := s.get(t, "/health").Body.String(); !strings.Contains(page, "differs from its rebuild from the chain and the settings log at block 1,234") {
		t.Fatal("the health page does not say the ledger differs")
	}
}
