package web

import (
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/crypto"

	"nodeledger/store"
)

// TestSettingsLogRoute: GET /api/admin/settings-log pages through the log, each page checking
// against the one before; a binding made over the API carries the sign-in of the session that
// made it, and its signature recovers to the wallet bound.
func TestSettingsLogRoute(t *testing.T) {
	t.Parallel()
	_, dc, s := newBindServer(t)
	buyer := dc.Buyers[0].Key
	b := newBrowser(t, s, "203.0.113.31")
	b.signIn(buyer)
	wantStatus(t, b.do(http.MethodPost, "/api/referrals/bind", map[string]string{"code": "Pal10"}), http.StatusOK)

	type page struct {
		Entries []store.LogEntry `json:"entries"`
		After   int64            `json:"after"`
	}
	get := func(query string) page {
		rec := s.adminDo(t, http.MethodGet, "/api/admin/settings-log"+query, "", adminKey)
		wantStatus(t, rec, http.StatusOK)
		return decode[page](t, rec)
	}
	all := get("")
	var kinds []store.LogKind
	for _, e := range all.Entries {
		kinds = append(kinds, e.Kind)
	}
	if len(kinds) != 3 || kinds[0] != store.LogTier || kinds[1] != store.LogReferralCode || kinds[2] != store.LogBinding || all.After != 3 {
		t.Fatalf("the log: %v, after %d", kinds, all.After)
	}
	if _, err := store.CheckLog(0, store.GenesisHash, all.Entries); err != nil {
		t.Fatal(err)
	}
	var binding struct {
		Wallet    string `json:"wallet"`
		Code      string `json:"code"`
		Message   string `json:"sign_in_message"`
		Signature string `json:"sign_in_signature"`
	}
	if err := json.Unmarshal(all.Entries[2].Body, &binding); err != nil {
		t.Fatal(err)
	}
	sig, err := hex.DecodeString(strings.TrimPrefix(binding.Signature, `\x`))
	if err != nil || len(sig) != 65 || !strings.Contains(binding.Message, "wants you to sign in") {
		t.Fatalf("the binding's sign-in: %+v (%v)", binding, err)
	}
	sig[64] -= 27
	pub, err := crypto.SigToPub(accounts.TextHash([]byte(binding.Message)), sig)
	if err != nil || !strings.EqualFold(crypto.PubkeyToAddress(*pub).Hex(), binding.Wallet) || binding.Wallet != addrOf(buyer) || binding.Code != "pal10" {
		t.Fatalf("the binding's signature recovers to %v (%v); the binding %+v", pub, err, binding)
	}

	next := get("?after=1&limit=1")
	if len(next.Entries) != 1 || next.Entries[0].Seq != 2 || next.After != 2 {
		t.Fatalf("after 1, one: %+v", next)
	}
	if _, err := store.CheckLog(1, all.Entries[0].Hash, next.Entries); err != nil {
		t.Fatal(err)
	}
	if end := get("?after=3"); len(end.Entries) != 0 || end.After != 3 {
		t.Fatalf("after the last: %+v", end)
	}
	for _, q := range []string{"?after=-1", "?after=x", "?limit=0", "?limit=1001"} {
		wantStatus(t, s.adminDo(t, http.MethodGet, "/api/admin/settings-log"+q, "", adminKey), http.StatusBadRequest)
	}
	wantStatus(t, s.adminDo(t, http.MethodGet, "/api/admin/settings-log", "", "wrong"), http.StatusUnauthorized)
}
