package jobs

import (
	"context"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"nodeledger/jobs/sale"
	"nodeledger/store"
)

var (
	passRuns = promauto.NewCounterVec(prometheus.CounterOpts{
		Name: "nodeledger_pass_runs_total",
		Help: "Passes run by the scheduler, by pass (payments, credit, reconciler) and result (ok, error).",
	}, []string{"pass", "result"})
	passSeconds = promauto.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "nodeledger_pass_duration_seconds",
		Help:    "How long the scheduler's passes took.",
		Buckets: []float64{.05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120},
	}, []string{"pass"})
	passFailures = promauto.NewCounterVec(prometheus.CounterOpts{
		Name: "nodeledger_pass_failures_total",
		Help: "Passes that failed, by pass (payments, credit, reconcile), wherever they ran (tick, cron route, operator page).",
	}, []string{"pass"})
	passFailuresInARow = promauto.NewGaugeVec(prometheus.GaugeOpts{
		Name: "nodeledger_pass_consecutive_failures",
		Help: "Failed runs of each pass in a row since its last success, as the ledger counts them across instances; health is degraded from 3.",
	}, []string{"pass"})
	signerBalance = promauto.NewGaugeVec(prometheus.GaugeOpts{
		Name: "nodeledger_signer_balance_wei",
		Help: "Balance of each signer of the service (minter, distributor), in wei, as of the last tick or health reading.",
	}, []string{"signer"})
	paymentsCounted = promauto.NewCounterVec(prometheus.CounterOpts{
		Name: "nodeledger_payments_total",
		Help: "Payments the payments pass saw (outcome seen), whose node it recorded (minted), and rejected or held, with the reason code (reason: empty for seen and minted).",
	}, []string{"outcome", "reason"})
	paymentStage = promauto.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "nodeledger_payment_stage_seconds",
		Help:    "Seconds from a payment's block to each stage of its life: confirmed (the scan recorded it), judged (its verdict), minted (its node recorded).",
		Buckets: []float64{1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800, 3600},
	}, []string{"stage"})
	webhookDelay = promauto.NewHistogram(prometheus.HistogramOpts{
		Name:    "nodeledger_webhook_delivery_seconds",
		Help:    "Seconds from an event to its delivery (the endpoint's 2xx), retries included.",
		Buckets: []float64{.1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600},
	})
	reorgs = promauto.NewCounter(prometheus.CounterOpts{
		Name: "nodeledger_reorgs_total",
		Help: "Reorgs the payments scan took blocks back for.",
	})
	webhookAttempts = promauto.NewCounterVec(prometheus.CounterOpts{
		Name: "nodeledger_webhook_attempts_total",
		Help: "Webhook delivery tries by this instance, by outcome (delivered, failed: tried again later, given_up: the endpoint was switched off).",
	}, []string{"outcome"})
	tracedBlocks = promauto.NewCounter(prometheus.CounterOpts{
		Name: "nodeledger_scan_traced_blocks_total",
		Help: "Blocks the payments scan traced (debug_traceBlockByNumber): those where the payments wallet received ETH its own transactions do not explain, or every block while it has code.",
	})
	passRPCRequests = promauto.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "nodeledger_pass_rpc_requests",
		Help:    "JSON-RPC requests each pass made (batch elements and retries counted one each), wherever it ran.",
		Buckets: prometheus.ExponentialBuckets(1, 4, 10),
	}, []string{"pass"})
	scanBlocks = promauto.NewCounter(prometheus.CounterOpts{
		Name: "nodeledger_scan_blocks_total",
		Help: "Blocks the payments scan recorded; nodeledger_scan_rpc_requests_total over it is what the chain costs per block.",
	})
	scanRequests = promauto.NewCounter(prometheus.CounterOpts{
		Name: "nodeledger_scan_rpc_requests_total",
		Help: "JSON-RPC requests the payments scan made (batch elements and retries counted one each).",
	})
	verifiedBlock = promauto.NewGauge(prometheus.GaugeOpts{
		Name: "nodeledger_ledger_verified_block",
		Help: "The last block up to which the ledger agrees with its rebuild from the chain and the settings log.",
	})
	mismatchBlock = promauto.NewGauge(prometheus.GaugeOpts{
		Name: "nodeledger_ledger_mismatch_block",
		Help: "The first block where the ledger differs from its rebuild (0: none).",
	})
	scanLag = promauto.NewGauge(prometheus.GaugeOpts{
		Name: "nodeledger_scan_lag_blocks",
		Help: "Blocks between the chain's head and the last block the payments scan recorded.",
	})
	txReplacements = promauto.NewCounter(prometheus.CounterOpts{
		Name: "nodeledger_tx_replacements_total",
		Help: "Transactions signed again at their nonce with higher fees, after waiting TX_BUMP_BLOCKS blocks unmined.",
	})
)

// Payment stages, as nodeledger_payment_stage_seconds labels them.
const (
	stageConfirmed = "confirmed"
	stageJudged    = "judged"
	stageMinted    = "minted"
)

func init() {
	// Every series a dashboard draws exists from the start, at zero: a rate over a series
	// that appears with its first event misses that event.
	for _, o := range []string{"seen", "minted"} {
		paymentsCounted.WithLabelValues(o, "")
	}
	for _, e := range sale.Catalogue {
		paymentsCounted.WithLabelValues("rejected", string(e.Code))
	}
	for _, code := range []store.ReasonCode{sale.Sanctioned, sale.Denylisted, sale.KYCRequired} {
		paymentsCounted.WithLabelValues("held", string(code))
	}
	for _, stage := range []string{stageConfirmed, stageJudged, stageMinted} {
		paymentStage.WithLabelValues(stage)
	}
	for _, o := range []string{"delivered", "failed", "given_up"} {
		webhookAttempts.WithLabelValues(o)
	}
	for _, pass := range store.PassNames {
		passFailuresInARow.WithLabelValues(string(pass))
	}
}

// countPayments adds what a payments pass did to the payment counters.
func countPayments(sum PaymentsSummary) {
	paymentsCounted.WithLabelValues("seen", "").Add(float64(sum.Seen))
	paymentsCounted.WithLabelValues("minted", "").Add(float64(sum.Minted))
	for _, r := range sum.Reasons {
		outcome := "rejected"
		if r.Holds() {
			outcome = "held"
		}
		paymentsCounted.WithLabelValues(outcome, string(r.Code)).Inc()
	}
	if sum.Rewound > 0 {
		reorgs.Inc()
	}
}

// reached times a payment made in a block at blockTime reaching stage, in the service only: a
// rebuild's payments are not the service's. A payment recorded before block times were kept
// (nil or zero) is not timed.
func (j *Jobs) reached(stage string, blockTime *time.Time) {
	if !j.cfg.Observe && blockTime != nil && !blockTime.IsZero() {
		paymentStage.WithLabelValues(stage).Observe(time.Since(*blockTime).Seconds())
	}
}

// Collector reads, at each scrape, the figures the ledger and the chain client hold rather than
// a pass: the transactions waiting by kind, each tier's units left, each RPC endpoint's lag and
// the database's standbys. A figure that cannot be read is left out of that scrape.
func (j *Jobs) Collector() prometheus.Collector { return ledgerCollector{j} }

type ledgerCollector struct{ j *Jobs }

var (
	txsWaitingDesc = prometheus.NewDesc("nodeledger_txs_waiting",
		"Transactions the service sent that are not mined yet, by kind (mint, round, sweep).", []string{"kind"}, nil)
	txOldestDesc = prometheus.NewDesc("nodeledger_tx_oldest_waiting_seconds",
		"Age of the oldest transaction of each kind not mined yet; 0 when none waits.", []string{"kind"}, nil)
	unitsLeftDesc = prometheus.NewDesc("nodeledger_tier_units_left",
		"Nodes each tier with a supply has left to sell (its supply less those minted, minting or held for an identity check).", []string{"tier", "label"}, nil)
	endpointLagDesc = prometheus.NewDesc("nodeledger_rpc_endpoint_lag_blocks",
		"Blocks each RPC endpoint (scheme://host) is behind the best head of the endpoints.", []string{"endpoint"}, nil)
	replicationLagDesc = prometheus.NewDesc("nodeledger_db_replication_lag_seconds",
		"The longest any standby of the ledger's database takes to replay what the primary wrote (0 without a standby); absent without the right to read them (pg_monitor).", nil, nil)
	standbysDesc = prometheus.NewDesc("nodeledger_db_standbys",
		"Standbys streaming from the ledger's primary, by mode (sync: synchronous or quorum; async).", []string{"mode"}, nil)
)

func (ledgerCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{txsWaitingDesc, txOldestDesc, unitsLeftDesc, endpointLagDesc, replicationLagDesc, standbysDesc} {
		ch <- d
	}
}

// scrapeTimeout bounds the ledger's reads of one scrape.
const scrapeTimeout = 3 * time.Second

func (c ledgerCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
	defer cancel()
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	if st, err := c.j.store.OutboxStats(ctx, c.j.cfg.MaxFeeWei); err == nil {
		for _, kind := range store.TxKinds {
			k, waits := st.Kinds[kind]
			gauge(txsWaitingDesc, float64(k.Waiting), string(kind))
			age := 0.0
			if waits {
				age = time.Since(k.OldestAt).Seconds()
			}
			gauge(txOldestDesc, age, string(kind))
		}
	}
	if tiers, err := c.j.store.Tiers(ctx); err == nil {
		if sold, err := c.j.store.SoldByTier(ctx); err == nil {
			for _, t := range tiers {
				if t.Supply != nil {
					gauge(unitsLeftDesc, float64(max(*t.Supply-sold[t.ID], 0)), strconv.Itoa(t.ID), t.Label)
				}
			}
		}
	}
	for _, ep := range c.j.chain.Endpoints() {
		if ep.Head > 0 {
			gauge(endpointLagDesc, float64(ep.Behind), ep.Name)
		}
	}
	if rep, err := c.j.store.Replication(ctx); err == nil && rep.Known {
		gauge(standbysDesc, float64(rep.Synchronous), "sync")
		gauge(standbysDesc, float64(rep.Standbys-rep.Synchronous), "async")
		gauge(replicationLagDesc, rep.MaxReplayLagSec)
	}
}
