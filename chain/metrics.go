package chain

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// rpcFailures counts calls to the node that failed for the transport or the node itself (each
// attempt, retried or not), as opposed to the request, by what they were for (callName): a rising
// rate is a sick RPC.
var rpcFailures = promauto.NewCounterVec(prometheus.CounterOpts{
	Name: "nodeledger_rpc_failures_total",
	Help: "JSON-RPC attempts that failed for the transport or the node (timeouts, resets, 5xx), by what they were for.",
}, []string{"call"})

// rpcRequests counts the JSON-RPC requests made, each element of a batch and each retry one, by
// what they were for (callName).
var rpcRequests = promauto.NewCounterVec(prometheus.CounterOpts{
	Name: "nodeledger_rpc_requests_total",
	Help: "JSON-RPC requests made to the node, each element of a batch and each retry one, as providers bill them, by what they were for.",
}, []string{"call"})

// endpointHead is each endpoint's head, as the client last saw it rise.
var endpointHead = promauto.NewGaugeVec(prometheus.GaugeOpts{
	Name: "nodeledger_rpc_endpoint_head",
	Help: "The highest block number each RPC endpoint (scheme://host) answered.",
}, []string{"endpoint"})

// endpointFailures is rpcFailures per endpoint.
var endpointFailures = promauto.NewCounterVec(prometheus.CounterOpts{
	Name: "nodeledger_rpc_endpoint_failures_total",
	Help: "JSON-RPC attempts that failed for the transport or the node, per RPC endpoint (scheme://host).",
}, []string{"endpoint"})
