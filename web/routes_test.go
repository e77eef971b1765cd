package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"nodeledger/handlers"
	"nodeledger/store/storetest"
)

var (
	t0      = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	alice   = "0x00000000000000000000000000000000000a11ce"
	bob     = "0x0000000000000000000000000000000000000b0b"
	payTo   = "0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc"
	maxU256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1)).String()
)

type statsBody struct {
	TotalNodes          *int64  `json:"totalNodes"`
	Operators           *int64  `json:"operators"`
	TotalDistributedWei *string `json:"totalDistributedWei"`
	Distributions24hWei *string `json:"distributions24hWei"`
}

func TestStats(t *testing.T) {
	t.Parallel()
	t.Run("fresh deployment is all zeroes", func(t *testing.T) {
		db := storetest.New(t)
		rec := newServer(t, db, handlers.Config{}).get(t, "/api/stats")
		wantStatus(t, rec, http.StatusOK)
		want := `{"distributions24hWei":"0","operators":0,"totalDistributedWei":"0","totalNodes":0}`
		if got := strings.TrimSpace(rec.Body.String()); got != want {
			t.Fatalf("got %s, want %s", got, want)
		}
	})

	t.Run("totals count confirmed rounds only, and the last 24 hours", func(t *testing.T) {
		db := storetest.New(t)
		now := time.Now()
		for i, owner := range []string{alice, alice, bob} {
			storetest.Node(t, db, fmt.Sprint(i+1), owner, t0)
		}
		old, recent := now.Add(-48*time.Hour), now.Add(-time.Hour)
		storetest.Distribution(t, db, "1000000000000000000000", "confirmed", old, &old) // 1000 ETH, 2 days ago
		storetest.Distribution(t, db, "5", "confirmed", recent, &recent)
		storetest.Distribution(t, db, "700", "pending", recent, nil)
		storetest.Distribution(t, db, "900", "failed", recent, nil)

		s := newServer(t, db, handlers.Config{})
		st := decode[statsBody](t, s.get(t, "/api/stats"))
		if *st.TotalNodes != 3 || *st.Operators != 2 || *st.TotalDistributedWei != "1000000000000000000005" || *st.Distributions24hWei != "5" {
			t.Fatalf("got nodes %d, operators %d, total %s, 24h %s", *st.TotalNodes, *st.Operators, *st.TotalDistributedWei, *st.Distributions24hWei)
		}

		t.Run("memoised for a few seconds", func(t *testing.T) {
			storetest.Node(t, db, "4", bob, t0)
			if again := decode[statsBody](t, s.get(t, "/api/stats")); *again.TotalNodes != 3 {
				t.Fatalf("second call within the memo's lifetime counted %d nodes, want the memoised 3", *again.TotalNodes)
			}
			if fresh := decode[statsBody](t, newServer(t, db, handlers.Config{}).get(t, "/api/stats")); *fresh.TotalNodes != 4 {
				t.Fatalf("a new server counted %d nodes, want 4", *fresh.TotalNodes)
			}
		})
	})
}

func TestTiers(t *testing.T) {
	t.Parallel()
	t.Run("none", func(t *testing.T) {
		db := storetest.New(t)
		rec := newServer(t, db, handlers.Config{}).get(t, "/api/tiers")
		wantStatus(t, rec, http.StatusOK)
		if got := strings.TrimSpace(rec.Body.String()); got != `{"tiers":[]}` {
			t.Fatalf("got %s", got)
		}
	})
	t.Run("every tier, on sale or not", func(t *testing.T) {
		db := storetest.New(t)
		storetest.Tier(t, db, 2, "Large", "500000000000000000000", false)
		storetest.Tier(t, db, 1, "Small", "100000000000000000", true)
		body := decode[struct {
			Tiers []struct {
				ID           string            `json:"id"`
				Label        string            `json:"label"`
				PriceWei     string            `json:"priceWei"`
				OnSale       bool              `json:"onSale"`
				HoldingToken *string           `json:"holdingToken"`
				EnforcedBy   map[string]string `json:"enforcedBy"`
			} `json:"tiers"`
		}](t, newServer(t, db, handlers.Config{}).get(t, "/api/tiers"))
		if len(body.Tiers) != 2 {
			t.Fatalf("got %d tiers, want 2", len(body.Tiers))
		}
		small, large := body.Tiers[0], body.Tiers[1]
		if small.ID != "1" || small.Label != "Small" || small.PriceWei != "100000000000000000" || !small.OnSale ||
			large.ID != "2" || large.PriceWei != "500000000000000000000" || large.OnSale {
			t.Fatalf("got %+v", body.Tiers)
		}
		if small.HoldingToken != nil {
			t.Fatalf("holdingToken %q, want null for no token", *small.HoldingToken)
		}
		if small.EnforcedBy["walletTotal"] != "contract" || small.EnforcedBy["price"] != "operator" ||
			small.EnforcedBy["supply"] != "operator" || len(small.EnforcedBy) != 8 {
			t.Fatalf("enforcedBy %v", small.EnforcedBy)
		}
	})
}

type nodeBody struct {
	ID            int64   `json:"id"`
	ChainNodeID   string  `json:"chainNodeId"`
	Tier          string  `json:"tier"`
	BalanceWei    string  `json:"balanceWei"`
	CumulativeWei string  `json:"cumulativeWei"`
	WithdrawnWei  string  `json:"withdrawnWei"`
	MintTx        string  `json:"mintTx"`
	Status        string  `json:"status"`
	CreatedAt     *string `json:"createdAt"`
}

func TestNodesOfWallet(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	// Inserted out of order: the answer is by creation time, then id.
	later := storetest.Node(t, db, "30", alice, t0.Add(time.Hour))
	first := storetest.Node(t, db, "10", alice, t0)
	sameTime := storetest.Node(t, db, "20", alice, t0)
	storetest.Node(t, db, "40", bob, t0)
	s := newServer(t, db, handlers.Config{})

	t.Run("oldest first", func(t *testing.T) {
		nodes := decode[[]nodeBody](t, s.get(t, "/api/nodes/"+alice))
		var got []int64
		for _, n := range nodes {
			got = append(got, n.ID)
		}
		if fmt.Sprint(got) != fmt.Sprint([]int64{first, sameTime, later}) {
			t.Fatalf("order %v, want %v", got, []int64{first, sameTime, later})
		}
		n := nodes[0]
		if n.ChainNodeID != "10" || n.Tier != "1" || n.BalanceWei != "7" || n.CumulativeWei != "10" ||
			n.WithdrawnWei != "3" || n.Status != "active" || n.MintTx != storetest.TxHash("10") {
			t.Fatalf("node %+v", n)
		}
		if n.CreatedAt == nil || *n.CreatedAt != "2026-03-01T12:00:00.000Z" {
			t.Fatalf("createdAt %v, want ISO 8601 UTC", n.CreatedAt)
		}
	})
	t.Run("any case in", func(t *testing.T) {
		mixed := "0x00000000000000000000000000000000000A11CE"
		if nodes := decode[[]nodeBody](t, s.get(t, "/api/nodes/"+mixed)); len(nodes) != 3 {
			t.Fatalf("mixed case address found %d nodes, want 3", len(nodes))
		}
	})
	t.Run("no nodes is [] with 200", func(t *testing.T) {
		rec := s.get(t, "/api/nodes/0x1111111111111111111111111111111111111111")
		wantStatus(t, rec, http.StatusOK)
		if got := strings.TrimSpace(rec.Body.String()); got != "[]" {
			t.Fatalf("got %s, want []", got)
		}
	})
	for _, bad := range []string{
		"",
		"0x123",
		"00000000000000000000000000000000000a11ce00",
		"0x00000000000000000000000000000000000a11cg",
		"0x00000000000000000000000000000000000a11ce0",
		"0X00000000000000000000000000000000000a11ce",
		"alice",
		"%20" + alice,
	} {
		t.Run("400 for "+bad, func(t *testing.T) {
			rec := s.get(t, "/api/nodes/"+bad)
			wantStatus(t, rec, http.StatusBadRequest)
			if msg := errorMessage(t, rec); !strings.Contains(msg, "not a wallet address") {
				t.Fatalf("message %q", msg)
			}
		})
	}
}

type nodeDetailBody struct {
	nodeBody
	Owner    *string `json:"owner"`
	PriceWei string  `json:"priceWei"`
	Credits  []struct {
		ID             int64   `json:"id"`
		DistributionID int64   `json:"distributionId"`
		AmountWei      string  `json:"amountWei"`
		CreatedAt      *string `json:"createdAt"`
	} `json:"credits"`
	Withdrawals []struct {
		ID                  int64   `json:"id"`
		AmountWei           string  `json:"amountWei"`
		CumulativeSignedWei string  `json:"cumulativeSignedWei"`
		ToAddress           *string `json:"toAddress"`
		TxHash              *string `json:"txHash"`
		Status              *string `json:"status"`
		CreatedAt           *string `json:"createdAt"`
		ConfirmedAt         *string `json:"confirmedAt"`
	} `json:"withdrawals"`
}

func TestNode(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	// Recorded out of the chain's order: each node's id is its chain id all the same.
	row1 := storetest.Node(t, db, "2", alice, t0)
	row2 := storetest.Node(t, db, "1", alice, t0)
	row3 := storetest.Node(t, db, "77", bob, t0)
	big := storetest.Node(t, db, "9223372036854775807", bob, t0) // the largest id a node can have
	round := storetest.Distribution(t, db, "100", "confirmed", t0, &t0)
	pending := storetest.Distribution(t, db, "100", "pending", t0, nil)

	// 60 credits and 60 withdrawals on row 1, with creation times that tie in pairs, so the id
	// breaks the tie.
	var credits, withdrawals []int64
	for i := range 60 {
		at := t0.Add(time.Duration(i/2) * time.Minute)
		d := storetest.Distribution(t, db, "1", "confirmed", at, &at)
		credits = append(credits, storetest.Credit(t, db, d, row1, fmt.Sprint(i+1), at))
		withdrawals = append(withdrawals, storetest.Withdrawal(t, db, row1, fmt.Sprint(i+1), bob, at))
	}
	storetest.Credit(t, db, pending, row1, "999", t0.Add(time.Hour)) // not confirmed: not shown
	storetest.Credit(t, db, round, row3, "5", t0)
	s := newServer(t, db, handlers.Config{})

	newestFirst := func(ids []int64, n int) []int64 {
		var out []int64
		for i := len(ids) - 1; i >= 0 && len(out) < n; i-- {
			out = append(out, ids[i])
		}
		return out
	}

	t.Run("by chain node id, echoing both ids", func(t *testing.T) {
		n := decode[nodeDetailBody](t, s.get(t, "/api/node/1"))
		if n.ID != row2 || n.ChainNodeID != "1" {
			t.Fatalf("got id %d chain id %s, want row %d chain id 1", n.ID, n.ChainNodeID, row2)
		}
		if n.Owner == nil || *n.Owner != alice || n.PriceWei != "100000000000000000" {
			t.Fatalf("owner %v priceWei %s", n.Owner, n.PriceWei)
		}
		if n.Credits == nil || n.Withdrawals == nil || len(n.Credits)+len(n.Withdrawals) != 0 {
			t.Fatalf("a node without history must have [] lists, got %+v %+v", n.Credits, n.Withdrawals)
		}
	})
	t.Run("one id space: the row id is the chain id", func(t *testing.T) {
		for _, want := range []struct {
			row   int64
			chain string
		}{{row1, "2"}, {row2, "1"}, {row3, "77"}, {big, "9223372036854775807"}} {
			n := decode[nodeDetailBody](t, s.get(t, "/api/node/"+want.chain))
			if n.ID != want.row || fmt.Sprint(n.ID) != want.chain || n.ChainNodeID != want.chain {
				t.Fatalf("/api/node/%s: got id %d chain id %s, want row %d", want.chain, n.ID, n.ChainNodeID, want.row)
			}
		}
	})
	t.Run("404 for an id past a bigint, up to 2^256-1", func(t *testing.T) {
		for _, id := range []string{"9223372036854775808", maxU256} {
			rec := s.get(t, "/api/node/"+id)
			wantStatus(t, rec, http.StatusNotFound)
			if msg := errorMessage(t, rec); msg != "No node has the id "+id+"." {
				t.Fatalf("message %q", msg)
			}
		}
	})
	t.Run("credits and withdrawals newest first by time then id, default limit 50", func(t *testing.T) {
		n := decode[nodeDetailBody](t, s.get(t, "/api/node/2"))
		if n.ID != row1 {
			t.Fatalf("got row %d", n.ID)
		}
		var gotC, gotW []int64
		for _, c := range n.Credits {
			gotC = append(gotC, c.ID)
		}
		for _, w := range n.Withdrawals {
			gotW = append(gotW, w.ID)
		}
		if fmt.Sprint(gotC) != fmt.Sprint(newestFirst(credits, 50)) {
			t.Fatalf("credits %v\nwant     %v", gotC, newestFirst(credits, 50))
		}
		if fmt.Sprint(gotW) != fmt.Sprint(newestFirst(withdrawals, 50)) {
			t.Fatalf("withdrawals %v\nwant        %v", gotW, newestFirst(withdrawals, 50))
		}
		c, w := n.Credits[0], n.Withdrawals[0]
		if c.AmountWei != "60" || c.CreatedAt == nil || *c.CreatedAt != "2026-03-01T12:29:00.000Z" {
			t.Fatalf("credit %+v", c)
		}
		if w.AmountWei != "60" || w.CumulativeSignedWei != "0" || w.Status == nil || *w.Status != "sent" ||
			w.ToAddress == nil || *w.ToAddress != bob || w.TxHash == nil || w.ConfirmedAt == nil {
			t.Fatalf("withdrawal %+v", w)
		}
	})
	t.Run("limit applies to each list", func(t *testing.T) {
		n := decode[nodeDetailBody](t, s.get(t, "/api/node/2?limit=3"))
		if len(n.Credits) != 3 || len(n.Withdrawals) != 3 || n.Credits[0].ID != credits[59] {
			t.Fatalf("got %d credits, %d withdrawals", len(n.Credits), len(n.Withdrawals))
		}
		n = decode[nodeDetailBody](t, s.get(t, "/api/node/2?limit=200"))
		if len(n.Credits) != 60 || len(n.Withdrawals) != 60 {
			t.Fatalf("limit 200: got %d credits, %d withdrawals, want all 60 of each", len(n.Credits), len(n.Withdrawals))
		}
	})
	t.Run("404 with a sentence", func(t *testing.T) {
		rec := s.get(t, "/api/node/123456")
		wantStatus(t, rec, http.StatusNotFound)
		if msg := errorMessage(t, rec); msg != "No node has the id 123456." {
			t.Fatalf("message %q", msg)
		}
	})
	for _, id := range []string{"", "0", "-1", "abc", "1.5", "1e3", "0x1", "+1", "%201", "1%00",
		"115792089237316195423570985008687907853269984665640564039457584007913129639936", // 2^256
		strings.Repeat("9", 500)} {
		t.Run("400 for id "+id, func(t *testing.T) {
			rec := s.get(t, "/api/node/"+id)
			wantStatus(t, rec, http.StatusBadRequest)
			if msg := errorMessage(t, rec); !strings.Contains(msg, "positive whole number") {
				t.Fatalf("message %q", msg)
			}
		})
	}
	t.Run("leading zeros are still the number", func(t *testing.T) {
		if n := decode[nodeDetailBody](t, s.get(t, "/api/node/0077")); n.ID != row3 {
			t.Fatalf("got row %d, want %d", n.ID, row3)
		}
	})
	for _, limit := range []string{"0", "201", "-1", "abc", "1.5", "", "99999999999999999999"} {
		t.Run("400 for limit "+limit, func(t *testing.T) {
			rec := s.get(t, "/api/node/1?limit="+limit)
			wantStatus(t, rec, http.StatusBadRequest)
			if msg := errorMessage(t, rec); !strings.Contains(msg, "limit must be a whole number from 1 to 200") {
				t.Fatalf("message %q", msg)
			}
		})
	}
}

func TestDistributions(t *testing.T) {
	t.Parallel()
	t.Run("none is [] with 200", func(t *testing.T) {
		db := storetest.New(t)
		rec := newServer(t, db, handlers.Config{}).get(t, "/api/distributions")
		wantStatus(t, rec, http.StatusOK)
		if got := strings.TrimSpace(rec.Body.String()); got != "[]" {
			t.Fatalf("got %s", got)
		}
	})

	db := storetest.New(t)
	var ids []int64
	for i := range 120 {
		at := t0.Add(time.Duration(i/2) * time.Minute) // pairs tie on time: id breaks the tie
		status, confirmed := "confirmed", &at
		if i == 119 {
			status, confirmed = "pending", nil
		}
		ids = append(ids, storetest.Distribution(t, db, fmt.Sprint(i+1), status, at, confirmed))
	}
	s := newServer(t, db, handlers.Config{})
	type round struct {
		ID          int64   `json:"id"`
		TotalWei    string  `json:"totalWei"`
		NodeCount   int     `json:"nodeCount"`
		Mode        string  `json:"mode"`
		Status      string  `json:"status"`
		TxHash      *string `json:"txHash"`
		CreatedAt   *string `json:"createdAt"`
		ConfirmedAt *string `json:"confirmedAt"`
	}
	for _, tc := range []struct {
		query string
		want  int
	}{{"", 50}, {"?limit=1", 1}, {"?limit=100", 100}, {"?limit=7", 7}} {
		t.Run("newest first, limit "+tc.query, func(t *testing.T) {
			rec := s.get(t, "/api/distributions"+tc.query)
			// Said up front, not chunked: 50 rounds are more than net/http buffers before it sends.
			if cl := rec.Header().Get("Content-Length"); cl != strconv.Itoa(rec.Body.Len()) {
				t.Fatalf("Content-Length %q for a body of %d bytes", cl, rec.Body.Len())
			}
			rounds := decode[[]round](t, rec)
			if len(rounds) != tc.want {
				t.Fatalf("got %d rounds, want %d", len(rounds), tc.want)
			}
			for i, r := range rounds {
				if want := ids[len(ids)-1-i]; r.ID != want {
					t.Fatalf("round %d is id %d, want %d", i, r.ID, want)
				}
			}
		})
	}
	t.Run("shape", func(t *testing.T) {
		rounds := decode[[]round](t, s.get(t, "/api/distributions?limit=2"))
		p, c := rounds[0], rounds[1]
		if p.Status != "pending" || p.ConfirmedAt != nil || p.TotalWei != "120" || p.TxHash != nil {
			t.Fatalf("pending round %+v", p)
		}
		if c.Status != "confirmed" || c.ConfirmedAt == nil || *c.ConfirmedAt != "2026-03-01T12:59:00.000Z" || c.Mode != "fixed" {
			t.Fatalf("confirmed round %+v", c)
		}
	})
	t.Run("memoised for a second, each limit, then served stale while one query refreshes it", func(t *testing.T) {
		db := storetest.New(t)
		storetest.Distribution(t, db, "1", "confirmed", t0, &t0)
		var mu sync.Mutex
		now := time.Now()
		clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
		step := func(d time.Duration) { mu.Lock(); defer mu.Unlock(); now = now.Add(d) }
		s := newServer(t, db, handlers.Config{Now: clock})
		count := func(query string) int { return len(decode[[]round](t, s.get(t, "/api/distributions"+query))) }
		if n := count(""); n != 1 {
			t.Fatalf("%d rounds, want 1", n)
		}
		storetest.Distribution(t, db, "2", "pending", t0.Add(time.Hour), nil)
		if n := count(""); n != 1 {
			t.Fatalf("within its second the memo gave %d rounds, want the memoised 1", n)
		}
		if n := count("?limit=5"); n != 2 {
			t.Fatalf("another limit, not memoised yet, gave %d rounds, want 2", n)
		}
		step(time.Second + time.Millisecond)
		count("") // stale: answered from memory while one query refreshes it
		deadline := time.Now().Add(5 * time.Second)
		for count("") != 2 {
			if time.Now().After(deadline) {
				t.Fatal("the memo was not refreshed once stale")
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
	for _, limit := range []string{"0", "101", "-5", "ten", "", "2.0"} {
		t.Run("400 for limit "+limit, func(t *testing.T) {
			rec := s.get(t, "/api/distributions?limit="+limit)
			wantStatus(t, rec, http.StatusBadRequest)
			if msg := errorMessage(t, rec); !strings.Contains(msg, "from 1 to 100") {
				t.Fatalf("message %q", msg)
			}
		})
	}
}

func TestDeployQuote(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Small", "300000000000000000", true)
	storetest.Tier(t, db, 2, "Cheap but closed", "1", false)
	storetest.Tier(t, db, 3, "Cheapest on sale", "200000000000000000", true)

	t.Run("503 without a payments address", func(t *testing.T) {
		rec := newServer(t, db, handlers.Config{ChainID: 1337}).get(t, "/api/deploy-quote")
		wantStatus(t, rec, http.StatusServiceUnavailable)
		if msg := errorMessage(t, rec); !strings.Contains(msg, "No payments address") {
			t.Fatalf("message %q", msg)
		}
		if strings.Contains(rec.Body.String(), "0x0000000000000000000000000000000000000000") {
			t.Fatal("answered with the zero address")
		}
	})
	t.Run("the cheapest tier on sale", func(t *testing.T) {
		rec := newServer(t, db, handlers.Config{ChainID: 1337, PaymentAddress: payTo}).get(t, "/api/deploy-quote")
		wantStatus(t, rec, http.StatusOK)
		want := `{"chainId":1337,"paymentAddress":"` + payTo + `","priceWei":"200000000000000000","tier":"3"}`
		if got := strings.TrimSpace(rec.Body.String()); got != want {
			t.Fatalf("got %s\nwant %s", got, want)
		}
	})
	t.Run("503 when nothing is on sale", func(t *testing.T) {
		db := storetest.New(t)
		storetest.Tier(t, db, 1, "Closed", "1", false)
		rec := newServer(t, db, handlers.Config{ChainID: 1337, PaymentAddress: payTo}).get(t, "/api/deploy-quote")
		wantStatus(t, rec, http.StatusServiceUnavailable)
	})
}

// fakePrice stands in for the remote ETH/USD source, which cannot run here.
type fakePrice struct {
	calls   atomic.Int32
	usd     float64
	err     error
	release chan struct{} // when set, each call waits for it
}

func (f *fakePrice) USDPerETH(ctx context.Context) (float64, error) {
	f.calls.Add(1)
	if f.release != nil {
		<-f.release
	}
	return f.usd, f.err
}

func TestPrice(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	t.Run("null without a source", func(t *testing.T) {
		rec := newServer(t, db, handlers.Config{}).get(t, "/api/price")
		wantStatus(t, rec, http.StatusOK)
		if got := strings.TrimSpace(rec.Body.String()); got != `{"usd":null}` {
			t.Fatalf("got %s", got)
		}
	})
	t.Run("the source's quote, read once for a burst of callers", func(t *testing.T) {
		src := &fakePrice{usd: 3141.59, release: make(chan struct{})}
		s := newServer(t, db, handlers.Config{Price: src})
		var wg sync.WaitGroup
		bodies := make([]string, 20)
		for i := range bodies {
			wg.Add(1)
			go func() {
				defer wg.Done()
				bodies[i] = strings.TrimSpace(s.get(t, "/api/price").Body.String())
			}()
		}
		for src.calls.Load() == 0 {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(20 * time.Millisecond) // let the other callers queue behind the first read
		close(src.release)
		wg.Wait()
		for _, b := range bodies {
			if b != `{"usd":3141.59}` {
				t.Fatalf("got %s", b)
			}
		}
		s.get(t, "/api/price")
		if n := src.calls.Load(); n != 1 {
			t.Fatalf("source read %d times, want once a minute for everyone", n)
		}
	})
	t.Run("a failing source is null, and is not asked again within the minute", func(t *testing.T) {
		src := &fakePrice{err: errors.New("upstream down")}
		s := newServer(t, db, handlers.Config{Price: src})
		for range 3 {
			if got := strings.TrimSpace(s.get(t, "/api/price").Body.String()); got != `{"usd":null}` {
				t.Fatalf("got %s", got)
			}
		}
		if n := src.calls.Load(); n != 1 {
			t.Fatalf("source read %d times, want 1", n)
		}
	})
	t.Run("a nonsense quote is null", func(t *testing.T) {
		rec := newServer(t, db, handlers.Config{Price: &fakePrice{usd: -1}}).get(t, "/api/price")
		if got := strings.TrimSpace(rec.Body.String()); got != `{"usd":null}` {
			t.Fatalf("got %s", got)
		}
	})
}

func TestCacheControl(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Small", "1", true)
	storetest.Node(t, db, "1", alice, t0)
	s := newServer(t, db, handlers.Config{ChainID: 1, PaymentAddress: payTo})
	for _, tc := range []struct{ path, want string }{
		{"/api/stats", "public, max-age=0, s-maxage=10, stale-while-revalidate=30"},
		{"/api/nodes/" + alice, "public, max-age=0, s-maxage=5, stale-while-revalidate=15"},
		{"/api/node/1", "public, max-age=0, s-maxage=5, stale-while-revalidate=15"},
		{"/api/distributions", "public, max-age=0, s-maxage=10, stale-while-revalidate=30"},
		{"/api/deploy-quote", "public, max-age=0, s-maxage=30, stale-while-revalidate=90"},
		{"/api/price", "public, max-age=60"},
		// Errors are never cached.
		{"/api/node/0", "no-store"},
		{"/api/node/999", "no-store"},
		{"/api/nope", "no-store"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			if got := s.get(t, tc.path).Header().Get("Cache-Control"); got != tc.want {
				t.Fatalf("Cache-Control %q, want %q", got, tc.want)
			}
		})
	}
}

// TestHeadWhereverGet asks every GET route with HEAD, through net/http as a client would: the
// same status and headers as GET, rate limit included, and no body.
func TestHeadWhereverGet(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Node(t, db, "1", alice, t0)
	s := newServer(t, db, handlers.Config{ChainID: 1, PaymentAddress: payTo, AdminKey: adminKey})
	srv := httptest.NewServer(s.e)
	defer srv.Close()
	params := strings.NewReplacer(":id", "1", ":address", alice, ":hash", "0", ":name", "style.css")
	send := func(method, path string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, nil)
		req.Header.Set("X-Admin-Key", adminKey)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res, body
	}
	checked := 0
	for _, r := range s.e.Routes() {
		if r.Method != http.MethodGet || strings.Contains(r.Path, "*") {
			continue
		}
		path := params.Replace(r.Path)
		t.Run(path, func(t *testing.T) {
			get, _ := send(http.MethodGet, path)
			head, body := send(http.MethodHead, path)
			if head.Header.Get("X-Ratelimit-Reset") != get.Header.Get("X-Ratelimit-Reset") {
				// The two fell in different one-minute windows: the second started afresh.
				get, _ = send(http.MethodGet, path)
				head, body = send(http.MethodHead, path)
			}
			if head.StatusCode != get.StatusCode || len(body) != 0 {
				t.Fatalf("HEAD: %d with %d bytes; GET: %d", head.StatusCode, len(body), get.StatusCode)
			}
			for _, h := range []string{"Content-Type", "Cache-Control", "X-Ratelimit-Limit", "Content-Security-Policy"} {
				if head.Header.Get(h) != get.Header.Get(h) {
					t.Errorf("%s: HEAD %q, GET %q", h, head.Header.Get(h), get.Header.Get(h))
				}
			}
			if lim := get.Header.Get("X-Ratelimit-Remaining"); lim != "" {
				g, _ := strconv.Atoi(lim)
				if h, _ := strconv.Atoi(head.Header.Get("X-Ratelimit-Remaining")); h != g-1 {
					t.Errorf("remaining after GET %d, after HEAD %d: HEAD must count", g, h)
				}
			}
		})
		checked++
	}
	if checked < 20 {
		t.Fatalf("only %d GET routes", checked)
	}
}
