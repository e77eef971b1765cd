package web

import (
	"math/big"
	"net/http"
	"strings"
	"testing"

	"nodeledger/chain/devchain"
	"nodeledger/handlers"
	"nodeledger/store/storetest"
)

// TestAdminTreasury: GET /api/admin/treasury reads the Safe and the payments wallet from the
// chain; without TREASURY_ADDRESS it does not exist (404), and a chain that cannot be read is a
// 503, never a zero balance.
func TestAdminTreasury(t *testing.T) {
	storetest.Reset(t, db)
	dc, c := startDevChain(t)
	s := newChainServer(t, c, nil, handlers.Config{AdminKey: adminKey, Treasury: dc.Treasury, PaymentAddress: strings.ToLower(dc.Payments.Hex())})
	rec := s.adminDo(t, http.MethodGet, "/api/admin/treasury", "", adminKey)
	wantStatus(t, rec, http.StatusOK)
	got := decode[struct {
		Address        string   `json:"address"`
		Owners         []string `json:"owners"`
		Threshold      int      `json:"threshold"`
		Nonce          string   `json:"nonce"`
		BalanceWei     string   `json:"balanceWei"`
		PaymentsWallet struct {
			Address    string  `json:"address"`
			BalanceWei *string `json:"balanceWei"`
		} `json:"paymentsWallet"`
		LastSweep *struct{} `json:"lastSweep"`
	}](t, rec)
	var owners []string
	for _, i := range devchain.TreasuryOwnerIndexes {
		owners = append(owners, strings.ToLower(dc.Accounts[i].Address.Hex()))
	}
	held, err := c.Balance(t.Context(), dc.Payments)
	if err != nil {
		t.Fatal(err)
	}
	if got.Address != strings.ToLower(dc.Treasury.Hex()) || len(got.Owners) != 3 || got.Threshold != devchain.TreasuryThreshold ||
		got.Nonce != "0" || got.BalanceWei != "0" || got.LastSweep != nil ||
		got.PaymentsWallet.Address != strings.ToLower(dc.Payments.Hex()) || got.PaymentsWallet.BalanceWei == nil ||
		*got.PaymentsWallet.BalanceWei != held.String() || held.Cmp(big.NewInt(0)) <= 0 {
		t.Fatalf("%+v", got)
	}
	for _, o := range owners {
		if !strings.Contains(strings.Join(got.Owners, " "), o) {
			t.Fatalf("owners %v, want %v", got.Owners, owners)
		}
	}

	t.Run("on the operator page", func(t *testing.T) {
		rec := signedInOperator(t, s).do(http.MethodGet, "/operator", nil)
		wantStatus(t, rec, http.StatusOK)
		doc := page(t, rec.Body)
		card := text(doc, "treasury")
		if !strings.Contains(card, "2 of its 3 owners approve each of its transactions") || !strings.Contains(card, "It holds 0 ETH") ||
			!strings.Contains(text(doc, "payments-balance"), "10") {
			t.Fatalf("the card says %q", card)
		}
		for _, o := range owners {
			if !strings.Contains(text(doc, "treasury-owners"), o) {
				t.Fatalf("owner %s missing from %q", o, text(doc, "treasury-owners"))
			}
		}
	})
	t.Run("no treasury", func(t *testing.T) {
		s := newChainServer(t, c, nil, handlers.Config{AdminKey: adminKey})
		rec := s.adminDo(t, http.MethodGet, "/api/admin/treasury", "", adminKey)
		wantStatus(t, rec, http.StatusNotFound)
		if got := errorMessage(t, rec); !strings.Contains(got, "TREASURY_ADDRESS") {
			t.Fatalf("%q", got)
		}
		page := page(t, signedInOperator(t, s).do(http.MethodGet, "/operator", nil).Body)
		if got := text(page, "treasury-none"); !strings.Contains(got, "TREASURY_ADDRESS") {
			t.Fatalf("the page says %q", got)
		}
	})
	t.Run("the chain cannot be read", func(t *testing.T) {
		s := newServer(t, handlers.Config{AdminKey: adminKey, Treasury: dc.Treasury})
		wantStatus(t, s.adminDo(t, http.MethodGet, "/api/admin/treasury", "", adminKey), http.StatusServiceUnavailable)
	})
	t.Run("without the admin key", func(t *testing.T) {
		wantStatus(t, s.adminDo(t, http.MethodGet, "/api/admin/treasury", "", "wrong"), http.StatusUnauthorized)
	})
}
