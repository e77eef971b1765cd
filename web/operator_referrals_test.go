package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"nodeledger/handlers"
	"nodeledger/jobs/sale"
	"nodeledger/store"
	"nodeledger/store/storetest"
	"nodeledger/views"
)

// TestOperatorReferralCodes: the operator page's Referral codes card lists each code with its
// figures, for every role; an admin's form adds and changes codes through the admin API's check
// (its sentences, by the API's field names) and audited calls. A viewer, an operator, a post
// without the session's CSRF token, a taken name and a bad field store nothing.
func TestOperatorReferralCodes(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret})
	const carol = "0x00000000000000000000000000000000000ca401"
	wantStatus(t, s.adminDo(t, http.MethodPost, "/api/admin/referral-codes", `{"code": "Alice5", "owner": "`+alice+`",
		"discountBps": 500, "commissionBps": 250, "parent": "`+carol+`", "parentBps": 100}`, adminKey), http.StatusCreated)
	codeUsed(t, db, "Alice5", alice, carol)
	stored := func(code string) (store.ReferralCode, bool) {
		r, err := db.ReferralCode(t.Context(), code)
		return r, err == nil
	}
	// The form is in people's units: percent, and UTC times as the tier form writes them.
	good := url.Values{"code": {"Bob_10"}, "owner": {"0x" + strings.ToUpper(bob[2:])}, "discount": {"10 %"},
		"commission": {"5"}, "parent": {""}, "parentCommission": {""}, "expires": {""}, "enabled": {"true"}}

	t.Run("every role sees the codes and their figures", func(t *testing.T) {
		for _, role := range []string{"viewer", "operator", "admin"} {
			doc := signedInOperator(t, s, role).operatorPage()
			row := doc.Find(`[data-testid=referral-alice5]`)
			for id, want := range map[string]string{"referral-code": "Alice5", "referral-state": "on", "referral-owner": views.Short(alice),
				"referral-discount": "5 %", "referral-commission": "2.5 %", "referral-parent": "1 % to " + views.Short(carol),
				"referral-expires": "never", "referral-uses": "2", "referral-volume": "0.195", "referral-discount-given": "0.005",
				"referral-owed": "0.003325", "referral-paid": "0.0025"} {
				if got := strings.TrimSpace(row.Find(`[data-testid=` + id + `]`).Text()); got != want {
					t.Errorf("%s: %s is %q, want %q", role, id, got, want)
				}
			}
			if got := row.Find(`[data-testid=referral-owed] span`).AttrOr("title", ""); got != "0.003325 ETH" {
				t.Errorf("%s: the exact amount owed %q", role, got)
			}
			// 0.003325 ETH under Alice5, and 7 wei under another code.
			if got := strings.Join(strings.Fields(text(doc, "commissions-owed")), " "); got != "Commissions owed: 0.003325 ETH." {
				t.Errorf("%s: the treasury's commissions %q", role, got)
			}
			if got := doc.Find(`[data-testid=commissions-owed] span`).AttrOr("title", ""); got != "0.003325000000000007 ETH" {
				t.Errorf("%s: the exact commissions owed %q", role, got)
			}
			if admin := role == "admin"; (count(doc, `[data-testid=referral-form]`) == 1) != admin || (count(doc, `[data-testid=edit-referral]`) == 1) != admin {
				t.Errorf("%s: offered the form: %v, Edit: %v", role, count(doc, `[data-testid=referral-form]`), count(doc, `[data-testid=edit-referral]`))
			}
		}
	})

	t.Run("a viewer and an operator may not save a code", func(t *testing.T) {
		for _, role := range []string{"viewer", "operator"} {
			rec := signedInOperator(t, s, role).form("/operator/referral-codes", good)
			wantStatus(t, rec, http.StatusForbidden)
			if got := text(page(t, rec.Body), "error"); !strings.Contains(got, "Your role ("+role+") cannot change the referral codes.") {
				t.Errorf("%s: %q", role, got)
			}
		}
		if _, ok := stored("bob_10"); ok {
			t.Fatal("a code was saved without an admin")
		}
	})

	key := addOperator(t, db, "admin")
	b := signedInAs(t, s, key)
	t.Run("a post without the session's CSRF token is refused", func(t *testing.T) {
		for _, token := range []string{"", "wrong", signedInOperator(t, s).csrf} {
			v := url.Values{"csrf": {token}}
			for k, vs := range good {
				v[k] = vs
			}
			wantStatus(t, b.form("/operator/referral-codes", v), http.StatusForbidden)
		}
		if _, ok := stored("bob_10"); ok {
			t.Fatal("a code was saved without the token")
		}
	})

	t.Run("a bad field comes back with a sentence in the form's words, as typed", func(t *testing.T) {
		for field, value := range map[string]string{"code": "b!", "owner": "0x12", "discount": "500 bps", "commission": "1.555",
			"parentCommission": "1", "expires": "31/12/2026", "parent": alice} {
			v := url.Values{}
			for k, vs := range good {
				v[k] = vs
			}
			v.Set(field, value)
			if field == "parent" {
				v.Set("parentCommission", "35.01") // with the 15 % above: more than half
			}
			enabled := true
			_, want := sale.ReadReferralCode(sale.ReferralInput{Code: v.Get("code"), Owner: v.Get("owner"), DiscountBps: v.Get("discount"),
				CommissionBps: v.Get("commission"), Parent: v.Get("parent"), ParentBps: v.Get("parentCommission"), ExpiresAt: v.Get("expires"),
				Enabled: &enabled, Form: true})
			if want == "" || strings.Contains(want, "bps") || strings.Contains(want, field+" ") {
				t.Fatalf("%s=%q: the check says %q", field, value, want)
			}
			rec := b.form("/operator/referral-codes", v)
			wantStatus(t, rec, http.StatusUnprocessableEntity)
			doc := page(t, rec.Body)
			if got := text(doc, "referral-problem"); got != want {
				t.Errorf("%s=%q: %q, want %q", field, value, got, want)
			}
			if got := doc.Find(`#referral-form input[name=`+field+`]`).AttrOr("value", "?"); got != value {
				t.Errorf("%s: what was typed became %q", field, got)
			}
		}
		v := url.Values{}
		for k, vs := range good {
			v[k] = vs
		}
		v.Set("parent", alice)
		v.Set("parentCommission", "35.01")
		if got := text(page(t, b.form("/operator/referral-codes", v).Body), "referral-problem"); got != "Discount, commission and parent's commission together are 50.01 %: they may take at most 50 % of the price." {
			t.Errorf("over half: %q", got)
		}
		// The admin API keeps its own words: basis points and ISO 8601.
		rec := s.adminDo(t, http.MethodPost, "/api/admin/referral-codes", `{"code": "Bob_10", "owner": "`+bob+`", "discountBps": 1000,
			"commissionBps": 500, "expiresAt": "2026-12-01 12:00"}`, adminKey)
		wantStatus(t, rec, http.StatusBadRequest)
		if got := errorMessage(t, rec); got != `expiresAt must be a time in ISO 8601 with its zone, such as "2026-12-31T23:59:59Z".` {
			t.Errorf("the API says %q", got)
		}
		if _, ok := stored("bob_10"); ok {
			t.Fatal("a bad code was saved")
		}
	})

	t.Run("a taken name is refused", func(t *testing.T) {
		v := url.Values{}
		for k, vs := range good {
			v[k] = vs
		}
		v.Set("code", "ALICE5")
		rec := b.form("/operator/referral-codes", v)
		wantStatus(t, rec, http.StatusConflict)
		if got := text(page(t, rec.Body), "referral-problem"); got != "The referral code ALICE5 exists already (codes are the same in any case): change it with Edit in its row." {
			t.Errorf("%q", got)
		}
		if r, _ := stored("alice5"); r.Owner != alice || r.DiscountBps != 500 {
			t.Fatalf("the code changed: %+v", r)
		}
	})

	t.Run("a good code is saved, audited, and listed with no use yet", func(t *testing.T) {
		wantRedirect(t, b.form("/operator/referral-codes", good))
		r, ok := stored("bob_10")
		if !ok || r.Code != "Bob_10" || r.Owner != bob || r.DiscountBps != 1000 || r.CommissionBps != 500 || r.Parent != nil ||
			r.ExpiresAt != nil || !r.Enabled {
			t.Fatalf("stored %+v", r)
		}
		doc := b.operatorPage()
		if got := text(doc, "outcome"); got != "Saved referral code Bob_10 of "+bob+": 10 % off for the buyer, 5 % to its owner, with no end; switched on, in force from now." {
			t.Errorf("outcome %q", got)
		}
		row := doc.Find(`[data-testid=referral-bob_10]`)
		for id, want := range map[string]string{"referral-uses": "0", "referral-volume": "0", "referral-owed": "0", "referral-parent": "no partner above"} {
			if got := strings.TrimSpace(row.Find(`[data-testid=` + id + `]`).Text()); got != want {
				t.Errorf("%s is %q, want %q", id, got, want)
			}
		}
		if a := s.audit(t)[0]; a.Action != string(store.ActionReferralAdd) || a.Target != "Bob_10" || a.Actor != addrOf(key) {
			t.Errorf("audited %+v", a)
		}
	})

	t.Run("Edit fills the form; a change is saved and audited", func(t *testing.T) {
		doc := page(t, b.do(http.MethodGet, "/operator?referral=ALICE5", nil).Body)
		form := doc.Find(`#referral-form`)
		for name, want := range map[string]string{"editing": "true", "code": "Alice5", "owner": alice, "discount": "5",
			"commission": "2.5", "parent": carol, "parentCommission": "1", "expires": ""} {
			if got := form.Find(`input[name=`+name+`]`).AttrOr("value", "?"); got != want {
				t.Errorf("%s = %q, want %q", name, got, want)
			}
		}
		if form.Find(`input[name=code][type=hidden]`).Length() != 1 {
			t.Error("the code's name can be changed")
		}
		// ISO 8601 with a zone is taken too.
		edited := url.Values{"editing": {"true"}, "code": {"Alice5"}, "owner": {alice}, "discount": {"8"}, "commission": {"4 %"},
			"parent": {""}, "parentCommission": {""}, "expires": {"2030-01-01T02:00:00+02:00"}}
		wantRedirect(t, b.form("/operator/referral-codes", edited))
		r, _ := stored("alice5")
		if r.DiscountBps != 800 || r.CommissionBps != 400 || r.Parent != nil || r.Enabled || r.ExpiresAt == nil || r.ExpiresAt.UTC().Format("2006-01-02 15:04") != "2030-01-01 00:00" {
			t.Fatalf("edited %+v", r)
		}
		a := s.audit(t)[0]
		if a.Action != string(store.ActionReferralPut) || a.Target != "Alice5" || a.Actor != addrOf(key) || len(a.Before) == 0 {
			t.Errorf("audited %+v", a)
		}
		doc = b.operatorPage()
		row := doc.Find(`[data-testid=referral-alice5]`)
		if got := strings.TrimSpace(row.Find(`[data-testid=referral-state]`).Text()); got != "off" {
			t.Errorf("state %q", got)
		}
		if got := strings.TrimSpace(row.Find(`[data-testid=referral-expires]`).Text()); got != "2030-01-01 00:00 UTC" {
			t.Errorf("expires %q", got)
		}
		// The figures are the payments', whatever the code's terms are now.
		if got := strings.TrimSpace(row.Find(`[data-testid=referral-owed]`).Text()); got != "0.003325" {
			t.Errorf("owed %q", got)
		}
		// Edit of a code that is no more (a crafted post) changes nothing.
		gone := url.Values{"editing": {"true"}, "code": {"Nobody1"}, "owner": {alice}, "discount": {"1"}, "commission": {"1"}}
		rec := b.form("/operator/referral-codes", gone)
		wantStatus(t, rec, http.StatusNotFound)
		if got := text(page(t, rec.Body), "referral-problem"); got != "There is no referral code Nobody1 to change: add it as a new code." {
			t.Errorf("%q", got)
		}
		if _, ok := stored("nobody1"); ok {
			t.Fatal("made by a change")
		}
	})
}
