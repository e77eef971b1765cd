package memo

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// keptReads counts the reads of each named Watched by what answered them, so that an operator
// sees how much of a route memory spares the database.
var keptReads = promauto.NewCounterVec(prometheus.CounterOpts{
	Name: "nodeledger_kept_reads_total",
	Help: "Reads of what an instance keeps until the ledger announces a change (payments: a tracker's rows; wallets: /api/nodes/{address}), by what answered: memory or the ledger.",
}, []string{"kept", "from"})
