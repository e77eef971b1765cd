package chain

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// rpcFailures counts calls to the node that failed for the transport or the node itself (each
// attempt, retried or not), as opposed to the request: a rising rate is a sick RPC.
var rpcFailures = promauto.NewCounter(prometheus.CounterOpts{
	Name: "nodeledger_rpc_failures_total",
	Help: "JSON-RPC attempts that failed for the transport or the node (timeouts, resets, 5xx).",
})
