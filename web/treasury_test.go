package web

import (
	"log/slog"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"nodeledger/chain"
	"nodeledger/chain/devchain"
	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/store"
	"nodeledger/store/storetest"
	"nodeledger/views"
)

// TestAdminTreasury: GET /api/admin/treasury reads the Safe and the payments wallet from the
// chain; without TREASURY_ADDRESS it does not exist (404), and a chain that cannot be read is a
// 503, never a zero balance.
func TestAdminTreasury(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	dc, c := startDevChain(t)
	s := newChainServer(t, db, c, nil, handlers.Config{AdminKey: adminKey, Treasury: dc.Treasury, PaymentAddress: strings.ToLower(dc.Payments.Hex())})
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
		// No owner is on the operator list here (the signed-in operator is no owner): each is
		// flagged, as one who signs in as a signer, for batches only.
		if n := doc.Find(`[data-testid=treasury-owners] [data-testid=owner-not-listed]`).Length(); n != len(owners) {
			t.Fatalf("%d owners flagged as unable to sign in, want %d", n, len(owners))
		}
		mustExec(t, db, `INSERT INTO operators (address, role) VALUES ($1, 'viewer')`, owners[0])
		rec = signedInOperator(t, s).do(http.MethodGet, "/operator", nil)
		doc = page(t, rec.Body)
		listed := doc.Find(`[data-testid=treasury-owners] li`).FilterFunction(func(_ int, li *goquery.Selection) bool {
			return strings.Contains(li.Text(), owners[0])
		})
		if n := doc.Find(`[data-testid=treasury-owners] [data-testid=owner-not-listed]`).Length(); n != len(owners)-1 ||
			listed.Find(`[data-testid=owner-not-listed]`).Length() != 0 {
			t.Fatalf("after an owner was listed, %d flagged (the listed one: %q)", n, listed.Text())
		}
		// What the treasury owes referrers is on its card (none yet: operator_referrals_test.go
		// has some).
		if got := strings.Join(strings.Fields(doc.Find(`[data-testid=treasury] [data-testid=commissions-owed]`).Text()), " "); got != "Commissions owed: 0 ETH." {
			t.Fatalf("the card's commissions %q", got)
		}
	})
	t.Run("after a sweep", func(t *testing.T) {
		cfg := jobs.Config{ChainID: dc.ChainID(), PaymentAddress: dc.Payments, Treasury: dc.Treasury,
			Sweep: jobs.SweepConfig{Signer: chain.LocalSigner(dc.Accounts[devchain.PaymentsIndex].Key), EveryBlocks: 1}}
		j := jobs.New(db, c, nil, nil, cfg, slog.New(slog.DiscardHandler))
		s := newChainServer(t, db, c, j, handlers.Config{AdminKey: adminKey, Treasury: dc.Treasury, PaymentAddress: strings.ToLower(dc.Payments.Hex()),
			DistMode: store.DistFixed})
		before := page(t, signedInOperator(t, s).do(http.MethodGet, "/operator", nil).Body)
		if got := text(before, "treasury-sweeps"); !strings.Contains(got, "no sweep yet") {
			t.Fatalf("before any sweep the card says %q", got)
		}
		var sent *store.Sweep
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			sum, err := j.Sweep(t.Context())
			if err != nil || time.Now().After(deadline) {
				t.Fatalf("sweep: %+v, %v", sum, err)
			}
			if sent == nil {
				sent = sum.Sent
			}
			if sum.Settled != nil {
				break
			}
		}
		rec := s.adminDo(t, http.MethodGet, "/api/admin/treasury", "", adminKey)
		wantStatus(t, rec, http.StatusOK)
		got := decode[struct {
			BalanceWei string `json:"balanceWei"`
			LastSweep  *struct {
				TxHash      string `json:"txHash"`
				BlockNumber int64  `json:"blockNumber"`
				AmountWei   string `json:"amountWei"`
			} `json:"lastSweep"`
		}](t, rec)
		if sent == nil || got.LastSweep == nil || got.LastSweep.TxHash != sent.TxHash || got.LastSweep.AmountWei != sent.AmountWei.String() ||
			got.LastSweep.BlockNumber <= 0 || got.BalanceWei != sent.AmountWei.String() {
			t.Fatalf("treasury %+v after sweep %+v", got, sent)
		}
		after := page(t, signedInOperator(t, s).do(http.MethodGet, "/operator", nil).Body)
		if got := text(after, "treasury-sweeps"); !strings.Contains(got, "Last swept: "+views.ReadableETH(sent.AmountWei)+" ETH in block") {
			t.Fatalf("after the sweep the card says %q", got)
		}
		health := decode[struct {
			Sweeps struct {
				Enabled   bool `json:"enabled"`
				LastSweep *struct {
					TxHash string `json:"txHash"`
				} `json:"lastSweep"`
			} `json:"sweeps"`
		}](t, s.get(t, "/api/cron/health"))
		if !health.Sweeps.Enabled || health.Sweeps.LastSweep == nil || health.Sweeps.LastSweep.TxHash != sent.TxHash {
			t.Fatalf("health's sweeps %+v", health.Sweeps)
		}

		// The wallet has held more than SWEEP_MIN_WEI since block 0, over 2 × SWEEP_EVERY_BLOCKS ago.
		if _, err := db.DB().Exec(`UPDATE sweep_watch SET over_min_since = 0`); err != nil {
			t.Fatal(err)
		}
		for dc.Commit(); ; dc.Commit() {
			if head, err := c.HeadNumber(t.Context()); err != nil || head > 2 {
				break
			}
		}
		type reason struct {
			Code   string `json:"code"`
			Reason string `json:"reason"`
		}
		degraded := decode[struct {
			Degraded bool     `json:"degraded"`
			Reasons  []reason `json:"degradedReasons"`
		}](t, s.get(t, "/api/cron/health"))
		if !degraded.Degraded || !slices.ContainsFunc(degraded.Reasons, func(r reason) bool {
			return r.Code == "sweeps_overdue" && strings.Contains(r.Reason, "since block 0")
		}) {
			t.Fatalf("health %+v, want sweeps_overdue", degraded)
		}
	})
	t.Run("no treasury", func(t *testing.T) {
		s := newChainServer(t, db, c, nil, handlers.Config{AdminKey: adminKey})
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
		s := newServer(t, db, handlers.Config{AdminKey: adminKey, Treasury: dc.Treasury})
		wantStatus(t, s.adminDo(t, http.MethodGet, "/api/admin/treasury", "", adminKey), http.StatusServiceUnavailable)
	})
	t.Run("without the admin key", func(t *testing.T) {
		wantStatus(t, s.adminDo(t, http.MethodGet, "/api/admin/treasury", "", "wrong"), http.StatusUnauthorized)
	})
}
