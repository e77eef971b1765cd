package web

import (
	"encoding/csv"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"nodeledger/handlers"
	"nodeledger/store/storetest"
)

// TestAuditTellsOutcomes: the audit keeps codes and values, and the export's outcome column,
// the admin API and the operator page all write the sentence the operator was told from them,
// the same words for the same entry; an outcome kept as words before the codes reads as it was.
func TestAuditTellsOutcomes(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{AdminKey: adminKey})
	b := signedInOperator(t, s, "viewer")
	mustExec(t, db, `INSERT INTO operator_audit (actor, ip, action, target, outcome_code, outcome_args) VALUES
		('x', '', 'tier.on-sale', '3', 'tier_on_sale', '{"tier": 3}'),
		('x', '', 'tier.put', '4', 'other', '{"text": "Saved, as an older release wrote it."}')`)
	want := []string{"Signed in as viewer.", "Tier 3 is now switched on: it sells while its times and supply allow.",
		"Saved, as an older release wrote it."}

	rec := s.adminDo(t, http.MethodGet, "/api/admin/exports/audit.csv", "", adminKey)
	wantStatus(t, rec, http.StatusOK)
	rows, err := csv.NewReader(rec.Body).ReadAll()
	if err != nil || len(rows) != 4 || rows[0][8] != "outcome" {
		t.Fatalf("audit export %v, %v", rows, err)
	}
	var exported []string
	for _, r := range rows[1:] {
		exported = append(exported, r[8])
	}
	if !slices.Equal(exported, want) {
		t.Fatalf("the export's outcomes %q,\nwant %q", exported, want)
	}

	items := decode[[]map[string]any](t, s.adminDo(t, http.MethodGet, "/api/admin/audit", "", adminKey))
	var listed, codes []string
	for _, it := range slices.Backward(items) {
		listed = append(listed, it["outcome"].(string))
		codes = append(codes, it["outcomeCode"].(string))
	}
	if !slices.Equal(listed, want) || strings.Join(codes, " ") != "signed_in tier_on_sale other" {
		t.Fatalf("the API's outcomes %q, codes %q", listed, codes)
	}

	shown := b.operatorPage().Find(`[data-testid=audit] [data-testid=audit-told]`).Map(func(_ int, td *goquery.Selection) string { return td.Text() })
	slices.Reverse(shown)
	if !slices.Equal(shown, want) {
		t.Fatalf("the page's outcomes %q", shown)
	}
}
