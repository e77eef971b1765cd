package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// BatchKind is what a treasury batch pays: payments back to their payers, or commissions to
// referrers.
type BatchKind string

// The batch kinds (treasury_batches.kind): whoever proposes a batch says which.
const (
	BatchRefunds     BatchKind = "refunds"
	BatchCommissions BatchKind = "commissions"
)

// BatchStatus is where a treasury batch is (treasury_batches.status): a Safe transaction of the
// treasury, from its proposal to what the chain made of it.
type BatchStatus string

// A batch is proposed, ready once its owners' signatures reach the Safe's threshold, and then
// decided by the chain: executed (ExecutionSuccess of its hash: its payments are refunded),
// failed (ExecutionFailure: the Safe took its nonce and paid nothing) or void (the Safe's nonce
// moved past it without its hash: another transaction took the nonce). Failed and void batches'
// payments are owed again.
const (
	BatchProposed BatchStatus = "proposed"
	BatchReady    BatchStatus = "ready"
	BatchExecuted BatchStatus = "executed"
	BatchFailed   BatchStatus = "failed"
	BatchVoid     BatchStatus = "void"
)

// BatchStatuses are every status, in the order of a batch's life.
var BatchStatuses = []BatchStatus{BatchProposed, BatchReady, BatchExecuted, BatchFailed, BatchVoid}

// batchMoves is where a batch may go from each status: the chain decides an open batch, and a
// reorg that takes the deciding block back opens it again (proposed or ready, by its
// approvals). A ready batch whose signer is removed from the Safe is proposed again. The
// trigger treasury_batches_move (migrations/0048) refuses any other move, and TestBatchMoves
// holds the two to each other.
var batchMoves = map[BatchStatus][]BatchStatus{
	BatchProposed: {BatchReady, BatchExecuted, BatchFailed, BatchVoid},
	BatchReady:    {BatchProposed, BatchExecuted, BatchFailed, BatchVoid},
	BatchExecuted: {BatchProposed, BatchReady},
	BatchFailed:   {BatchProposed, BatchReady},
	// The chain is right: a batch the ledger voided (VoidRefundedElsewhere) still executes if
	// someone kept its signatures and its nonce is the treasury's.
	BatchVoid: {BatchProposed, BatchReady, BatchExecuted, BatchFailed},
}

// CanBecome tells whether a batch in status s may move to status to (staying is no move).
func (s BatchStatus) CanBecome(to BatchStatus) bool {
	return s == to || slices.Contains(batchMoves[s], to)
}

// VoidReason is why a batch is void (treasury_batches.void_reason).
type VoidReason string

// A batch is void because the treasury executed another transaction at its nonce, or because a
// payment it holds was refunded another way before it executed: executed as it stands, it would
// pay that payment twice.
const (
	VoidNonceTaken        VoidReason = "nonce_taken"
	VoidRefundedElsewhere VoidReason = "refunded_elsewhere"
)

// Open tells a batch the chain has not decided yet: it may still be approved and executed.
func (s BatchStatus) Open() bool { return s == BatchProposed || s == BatchReady }

// TreasuryBatch is a Safe transaction of the treasury that refunds payments, or pays referrers
// their commissions (Kind): the SafeTx its owners sign, their signatures, and what the chain made
// of it.
type TreasuryBatch struct {
	ID   int64     `db:"id"`
	Kind BatchKind `db:"kind"`
	Safe string    `db:"safe"`
	// The SafeTx, field by field.
	To             string  `db:"to_address"`
	Value          Uint256 `db:"value_wei"`
	Data           []byte  `db:"data"`
	Operation      uint8   `db:"operation"`
	SafeTxGas      Uint256 `db:"safe_tx_gas"`
	BaseGas        Uint256 `db:"base_gas"`
	GasPrice       Uint256 `db:"gas_price"`
	GasToken       string  `db:"gas_token"`
	RefundReceiver string  `db:"refund_receiver"`
	Nonce          Uint256 `db:"nonce"`
	SafeTxHash     string  `db:"safe_tx_hash"`

	Threshold   int         `db:"threshold"`
	Status      BatchStatus `db:"status"`
	ExecutedTx  *string     `db:"executed_tx"`  // executed or failed: the transaction that executed it
	SentTx      *string     `db:"sent_tx"`      // open: a transaction above the confirmed blocks that executes it
	BlockNumber *int64      `db:"block_number"` // the block where the chain decided it
	ProposedBy  string      `db:"proposed_by"`
	CreatedAt   time.Time   `db:"created_at"`
	UpdatedAt   time.Time   `db:"updated_at"`
	// Void: why. VoidRefundedElsewhere names the payment refunded another way (its transaction)
	// and the transfer that refunded it; BlockNumber is that transfer's block.
	VoidReason   *VoidReason `db:"void_reason"`
	VoidPayment  *string     `db:"void_payment"`
	VoidRefundTx *string     `db:"void_refund_tx"`
	// LeftOut are the transfers its simulation refused when it was proposed; Remaining how many
	// more it left to a later batch, beyond the gas one transaction may take.
	LeftOut   LeftOuts `db:"left_out"`
	Remaining int      `db:"remaining"`

	Refunds   []BatchRefund   `db:"-"` // a refund batch's, in the batch's order
	Payouts   []BatchPayout   `db:"-"` // a commission batch's, in the batch's order
	Approvals []BatchApproval `db:"-"` // of the Safe's owners as last read, by owner address
	// Dropped are the approvals of owners since removed from the Safe: kept, never counted nor
	// put in the execution.
	Dropped  []BatchApproval `db:"-"`
	Attempts []BatchAttempt  `db:"-"` // the transactions sent to execute it, oldest first
}

// BatchRefund is one transfer of a batch: a payment paid back to its payer, in ETH, or in the
// token it was paid in.
type BatchRefund struct {
	PaymentID int64   `db:"payment_id"`
	TxHash    string  `db:"tx_hash"` // the payment's
	To        string  `db:"to_address"`
	ValueWei  Uint256 `db:"value_wei"` // 0 for a token's
	// Token is the token a token payment is paid back in (nil: ETH), with Amount of it.
	Token    *string `db:"token"`
	Amount   Uint256 `db:"amount"` // nil Int for ETH
	Symbol   string  `db:"symbol"`
	Decimals int     `db:"decimals"`
	// Owed tells a payment still owed a refund that no open batch holds: what a batch that can no
	// longer pay leaves to propose again.
	Owed bool `db:"owed"`
	// NotPaid tells a transfer of an executed batch that moved nothing (a token that answered
	// false): its payment is owed again.
	NotPaid bool `db:"not_paid"`
}

// InToken is what r pays back of a token; nil for ETH.
func (r BatchRefund) InToken() *TokenAmount {
	if r.Token == nil {
		return nil
	}
	return &TokenAmount{Token: Token{Address: *r.Token, Symbol: r.Symbol, Decimals: r.Decimals}, Amount: r.Amount}
}

// TokenTotals is what a batch's refunds and payouts pay in each token, in token address order.
func TokenTotals(refunds []BatchRefund, payouts []BatchPayout) []TokenAmount {
	var out []TokenAmount
	for _, r := range refunds {
		if t := r.InToken(); t != nil {
			out = SumTokens(out, *t)
		}
	}
	for _, p := range payouts {
		if p.InToken != nil {
			out = SumTokens(out, *p.InToken)
		}
	}
	return out
}

// LeftOut is a transfer the chain refused when a batch was simulated, left out of it: the payment
// it would have refunded (Payment, its transaction) or the commissions it would have paid, to
// whom, how much (InToken for a token's), and the chain's words ("" when it said nothing;
// "returned false" for a token that answered so).
type LeftOut struct {
	Payment     string       `json:"payment,omitempty"`
	Commissions []int64      `json:"commissions,omitempty"`
	To          string       `json:"to"`
	AmountWei   Uint256      `json:"amountWei"`
	InToken     *TokenAmount `json:"inToken,omitempty"`
	ChainSays   string       `json:"chainSays"`
	// Sanctioned: the sanctions oracle listed the payee when the batch was proposed.
	Sanctioned bool `json:"sanctioned,omitempty"`
}

// LeftOuts are a batch's transfers left out, as treasury_batches.left_out keeps them.
type LeftOuts []LeftOut

// Scan reads the left_out column.
func (l *LeftOuts) Scan(src any) error { return scanJSON(src, l) }

// Value writes the left_out column.
func (l LeftOuts) Value() (driver.Value, error) {
	if l == nil {
		l = LeftOuts{}
	}
	return jsonValue(l)
}

// BatchApproval is an owner's signature of a batch's SafeTx hash, 65 bytes as the Safe takes it.
type BatchApproval struct {
	Owner       string    `db:"owner"`
	Signature   []byte    `db:"signature"`
	SubmittedBy string    `db:"submitted_by"`
	CreatedAt   time.Time `db:"created_at"`
}

const refundBatchColumns = `id, kind, safe, to_address, value_wei, data, operation, safe_tx_gas, base_gas, gas_price, gas_token,
	refund_receiver, nonce, safe_tx_hash, threshold, status, executed_tx, sent_tx, block_number, proposed_by, created_at, updated_at,
	left_out, remaining, void_reason, (SELECT p.tx_hash FROM payments p WHERE p.id = void_payment_id) AS void_payment,
	(SELECT p.refund_tx_hash FROM payments p WHERE p.id = void_payment_id) AS void_refund_tx`

// NotOwedError is a payment a batch cannot refund: the ledger owes it no refund (it is not
// rejected, or no payment has that transaction).
type NotOwedError struct{ TxHash string }

func (e *NotOwedError) Error() string { return "payment " + e.TxHash + " is owed no refund" }

// InBatchError is a payment already in a batch that is not void or failed.
type InBatchError struct {
	TxHash string
	Batch  int64
}

func (e *InBatchError) Error() string {
	return fmt.Sprintf("payment %s is already in refund batch %d", e.TxHash, e.Batch)
}

// ErrNothingOwed is a batch of "all" payments owed a refund when none is.
var ErrNothingOwed = errors.New("no payment is owed a refund")

// ErrBatchDecided is a batch the chain has decided (executed, failed or void): it takes no more
// approvals.
var ErrBatchDecided = errors.New("the treasury batch is decided")

// OwedRefunds are the payments owed a refund that a batch may take, in chain order: those of the
// transactions hashes names (every payment of each; lower case), or, with none, every payment
// owed one. A payment of hashes that is not rejected is a *NotOwedError, one in an open or
// executed batch an *InBatchError, and "all" with nothing owed ErrNothingOwed.
func (s *Store) OwedRefunds(ctx context.Context, hashes []string) (_ []Payment, err error) {
	defer wrap(&err, "OwedRefunds")
	var rows []struct {
		Payment
		Batch *int64 `db:"batch"`
	}
	err = s.db.SelectContext(ctx, &rows, `
		SELECT `+paymentColumns+`, (SELECT bp.batch_id FROM treasury_batch_payments bp WHERE bp.payment_id = payments.id AND bp.open) AS batch
		FROM payments
		WHERE CASE WHEN coalesce(cardinality($1::text[]), 0) = 0 THEN status = 'rejected' ELSE tx_hash = ANY ($1) END
		ORDER BY block_number, tx_index, call_index, id`, pq.Array(hashes))
	if err != nil {
		return nil, err
	}
	var owed []Payment
	for _, r := range rows {
		switch {
		case r.Status != PaymentRejected && len(hashes) > 0:
			return nil, &NotOwedError{TxHash: r.TxHash}
		case r.Batch != nil && len(hashes) > 0:
			return nil, &InBatchError{TxHash: r.TxHash, Batch: *r.Batch}
		case r.Batch == nil:
			owed = append(owed, r.Payment)
		}
	}
	for _, h := range hashes {
		if !slices.ContainsFunc(owed, func(p Payment) bool { return p.TxHash == h }) {
			return nil, &NotOwedError{TxHash: h}
		}
	}
	if len(owed) == 0 {
		return nil, ErrNothingOwed
	}
	return owed, nil
}

// NewTreasuryBatch is a batch to record: its SafeTx (the TreasuryBatch fields of that name), its
// Kind, the Safe's threshold, who proposes it, and what it settles: a refund batch's payments in
// the batch's order, or a commission batch's commissions.
type NewTreasuryBatch struct {
	TreasuryBatch
	Payments    []int64
	Commissions []int64
}

// ErrBatchKind is a batch to record of no known kind, or which settles what another kind
// settles: a caller's mistake, never a client's.
var ErrBatchKind = errors.New("a treasury batch settles only what its kind pays")

// AddTreasuryBatch records a proposed batch of its kind. A refund batch's payments are each still
// owed a refund: one that is no longer rejected is a *NotOwedError, one another batch took
// meanwhile an *InBatchError. A commission batch's commissions are checked likewise
// (*CommissionInBatchError).
func (tx Tx) AddTreasuryBatch(ctx context.Context, b NewTreasuryBatch) (_ TreasuryBatch, err error) {
	defer wrap(&err, "AddTreasuryBatch")
	kind := b.Kind
	switch {
	case kind == BatchRefunds && len(b.Commissions) == 0, kind == BatchCommissions && len(b.Payments) == 0:
	default:
		return TreasuryBatch{}, fmt.Errorf("%w: kind %q with %d payments and %d commissions", ErrBatchKind, kind, len(b.Payments), len(b.Commissions))
	}
	var id int64
	err = sqlx.GetContext(ctx, tx.q, &id, `
		INSERT INTO treasury_batches (kind, safe, to_address, value_wei, data, operation, safe_tx_gas, base_gas, gas_price, gas_token,
			refund_receiver, nonce, safe_tx_hash, threshold, proposed_by, left_out, remaining)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING id`,
		kind, b.Safe, b.To, b.Value, b.Data, b.Operation, b.SafeTxGas, b.BaseGas, b.GasPrice, b.GasToken, b.RefundReceiver,
		b.Nonce, b.SafeTxHash, b.Threshold, b.ProposedBy, b.LeftOut, b.Remaining)
	if err != nil {
		return TreasuryBatch{}, err
	}
	if kind == BatchCommissions {
		if err := addBatchCommissions(ctx, tx.q, id, b.Commissions); err != nil {
			return TreasuryBatch{}, err
		}
		return treasuryBatch(ctx, tx.q, id)
	}
	// Locked, so that a refund by hand matched meanwhile, or another batch of the same payments,
	// waits for this one (or this for it) and is seen below.
	var taken []struct {
		TxHash string        `db:"tx_hash"`
		Status PaymentStatus `db:"status"`
		Batch  *int64        `db:"batch"`
	}
	var locked []int64
	if err := sqlx.SelectContext(ctx, tx.q, &locked, `
		SELECT id FROM payments WHERE id = ANY ($1) ORDER BY id FOR UPDATE`, pq.Array(b.Payments)); err != nil {
		return TreasuryBatch{}, err
	}
	if err := sqlx.SelectContext(ctx, tx.q, &taken, `
		SELECT p.tx_hash, p.status, bp.batch_id AS batch
		FROM payments p LEFT JOIN treasury_batch_payments bp ON bp.payment_id = p.id AND bp.open
		WHERE p.id = ANY ($1) ORDER BY p.block_number, p.id`, pq.Array(b.Payments)); err != nil {
		return TreasuryBatch{}, err
	}
	for _, p := range taken {
		switch {
		case p.Status != PaymentRejected:
			return TreasuryBatch{}, &NotOwedError{TxHash: p.TxHash}
		case p.Batch != nil:
			return TreasuryBatch{}, &InBatchError{TxHash: p.TxHash, Batch: *p.Batch}
		}
	}
	// The unique index treasury_batch_payments_once is the rule's last word.
	if _, err := tx.q.ExecContext(ctx, `
		INSERT INTO treasury_batch_payments (batch_id, payment_id, position, to_address, value_wei, token, amount)
		SELECT $1, p.id, o.n, p.from_address, p.value_wei, p.token, p.amount
		FROM unnest($2::bigint[]) WITH ORDINALITY AS o (id, n) JOIN payments p ON p.id = o.id`, id, pq.Array(b.Payments)); err != nil {
		return TreasuryBatch{}, err
	}
	return treasuryBatch(ctx, tx.q, id)
}

// treasuryBatch reads batch id with its refunds and approvals; ErrNotFound when there is none.
func treasuryBatch(ctx context.Context, q sqlx.QueryerContext, id int64) (TreasuryBatch, error) {
	bs, err := treasuryBatches(ctx, q, `WHERE id = $1`, id)
	if err != nil {
		return TreasuryBatch{}, err
	}
	if len(bs) == 0 {
		return TreasuryBatch{}, ErrNotFound
	}
	return bs[0], nil
}

// treasuryBatches reads the batches that tail (a WHERE, ORDER and LIMIT clause) picks, with their
// refunds, approvals and attempts.
func treasuryBatches(ctx context.Context, q sqlx.QueryerContext, tail string, args ...any) ([]TreasuryBatch, error) {
	bs := []TreasuryBatch{}
	if err := sqlx.SelectContext(ctx, q, &bs, `SELECT `+refundBatchColumns+` FROM treasury_batches `+tail, args...); err != nil {
		return nil, err
	}
	if len(bs) == 0 {
		return bs, nil
	}
	ids := make([]int64, len(bs))
	at := map[int64]*TreasuryBatch{}
	for i := range bs {
		ids[i], at[bs[i].ID] = bs[i].ID, &bs[i]
	}
	var refunds []struct {
		BatchID int64 `db:"batch_id"`
		BatchRefund
	}
	if err := sqlx.SelectContext(ctx, q, &refunds, `
		SELECT bp.batch_id, bp.payment_id, p.tx_hash, bp.to_address, bp.value_wei, bp.token, bp.amount,
			coalesce(tk.symbol, 'ETH') AS symbol, coalesce(tk.decimals, 18) AS decimals,
			p.status = 'rejected' AND NOT EXISTS (SELECT 1 FROM treasury_batch_payments o WHERE o.payment_id = p.id AND o.open) AS owed,
			b.status = 'executed' AND NOT bp.open AS not_paid
		FROM treasury_batch_payments bp JOIN payments p ON p.id = bp.payment_id LEFT JOIN tokens tk ON tk.address = bp.token
			JOIN treasury_batches b ON b.id = bp.batch_id
		WHERE bp.batch_id = ANY ($1) ORDER BY bp.batch_id, bp.position`, pq.Array(ids)); err != nil {
		return nil, err
	}
	for _, r := range refunds {
		at[r.BatchID].Refunds = append(at[r.BatchID].Refunds, r.BatchRefund)
	}
	var approvals []struct {
		BatchID int64 `db:"batch_id"`
		Counted bool  `db:"counted"`
		BatchApproval
	}
	if err := sqlx.SelectContext(ctx, q, &approvals, `
		SELECT batch_id, counted, owner, signature, submitted_by, created_at FROM treasury_batch_approvals
		WHERE batch_id = ANY ($1) ORDER BY batch_id, owner`, pq.Array(ids)); err != nil {
		return nil, err
	}
	for _, a := range approvals {
		if a.Counted {
			at[a.BatchID].Approvals = append(at[a.BatchID].Approvals, a.BatchApproval)
		} else {
			at[a.BatchID].Dropped = append(at[a.BatchID].Dropped, a.BatchApproval)
		}
	}
	payouts, err := batchPayouts(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	for id, p := range payouts {
		at[id].Payouts = p
	}
	return bs, batchAttempts(ctx, q, at, ids)
}

// TreasuryBatch returns batch id; ErrNotFound when there is none.
func (s *Store) TreasuryBatch(ctx context.Context, id int64) (_ TreasuryBatch, err error) {
	defer wrap(&err, "TreasuryBatch")
	return treasuryBatch(ctx, s.db, id)
}

// TreasuryBatches returns the latest limit batches, newest first.
func (s *Store) TreasuryBatches(ctx context.Context, limit int) (_ []TreasuryBatch, err error) {
	defer wrap(&err, "TreasuryBatches")
	return treasuryBatches(ctx, s.db, `ORDER BY id DESC LIMIT $1`, limit)
}

// NewApproval is an owner's signature of a batch, checked against the Safe's owners by the
// caller: Owners are the Safe's owners now (lower case), Threshold its threshold now; an
// approval of an owner no longer among them does not count.
type NewApproval struct {
	Owner       string
	Signature   []byte
	SubmittedBy string
	Owners      []string
	Threshold   int
}

// AddApproval records an owner's approval of open batch id (again: nothing changes) and makes the
// batch ready once the approvals of current owners reach the threshold. ErrNotFound for no such
// batch, ErrBatchDecided for one the chain has decided. added is false when the owner had
// approved already.
func (tx Tx) AddApproval(ctx context.Context, id int64, a NewApproval) (_ TreasuryBatch, added bool, err error) {
	defer wrap(&err, "AddApproval")
	var status BatchStatus
	err = sqlx.GetContext(ctx, tx.q, &status, `SELECT status FROM treasury_batches WHERE id = $1 FOR UPDATE`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return TreasuryBatch{}, false, ErrNotFound
	}
	if err != nil {
		return TreasuryBatch{}, false, err
	}
	if !status.Open() {
		return TreasuryBatch{}, false, ErrBatchDecided
	}
	res, err := tx.q.ExecContext(ctx, `
		INSERT INTO treasury_batch_approvals (batch_id, owner, signature, submitted_by) VALUES ($1, $2, $3, $4)
		ON CONFLICT (batch_id, owner) DO NOTHING`, id, a.Owner, a.Signature, a.SubmittedBy)
	if err != nil {
		return TreasuryBatch{}, false, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return TreasuryBatch{}, false, err
	}
	if _, err := countApprovals(ctx, tx.q, []int64{id}, a.Owners, a.Threshold); err != nil {
		return TreasuryBatch{}, false, err
	}
	b, err := treasuryBatch(ctx, tx.q, id)
	return b, n > 0, err
}

// countApprovals counts the approvals of the open batches ids, locked by the caller, against the
// Safe's owners and threshold as just read: an approval counts while its owner is an owner, and a
// batch is ready exactly when the approvals that count reach the threshold. It returns the
// batches that went back from ready to proposed.
func countApprovals(ctx context.Context, q sqlx.ExtContext, ids []int64, owners []string, threshold int) ([]int64, error) {
	if _, err := q.ExecContext(ctx, `
		UPDATE treasury_batch_approvals SET counted = owner = ANY ($2)
		WHERE batch_id = ANY ($1) AND counted <> (owner = ANY ($2))`, pq.Array(ids), pq.Array(owners)); err != nil {
		return nil, err
	}
	var moved []struct {
		ID  int64       `db:"id"`
		Was BatchStatus `db:"was"`
		Now BatchStatus `db:"status"`
	}
	if err := sqlx.SelectContext(ctx, q, &moved, `
		WITH counted AS (
			SELECT b.id, b.status AS was,
				CASE WHEN (SELECT count(*) FROM treasury_batch_approvals a WHERE a.batch_id = b.id AND a.counted) >= $2::int
					THEN 'ready' ELSE 'proposed' END AS status
			FROM treasury_batches b WHERE b.id = ANY ($1) AND b.status IN ('proposed', 'ready'))
		UPDATE treasury_batches b SET threshold = $2::int, status = c.status, updated_at = now()
		FROM counted c WHERE b.id = c.id AND (b.threshold <> $2::int OR b.status <> c.status)
		RETURNING b.id, c.was, c.status`, pq.Array(ids), threshold); err != nil {
		return nil, err
	}
	var unready []int64
	for _, m := range moved {
		if m.Was == BatchReady && m.Now == BatchProposed {
			unready = append(unready, m.ID)
		}
	}
	return unready, nil
}

// CountApprovals counts the approvals of safe's open batches against its owners (lower case) and
// threshold as just read (countApprovals), and returns the batches no longer ready.
func (s *Store) CountApprovals(ctx context.Context, safe string, owners []string, threshold int) (_ []int64, err error) {
	defer wrap(&err, "CountApprovals")
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	// Locked first, as an approval locks its batch, so that the two cannot count past each other.
	var ids []int64
	if err := tx.SelectContext(ctx, &ids, `
		SELECT id FROM treasury_batches WHERE safe = $1 AND status IN ('proposed', 'ready') ORDER BY id FOR UPDATE`, safe); err != nil {
		return nil, err
	}
	unready, err := countApprovals(ctx, tx, ids, owners, threshold)
	if err != nil {
		return nil, err
	}
	return unready, tx.Commit()
}

// SafeExecution is a Safe transaction the treasury executed, as its ExecutionSuccess or
// ExecutionFailure log says: the scan records them with the blocks they are in.
type SafeExecution struct {
	Safe        string
	SafeTxHash  string
	Success     bool
	TxHash      string // the transaction that executed it
	From        string // who sent that transaction: the audit's actor
	BlockNumber int64
	// TokensOut are the token transfers out of the Safe its receipt logs, when it succeeded: a
	// token refund of the batch is made only when one of them is it.
	TokensOut []TokenMove
	// Outflows are all it sent out of the Safe, as the chain says: its calls' ETH (Token ""), its
	// gas payment, TokensOut. The money identity holds them against the Safe's balances.
	Outflows []TokenMove
	// Batch is the Safe transaction executed, as a rebuild reads it from the chain (nil in the
	// service, which holds the batches it proposed): recordExecutions records it as the batch
	// of the refunds or commissions its transfers pay, when they pay what is owed.
	Batch *ObservedBatch
}

// ObservedBatch is a Safe transaction read from the chain: its fields (those of TreasuryBatch
// that name the SafeTx, its nonce and the signatures it carried as Threshold), and its transfers
// in its order (Token "" for ETH).
type ObservedBatch struct {
	TreasuryBatch
	Transfers []TokenMove
}

// TokenMove is a transfer of Amount of Token to To, as a Transfer log says it happened.
type TokenMove struct {
	Token  string  `db:"token"`
	To     string  `db:"to_address"`
	Amount Uint256 `db:"amount"`
}

// recordExecutions decides the batches the executions are of: executed, with each payment
// still owed refunded by the transaction (payment.refunded) or each commission paid
// (referral.paid), or failed, their payments or commissions owed again. A batch the ledger voided
// is decided too: the chain is right, and a payment such a batch pays that was refunded another
// way is paid twice, an unexplained outflow (UnexplainedOutflows). The batches left at the
// execution's nonce or below can never execute: they are void. An execution of a hash no batch
// has is another Safe transaction: the nonce it took voids the batches it passes
// (VoidTreasuryBatches).
func recordExecutions(ctx context.Context, tx *sqlx.Tx, execs []SafeExecution) error {
	var refunded []int64
	for _, e := range execs { // rare: one statement each
		status := BatchFailed
		if e.Success {
			status = BatchExecuted
		}
		if e.Batch != nil {
			if err := observeBatch(ctx, tx, e); err != nil {
				return err
			}
		}
		var nonce []Uint256
		if err := tx.SelectContext(ctx, &nonce, `
			SELECT nonce FROM treasury_batches WHERE safe = $1 AND safe_tx_hash = $2 AND status IN ('proposed', 'ready', 'void')`,
			e.Safe, e.SafeTxHash); err != nil {
			return err
		}
		if len(nonce) == 0 {
			continue
		}
		if _, err := voidPassed(ctx, tx, e.Safe, new(big.Int).Add(nonce[0].Int, big.NewInt(1)), e.BlockNumber, e.SafeTxHash); err != nil {
			return err
		}
		var decided []struct {
			ID   int64     `db:"id"`
			Kind BatchKind `db:"kind"`
		}
		if err := tx.SelectContext(ctx, &decided, `
			UPDATE treasury_batches SET status = $3, executed_tx = $4, block_number = $5, sent_tx = NULL,
				void_reason = NULL, void_payment_id = NULL, updated_at = now()
			WHERE safe = $1 AND safe_tx_hash = $2 AND status IN ('proposed', 'ready', 'void') RETURNING id, kind`,
			e.Safe, e.SafeTxHash, status, e.TxHash, e.BlockNumber); err != nil {
			return err
		}
		id := decided[0].ID
		// The attempt reported before the execution was mined, if any, is mined.
		if _, err := tx.ExecContext(ctx, `
			UPDATE treasury_batch_attempts SET status = 'mined', block_number = $2, updated_at = now()
			WHERE tx_hash = $1 AND status = 'sent'`, e.TxHash, e.BlockNumber); err != nil {
			return err
		}
		code := OutcomeBatchFailed
		if e.Success {
			code = OutcomeBatchExecuted
		}
		if err := (Tx{tx}).audit(ctx, AuditEntry{Actor: Actor{Who: e.From}, Action: ActionBatchExecute, Target: e.Safe,
			Outcome: AuditOutcome{Code: code, Args: AuditArgs{Batch: id, Kind: decided[0].Kind, TxHash: e.TxHash}}}); err != nil {
			return err
		}
		if !e.Success {
			continue
		}
		if decided[0].Kind == BatchCommissions {
			paid, err := payCommissions(ctx, tx, id, e.TokensOut)
			if err != nil {
				return err
			}
			if err := emitCommissions(ctx, tx, EventReferralPaid, paid); err != nil {
				return err
			}
			continue
		}
		unpaid, err := unpaidTokenRefunds(ctx, tx, id, e.TokensOut)
		if err != nil {
			return err
		}
		// A token refund the receipt does not show (the token answered false) paid nothing: its
		// payment is owed again, out of the batch.
		if _, err := tx.ExecContext(ctx, `
			UPDATE treasury_batch_payments SET open = false WHERE batch_id = $1 AND payment_id = ANY ($2)`, id, pq.Array(unpaid)); err != nil {
			return err
		}
		// A payment refunded another way before stays as it was: this batch paid it a second time.
		var paid []int64
		if err := tx.SelectContext(ctx, &paid, `
			UPDATE payments SET status = 'refunded', refund_tx_hash = $2, refund_batch_id = $1, updated_at = now()
			WHERE status = 'rejected' AND id IN (SELECT payment_id FROM treasury_batch_payments WHERE batch_id = $1 AND open)
			RETURNING id`, id, e.TxHash); err != nil {
			return err
		}
		refunded = append(refunded, paid...)
	}
	return emitPayments(ctx, tx, EventPaymentRefunded, refunded)
}

// observeBatch records the batch e executed, as a rebuild finds it on chain, unless the ledger
// holds it: a refund batch when each transfer pays back a payment owed a refund (of that payer,
// token and amount; the oldest such), else a commission batch when each pays a referrer the
// commissions owed to it in that currency (the oldest, summing to the transfer), else nothing
// (another Safe transaction). Proposed by e's sender, to be decided by its execution.
func observeBatch(ctx context.Context, tx *sqlx.Tx, e SafeExecution) error {
	var held bool
	if err := tx.GetContext(ctx, &held, `SELECT EXISTS (SELECT 1 FROM treasury_batches WHERE safe = $1 AND safe_tx_hash = $2)`,
		e.Safe, e.SafeTxHash); err != nil || held {
		return err
	}
	b := NewTreasuryBatch{TreasuryBatch: e.Batch.TreasuryBatch}
	b.Safe, b.SafeTxHash, b.ProposedBy = e.Safe, e.SafeTxHash, e.From
	refunds, err := owedFor(ctx, tx, owedRefundSQL, e.Batch.Transfers)
	if err != nil {
		return err
	}
	if refunds != nil {
		b.Kind, b.Payments = BatchRefunds, refunds
	} else {
		if b.Commissions, err = owedFor(ctx, tx, owedCommissionsSQL, e.Batch.Transfers); err != nil || b.Commissions == nil {
			return err
		}
		b.Kind = BatchCommissions
	}
	_, err = Tx{tx}.AddTreasuryBatch(ctx, b)
	return err
}

// owedOrder is the order in which what is owed is paid: the payments' order on chain.
const owedOrder = `p.block_number, p.tx_index, p.call_index, p.log_index NULLS FIRST`

// owedRefundSQL finds the payment a transfer ($1 to, $2 token or null, $3 amount) pays back: owed
// a refund of exactly that, in no open batch, not among $4.
var owedRefundSQL = `
	SELECT p.id, coalesce(p.amount, p.value_wei) AS amount FROM payments p
	WHERE p.status = 'rejected' AND p.from_address = $1 AND p.token IS NOT DISTINCT FROM $2 AND coalesce(p.amount, p.value_wei) = $3
		AND p.id <> ALL ($4) AND NOT EXISTS (SELECT 1 FROM treasury_batch_payments bp WHERE bp.payment_id = p.id AND bp.open)
	ORDER BY ` + owedOrder + ` LIMIT 1`

// owedCommissionsSQL lists the commissions a transfer ($1 to, $2 token or null) may pay: owed to
// that referrer in that currency, in no open batch, not among $4 ($3, the amount, is summed).
var owedCommissionsSQL = `
	SELECT c.id, c.amount FROM commissions c JOIN payments p ON p.id = c.payment_id
	WHERE c.referrer = $1 AND p.token IS NOT DISTINCT FROM $2 AND $3::numeric > 0 AND c.id <> ALL ($4)
		AND NOT EXISTS (SELECT 1 FROM treasury_batch_commissions bc WHERE bc.commission_id = c.id AND bc.open)
	ORDER BY ` + owedOrder + `, c.role`

// owedFor is what transfers pay, by query (owedRefundSQL or owedCommissionsSQL): for each, the
// oldest rows it answers whose amounts sum to the transfer's. nil when a transfer pays no such.
func owedFor(ctx context.Context, tx *sqlx.Tx, query string, transfers []TokenMove) ([]int64, error) {
	ids := []int64{}
	for _, t := range transfers {
		var rows []struct {
			ID     int64   `db:"id"`
			Amount Uint256 `db:"amount"`
		}
		if err := tx.SelectContext(ctx, &rows, query, t.To, sql.NullString{String: t.Token, Valid: t.Token != ""}, t.Amount, pq.Array(ids)); err != nil {
			return nil, err
		}
		sum, n := new(big.Int), 0
		for n < len(rows) && sum.Cmp(t.Amount.Int) < 0 {
			sum.Add(sum, rows[n].Amount.Int)
			n++
		}
		if sum.Cmp(t.Amount.Int) != 0 {
			return nil, nil
		}
		for _, r := range rows[:n] {
			ids = append(ids, r.ID)
		}
	}
	return ids, nil
}

// unpaidTokenRefunds are the payments of refund batch id whose token refund moved does not show.
func unpaidTokenRefunds(ctx context.Context, tx *sqlx.Tx, id int64, moved []TokenMove) ([]int64, error) {
	var refunds []struct {
		Payment int64 `db:"payment_id"`
		TokenMove
	}
	if err := tx.SelectContext(ctx, &refunds, `
		SELECT payment_id, token, to_address, amount FROM treasury_batch_payments
		WHERE batch_id = $1 AND token IS NOT NULL ORDER BY position`, id); err != nil {
		return nil, err
	}
	want := make([]TokenMove, len(refunds))
	for i, r := range refunds {
		want[i] = r.TokenMove
	}
	var unpaid []int64
	for _, i := range unmoved(want, moved) {
		unpaid = append(unpaid, refunds[i].Payment)
	}
	return unpaid, nil
}

// payCommissions records commission batch id paid by its execution, which moved the tokens moved:
// a token payout the receipt does not show (the token answered false) paid nothing, and its
// commissions are owed again, out of the batch. It returns the commissions paid.
func payCommissions(ctx context.Context, tx *sqlx.Tx, id int64, moved []TokenMove) ([]int64, error) {
	payouts, err := batchPayouts(ctx, tx, []int64{id})
	if err != nil {
		return nil, err
	}
	var want []TokenMove
	var tokens []BatchPayout
	var paid []int64
	for _, p := range payouts[id] {
		if p.InToken == nil {
			paid = append(paid, p.Commissions...)
			continue
		}
		want = append(want, TokenMove{Token: p.InToken.Address, To: p.To, Amount: p.InToken.Amount})
		tokens = append(tokens, p)
	}
	var unpaid []int64
	missing := unmoved(want, moved)
	for i, p := range tokens {
		if slices.Contains(missing, i) {
			unpaid = append(unpaid, p.Commissions...)
		} else {
			paid = append(paid, p.Commissions...)
		}
	}
	if _, err := tx.ExecContext(ctx, `
		UPDATE treasury_batch_commissions SET open = false WHERE batch_id = $1 AND commission_id = ANY ($2)`, id, pq.Array(unpaid)); err != nil {
		return nil, err
	}
	slices.Sort(paid)
	return paid, nil
}

// unmoved are the indexes of want, the token transfers a batch makes, that moved, those its
// receipt logs, does not show: each is matched to one transfer of its token, payee and amount.
func unmoved(want, moved []TokenMove) []int {
	left := slices.Clone(moved)
	var out []int
	for i, w := range want {
		j := slices.IndexFunc(left, func(m TokenMove) bool {
			return m.Token == w.Token && m.To == w.To && m.Amount.Cmp(w.Amount.Int) == 0
		})
		if j < 0 {
			out = append(out, i)
			continue
		}
		left = slices.Delete(left, j, j+1)
	}
	return out
}

// rewindBatches takes back what the chain decided of batches above block number: each is open
// again (ready when its approvals reach its threshold), and the payments an executed batch
// refunded are rejected again, and the commissions one paid are owed again; their ids are
// returned, for their events to be taken back. A failed or void batch stays so when another batch
// has taken one of its payments or commissions since: both cannot be open.
func rewindBatches(ctx context.Context, tx *sqlx.Tx, number int64) (unrefunded, unpaid []int64, err error) {
	if err := tx.SelectContext(ctx, &unrefunded, `
		UPDATE payments SET status = 'rejected', refund_tx_hash = NULL, refund_batch_id = NULL, updated_at = now()
		WHERE refund_batch_id IN (SELECT id FROM treasury_batches WHERE status = 'executed' AND block_number > $1)
		RETURNING id`, number); err != nil {
		return nil, nil, err
	}
	if err := tx.SelectContext(ctx, &unpaid, `
		SELECT bc.commission_id FROM treasury_batch_commissions bc JOIN treasury_batches b ON b.id = bc.batch_id
		WHERE b.status = 'executed' AND b.block_number > $1 ORDER BY bc.commission_id`, number); err != nil {
		return nil, nil, err
	}
	_, err = tx.ExecContext(ctx, `
		UPDATE treasury_batches b SET executed_tx = NULL, block_number = NULL, void_reason = NULL, void_payment_id = NULL, updated_at = now(),
			status = CASE WHEN (SELECT count(*) FROM treasury_batch_approvals a WHERE a.batch_id = b.id AND a.counted) >= b.threshold
				THEN 'ready' ELSE 'proposed' END
		WHERE b.block_number > $1 AND NOT EXISTS (
			SELECT 1 FROM treasury_batch_payments mine JOIN treasury_batch_payments other
				ON other.payment_id = mine.payment_id AND other.batch_id <> b.id AND other.open
			WHERE mine.batch_id = b.id) AND NOT EXISTS (
			SELECT 1 FROM treasury_batch_commissions mine JOIN treasury_batch_commissions other
				ON other.commission_id = mine.commission_id AND other.batch_id <> b.id AND other.open
			WHERE mine.batch_id = b.id)`, number)
	return unrefunded, unpaid, err
}

// VoidTreasuryBatches marks void the open batches of safe whose nonce is below nonce, the Safe's
// nonce at block (a block the payments scan has recorded, with every execution up to it): the
// Safe executed another transaction at their nonce, so their signatures can never execute them.
// Their payments are owed again. It returns the batches it voided.
func (s *Store) VoidTreasuryBatches(ctx context.Context, safe string, nonce Uint256, block int64) (voided []int64, err error) {
	defer wrap(&err, "VoidTreasuryBatches")
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if voided, err = voidPassed(ctx, tx, safe, nonce.Int, block, ""); err != nil {
		return nil, err
	}
	return voided, tx.Commit()
}

// voidPassed marks void (VoidNonceTaken), as of block, the open batches of safe at a nonce below
// nonce, but for the batch of Safe transaction hash except, and audits each: the one way the
// chain voids a batch.
func voidPassed(ctx context.Context, tx *sqlx.Tx, safe string, nonce *big.Int, block int64, except string) (voided []int64, err error) {
	var batches []struct {
		ID    int64     `db:"id"`
		Kind  BatchKind `db:"kind"`
		Nonce string    `db:"nonce"`
	}
	if err := tx.SelectContext(ctx, &batches, `
		UPDATE treasury_batches SET status = 'void', void_reason = 'nonce_taken', block_number = $3, sent_tx = NULL, updated_at = now()
		WHERE safe = $1 AND nonce < $2 AND status IN ('proposed', 'ready') AND safe_tx_hash <> $4
		RETURNING id, kind, nonce::text`, safe, Uint256{Int: nonce}, block, except); err != nil {
		return nil, err
	}
	for _, b := range batches {
		voided = append(voided, b.ID)
		// Nobody in particular voided it: the chain did, when the Safe took its nonce.
		if err := (Tx{tx}).audit(ctx, AuditEntry{Actor: Actor{Who: "service: payments scan"}, Action: ActionBatchExecute, Target: safe,
			Outcome: AuditOutcome{Code: OutcomeBatchVoid, Args: AuditArgs{Batch: b.ID, Kind: b.Kind, Nonce: b.Nonce}}}); err != nil {
			return nil, err
		}
	}
	return voided, nil
}

// voidRefundedElsewhere marks void (VoidRefundedElsewhere) the open refund batches that hold a
// payment of refunded, each refunded by a transfer out of the payments wallet (a refund by
// hand), as of that transfer's block, naming the payment, and audits each: executed as it stands,
// such a batch would pay that payment twice. The rest of its payments are owed again.
func voidRefundedElsewhere(ctx context.Context, tx *sqlx.Tx, refunded []int64) error {
	if len(refunded) == 0 {
		return nil
	}
	var batches []struct {
		ID       int64     `db:"id"`
		Kind     BatchKind `db:"kind"`
		Safe     string    `db:"safe"`
		Payment  string    `db:"payment"`
		RefundTx string    `db:"refund_tx"`
		Block    int64     `db:"block_number"`
	}
	// A batch that holds several such payments names the first in chain order.
	if err := tx.SelectContext(ctx, &batches, `
		WITH named AS (
			SELECT DISTINCT ON (bp.batch_id) bp.batch_id, p.id AS payment_id, p.tx_hash, o.tx_hash AS refund_tx, o.block_number
			FROM treasury_batch_payments bp JOIN payments p ON p.id = bp.payment_id JOIN outgoing_transfers o ON o.tx_hash = p.refund_tx_hash
			WHERE bp.open AND bp.payment_id = ANY ($1)
			ORDER BY bp.batch_id, p.block_number, p.id)
		UPDATE treasury_batches b SET status = 'void', void_reason = 'refunded_elsewhere', void_payment_id = n.payment_id,
			block_number = n.block_number, sent_tx = NULL, updated_at = now()
		FROM named n WHERE b.id = n.batch_id AND b.status IN ('proposed', 'ready')
		RETURNING b.id, b.kind, b.safe, n.tx_hash AS payment, n.refund_tx, n.block_number`, pq.Array(refunded)); err != nil {
		return err
	}
	for _, b := range batches {
		if err := (Tx{tx}).audit(ctx, AuditEntry{Actor: Actor{Who: "service: payments scan"}, Action: ActionBatchExecute, Target: b.Safe,
			Outcome: AuditOutcome{Code: OutcomeBatchVoidRefunded, Args: AuditArgs{Batch: b.ID, Kind: b.Kind, Payment: b.Payment,
				TxHash: b.RefundTx, Block: b.Block}}}); err != nil {
			return err
		}
	}
	return nil
}

// OpenTreasuryBatches returns the batches of safe the chain has not decided, newest first.
func (s *Store) OpenTreasuryBatches(ctx context.Context, safe string) (_ []TreasuryBatch, err error) {
	defer wrap(&err, "OpenTreasuryBatches")
	return treasuryBatches(ctx, s.db, `WHERE safe = $1 AND status IN ('proposed', 'ready') ORDER BY id DESC`, safe)
}

// SetSentTreasuryBatches notes, for the open batches of safe, the transaction above the confirmed
// blocks that executes each (sent, by Safe transaction hash), and forgets it for the others:
// what the buyer reads as "sent" until the payments scan confirms it.
func (s *Store) SetSentTreasuryBatches(ctx context.Context, safe string, sent map[string]string) (err error) {
	defer wrap(&err, "SetSentTreasuryBatches")
	hashes, txs := make([]string, 0, len(sent)), make([]string, 0, len(sent))
	for h, t := range sent {
		hashes, txs = append(hashes, h), append(txs, t)
	}
	_, err = s.db.ExecContext(ctx, `
		UPDATE treasury_batches b SET sent_tx = s.tx
		FROM treasury_batches o LEFT JOIN unnest($2::text[], $3::text[]) AS s (hash, tx) ON s.hash = o.safe_tx_hash
		WHERE b.id = o.id AND o.safe = $1 AND o.status IN ('proposed', 'ready') AND b.sent_tx IS DISTINCT FROM s.tx`,
		safe, pq.Array(hashes), pq.Array(txs))
	return err
}

// RefundsOwed returns the latest limit payments owed a refund that no open or executed batch
// holds, newest first, and how many there are in all: what the operator page lists to build a
// batch from. Those a batch holds are the batch's to follow.
func (s *Store) RefundsOwed(ctx context.Context, limit int) (_ []Payment, total int, err error) {
	defer wrap(&err, "RefundsOwed")
	if err := s.db.GetContext(ctx, &total, `SELECT count(*) `+refundsOwed); err != nil {
		return nil, 0, err
	}
	ps := []Payment{}
	err = s.db.SelectContext(ctx, &ps, `SELECT `+paymentColumns+` `+refundsOwed+` ORDER BY block_number DESC, id DESC LIMIT $1`, limit)
	return ps, total, err
}

// refundsOwed are the payments RefundsOwed lists.
const refundsOwed = `FROM payments WHERE status = 'rejected'
	AND NOT EXISTS (SELECT 1 FROM treasury_batch_payments bp WHERE bp.payment_id = payments.id AND bp.open)`

// RefundsOwedAmounts is what the payments RefundsOwed counts paid, in each currency: what
// refunding them all pays back.
func (s *Store) RefundsOwedAmounts(ctx context.Context) (_ Amounts, err error) {
	defer wrap(&err, "RefundsOwedAmounts")
	var rows []struct {
		Token    *string `db:"token"`
		Symbol   string  `db:"symbol"`
		Decimals int     `db:"decimals"`
		Amount   Uint256 `db:"amount"`
	}
	err = s.db.SelectContext(ctx, &rows, `
		SELECT owed.token, coalesce(t.symbol, '') AS symbol, coalesce(t.decimals, 0) AS decimals, owed.amount
		FROM (SELECT token, sum(CASE WHEN token IS NULL THEN value_wei ELSE amount END) AS amount `+refundsOwed+` GROUP BY token) owed
		LEFT JOIN tokens t ON t.address = owed.token
		ORDER BY owed.token NULLS FIRST`)
	out := NoAmounts()
	for _, r := range rows {
		if r.Token == nil {
			out.ETH = r.Amount
			continue
		}
		out.Tokens = append(out.Tokens, TokenAmount{Token: Token{Address: *r.Token, Symbol: r.Symbol, Decimals: r.Decimals}, Amount: r.Amount})
	}
	return out, err
}
