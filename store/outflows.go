package store

import "context"

// WatchedWallet is a wallet the ledger explains every wei of: the payments wallet or the
// treasury. An outflow left one; a flow (Flows) moved money in or out of one.
type WatchedWallet string

// The wallets the ledger watches.
const (
	WalletPayments WatchedWallet = "payments_wallet"
	WalletTreasury WatchedWallet = "treasury"
)

// UnexplainedOutflow is money that left a wallet we watch that no ledger row explains: a transfer
// out of the payments wallet that refunds no payment and is no sweep, or a treasury batch's
// transfer to a payment that was refunded another way first (Payment names it: the second
// payout), or what a Safe transaction the service did not propose sent out of the treasury. Every
// other wei out is a refund, a sweep or a batch's payout, each recorded once.
type UnexplainedOutflow struct {
	Source      WatchedWallet `db:"source"`
	TxHash      string        `db:"tx_hash"`
	To          string        `db:"to_address"`
	ValueWei    Uint256       `db:"value_wei"` // 0 for a token's
	Token       *string       `db:"token"`     // nil: ETH
	Amount      Uint256       `db:"amount"`    // of Token; nil Int for ETH
	Symbol      string        `db:"symbol"`
	Decimals    int           `db:"decimals"`
	BlockNumber int64         `db:"block_number"`
	Payment     *string       `db:"payment"` // the payment paid a second time
}

// InToken is what o moved of a token; nil for ETH.
func (o UnexplainedOutflow) InToken() *TokenAmount {
	if o.Token == nil {
		return nil
	}
	return &TokenAmount{Token: Token{Address: *o.Token, Symbol: o.Symbol, Decimals: o.Decimals}, Amount: o.Amount}
}

// unexplainedOutflows are the outflows no ledger row explains (UnexplainedOutflow), as one
// query: a transfer out of the payments wallet that no payment names as its refund by hand and no
// sweep sent, a transfer of an executed batch whose payment some other transfer refunded
// (one that moved nothing, a token's that answered false, is no outflow: bp.open is false), and
// what a Safe transaction of the treasury that is none of the service's batches sent.
const unexplainedOutflows = `
	SELECT 'payments_wallet' AS source, o.tx_hash, o.to_address, o.value_wei, NULL::text AS token, NULL::numeric AS amount,
		'ETH' AS symbol, 18 AS decimals, o.block_number, NULL::text AS payment
	FROM outgoing_transfers o
	WHERE NOT EXISTS (SELECT 1 FROM payments p WHERE p.refund_tx_hash = o.tx_hash AND p.refund_batch_id IS NULL)
	  AND NOT EXISTS (SELECT 1 FROM sweeps s WHERE s.tx_hash = o.tx_hash AND s.status <> 'void')
	UNION ALL
	SELECT 'treasury', b.executed_tx, bp.to_address, bp.value_wei, bp.token, bp.amount,
		coalesce(tk.symbol, 'ETH'), coalesce(tk.decimals, 18), b.block_number, p.tx_hash
	FROM treasury_batch_payments bp JOIN treasury_batches b ON b.id = bp.batch_id JOIN payments p ON p.id = bp.payment_id
		LEFT JOIN tokens tk ON tk.address = bp.token
	WHERE b.status = 'executed' AND bp.open AND p.refund_batch_id IS DISTINCT FROM b.id
	UNION ALL
	SELECT 'treasury', t.tx_hash, t.to_address, CASE WHEN t.token IS NULL THEN t.amount ELSE 0 END, t.token,
		CASE WHEN t.token IS NULL THEN NULL ELSE t.amount END, coalesce(tk.symbol, 'ETH'), coalesce(tk.decimals, 18), t.block_number, NULL
	FROM treasury_outflows t LEFT JOIN tokens tk ON tk.address = t.token
	WHERE NOT EXISTS (SELECT 1 FROM treasury_batches b WHERE b.safe_tx_hash = t.safe_tx_hash AND b.status = 'executed')`

// UnexplainedOutflows returns up to limit outflows no ledger row explains, newest block first.
func (s *Store) UnexplainedOutflows(ctx context.Context, limit int) (_ []UnexplainedOutflow, err error) {
	defer wrap(&err, "UnexplainedOutflows")
	out := []UnexplainedOutflow{}
	err = s.db.SelectContext(ctx, &out, `SELECT source, tx_hash, to_address, value_wei, token, amount, symbol, decimals, block_number, payment
		FROM (`+unexplainedOutflows+`) AS u ORDER BY block_number DESC, tx_hash LIMIT $1`, limit)
	return out, err
}

// UnexplainedOutflowCount counts the outflows no ledger row explains.
func (s *Store) UnexplainedOutflowCount(ctx context.Context) (n int, err error) {
	defer wrap(&err, "UnexplainedOutflowCount")
	err = s.db.GetContext(ctx, &n, `SELECT count(*) FROM (`+unexplainedOutflows+`) AS u`)
	return n, err
}
