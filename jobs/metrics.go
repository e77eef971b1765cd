package jobs

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
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
		Help: "Payments the payments pass saw, minted and rejected.",
	}, []string{"outcome"})
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
	txsWaiting = promauto.NewGauge(prometheus.GaugeOpts{
		Name: "nodeledger_txs_waiting",
		Help: "Transactions the service sent that are not mined yet, as of the last tick or health reading.",
	})
	txOldestWaiting = promauto.NewGauge(prometheus.GaugeOpts{
		Name: "nodeledger_tx_oldest_waiting_seconds",
		Help: "Age of the oldest transaction not mined yet, as of the last tick or health reading; 0 when none waits.",
	})
)

// countPayments adds what a payments pass did to the payment counters.
func countPayments(sum PaymentsSummary) {
	paymentsCounted.WithLabelValues("seen").Add(float64(sum.Seen))
	paymentsCounted.WithLabelValues("minted").Add(float64(sum.Minted))
	paymentsCounted.WithLabelValues("rejected").Add(float64(sum.Rejected))
}
