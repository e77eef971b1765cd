package web

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"nodeledger/chain"
	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// TestExports reads each table of the books as CSV from the admin API and from the operator
// page: RFC 4180 with CRLF, a header row, amounts in ETH and wei, times in ISO UTC, a date range
// that takes to's whole day, and clear errors.
func TestExports(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	const owner = "0x00000000000000000000000000000000000b0b01"
	day := time.Date(2026, 11, 20, 10, 30, 0, 0, time.UTC)
	node := storetest.Node(t, db, "7", owner, day)
	storetest.Node(t, db, "8", owner, day.AddDate(0, 0, 2))
	round := storetest.Distribution(t, db, "1500000000000000000", "confirmed", day, &day)
	storetest.Credit(t, db, round, node, "10", day)
	storetest.Withdrawal(t, db, node, "1", owner, day)
	s := newServer(t, db, handlers.Config{AdminKey: adminKey})

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
		if links.Length() != len(store.Exports) {
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

// TestExportsCannotStarveThePool attacks issue 32: a viewer opens more downloads of the audit
// export than the database pool has connections, and reads none of them past its first bytes.
// Only ExportSlots of them are streamed, the rest refused at once with a 503 and retry-after;
// meanwhile the public routes answer 200 in time and the payments pass runs. Then, with a short
// stall, the exports that stop being read are cut off and give their connections back.
func TestExportsCannotStarveThePool(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	// About 8 MB of audit: far more than the socket buffers between the server and a reader
	// whose receive buffer is as small as the kernel allows, so an export that is not read
	// stalls with its transaction open.
	mustExec(t, db, `INSERT INTO operator_audit (actor, ip, action, target, before, outcome_code, outcome_args)
		SELECT 'seed', '192.0.2.1', 'operator.sign-in', 'row ' || i, jsonb_build_object('pad', repeat('x', 1000)), 'other', '{"text": "ok"}'
		FROM generate_series(1, 8000) i`)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	storetest.Node(t, db, "1", alice, time.Now())

	// The server's own pool, as DB_MAX_CONNS=8 makes it, shared by its routes and its passes.
	const poolSize, slots, readers = 8, 2, 12
	st, err := store.Open(t.Context(), storetest.URL(t, db))
	if err != nil {
		t.Fatal(err)
	}
	st.LimitConns(poolSize)
	t.Cleanup(func() { st.Close() })
	inUse := func() int { return st.DB().Stats().InUse }
	dc, c := startDevChain(t)
	passes := jobs.New(st, c, chain.LocalSigner(dc.Minter.Key), chain.LocalSigner(dc.Distributor.Key),
		jobs.Config{ChainID: dc.ChainID(), PaymentAddress: dc.Payments}, slog.New(slog.DiscardHandler))
	const cronKey = "the-schedulers-cron-key-0123456789"
	serve := func(stall time.Duration) (*testServer, string) {
		s := newServerWith(t, st, c, passes, handlers.Config{SessionSecret: sessionSecret, ChainID: 1337, CronKey: cronKey,
			DistMode: store.DistFixed, TickSec: 60, StaleAfterSec: 300, ExportSlots: slots, ExportStall: stall}, Options{})
		return s, startHTTP(t, s)
	}
	// What a reader that stalls has seen: the answer's head, or nothing when none came in time.
	type stalled struct {
		resp *http.Response
		conn net.Conn
	}
	var cookie string
	open := func(t *testing.T, base string) stalled {
		u, _ := url.Parse(base)
		d := net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
			var err error
			rc.Control(func(fd uintptr) { err = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 1024) })
			return err
		}}
		conn, err := d.DialContext(t.Context(), "tcp", u.Host)
		if err != nil {
			t.Error(err)
			return stalled{}
		}
		req, _ := http.NewRequest(http.MethodGet, base+"/operator/exports/audit.csv", nil)
		req.Header.Set("Cookie", cookie)
		req.Header.Set("Accept", "application/json") // a refusal in the envelope, not the error page
		conn.SetReadDeadline(time.Now().Add(3 * time.Second))
		if err := req.Write(conn); err != nil {
			t.Error(err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(conn), req)
		if err != nil {
			return stalled{conn: conn} // no answer: the server waits for a connection of the pool
		}
		return stalled{resp, conn}
	}
	openAll := func(t *testing.T, base string, n int) []stalled {
		out := make([]stalled, n)
		var wg sync.WaitGroup
		for i := range out {
			wg.Go(func() { out[i] = open(t, base) })
		}
		wg.Wait()
		t.Cleanup(func() {
			for _, r := range out {
				if r.conn != nil {
					r.conn.Close()
				}
			}
		})
		return out
	}
	waitFor := func(t *testing.T, what string, within time.Duration, cond func() bool) {
		t.Helper()
		for end := time.Now().Add(within); !cond(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(end) {
				t.Fatalf("after %v, still not %s (%d connections in use)", within, what, inUse())
			}
		}
	}
	client := &http.Client{Timeout: 10 * time.Second}

	t.Run("past the cap, refused; the routes and the pass still served", func(t *testing.T) {
		s, base := serve(time.Minute)
		b := signedInOperator(t, s, "viewer")
		for _, c := range b.cookies {
			cookie += c.Name + "=" + c.Value + "; "
		}
		var admitted []stalled
		refused, unanswered := 0, 0
		for _, r := range openAll(t, base, readers) {
			switch {
			case r.resp == nil:
				unanswered++
			case r.resp.StatusCode == http.StatusOK:
				admitted = append(admitted, r)
			case r.resp.StatusCode == http.StatusServiceUnavailable:
				refused++
				body, _ := io.ReadAll(r.resp.Body)
				var env map[string]string
				if r.resp.Header.Get("Retry-After") != "10" || json.Unmarshal(body, &env) != nil || len(env) != 1 ||
					!strings.Contains(env["error"], "retry in 10 seconds") {
					t.Errorf("a refused export: retry-after %q, body %s", r.resp.Header.Get("Retry-After"), body)
				}
			default:
				t.Errorf("an export answered %d", r.resp.StatusCode)
			}
		}
		if len(admitted) != slots || refused != readers-slots {
			t.Errorf("of %d exports, %d streamed, %d refused, %d unanswered; want %d streamed and the rest refused",
				readers, len(admitted), refused, unanswered, slots)
		}
		// The attack holds: the streamed exports stall with their transactions open.
		waitFor(t, "holding a connection for each streamed export", 5*time.Second, func() bool { return inUse() >= len(admitted) })

		for _, path := range []string{"/api/stats", "/api/tiers", "/api/node/1"} {
			start := time.Now()
			resp, err := client.Get(base + path)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			resp.Body.Close()
			if took := time.Since(start); resp.StatusCode != http.StatusOK || took >= requestTimeout {
				t.Errorf("%s while exports stall: %d after %v", path, resp.StatusCode, took)
			}
		}
		req, _ := http.NewRequest(http.MethodPost, base+"/api/cron/payments", nil)
		req.Header.Set("X-Cron-Key", cronKey)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("the payments pass while exports stall: %v", err)
		}
		var sum jobs.PaymentsSummary
		if err := json.NewDecoder(resp.Body).Decode(&sum); err != nil || resp.StatusCode != http.StatusOK || !sum.Ran {
			t.Errorf("the payments pass while exports stall: %d %+v %v", resp.StatusCode, sum, err)
		}
		resp.Body.Close()
		if n := inUse(); n < len(admitted) {
			t.Fatalf("%d connections in use: the exports finished instead of stalling, and the test proves nothing", n)
		}
		// A reader that goes away gives its export's connection back.
		for _, r := range admitted {
			r.conn.Close()
		}
		waitFor(t, "every connection back in the pool", 10*time.Second, func() bool { return inUse() == 0 })
	})

	t.Run("a reader that stops is cut off", func(t *testing.T) {
		const stall = 500 * time.Millisecond
		s, base := serve(stall)
		start := time.Now()
		cut := openAll(t, base, slots)
		for _, r := range cut {
			if r.resp == nil || r.resp.StatusCode != http.StatusOK {
				t.Fatalf("an export within the cap was not streamed: %+v", r.resp)
			}
		}
		waitFor(t, "holding a connection for each export", 5*time.Second, func() bool { return inUse() >= slots })
		waitFor(t, "every connection back in the pool", 10*time.Second, func() bool { return inUse() == 0 })
		if took := time.Since(start); took < stall {
			t.Fatalf("the exports ended after %v, before the stall of %v", took, stall)
		}
		// Each file was cut short: its chunked body ends without its last chunk.
		for _, r := range cut {
			r.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
			if _, err := io.Copy(io.Discard, r.resp.Body); !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("a stalled export, read on afterwards: %v, want it cut short", err)
			}
		}
		if !strings.Contains(s.log.String(), "export cut short") {
			t.Errorf("the cut is not in the log:\n%s", s.log)
		}
		// The slots are free again: every one of them streams an export anew. Each is read to its
		// first row only: a whole 8 MB file read under the test's 500 ms stall races a busy
		// machine's scheduler (in CI one was cut short).
		for range slots {
			req, _ := http.NewRequest(http.MethodGet, base+"/operator/exports/audit.csv", nil)
			req.Header.Set("Cookie", cookie)
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			r := csv.NewReader(resp.Body)
			header, err := r.Read()
			if err == nil {
				_, err = r.Read()
			}
			if resp.StatusCode != http.StatusOK || err != nil || len(header) == 0 {
				t.Fatalf("an export after the cut: %d, %v", resp.StatusCode, err)
			}
		}
	})
}
