package handlers

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"nodeledger/chain"
	"nodeledger/jobs"
	"nodeledger/store"
	"nodeledger/views"
	"nodeledger/views/words"
)

// healthJSON is the scheduler health reading; every pointer is null when it could not be read.
type healthJSON struct {
	LastTickAt            *string `json:"lastTickAt"`
	SecondsSinceLastTick  *int64  `json:"secondsSinceLastTick"`
	Stale                 bool    `json:"stale"`
	StaleAfterSec         int     `json:"staleAfterSec"`
	TickSec               int     `json:"tickSec"`
	DistEnabled           bool    `json:"distEnabled"`
	DistMode              string  `json:"distMode"`
	Paused                *bool   `json:"paused"`
	DueNodes              int64   `json:"dueNodes"`
	ScheduledNodes        int64   `json:"scheduledNodes"`
	DistributorBalanceWei *string `json:"distributorBalanceWei"`
	ContractBalanceWei    *string `json:"contractBalanceWei"`
	OutstandingWei        *string `json:"outstandingWei"`
	IsSolvent             *bool   `json:"isSolvent"`
	// InternalTransfers says whether payments sent by contract wallets are seen (jobs'
	// InternalTransfers): "traced", "unsupported" when the RPC has no debug_traceBlockByNumber
	// (their ETH is then listed as unattributed inflows), "not needed" while no block scanned
	// needed a trace; null before the first scan.
	InternalTransfers *string `json:"internalTransfers"`
	// Outbox is absent when the ledger could not be read for it.
	Outbox *outboxJSON `json:"outbox,omitempty"`
	// MinterBalanceWei is the minter's balance; null when unreadable. MinterMintsLeft is about
	// how many mints it pays for at today's fees; null when either figure is unreadable.
	MinterBalanceWei *string    `json:"minterBalanceWei"`
	MinterMintsLeft  *int64     `json:"minterMintsLeft"`
	Passes           passesJSON `json:"passes"`
	RPC              rpcJSON    `json:"rpc"`
	// Sweeps is where the payments wallet's sweeps to the treasury stand; absent when the
	// ledger or the chain could not be read for it.
	Sweeps *sweepsJSON `json:"sweeps,omitempty"`
	// VerifiedToBlock is the last block up to which the ledger agrees with its rebuild from the
	// chain and the settings log (the continuous verifier); null before it verified a block, or
	// with VERIFY=off.
	VerifiedToBlock *int64 `json:"verifiedToBlock"`
	// Degraded is true while any pass has failed degradedAfter times in a row or more, an RPC
	// endpoint is stale or failing (rpc.status is not ok), or the minter pays for fewer than
	// Config.MinterLowMints mints; DegradedReasons says which, empty when none.
	Degraded        bool                 `json:"degraded"`
	DegradedReasons []degradedReasonJSON `json:"degradedReasons"`
	// Database is what the ledger's primary says of its standbys; null when that cannot be read
	// (the database's user is no member of pg_monitor).
	Database *databaseJSON `json:"database"`
	// ReadReplicaLagSec is how far behind the primary the standby that serves the public read
	// routes is (DATABASE_READ_URL; past READ_MAX_LAG_SEC they read the primary); null when there
	// is none or it cannot be measured.
	ReadReplicaLagSec *float64 `json:"readReplicaLagSec"`
}

// databaseJSON: how many standbys stream from the primary, how many of them synchronously, and
// the longest any takes to replay what it wrote.
type databaseJSON struct {
	Standbys        int     `json:"standbys"`
	Synchronous     int     `json:"synchronousStandbys"`
	MaxReplayLagSec float64 `json:"maxReplayLagSec"`
}

// sweepsJSON: enabled, or off with the reason why (a sentence); the settings; the last sweep
// that reached the treasury; and since which block the payments wallet holds more than minWei
// above what it keeps (null: it does not).
type sweepsJSON struct {
	Enabled           bool       `json:"enabled"`
	Off               *string    `json:"off"`
	KeepWei           string     `json:"keepWei"`
	MinWei            string     `json:"minWei"`
	EveryBlocks       uint64     `json:"everyBlocks"`
	LastSweep         *sweepJSON `json:"lastSweep"`
	OverMinSinceBlock *int64     `json:"overMinSinceBlock"`
}

// degradedReasonJSON is one reason health is degraded: code is stable (passes_failing,
// rpc_not_ok, minter_low, sweeps_overdue, ledger_mismatch, db_no_sync_standby,
// db_standby_lagging), reason a sentence for people.
type degradedReasonJSON struct {
	Code   string `json:"code"`
	Reason string `json:"reason"`
}

// rpcJSON is how the chain's JSON-RPC endpoints (ETH_RPC_URL) do: status is "ok", "degraded"
// (one is stale or failing, another serves) or "unhealthy" (every one fails).
type rpcJSON struct {
	Status    views.RPCStatus `json:"status"`
	Endpoints []endpointJSON  `json:"endpoints"`
}

// endpointJSON is one endpoint, named by its place in ETH_RPC_URL only ("endpoint 1"): the
// route is public, and a provider's per-customer host names the account as its path holds keys.
type endpointJSON struct {
	Endpoint     string `json:"endpoint"`
	Head         *int64 `json:"head"` // null: not read yet
	BehindBlocks int64  `json:"behindBlocks"`
	State        string `json:"state"` // ok, stale or failing
}

// passesJSON is how each pass went lately, wherever it ran (any instance's tick, a cron route,
// the operator page): every instance reads the same from the ledger.
type passesJSON struct {
	Payments  passJSON `json:"payments"`
	Credit    passJSON `json:"credit"`
	Reconcile passJSON `json:"reconcile"`
	Sweep     passJSON `json:"sweep"`
}

type passJSON struct {
	LastOKAt  *string `json:"lastOkAt"`  // null: it never succeeded
	LastError *string `json:"lastError"` // why it fails, while it does: a sentence; else null
	Failures  int     `json:"failures"`  // failed runs in a row
}

// outboxJSON is what health says of the transactions the service sent.
type outboxJSON struct {
	Waiting          int     `json:"waiting"`
	OldestWaitingSec *int64  `json:"oldestWaitingSec"`
	Replacements     int64   `json:"replacements"`
	AtFeeCap         int     `json:"atFeeCap"`
	MaxFeeWei        *string `json:"maxFeeWei"`
}

// Health answers GET /api/cron/health: the scheduler's last tick from the ledger and the
// contract's figures from the chain. A chain reading that fails is null, never zero; no account
// address appears.
func (h *Handlers) Health(c echo.Context) error {
	r, err := h.health(c.Request().Context())
	if err != nil {
		return err
	}
	out := healthJSON{
		StaleAfterSec:     r.StaleAfterSec,
		TickSec:           r.TickSec,
		DistEnabled:       r.DistEnabled,
		DistMode:          string(r.DistMode),
		DueNodes:          r.Schedule.DueNodes,
		ScheduledNodes:    r.Schedule.ScheduledNodes,
		Stale:             r.Stale,
		LastTickAt:        isoTime(r.Schedule.LastTickAt),
		InternalTransfers: r.InternalTransfers,
	}
	if r.Schedule.LastTickAt != nil {
		since := int64(r.SinceTick.Seconds())
		out.SecondsSinceLastTick = &since
	}
	if cv := r.Cover; cv != nil {
		out.Paused, out.IsSolvent = &cv.Paused, &cv.Solvent
		out.ContractBalanceWei, out.OutstandingWei = weiPtr(cv.Balance), weiPtr(cv.Outstanding)
	}
	if r.DistributorBalance != nil {
		out.DistributorBalanceWei = weiPtr(r.DistributorBalance)
	}
	if sg := r.Signers; sg.MinterBalance != nil {
		out.MinterBalanceWei = weiPtr(sg.MinterBalance)
		if n := sg.MintsLeft; n != nil {
			left := int64(math.MaxInt64) // more than anyone will mint
			if n.IsInt64() {
				left = n.Int64()
			}
			out.MinterMintsLeft = &left
		}
	}
	out.RPC = rpcJSON{Status: r.RPC.Status, Endpoints: []endpointJSON{}}
	for _, ep := range r.RPC.Endpoints {
		ej := endpointJSON{Endpoint: ep.Label, BehindBlocks: int64(ep.Behind), State: string(ep.State)}
		if ep.Head > 0 {
			head := int64(ep.Head)
			ej.Head = &head
		}
		out.RPC.Endpoints = append(out.RPC.Endpoints, ej)
	}
	out.VerifiedToBlock = r.Verification.VerifiedTo
	if r.ReadLag != nil {
		out.ReadReplicaLagSec = new(r.ReadLag.Seconds())
	}
	if rep := r.Replication; rep != nil && rep.Known {
		out.Database = &databaseJSON{Standbys: rep.Standbys, Synchronous: rep.Synchronous, MaxReplayLagSec: rep.MaxReplayLagSec}
	}
	out.Degraded, out.DegradedReasons = len(r.Degraded) > 0, []degradedReasonJSON{}
	for _, d := range r.Degraded {
		out.DegradedReasons = append(out.DegradedReasons, degradedReasonJSON{Code: d.Code, Reason: d.Reason})
	}
	for _, p := range r.Signers.Passes {
		pj := passJSON{LastOKAt: isoTime(p.LastOKAt), LastError: p.Error, Failures: p.Failures}
		switch store.PassName(p.Name) {
		case store.PassPayments:
			out.Passes.Payments = pj
		case store.PassCredit:
			out.Passes.Credit = pj
		case store.PassReconcile:
			out.Passes.Reconcile = pj
		case store.PassSweep:
			out.Passes.Sweep = pj
		}
	}
	if sw := r.Sweeps; sw != nil {
		out.Sweeps = &sweepsJSON{Enabled: sw.Off == "", KeepWei: sw.KeepWei.String(), MinWei: sw.MinWei.String(),
			EveryBlocks: sw.EveryBlocks, LastSweep: sweepOf(sw.Last), OverMinSinceBlock: sw.OverMinSince}
		if sw.Off != "" {
			out.Sweeps.Off = &sw.Off
		}
	}
	if ob := r.Outbox; ob != nil {
		out.Outbox = &outboxJSON{Waiting: ob.Waiting, Replacements: ob.Replacements, AtFeeCap: ob.AtCap}
		if ob.OldestAt != nil {
			age := int64(time.Since(*ob.OldestAt).Seconds())
			out.Outbox.OldestWaitingSec = &age
		}
		if r.MaxFeeWei != nil {
			out.Outbox.MaxFeeWei = weiPtr(r.MaxFeeWei)
		}
	}
	return c.JSON(http.StatusOK, out)
}

// HealthPage answers GET /status and GET /health, for buyers: one verdict on how payments go
// now, then the parts they rely on. It reads only those (views.HealthPage): the signers' funds,
// the outbox, the sweeps and the standbys are the operator page's (h.service).
func (h *Handlers) HealthPage(c echo.Context) error {
	ctx := c.Request().Context()
	r := views.Health{
		Service:     views.Service{RPC: rpcView(h.chain.Endpoints())},
		DistEnabled: h.cfg.DistEnabled,
		DistMode:    h.cfg.DistMode,
		Contract:    strings.ToLower(h.chain.Factory().Hex()),
	}
	var err error
	if r.Verification, err = h.store.Verification(ctx); err != nil {
		return err
	}
	if r.Status, err = h.status(ctx); err != nil {
		return err
	}
	if cv, err := h.chain.Cover(ctx); err != nil {
		h.log.Warn("status: chain unreadable", "err", err)
	} else {
		r.Cover = coverView(cv)
	}
	r.Degraded = degradedReasons(r, h.cfg.RequireSyncStandby) // the ledger's mismatch among them
	return render(c, http.StatusOK, views.HealthPage(r))
}

// waitedTooLong is how long the oldest payment may wait to be minted after it confirmed before
// the status says payments are delayed: many blocks' mints, on any chain.
const waitedTooLong = 5 * time.Minute

// status is the public verdict from the live figures: minting held by the operator; else
// delayed when the chain cannot be read, the payments scan is more than readyLagBlocks blocks
// behind the confirmed head, or a payment has waited waitedTooLong; else how long minting takes.
func (h *Handlers) status(ctx context.Context) (views.Status, error) {
	now := h.cfg.Now()
	held, err := h.store.MintingHeld(ctx)
	if err != nil {
		return views.Status{}, err
	}
	flow, err := h.store.PaymentFlow(ctx, now.Add(-time.Hour))
	if err != nil {
		return views.Status{}, err
	}
	s := views.Status{Verdict: views.VerdictQuiet, Minted: flow.Minted}
	if flow.MintDelaySec != nil {
		s.Verdict, s.Delay = views.VerdictMinting, time.Duration(*flow.MintDelaySec*float64(time.Second))
	}
	if held {
		s.Verdict = views.VerdictPaused
		return s, nil
	}
	head, err := h.head.Get(ctx)
	if err != nil {
		s.Verdict, s.ChainUnreadable = views.VerdictDelayed, true
		return s, nil
	}
	cur, err := h.store.Cursor(ctx, store.PaymentsScanner)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return views.Status{}, err
	}
	if confirmed := int64(head) - int64(h.jobs.Confirmations()); err == nil && confirmed-cur.Number > readyLagBlocks {
		s.Verdict, s.Behind = views.VerdictDelayed, uint64(confirmed-cur.Number)
	} else if w := flow.OldestWaitingAt; w != nil && now.Sub(*w) > waitedTooLong {
		s.Verdict, s.Waited = views.VerdictDelayed, now.Sub(*w)
	}
	return s, nil
}

// health takes the scheduler health reading that /api/cron/health and /health show.
func (h *Handlers) health(ctx context.Context) (views.Health, error) {
	r := views.Health{
		DistEnabled: h.cfg.DistEnabled,
		DistMode:    h.cfg.DistMode,
		Contract:    strings.ToLower(h.chain.Factory().Hex()),
	}
	if ob, err := h.jobs.Outbox(ctx); err != nil {
		h.log.Warn("health: outbox unreadable", "err", err)
	} else {
		r.Outbox, r.MaxFeeWei = &ob, h.jobs.MaxFee()
	}
	// The ledger's readings before the chain's, which may take the request's time when the RPC
	// is slow.
	statuses, err := h.store.PassStatuses(ctx)
	if err != nil {
		return views.Health{}, err
	}
	if r.Verification, err = h.store.Verification(ctx); err != nil {
		return views.Health{}, err
	}
	if r.Service, err = h.service(ctx); err != nil {
		return views.Health{}, err
	}
	// The chain's readings side by side: each may take the RPC's time.
	var funds jobs.Funds
	var wg sync.WaitGroup
	wg.Go(func() { funds = h.jobs.Funds(ctx) })
	if cv, err := h.chain.Cover(ctx); err != nil {
		h.log.Warn("health: chain unreadable", "err", err)
	} else {
		r.Cover = coverView(cv)
	}
	wg.Wait()
	r.DistributorBalance = funds.Distributor
	r.Signers = h.signersView(funds, statuses)
	r.Degraded = degradedReasons(r, h.cfg.RequireSyncStandby)
	return r, nil
}

// service reads the service's own parts: the worker's schedule, the chain's endpoints, the
// sweeps, the database's standbys, the tracing of contract wallets' payments.
func (h *Handlers) service(ctx context.Context) (views.Service, error) {
	sc, err := h.store.Schedule(ctx)
	if err != nil {
		return views.Service{}, err
	}
	s := views.Service{
		Schedule:      sc,
		StaleAfterSec: h.cfg.StaleAfterSec,
		TickSec:       h.cfg.TickSec,
		Stale:         true, // a worker that never ticked is stale
		RPC:           rpcView(h.chain.Endpoints()),
	}
	if sc.LastTickAt != nil {
		s.SinceTick = time.Since(*sc.LastTickAt)
		s.Stale = s.SinceTick > time.Duration(h.cfg.StaleAfterSec)*time.Second
	}
	if v := h.jobs.InternalTransfers(); v != "" {
		s.InternalTransfers = &v
	}
	if rep, err := h.store.Replication(ctx); err != nil {
		h.log.Warn("health: the database's standbys unreadable", "err", err)
	} else {
		s.Replication = &rep
	}
	if lag, ok := h.cfg.Reads.Lag(); ok {
		s.ReadLag = &lag
	}
	s.Sweeps = h.sweepsView(ctx) // last: it reads the chain
	return s, nil
}

// maxStandbyLag is how far behind a standby may replay before health says it lags: past it, a
// failover to it would wait that long to take writes.
const maxStandbyLag = 5 * time.Second

// degradedReasons says why r is degraded, each with its code and a sentence; none when it is not.
// syncStandby is Config.RequireSyncStandby.
func degradedReasons(r views.Health, syncStandby bool) []views.DegradedReason {
	var out []views.DegradedReason
	if rep := r.Replication; rep != nil && rep.Known {
		if syncStandby && rep.Synchronous == 0 {
			out = append(out, views.DegradedReason{Code: "db_no_sync_standby",
				Reason: "The ledger's database has no synchronous standby: a failover would lose the writes of its last moments (docs/operations.md, \"Lose the primary\")."})
		}
		if lag := time.Duration(rep.MaxReplayLagSec * float64(time.Second)); lag > maxStandbyLag {
			out = append(out, views.DegradedReason{Code: "db_standby_lagging",
				Reason: fmt.Sprintf("A standby of the ledger's database replays %s behind its primary.", lag.Round(time.Second))})
		}
	}
	if r.Signers.Degraded {
		out = append(out, views.DegradedReason{Code: "passes_failing",
			Reason: fmt.Sprintf("A pass has failed %d times in a row or more: its lastError says why.", degradedAfter)})
	}
	if r.RPC.Status != views.RPCOK {
		out = append(out, views.DegradedReason{Code: "rpc_not_ok",
			Reason: "An RPC endpoint of the chain is stale or failing: rpc.endpoints says which."})
	}
	if sw := r.Sweeps; sw != nil && sw.Overdue {
		out = append(out, views.DegradedReason{Code: "sweeps_overdue",
			Reason: fmt.Sprintf("The payments wallet has held more than %s ETH above what it keeps since block %s, over %s blocks ago: sweeps to the treasury fail or wait (passes.sweep says why).",
				views.ReadableETH(sw.MinWei), words.Thousands(*sw.OverMinSince), words.Thousands(int64(2*sw.EveryBlocks)))})
	}
	if b := r.Verification.MismatchBlock; b != nil {
		out = append(out, views.DegradedReason{Code: "ledger_mismatch",
			Reason: fmt.Sprintf("The ledger differs from its rebuild from the chain and the settings log at block %s: `nodeledger verify --from %d --to %d` names each event that differs.",
				words.Thousands(*b), *b, *b)})
	}
	if r.Signers.Unscreened {
		out = append(out, views.DegradedReason{Code: "sanctions_unreadable",
			Reason: "The sanctions oracle (SANCTIONS_ORACLE) cannot be read: payments wait to be screened, and are judged once it answers."})
	}
	if sg := r.Signers; sg.MinterLow {
		out = append(out, views.DegradedReason{Code: "minter_low",
			Reason: fmt.Sprintf("The minter can pay for about %s at today's fees: send it ETH before buyers wait for their nodes.",
				words.Count(int(sg.MintsLeft.Int64()), "more mint", "more mints"))})
	}
	return out
}

// sweepsView is where the sweeps stand, for health; nil when the chain's head or the ledger
// cannot be read for it.
func (h *Handlers) sweepsView(ctx context.Context) *views.Sweeps {
	head, err := h.head.Get(ctx)
	if err != nil {
		return nil
	}
	sw, err := h.jobs.Sweeps(ctx, head)
	if err != nil {
		h.log.Warn("health: sweeps unreadable", "err", err)
		return nil
	}
	return &views.Sweeps{Off: sweepsOffSentence(sw.Off), Last: sw.Last, KeepWei: sw.Config.KeepWei, MinWei: sw.Config.MinWei,
		EveryBlocks: sw.Config.EveryBlocks, OverMinSince: sw.OverMinSince, Overdue: sw.Overdue}
}

// sweepsOffSentence says why there are no sweeps; "" when there are.
func sweepsOffSentence(off jobs.SweepsOff) string {
	switch off {
	case jobs.SweepsOn:
		return ""
	case jobs.SweepsNoTreasury:
		return "No treasury is configured (TREASURY_ADDRESS): the payments wallet keeps what it is paid."
	case jobs.SweepsNoPaymentWallet:
		return "No payments wallet is configured (PAYMENT_ADDRESS)."
	case jobs.SweepsNoSigner:
		return "No signer for the payments wallet (PAYMENTS_SIGNER, or PAYMENTS_KEY): the payments wallet keeps what it is paid."
	}
	return "Sweeps are off."
}

// rpcView is how the endpoints do, for the public health readings: each by its place in
// ETH_RPC_URL, never by its URL, scheme or host (the server's log and metrics name those).
func rpcView(eps []chain.Endpoint) views.RPC {
	r := views.RPC{Status: views.RPCOK, Endpoints: make([]views.RPCEndpoint, len(eps))}
	failing, ok := 0, 0
	for i, ep := range eps {
		v := views.RPCEndpoint{Label: "endpoint " + strconv.Itoa(i+1), Head: ep.Head, Behind: ep.Behind, State: views.EndpointOK}
		switch ep.State {
		case chain.EndpointStale:
			v.State = views.EndpointStale
		case chain.EndpointFailing:
			v.State, failing = views.EndpointFailing, failing+1
		case chain.EndpointWrongChain:
			v.State, failing = views.EndpointWrongChain, failing+1
		default:
			ok++
		}
		r.Endpoints[i] = v
	}
	// A stale endpoint still answers, only late: degraded; unhealthy only when none answers for
	// this chain.
	switch {
	case len(eps) > 0 && failing == len(eps):
		r.Status = views.RPCUnhealthy
	case ok < len(eps):
		r.Status = views.RPCDegraded
	}
	return r
}

// degradedAfter is how many failed runs of a pass in a row make health degraded: one is a
// hiccup the next tick repairs, three is something an operator must look at.
const degradedAfter = 3

// DefaultMinterLowMints is Config.MinterLowMints unset: under a day's mints for a busy sale, and
// enough warning to fund the minter before a buyer waits.
const DefaultMinterLowMints = 20

// signersView writes the signers' funds and the passes' status for people: each failure as a
// sentence, from its code and values. The minter is low below Config.MinterLowMints mints.
func (h *Handlers) signersView(f jobs.Funds, statuses []store.PassStatus) views.Signers {
	sg := views.Signers{MinterBalance: f.Minter, MintsLeft: f.MintsLeft()}
	low := int64(h.cfg.MinterLowMints)
	if low <= 0 {
		low = DefaultMinterLowMints
	}
	sg.MinterLow = sg.MintsLeft != nil && sg.MintsLeft.Cmp(big.NewInt(low)) < 0
	for _, st := range statuses {
		p := views.PassHealth{Name: string(st.Pass), LastOKAt: st.LastOKAt, Failures: st.Failures}
		if st.Failures > 0 && st.Error != nil {
			s := passSentence(*st.Error)
			p.Error = &s
		}
		sg.Degraded = sg.Degraded || st.Failures >= degradedAfter
		// At once: no payment is judged meanwhile.
		sg.Unscreened = sg.Unscreened || st.Failures > 0 && st.Error != nil && st.Error.Code == store.PassSanctionsUnreadable
		sg.Passes = append(sg.Passes, p)
	}
	return sg
}

// passSentence says why a pass fails, for the operator: the one place a pass error becomes
// words. It names no address, URL or query: the log has the detail.
func passSentence(e store.PassError) string {
	switch e.Code {
	case store.PassCannotPayGas:
		what := map[string]string{"distributor": "a credit round", "payments wallet": "a sweep to the treasury"}[e.Args.Signer]
		if what == "" {
			what = "a mint"
		}
		s := fmt.Sprintf("The %s cannot pay for gas", e.Args.Signer)
		if e.Args.BalanceWei.Int != nil {
			s += fmt.Sprintf(": its balance is %s ETH", views.ReadableETH(e.Args.BalanceWei))
		}
		if e.Args.NeedWei.Int != nil {
			s += fmt.Sprintf(", %s needs about %s ETH at today's fees", what, views.ReadableETH(e.Args.NeedWei))
		}
		return s + ". Send it ETH: the pass goes on by itself."
	case store.PassChainUnavailable:
		return "The chain's RPC could not be reached, or kept failing."
	case store.PassLedgerUnavailable:
		return "The database could not be reached."
	case store.PassTimedOut:
		return "The pass did not finish in its time and was cut off; the next one goes on from where it stopped."
	case store.PassSanctionsUnreadable:
		return "The sanctions oracle cannot be read: payments wait to be screened, and are judged once it answers."
	}
	return "The pass failed; the server's log says why."
}

func weiPtr(x *big.Int) *string {
	s := x.String()
	return &s
}
