package store

import "slices"

// The ledger's states are words in text columns (the migrations' CHECK constraints list them);
// in Go each is its own type, so a round's status cannot be compared with a payment's, and a
// typo is a compile error rather than a state no query finds. They scan and write as text through
// their string kind.

// PaymentStatus is where a payment is in the ledger (payments.status).
type PaymentStatus string

// A payment is pending until checked; then it mints, or is rejected and, once the payments wallet
// is seen paying it back, refunded; or the screening holds it until an admin releases it.
const (
	PaymentPending  PaymentStatus = "pending"  // seen, not yet checked
	PaymentMinting  PaymentStatus = "minting"  // its mint transaction is signed and stored
	PaymentMinted   PaymentStatus = "minted"   // its node is recorded
	PaymentHeld     PaymentStatus = "held"     // the screening holds it (its Reason says why): neither minted nor owed a refund
	PaymentRejected PaymentStatus = "rejected" // it buys no node (its Reason says why): a refund is owed
	PaymentRefunded PaymentStatus = "refunded" // the refund was seen on chain
)

// BuyerStatus is a payment's status as its buyer follows it (GET /api/payments/{txHash} and the
// payment's page): the ledger's, except where the buyer needs to know more than the ledger says.
// It lives here, beside PaymentStatus, because both the API (handlers) and the pages (views)
// switch on it and store is what both import.
type BuyerStatus string

// The buyer's statuses; minted, rejected and refunded are the ledger's.
const (
	BuyerConfirming BuyerStatus = "confirming" // in a block, not yet deep enough for the payments scan
	BuyerMinting    BuyerStatus = "minting"    // seen and about to be checked (ledger: pending), or minting
	BuyerHeld       BuyerStatus = "held"       // the screening holds it (reasonCode says why), or it was seen while the operator holds minting
	BuyerMinted     BuyerStatus = "minted"
	BuyerRejected   BuyerStatus = "rejected"
	BuyerRefunded   BuyerStatus = "refunded"
)

// paymentMoves is where a payment may go from each status: checked, it mints, is rejected or is
// held; a held payment an admin releases is checked again; a mint is recorded or reverts
// (rejected); a rejected payment is refunded, and a refund a reorg takes back leaves it rejected
// again. The trigger payments_move (migrations/0025) refuses any
// other move, and TestPaymentMoves holds the two to each other.
var paymentMoves = map[PaymentStatus][]PaymentStatus{
	PaymentPending:  {PaymentMinting, PaymentRejected, PaymentHeld},
	PaymentHeld:     {PaymentPending},
	PaymentMinting:  {PaymentMinted, PaymentRejected},
	PaymentMinted:   nil,
	PaymentRejected: {PaymentRefunded},
	PaymentRefunded: {PaymentRejected},
}

// CanBecome tells whether a payment in status s may move to status to (staying is no move).
func (s PaymentStatus) CanBecome(to PaymentStatus) bool {
	return s == to || slices.Contains(paymentMoves[s], to)
}

// buyerOf is the one table of what a payment's buyer reads for each status the ledger gives it;
// jobs/sale's TestCatalogue holds it total against the payments.status CHECK, so a status added
// in a migration cannot reach buyers unmapped. A pending payment is seen and waits for its
// check: its buyer reads minting, or held while the operator holds minting.
var buyerOf = map[PaymentStatus]BuyerStatus{
	PaymentPending:  BuyerMinting,
	PaymentMinting:  BuyerMinting,
	PaymentMinted:   BuyerMinted,
	PaymentHeld:     BuyerHeld,
	PaymentRejected: BuyerRejected,
	PaymentRefunded: BuyerRefunded,
}

// Buyer is what the buyer of a payment in status s reads; held: the operator holds minting. ""
// for a status the table does not have (TestCatalogue fails first).
func (s PaymentStatus) Buyer(held bool) BuyerStatus {
	if s == PaymentPending && held {
		return BuyerHeld
	}
	return buyerOf[s]
}

// RoundStatus is where a distribution round is (distributions.status).
type RoundStatus string

// A round is pending from its pricing until its transaction is mined and recorded.
const (
	RoundPending   RoundStatus = "pending"
	RoundConfirmed RoundStatus = "confirmed"
	RoundFailed    RoundStatus = "failed" // the table allows it; no pass writes it
)

// DistMode is how a round is priced (DIST_MODE; distributions.mode).
type DistMode string

// The distribution modes.
const (
	DistFixed DistMode = "fixed" // each node gets the base amount times its tier's payoutBps / 10000
	DistPool  DistMode = "pool"  // the pool is shared pro rata payoutBps
)

// NodeStatus is a node's status in the ledger (nodes.status).
type NodeStatus string

// The node statuses.
const (
	NodeActive      NodeStatus = "active"      // minted and recorded
	NodeUnconfirmed NodeStatus = "unconfirmed" // the chain does not have it (a reorg took its mint back): rounds leave it out
)

// WithdrawalStatus is a withdrawal row's status (withdrawals.status).
type WithdrawalStatus string

// The withdrawal statuses.
const (
	WithdrawalSigned WithdrawalStatus = "signed" // a leftover of the spec: the service writes none
	WithdrawalSent   WithdrawalStatus = "sent"   // went through
	WithdrawalFailed WithdrawalStatus = "failed" // reverted: it cost gas and left the balance alone
)
