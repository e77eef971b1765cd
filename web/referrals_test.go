package web

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"nodeledger/chain/devchain"
	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/jobs/sale"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

type referralCodeBody struct {
	Code          string     `json:"code"`
	Owner         string     `json:"owner"`
	DiscountBps   int        `json:"discountBps"`
	CommissionBps int        `json:"commissionBps"`
	Parent        *string    `json:"parent"`
	ParentBps     *int       `json:"parentBps"`
	ExpiresAt     *time.Time `json:"expiresAt"`
	Enabled       bool       `json:"enabled"`
}

// referralFigures are a code's figures as GET /api/admin/referral-codes lists them.
type referralFigures struct {
	Uses        int    `json:"uses"`
	VolumeWei   string `json:"volumeWei"`
	DiscountWei string `json:"discountWei"`
	OwedWei     string `json:"owedWei"`
	PaidWei     string `json:"paidWei"`
}

type referralListItem struct {
	referralCodeBody
	referralFigures
}

func (r referralListItem) figures() referralFigures { return r.referralFigures }

// usedFigures are what codeUsed makes a code's figures.
var usedFigures = referralFigures{Uses: 2, VolumeWei: "195000000000000000", DiscountWei: "5000000000000000",
	OwedWei: "3325000000000000", PaidWei: "2500000000000000"}

// codeUsed records two minted payments under code (owned by owner, with parent above), as the
// mint records them, with the commissions they earned, one of them paid by an executed treasury
// batch; a rejected payment under the code, which counts for nothing; and a payment under
// another code. The code's figures are then usedFigures:
//   - 0.095 ETH paid at 5 % off 0.1 ETH, written "code": 2.5 % (0.002375 ETH) owed to the
//     owner, 1 % (0.00095 ETH) owed to the parent;
//   - 0.1 ETH, the full price, written in capitals: 2.5 % (0.0025 ETH) to the owner, paid.
func codeUsed(t *testing.T, db *store.Store, code, owner, parent string) {
	t.Helper()
	pay := func(seed, value, status string) (id int64) {
		if err := db.DB().Get(&id, `INSERT INTO payments (tx_hash, payment_ref, from_address, value_wei, block_number, block_hash, status,
				reason_code, reason_args)
			VALUES ($1, $1, $2, $3, 9, $1, $4, CASE WHEN $4 = 'rejected' THEN 'other' END,
				CASE WHEN $4 = 'rejected' THEN '{"text": "sold out"}'::jsonb END) RETURNING id`,
			storetest.TxHash(seed), bob, value, status); err != nil {
			t.Fatal(err)
		}
		return id
	}
	under := func(payment int64, code, discount string, parentBps *int) {
		var p *string
		if parentBps != nil {
			p = &parent
		}
		mustExec(t, db, `INSERT INTO payment_referrals (payment_id, code, discount, owner, commission_bps, parent, parent_bps)
			VALUES ($1, $2, $3, $4, 250, $5, $6)`, payment, code, discount, owner, p, parentBps)
	}
	earn := func(payment int64, role, referrer, amount string) (id int64) {
		if err := db.DB().Get(&id, `INSERT INTO commissions (payment_id, referrer, role, amount) VALUES ($1, $2, $3, $4) RETURNING id`,
			payment, referrer, role, amount); err != nil {
			t.Fatal(err)
		}
		return id
	}
	discounted := pay(code+"-discounted", "95000000000000000", "minted")
	under(discounted, code, "5000000000000000", ptr(100))
	earn(discounted, "owner", owner, "2375000000000000")
	earn(discounted, "parent", parent, "950000000000000")
	full := pay(code+"-full", "100000000000000000", "minted")
	under(full, strings.ToUpper(code), "0", nil)
	paid := earn(full, "owner", owner, "2500000000000000")
	var batch int64
	if err := db.DB().Get(&batch, `
		INSERT INTO treasury_batches (kind, safe, to_address, value_wei, data, operation, safe_tx_gas, base_gas, gas_price,
			gas_token, refund_receiver, nonce, safe_tx_hash, threshold, proposed_by, status, executed_tx, block_number)
		VALUES ('commissions', '0x00000000000000000000000000000000000b0b01', '0x00000000000000000000000000000000000b0b02', 0, '', 1,
			0, 0, 0, '0x0000000000000000000000000000000000000000', '0x0000000000000000000000000000000000000000',
			0, $1, 2, 'test', 'executed', $2, 10) RETURNING id`, storetest.TxHash(code+"-batch"), storetest.TxHash(code+"-paid")); err != nil {
		t.Fatal(err)
	}
	mustExec(t, db, `INSERT INTO treasury_batch_commissions (batch_id, commission_id) VALUES ($1, $2)`, batch, paid)
	under(pay(code+"-rejected", "95000000000000000", "rejected"), code, "5000000000000000", nil)
	other := pay(code+"-other", "1000000000000000000", "minted")
	under(other, "Someone_else", "0", nil)
	earn(other, "owner", parent, "7")
}

type publicReferralBody struct {
	Code        string     `json:"code"`
	Valid       bool       `json:"valid"`
	DiscountBps int        `json:"discountBps"`
	ExpiresAt   *time.Time `json:"expiresAt"`
}

// TestReferralCodes: partner codes made and changed through the admin API, each change audited
// and kept with the second it took effect; the public route tells a code's discount and never
// its owner.
func TestReferralCodes(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	ctx := context.Background()
	c := unreachableChain(t)
	j := jobs.New(db, c, nil, nil, jobs.Config{WalletCodes: sale.WalletCodes{DiscountBps: 300}}, slog.Default())
	s := newChainServer(t, db, c, j, handlers.Config{ChainID: 1, PaymentAddress: payTo, AdminKey: adminKey})
	admin := func(method, target, body string) *httptest.ResponseRecorder {
		return s.adminDo(t, method, "/api/admin/referral-codes"+target, body, adminKey)
	}
	const carol = "0x00000000000000000000000000000000000ca401"
	upper := strings.ToUpper(alice[2:])

	rec := admin(http.MethodPost, "", `{"code": "Alice5", "owner": "0x`+upper+`", "discountBps": 500, "commissionBps": 250,
		"parent": "`+carol+`", "parentBps": 100}`)
	wantStatus(t, rec, http.StatusCreated)
	made := decode[referralCodeBody](t, rec)
	if made.Code != "Alice5" || made.Owner != alice || made.DiscountBps != 500 || made.CommissionBps != 250 ||
		made.Parent == nil || *made.Parent != carol || made.ParentBps == nil || *made.ParentBps != 100 || !made.Enabled || made.ExpiresAt != nil {
		t.Fatalf("stored as %+v", made)
	}

	t.Run("a code that exists, in another case, is refused", func(t *testing.T) {
		rec := admin(http.MethodPost, "", `{"code": "aLICE5", "owner": "`+bob+`", "discountBps": 0, "commissionBps": 0}`)
		wantStatus(t, rec, http.StatusConflict)
		if msg := errorMessage(t, rec); !strings.Contains(msg, "exists already") {
			t.Errorf("%q", msg)
		}
	})

	t.Run("each bad field is told by name", func(t *testing.T) {
		ok := `"owner": "` + bob + `", "discountBps": 100, "commissionBps": 100`
		for body, want := range map[string]string{
			`{"code": "ab", ` + ok + `}`:                                                                                                         "code must be 3 to 32",
			`{"code": "` + strings.Repeat("a", 33) + `", ` + ok + `}`:                                                                            "code must be 3 to 32",
			`{"code": "has space", ` + ok + `}`:                                                                                                  "code must be 3 to 32",
			`{"code": "ünï", ` + ok + `}`:                                                                                                        "code must be 3 to 32",
			`{"code": "Bob_1", "owner": "0x12", "discountBps": 1, "commissionBps": 1}`:                                                           "owner must be a wallet address",
			`{"code": "Bob_1", "owner": "` + bob + `", "discountBps": -1, "commissionBps": 1}`:                                                   "discountBps must be a whole number",
			`{"code": "Bob_1", "owner": "` + bob + `", "discountBps": 1.5, "commissionBps": 1}`:                                                  "discountBps must be a whole number",
			`{"code": "Bob_1", "owner": "` + bob + `", "discountBps": "5", "commissionBps": 1}`:                                                  "discountBps must be a whole number",
			`{"code": "Bob_1", "owner": "` + bob + `", "discountBps": 1}`:                                                                        "commissionBps must be a whole number",
			`{"code": "Bob_1", ` + ok + `, "parent": "` + carol + `"}`:                                                                           "parent needs parentBps",
			`{"code": "Bob_1", ` + ok + `, "parentBps": 10}`:                                                                                     "parentBps needs a parent",
			`{"code": "Bob_1", ` + ok + `, "parent": "nope", "parentBps": 10}`:                                                                   "parent must be a wallet address",
			`{"code": "Bob_1", ` + ok + `, "parent": "` + bob + `", "parentBps": 10}`:                                                            "parent must be another wallet than the owner",
			`{"code": "Bob_1", ` + ok + `, "parent": "` + carol + `", "parentBps": -3}`:                                                          "parentBps must be a whole number",
			`{"code": "Bob_1", "owner": "` + bob + `", "discountBps": 2500, "commissionBps": 2000, "parent": "` + carol + `", "parentBps": 501}`: "together are 5001 bps: they may take at most 5000 bps (50 %) of the price",
			`{"code": "Bob_1", ` + ok + `, "expiresAt": "tomorrow"}`:                                                                             "expiresAt must be a time in ISO 8601",
			`{"code": "Bob_1", ` + ok + `, "expiresAt": "2026-12-01 12:00"}`:                                                                     "expiresAt must be a time in ISO 8601",
			`{"code": "Bob_1", ` + ok + `, "nope": 1}`:                                                                                           "only the documented fields",
		} {
			rec := admin(http.MethodPost, "", body)
			wantStatus(t, rec, http.StatusBadRequest)
			if msg := errorMessage(t, rec); !strings.Contains(msg, want) {
				t.Errorf("%s: %q, want it to say %q", body, msg, want)
			}
		}
		// Exactly half is allowed.
		wantStatus(t, admin(http.MethodPost, "", `{"code": "Half", "owner": "`+bob+`", "discountBps": 2500, "commissionBps": 2000,
			"parent": "`+carol+`", "parentBps": 500, "expiresAt": "2030-01-01T02:00:00+02:00"}`), http.StatusCreated)
		got, err := db.ReferralCode(ctx, "half")
		if err != nil || got.ExpiresAt == nil || !got.ExpiresAt.Equal(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)) {
			t.Fatalf("%+v %v", got, err)
		}
	})

	t.Run("a change applies from its second; the history keeps the terms before", func(t *testing.T) {
		// The code was made an hour ago, as far as the history knows.
		if _, err := db.DB().Exec(`UPDATE referral_code_versions SET effective_at = effective_at - interval '1 hour' WHERE key = 'alice5'`); err != nil {
			t.Fatal(err)
		}
		rec := admin(http.MethodPut, "/ALICE5", `{"owner": "`+alice+`", "discountBps": 800, "commissionBps": 400, "enabled": false}`)
		wantStatus(t, rec, http.StatusOK)
		after := decode[referralCodeBody](t, rec)
		if after.Code != "Alice5" || after.DiscountBps != 800 || after.CommissionBps != 400 || after.Parent != nil || after.ParentBps != nil || after.Enabled {
			t.Fatalf("after the change: %+v", after)
		}
		then, err := db.ReferralCodeAt(ctx, "alice5", time.Now().Add(-30*time.Minute))
		if err != nil || then.DiscountBps != 500 || then.CommissionBps != 250 || then.ParentBps == nil || *then.ParentBps != 100 || !then.Enabled {
			t.Fatalf("half an hour ago: %+v %v", then, err)
		}
		now, err := db.ReferralCodeAt(ctx, "Alice5", time.Now())
		if err != nil || now.DiscountBps != 800 || now.Enabled {
			t.Fatalf("now: %+v %v", now, err)
		}
		if _, err := db.ReferralCodeAt(ctx, "alice5", time.Now().Add(-2*time.Hour)); err == nil {
			t.Fatal("the code is in force before it was made")
		}
		wantStatus(t, admin(http.MethodPut, "/nobody", `{"owner": "`+alice+`", "discountBps": 1, "commissionBps": 1}`), http.StatusNotFound)
		rec = admin(http.MethodPut, "/alice5", `{"code": "Other", "owner": "`+alice+`", "discountBps": 1, "commissionBps": 1}`)
		wantStatus(t, rec, http.StatusBadRequest)
		rec = admin(http.MethodPut, "/alice5", `{"owner": "`+alice+`", "discountBps": 4000, "commissionBps": 1001}`)
		wantStatus(t, rec, http.StatusBadRequest)

		// Each change is in the audit, with its terms.
		log, err := db.AuditLog(ctx, 100)
		if err != nil {
			t.Fatal(err)
		}
		var saved []store.AuditRecord
		for _, r := range log {
			if r.Outcome.Code == store.OutcomeReferralCodeSaved {
				saved = append(saved, r)
			}
		}
		if len(saved) != 3 || saved[0].Action != store.ActionReferralPut || saved[0].Target != "Alice5" || saved[0].Before == nil ||
			saved[0].Outcome.Args.DiscountBps != 800 || saved[0].Actor == "" {
			t.Fatalf("audited: %+v", saved)
		}
	})

	t.Run("the list, with each code's figures", func(t *testing.T) {
		codeUsed(t, db, "Alice5", alice, carol)
		rec := admin(http.MethodGet, "", "")
		wantStatus(t, rec, http.StatusOK)
		list := decode[struct {
			Codes []referralListItem `json:"codes"`
		}](t, rec)
		if len(list.Codes) != 2 || list.Codes[0].Code != "Alice5" || list.Codes[1].Code != "Half" {
			t.Fatalf("%+v", list)
		}
		if got, want := list.Codes[0].figures(), usedFigures; got != want {
			t.Errorf("Alice5: %+v, want %+v", got, want)
		}
		if got, want := list.Codes[1].figures(), (referralFigures{VolumeWei: "0", DiscountWei: "0", OwedWei: "0", PaidWei: "0"}); got != want {
			t.Errorf("Half, never used: %+v, want %+v", got, want)
		}
	})

	t.Run("the public route", func(t *testing.T) {
		get := func(code string) (int, publicReferralBody, string) {
			rec := s.get(t, "/api/referrals/"+code)
			// A wallet code is the wallet's address: only another's may not show.
			body := strings.ReplaceAll(strings.ToLower(rec.Body.String()), strings.ToLower(code), "")
			if strings.Contains(strings.ToLower(body), "owner") || strings.Contains(body, alice) || strings.Contains(body, bob) ||
				strings.Contains(body, carol) || strings.Contains(body, "ommission") {
				t.Errorf("%s: tells the owner or the earnings: %s", code, body)
			}
			if rec.Code != http.StatusOK {
				return rec.Code, publicReferralBody{}, errorMessage(t, rec)
			}
			return rec.Code, decode[publicReferralBody](t, rec), ""
		}
		if st, r, _ := get("half"); st != 200 || r.Code != "Half" || !r.Valid || r.DiscountBps != 2500 || r.ExpiresAt == nil {
			t.Errorf("valid: %d %+v", st, r)
		}
		if st, r, _ := get("alice5"); st != 200 || r.Valid || r.DiscountBps != 800 {
			t.Errorf("switched off: %d %+v", st, r)
		}
		if _, err := db.DB().Exec(`UPDATE referral_codes SET expires_at = now() - interval '1 second' WHERE key = 'half'`); err != nil {
			t.Fatal(err)
		}
		if st, r, _ := get("HALF"); st != 200 || r.Valid {
			t.Errorf("expired: %d %+v", st, r)
		}
		if st, _, msg := get("Unknown1"); st != http.StatusNotFound || msg != "No referral code has this name." {
			t.Errorf("unknown: %d %q", st, msg)
		}

		// A wallet's address is a code while the wallet holds a node.
		if st, r, _ := get(bob); st != 200 || r.Valid || r.Code != bob {
			t.Errorf("a wallet without a node: %d %+v", st, r)
		}
		storetest.Node(t, db, "1", bob, t0)
		if st, r, _ := get("0x" + strings.ToUpper(bob[2:])); st != 200 || !r.Valid || r.Code != bob || r.DiscountBps != 300 || r.ExpiresAt != nil {
			t.Errorf("a holder: %d %+v", st, r)
		}
	})

	t.Run("the admin routes refuse a wrong key", func(t *testing.T) {
		for _, r := range []struct{ method, target, body string }{
			{http.MethodGet, "", ""},
			{http.MethodPost, "", `{"code": "Mine1", "owner": "` + bob + `", "discountBps": 5000, "commissionBps": 0}`},
			{http.MethodPut, "/alice5", `{"owner": "` + bob + `", "discountBps": 5000, "commissionBps": 0}`},
		} {
			for _, key := range []string{"", "a guess"} {
				rec := s.adminDo(t, r.method, "/api/admin/referral-codes"+r.target, r.body, key)
				if rec.Code != http.StatusUnauthorized {
					t.Errorf("%s %s with key %q: %d", r.method, r.target, key, rec.Code)
				}
			}
		}
		if _, err := db.ReferralCode(ctx, "mine1"); err == nil {
			t.Fatal("a code was made without the key")
		}
		if r, _ := db.ReferralCode(ctx, "alice5"); r.Owner != alice {
			t.Fatal("a code was changed without the key")
		}
	})

	t.Run("an oversize body is refused", func(t *testing.T) {
		base := startHTTP(t, s)
		big := `{"code": "Big01", "owner": "` + bob + `", "discountBps": 1, "commissionBps": 1, "expiresAt": "` +
			strings.Repeat(" ", maxBody) + `"}`
		req, _ := http.NewRequest(http.MethodPost, base+"/api/admin/referral-codes", bytes.NewReader([]byte(big)))
		req.Header.Set("X-Admin-Key", adminKey)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Fatalf("%d, want 413", resp.StatusCode)
		}
		if _, err := db.ReferralCode(ctx, "big01"); err == nil {
			t.Fatal("stored")
		}
	})
}

// newBindServer is a server where wallets sign in and bind codes: tier 1 on sale at 0.1 ETH, and
// the code Pal10 (10 % off, 5 % commission) owned by dev buyer 1.
func newBindServer(t *testing.T) (*store.Store, *devchain.Chain, *testServer) {
	t.Helper()
	db := storetest.New(t)
	dc, c := startDevChain(t)
	j := jobs.New(db, c, nil, nil, jobs.Config{ChainID: dc.ChainID(), PaymentAddress: dc.Payments}, slog.New(slog.DiscardHandler))
	s := authServer(t, db, c, j, handlers.Config{PaymentAddress: strings.ToLower(dc.Payments.Hex()), AdminKey: adminKey})
	wantStatus(t, s.adminDo(t, http.MethodPut, "/api/admin/tiers/1",
		`{"label":"Standard","priceWei":"100000000000000000","maxPerWallet":5,"enabled":true}`, adminKey), http.StatusOK)
	wantStatus(t, s.adminDo(t, http.MethodPost, "/api/admin/referral-codes", `{"code": "Pal10", "owner": "`+addrOf(dc.Buyers[1].Key)+`",
		"discountBps": 1000, "commissionBps": 500}`, adminKey), http.StatusCreated)
	return db, dc, s
}

// TestBindReferral: a signed-in wallet binds a code with POST /api/referrals/bind, and the
// pre-check then asks it for the discounted price. Its own code, a code that gives nothing now, an
// unknown one, no session and another site's page are refused, and bind nothing.
func TestBindReferral(t *testing.T) {
	t.Parallel()
	db, dc, s := newBindServer(t)
	buyer, owner := dc.Buyers[0].Key, dc.Buyers[1].Key
	wantStatus(t, s.adminDo(t, http.MethodPost, "/api/admin/referral-codes", `{"code": "Old01", "owner": "`+addrOf(owner)+`",
		"discountBps": 1000, "commissionBps": 500, "expiresAt": "2020-01-01T00:00:00Z"}`, adminKey), http.StatusCreated)
	bound := func() int {
		var n int
		if err := db.DB().Get(&n, `SELECT count(*) FROM referral_bindings`); err != nil {
			t.Fatal(err)
		}
		return n
	}
	type checked struct {
		PriceWei     string  `json:"priceWei"`
		PayWei       string  `json:"payWei"`
		ReferralCode *string `json:"referralCode"`
		DiscountWei  *string `json:"discountWei"`
		OK           bool    `json:"ok"`
	}
	check := func() checked {
		rec := s.get(t, "/api/tiers/1/check/"+addrOf(buyer))
		wantStatus(t, rec, http.StatusOK)
		return decode[checked](t, rec)
	}
	if a := check(); a.PayWei != a.PriceWei || a.ReferralCode != nil || a.DiscountWei != nil || !a.OK {
		t.Fatalf("before any code: %+v", a)
	}

	stranger := newBrowser(t, s, "203.0.113.20")
	wantStatus(t, stranger.do(http.MethodPost, "/api/referrals/bind", map[string]string{"code": "Pal10"}), http.StatusUnauthorized)

	b := newBrowser(t, s, "203.0.113.21")
	b.signIn(buyer)
	wantStatus(t, b.do(http.MethodPost, "/api/referrals/bind", map[string]string{"code": "Pal10"}, "Origin", "https://evil.example"),
		http.StatusForbidden)
	for code, want := range map[string]struct {
		status int
		says   string
	}{
		"":             {http.StatusBadRequest, "code is required"},
		"Nobody":       {http.StatusNotFound, "No referral code has this name."},
		"old01":        {http.StatusConflict, "The code Old01 expired on 1 January 2020 at 00:00 UTC."},
		addrOf(owner):  {http.StatusConflict, "holds no node, so its address is not a referral code yet"},
		addrOf(buyer):  {http.StatusConflict, "is your own"},
		"not a code!!": {http.StatusNotFound, "No referral code has this name."},
		"Pal\x0010":    {http.StatusBadRequest, "cannot hold control characters"},
	} {
		rec := b.do(http.MethodPost, "/api/referrals/bind", map[string]string{"code": code})
		wantStatus(t, rec, want.status)
		if msg := errorMessage(t, rec); !strings.Contains(msg, want.says) {
			t.Errorf("%q: %q, want it to say %q", code, msg, want.says)
		}
	}
	self := newBrowser(t, s, "203.0.113.22")
	self.signIn(owner)
	if rec := self.do(http.MethodPost, "/api/referrals/bind", map[string]string{"code": "PAL10"}); rec.Code != http.StatusConflict ||
		!strings.Contains(errorMessage(t, rec), "The code Pal10 is your own") {
		t.Errorf("the owner binding its own code: %d %s", rec.Code, rec.Body)
	}
	if n := bound(); n != 0 {
		t.Fatalf("%d bindings after refusals only", n)
	}

	rec := b.do(http.MethodPost, "/api/referrals/bind", map[string]string{"code": "pal10"})
	wantStatus(t, rec, http.StatusOK)
	got := decode[struct {
		Code        string    `json:"code"`
		DiscountBps int       `json:"discountBps"`
		BoundAt     time.Time `json:"boundAt"`
	}](t, rec)
	if got.Code != "Pal10" || got.DiscountBps != 1000 || time.Since(got.BoundAt) > 2*time.Second || got.BoundAt.Nanosecond() != 0 {
		t.Fatalf("bound: %+v", got)
	}
	if a := check(); a.PriceWei != "100000000000000000" || a.PayWei != "90000000000000000" || a.ReferralCode == nil ||
		*a.ReferralCode != "Pal10" || a.DiscountWei == nil || *a.DiscountWei != "10000000000000000" || !a.OK {
		t.Fatalf("the pre-check of a bound wallet: %+v", a)
	}
	// The same code again keeps the binding it has.
	wantStatus(t, b.do(http.MethodPost, "/api/referrals/bind", map[string]string{"code": "PAL10"}), http.StatusOK)
	if n := bound(); n != 1 {
		t.Fatalf("%d bindings after binding one code twice", n)
	}
}

// TestReferralCodeMalformed: a code in the path with a NUL or bytes that are not UTF-8 is a 400
// with a sentence (it was a 500: PostgreSQL refuses such text), as a label with them is.
func TestReferralCodeMalformed(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{ChainID: 1, PaymentAddress: payTo})
	for _, code := range []string{"Pal%0010", "%FF%FE", "Pal%0A5"} {
		rec := s.get(t, "/api/referrals/"+code)
		wantStatus(t, rec, http.StatusBadRequest)
		if msg := errorMessage(t, rec); !strings.Contains(msg, "cannot hold control characters") {
			t.Errorf("%s: %q", code, msg)
		}
	}
}
