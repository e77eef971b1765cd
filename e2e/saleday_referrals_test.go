package e2e

import (
	"bytes"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
)

// A sale day's referral code: three wallets in ten pay under it (issue 35: 30 % of the payments
// coded), 5 % off, 3 % to its owner and 1 % to the partner above.
const (
	saleCode        = "SaleDay"
	saleDiscountBps = 500
	saleOwnerBps    = 300
	saleParentBps   = 100
)

// coded tells a wallet bound to the sale's code.
func coded(wallet int) bool { return wallet%10 < 3 }

// price is what a payment pays, in its currency: its tier's price in it, less the code's discount
// when a coded wallet pays (in ETH or in USDC alike), or an amount no tier has.
func price(pay *salePayment) *big.Int {
	switch {
	case pay.usdc && pay.tier == tierBad:
		return usdcBadAmount
	case pay.tier == tierBad:
		return badAmount
	}
	p := tierPrices[pay.tier]
	if pay.usdc {
		p = usdcPrices[pay.tier]
	}
	if !coded(pay.wallet) {
		return p
	}
	off := new(big.Int).Mul(p, big.NewInt(saleDiscountBps))
	return new(big.Int).Sub(p, off.Quo(off, big.NewInt(10_000)))
}

// bindCodes makes the sale's code through the admin API and binds it to the coded wallets, each
// signed in with its own key, as the buy page's Pay button does.
func (s *saleDay) bindCodes(t *testing.T, in *instance) {
	t.Helper()
	srv := &server{base: "http://" + in.addr}
	_, owner := hexKey(t)
	_, parent := hexKey(t)
	s.referrers = [2]string{owner, parent}
	if status, body := srv.send(t, http.MethodPost, "/api/admin/referral-codes", "X-Admin-Key", adminKey, fmt.Sprintf(
		`{"code": %q, "owner": %q, "discountBps": %d, "commissionBps": %d, "parent": %q, "parentBps": %d}`,
		saleCode, owner, saleDiscountBps, saleOwnerBps, parent, saleParentBps)); status != http.StatusCreated {
		t.Fatalf("making the code: %d %v", status, body)
	}
	for i, b := range s.buyers {
		if coded(i) {
			// Each from an address of its own, as a buyer's browser: the sign-in routes are
			// limited per client.
			c := newClient(100_000 + i).http
			c.Jar, _ = cookiejar.New(nil)
			bindCode(t, srv.base, c, b.key)
		}
	}
}

// bindCode signs in at base as key's wallet through c, which keeps its cookies (Sign-In with
// Ethereum: the nonce's message, signed as personal_sign does), and binds it to the sale's code.
func bindCode(t *testing.T, base string, c *http.Client, key *ecdsa.PrivateKey) {
	t.Helper()
	addr := strings.ToLower(crypto.PubkeyToAddress(key.PublicKey).Hex())
	call := func(method, path string, body any, out any) {
		t.Helper()
		var r io.Reader
		if body != nil {
			b, _ := json.Marshal(body)
			r = bytes.NewReader(b)
		}
		req, _ := http.NewRequest(method, base+path, r)
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			msg, _ := io.ReadAll(resp.Body)
			t.Fatalf("%s %s for %s: %d %s", method, path, addr, resp.StatusCode, msg)
		}
		if out != nil {
			if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
				t.Fatal(err)
			}
		}
	}
	var challenge struct {
		Message string `json:"message"`
	}
	call(http.MethodGet, "/api/auth/nonce?address="+addr, nil, &challenge)
	sig, err := crypto.Sign(accounts.TextHash([]byte(challenge.Message)), key)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += 27
	call(http.MethodPost, "/api/auth/verify", map[string]string{"address": addr, "signature": hexutil.Encode(sig)}, nil)
	call(http.MethodPost, "/api/referrals/bind", map[string]string{"code": saleCode}, nil)
}

// checkCommissions checks the commissions ledger to the base unit: each coded wallet's minted
// payment, in ETH or in USDC, was bought at the discount and earned its code's owner and the
// partner above their parts, once, in the currency paid; no other payment earned anything.
func (s *saleDay) checkCommissions(t *testing.T, r *saleResult) {
	t.Helper()
	var rows []struct {
		From     string `db:"from_address"`
		Value    string `db:"value_wei"`
		Discount string `db:"discount"`
		Owner    string `db:"owner_wei"`
		Parent   string `db:"parent_wei"`
		Rows     int    `db:"rows"`
		InToken  bool   `db:"in_token"`
	}
	if err := s.ledger.DB().SelectContext(t.Context(), &rows, `
		SELECT p.from_address, coalesce(p.amount, p.value_wei)::text AS value_wei, coalesce(r.discount::text, '') AS discount,
			coalesce((SELECT amount::text FROM commissions c WHERE c.payment_id = p.id AND c.role = 'owner' AND c.referrer = $1), '') AS owner_wei,
			coalesce((SELECT amount::text FROM commissions c WHERE c.payment_id = p.id AND c.role = 'parent' AND c.referrer = $2), '') AS parent_wei,
			(SELECT count(*) FROM commissions c WHERE c.payment_id = p.id) AS rows, p.token IS NOT NULL AS in_token
		FROM payments p LEFT JOIN payment_referrals r ON r.payment_id = p.id
		WHERE p.status = 'minted'`, s.referrers[0], s.referrers[1]); err != nil {
		t.Fatal(err)
	}
	codedWallets := map[string]bool{}
	for i, b := range s.buyers {
		codedWallets[strings.ToLower(b.addr.Hex())] = coded(i)
	}
	bps := func(value string, n int64) string {
		v, _ := new(big.Int).SetString(value, 10)
		v.Mul(v, big.NewInt(n))
		return v.Quo(v, big.NewInt(10_000)).String()
	}
	for _, row := range rows {
		want := struct{ discount, owner, parent string }{}
		n := 0
		if codedWallets[row.From] {
			v, _ := new(big.Int).SetString(row.Value, 10)
			full := new(big.Int).Mul(v, big.NewInt(10_000))
			full.Quo(full, big.NewInt(10_000-saleDiscountBps))
			want.discount = new(big.Int).Sub(full, v).String()
			want.owner, want.parent, n = bps(row.Value, saleOwnerBps), bps(row.Value, saleParentBps), 2
			r.coded++
			earned := r.commissionWei
			if row.InToken {
				earned = r.commissionUSDC
			}
			earned.Add(earned, mustInt(want.owner))
			earned.Add(earned, mustInt(want.parent))
		}
		if row.Discount != want.discount || row.Owner != want.owner || row.Parent != want.parent || row.Rows != n {
			r.commissionsWrong++
			r.problem("payment from %s of %s wei: discount %q, owner %q, parent %q in %d rows; want %q, %q, %q in %d",
				row.From, row.Value, row.Discount, row.Owner, row.Parent, row.Rows, want.discount, want.owner, want.parent, n)
		}
	}
}

func mustInt(s string) *big.Int {
	v, _ := new(big.Int).SetString(s, 10)
	return v
}
