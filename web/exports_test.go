package web

import (
	"encoding/csv"
	"net/http"
	"strings"
	"testing"
	"time"

	"nodeledger/handlers"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// TestExports reads each table of the books as CSV from the admin API and from the operator
// page: RFC 4180 with CRLF, a header row, amounts in ETH and wei, times in ISO UTC, a date range
// that takes to's whole day, and clear errors.
func TestExports(t *testing.T) {
	storetest.Reset(t, db)
	const owner = "0x00000000000000000000000000000000000b0b01"
	day := time.Date(2026, 11, 20, 10, 30, 0, 0, time.UTC)
	node := storetest.Node(t, db, "7", owner, day)
	storetest.Node(t, db, "8", owner, day.AddDate(0, 0, 2))
	round := storetest.Distribution(t, db, "1500000000000000000", "confirmed", day, &day)
	storetest.Credit(t, db, round, node, "10", day)
	storetest.Withdrawal(t, db, node, "1", owner, day)
	s := newServer(t, handlers.Config{AdminKey: adminKey})

	read := func(t *testing.T, path string) [][]string {
		t.Helper()
		rec := s.adminDo(t, http.MethodGet, path, "", adminKey)
		wantStatus(t, rec, http.StatusOK)
		if ct := rec.Header().Get("Content-Type"); ct != "text/csv; charset=utf-8" {
			t.Fatalf("%s: content type %q", path, ct)
		}
		if !strings.HasPrefix(rec.Header().Get("Content-Disposition"), `attachment; filename="nodeledger-`) {
			t.Fatalf("%s: disposition %q", path, rec.Header().Get("Content-Disposition"))
		}
		body := rec.Body.String()
		if strings.Count(body, "\r\n") != strings.Count(body, "\n") {
			t.Fatalf("%s: lines not ended by CRLF: %q", path, body)
		}
		rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
		if err != nil {
			t.Fatalf("%s: %v in %q", path, err, body)
		}
		return rows
	}
	col := func(t *testing.T, rows [][]string, name string) []string {
		t.Helper()
		i := -1
		for j, h := range rows[0] {
			if h == name {
				i = j
			}
		}
		if i < 0 {
			t.Fatalf("no column %q in %v", name, rows[0])
		}
		var out []string
		for _, r := range rows[1:] {
			out = append(out, r[i])
		}
		return out
	}

	t.Run("nodes, whole and by dates", func(t *testing.T) {
		rows := read(t, "/api/admin/exports/nodes.csv")
		if got := strings.Join(col(t, rows, "id"), ","); got != "7,8" {
			t.Fatalf("ids %s", got)
		}
		if eth, wei := col(t, rows, "price_eth")[0], col(t, rows, "price_wei")[0]; eth != "0.1" || wei != "100000000000000000" {
			t.Fatalf("price %s ETH, %s wei", eth, wei)
		}
		if got := col(t, rows, "balance_eth")[0]; got != "0.000000000000000007" {
			t.Fatalf("balance %s ETH", got)
		}
		if got := col(t, rows, "created_at")[0]; got != "2026-11-20T10:30:00.000Z" {
			t.Fatalf("created_at %s", got)
		}
		// to is a whole day: the 20th holds node 7; from the 21st on, node 8.
		if got := col(t, read(t, "/api/admin/exports/nodes.csv?to=2026-11-20"), "id"); strings.Join(got, ",") != "7" {
			t.Fatalf("to the 20th: %v", got)
		}
		if got := col(t, read(t, "/api/admin/exports/nodes.csv?from=2026-11-21"), "id"); strings.Join(got, ",") != "8" {
			t.Fatalf("from the 21st: %v", got)
		}
		if rows := read(t, "/api/admin/exports/nodes.csv?from=2026-11-23T00:00:00Z"); len(rows) != 1 {
			t.Fatalf("after every node: %v, want the header alone", rows)
		}
	})
	t.Run("rounds and withdrawals", func(t *testing.T) {
		rows := read(t, "/api/admin/exports/rounds.csv")
		if len(rows) != 2 || col(t, rows, "total_eth")[0] != "1.5" || col(t, rows, "status")[0] != "confirmed" ||
			col(t, rows, "confirmed_at")[0] != "2026-11-20T10:30:00.000Z" {
			t.Fatalf("rounds %v", rows)
		}
		rows = read(t, "/api/admin/exports/withdrawals.csv")
		if len(rows) != 2 || col(t, rows, "amount_wei")[0] != "1" || col(t, rows, "to")[0] != owner || col(t, rows, "node_id")[0] != "7" {
			t.Fatalf("withdrawals %v", rows)
		}
		if rows := read(t, "/api/admin/exports/payments.csv"); len(rows) != 1 || rows[0][1] != "tx_hash" {
			t.Fatalf("payments %v", rows)
		}
	})
	t.Run("errors", func(t *testing.T) {
		for path, status := range map[string]int{
			"/api/admin/exports/secrets.csv":                             http.StatusNotFound,
			"/api/admin/exports/nodes.json":                              http.StatusNotFound,
			"/api/admin/exports/nodes.csv?from=yesterday":                http.StatusBadRequest,
			"/api/admin/exports/nodes.csv?to=2026-13-01":                 http.StatusBadRequest,
			"/api/admin/exports/nodes.csv?from=2026-11-21&to=2026-11-20": http.StatusBadRequest,
		} {
			rec := s.adminDo(t, http.MethodGet, path, "", adminKey)
			wantStatus(t, rec, status)
			checkEnvelope(t, rec)
		}
		wantStatus(t, s.adminDo(t, http.MethodGet, "/api/admin/exports/nodes.csv", "", "guess"), http.StatusUnauthorized)
	})
	t.Run("from the operator page, with its session", func(t *testing.T) {
		b := signedInOperator(t, s, "viewer")
		links := b.operatorPage().Find(`[data-testid=exports] a`)
		if links.Length() != 5 {
			t.Fatalf("%d export links", links.Length())
		}
		rec := b.do(http.MethodGet, links.Last().AttrOr("href", ""), nil)
		wantStatus(t, rec, http.StatusOK)
		rows, err := csv.NewReader(rec.Body).ReadAll()
		if err != nil || len(rows) < 2 || rows[0][4] != "action" || rows[len(rows)-1][4] != string(store.ActionSignIn) {
			t.Fatalf("audit export %v, %v: want the viewer's sign-in last", rows, err)
		}
		// Without a session, the export is the sign-in, not the books.
		stranger := newBrowser(t, s, "198.51.100.250")
		if rec := stranger.do(http.MethodGet, "/operator/exports/nodes.csv", nil); strings.Contains(rec.Body.String(), owner) {
			t.Fatalf("a stranger got the books: %d", rec.Code)
		}
	})
}
