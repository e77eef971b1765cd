package web

import (
	"encoding/hex"
	"net/http"
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
