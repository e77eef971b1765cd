package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"math/big"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// Payment is a transfer to the payments wallet, from the moment it is seen to its node or its
// rejection (Reason says why; the operator refunds it).
type Payment struct {
	ID         int64   `db:"id"`
	TxHash     string  `db:"tx_hash"`
	CallIndex  int     `db:"call_index"`
	PaymentRef string  `db:"payment_ref"` // what the contract is told: one payment can never mint twice
	From       string  `db:"from_address"`
	ValueWei   Uint256 `db:"value_wei"` // 0 for a token payment
	// Token is the listed ERC-20 a token payment was made in (nil: ETH), Amount what arrived of it
	// in its base units, LogIndex its Transfer log's place in the block.
	Token       *string       `db:"token"`
	Amount      *Uint256      `db:"amount"`
	LogIndex    *int          `db:"log_index"`
	BlockNumber int64         `db:"block_number"`
	BlockHash   string        `db:"block_hash"`
	TxIndex     *int          `db:"tx_index"`   // nil for a payment recorded before the sale rules
	BlockTime   *time.Time    `db:"block_time"` // likewise: such a payment is judged at CreatedAt
	Status      PaymentStatus `db:"status"`
	Reason      *Reason       `db:"reason"` // rejected or refunded: why it bought no node
	Tier        *int          `db:"tier"`
	MintTx      *string       `db:"mint_tx"`
	MintNonce   *int64        `db:"mint_nonce"`
	MintBatch   *int64        `db:"mint_batch"` // the mint transaction it is in; nil until signed
	CreatedAt   time.Time     `db:"created_at"`
}

// paymentReasonSQL reads a payment's reason as one JSON value for Reason's Scan: NULL for a
// payment not rejected. (Unqualified: of the tables the payment queries join, only payments has
// these columns.)
const paymentReasonSQL = `CASE WHEN reason_code IS NOT NULL
	THEN jsonb_build_object('code', reason_code, 'args', reason_args) END AS reason`

const paymentColumns = `id, tx_hash, call_index, payment_ref, from_address, value_wei, token, amount, log_index, block_number,
	block_hash, tx_index, block_time, status, ` + paymentReasonSQL + `, tier, mint_tx, mint_nonce, mint_batch, created_at`

// Paid is what payment p paid: ETH, or a listed token.
func (p Payment) Paid() Money {
	if p.Token != nil && p.Amount != nil {
		return Money{Token: *p.Token, Amount: p.Amount.Int}
	}
	return Money{Amount: p.ValueWei.Int}
}

// Money is an amount of ETH (Token "", Amount in wei) or of a token (its address, lower case, and
// Amount in its base units).
type Money struct {
	Token  string
	Amount *big.Int
}

// NewPayment is a transfer the scan found: of ETH (ValueWei), or of a listed token (Token,
// Amount and LogIndex set, ValueWei 0).
type NewPayment struct {
	TxHash      string
	TxIndex     int // the transaction's place in its block
	CallIndex   int
	PaymentRef  string
	From        string
	ValueWei    *big.Int
	Token       string
	Amount      *big.Int
	LogIndex    int
	BlockNumber int64
	BlockHash   string
	BlockTime   time.Time // the block's timestamp: the payment is judged by the rules in force then
	// USDPerETH is the ETH/USD feed's answer at the payment's block, as a decimal string: what an
	// ETH payment is booked at in dollars; "" when unknown (no feed, or a token payment).
	USDPerETH string
}

// FailedWithdrawal is a withdraw call to the factory that reverted.
type FailedWithdrawal struct {
	ChainNodeID *big.Int
	AmountWei   *big.Int
	To          string
	TxHash      string
	BlockNumber int64
	At          time.Time
}

// OutgoingTransfer is a plain transfer out of the payments wallet: a refund when it matches a
// rejected payment (MatchRefunds).
type OutgoingTransfer struct {
	TxHash      string
	To          string
	ValueWei    *big.Int
	BlockNumber int64
}

// Scan is what a scan read in a range of blocks.
type Scan struct {
	Blocks       []ScannedBlock // every block read, in order
	Payments     []NewPayment
	Failed       []FailedWithdrawal
	Outgoing     []OutgoingTransfer
	Unattributed []UnattributedInflow
	Sweeps       []Sweep // sweeps found on chain (a rebuild's): each settled, with its block
	// SafeExecutions are the treasury's executions in the blocks (treasury batches among them).
	SafeExecutions []SafeExecution
	Fees           []WalletFee      // of every transaction the payments wallet sent
	TreasuryIn     []TreasuryInflow // what reached the treasury that is no sweep
	// Sanctions is what the sanctions oracle logged in the blocks (nil: none is set).
	Sanctions *SanctionsFollow
}

// RecordScan records, in one transaction, what the scan found in its blocks (payments, reverted
// withdrawals, transfers out of the payments wallet, ETH in that no transaction explains), the
// blocks' hashes, and the cursor moved to the last of them. Recording the same blocks again changes nothing, so a scan that dies before
// this commits simply reads them again.
func (s *Store) RecordScan(ctx context.Context, name string, scan Scan) (err error) {
	defer wrap(&err, "RecordScan")
	blocks, payments, failed := scan.Blocks, scan.Payments, scan.Failed
	if len(blocks) == 0 {
		return nil
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	a := columnsOf(payments)
	var seen []int64 // the payments new to the ledger
	// payment_ref is unique and a function of the payment's place (transaction and call or log):
	// the one conflict that covers calls and logs alike.
	if err := tx.SelectContext(ctx, &seen, `
		INSERT INTO payments (tx_hash, call_index, payment_ref, from_address, value_wei, block_number, block_hash,
			tx_index, block_time, token, amount, log_index, usd_per_eth)
		SELECT h, c, r, f, v, n, bh, ti, to_timestamp(bt), tk, a, li, u
		FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::numeric[], $6::bigint[], $7::text[],
			$8::int[], $9::bigint[], $10::text[], $11::numeric[], $12::int[], $13::numeric[]) AS p (h, c, r, f, v, n, bh, ti, bt, tk, a, li, u)
		ON CONFLICT (payment_ref) DO NOTHING
		RETURNING id`,
		pq.Array(a.txHashes), pq.Array(a.callIndexes), pq.Array(a.refs), pq.Array(a.froms), pq.Array(a.values),
		pq.Array(a.blockNumbers), pq.Array(a.blockHashes), pq.Array(a.txIndexes), pq.Array(a.blockTimes),
		pq.Array(a.tokens), pq.Array(a.amounts), pq.Array(a.logIndexes), pq.Array(a.usdPerETH)); err != nil {
		return err
	}
	if err := emitPayments(ctx, tx, EventPaymentSeen, seen); err != nil {
		return err
	}
	if len(seen) > 0 {
		held, err := (Tx{tx}).MintingHeld(ctx)
		if err != nil {
			return err
		}
		if held {
			if err := emitPayments(ctx, tx, EventPaymentHeld, seen); err != nil {
				return err
			}
		}
	}
	var withdrawals []int64
	for _, w := range failed { // rare: one statement each
		// A reverted call against a node the ledger does not know yet is left to the reconciler;
		// one against an id no node can have (anyone may call withdraw with any id) is no one's.
		id, ok := rowID(w.ChainNodeID)
		if !ok {
			continue
		}
		var recorded []int64
		if err := tx.SelectContext(ctx, &recorded, `
			INSERT INTO withdrawals (node_id, amount_wei, to_address, tx_hash, status, created_at, block_number)
			SELECT id, $2, $3, $4, 'failed', $5, $6 FROM nodes WHERE id = $1
			ON CONFLICT (tx_hash) WHERE log_index IS NULL DO NOTHING
			RETURNING id`,
			id, Uint256{w.AmountWei}, w.To, w.TxHash, w.At, w.BlockNumber); err != nil {
			return err
		}
		withdrawals = append(withdrawals, recorded...)
	}
	if err := emitWithdrawals(ctx, tx, withdrawals); err != nil {
		return err
	}
	for _, o := range scan.Outgoing { // rare too: the operator's refunds and sweeps
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO outgoing_transfers (tx_hash, to_address, value_wei, block_number) VALUES ($1, $2, $3, $4)
			ON CONFLICT (tx_hash) DO NOTHING`, o.TxHash, o.To, Uint256{o.ValueWei}, o.BlockNumber); err != nil {
			return err
		}
	}
	for _, sw := range scan.Sweeps { // rare: one an hour
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO sweeps (from_address, to_address, amount_wei, token, status, tx_hash, block_number)
			SELECT $1, $2, $3, $4, $5, $6::text, $7 WHERE NOT EXISTS (SELECT 1 FROM sweeps WHERE tx_hash = $6::text)`,
			sw.From, sw.To, sw.AmountWei, sw.Token, sw.Status, sw.TxHash, sw.BlockNumber); err != nil {
			return err
		}
	}
	for _, u := range scan.Unattributed { // rare: only where the RPC cannot trace
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO unattributed_inflows (block_number, block_hash, amount_wei) VALUES ($1, $2, $3)
			ON CONFLICT (block_number) DO NOTHING`,
			u.BlockNumber, u.BlockHash, u.AmountWei); err != nil {
			return err
		}
	}
	if err := recordExecutions(ctx, tx, scan.SafeExecutions); err != nil {
		return err
	}
	if err := recordFlows(ctx, tx, scan); err != nil {
		return err
	}
	if err := recordSanctions(ctx, tx, scan.Sanctions); err != nil {
		return err
	}
	if err := advance(ctx, tx, name, blocks); err != nil {
		return err
	}
	return tx.Commit()
}

// paymentArrays are payments as the columns of one INSERT … SELECT FROM unnest: one statement
// a table, as a scan of a busy chain finds thousands of payments at a time.
type paymentArrays struct {
	txHashes, refs, froms, values, blockHashes []string
	callIndexes, txIndexes                     []int64
	blockNumbers, blockTimes                   []int64
	tokens, amounts                            []sql.NullString // NULL for ETH
	usdPerETH                                  []sql.NullString // NULL when unknown
	logIndexes                                 []sql.NullInt64  // NULL for ETH
}

func columnsOf(payments []NewPayment) paymentArrays {
	var a paymentArrays
	for _, p := range payments {
		a.txHashes, a.refs, a.froms = append(a.txHashes, p.TxHash), append(a.refs, p.PaymentRef), append(a.froms, p.From)
		a.values, a.blockHashes = append(a.values, p.ValueWei.String()), append(a.blockHashes, p.BlockHash)
		a.callIndexes, a.blockNumbers = append(a.callIndexes, int64(p.CallIndex)), append(a.blockNumbers, p.BlockNumber)
		a.txIndexes, a.blockTimes = append(a.txIndexes, int64(p.TxIndex)), append(a.blockTimes, p.BlockTime.Unix())
		token, amount, logIndex := sql.NullString{}, sql.NullString{}, sql.NullInt64{}
		if p.Token != "" {
			token, amount = sql.NullString{String: p.Token, Valid: true}, sql.NullString{String: p.Amount.String(), Valid: true}
			logIndex = sql.NullInt64{Int64: int64(p.LogIndex), Valid: true}
		}
		a.tokens, a.amounts, a.logIndexes = append(a.tokens, token), append(a.amounts, amount), append(a.logIndexes, logIndex)
		a.usdPerETH = append(a.usdPerETH, sql.NullString{String: p.USDPerETH, Valid: p.USDPerETH != ""})
	}
	return a
}

// RewindScan undoes RecordScan above block number (a block both the ledger and the chain agree
// on) after a reorg, and moves the scan back to it: the blocks above are forgotten, and so are
// the payments they held that had not gone further than being seen, rejected or refunded, and
// the transfers out of the payments wallet, the reverted withdraw calls and the unattributed
// inflows they held (a payment they refunded is rejected again, until the refund is seen anew), and
// the treasury batches they executed, failed or voided are open again (void again at once when
// one holds a payment refunded by hand below). A payment already minting or minted stays, for
// the drift report: the chain decides what became of it.
func (s *Store) RewindScan(ctx context.Context, name string, number int64, hash string) (forgotten int64, err error) {
	defer wrap(&err, "RewindScan")
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var unrefunded, withdrawals, payments []int64
	if err := tx.SelectContext(ctx, &unrefunded, `
		UPDATE payments SET status = 'rejected', refund_tx_hash = NULL, updated_at = now()
		WHERE refund_tx_hash IN (SELECT tx_hash FROM outgoing_transfers WHERE block_number > $1)
		RETURNING id`, number); err != nil {
		return 0, err
	}
	// The treasury batches the chain decided above it are open again.
	batched, unpaid, err := rewindBatches(ctx, tx, number)
	if err != nil {
		return 0, err
	}
	unrefunded = append(unrefunded, batched...)
	// The sweeps a rebuild found there (the service's own are the sweep pass's: in the outbox).
	if _, err := tx.ExecContext(ctx, `
		DELETE FROM sweeps s WHERE block_number > $1 AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.sweep_id = s.id)`, number); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM outgoing_transfers WHERE block_number > $1`, number); err != nil {
		return 0, err
	}
	// A batch open again may hold a payment refunded by hand below the reorg (its execution paid
	// that buyer a second time): it is void again at once, never ready to pay them once more.
	var byHand []int64
	if err := tx.SelectContext(ctx, &byHand, `
		SELECT bp.payment_id FROM treasury_batch_payments bp JOIN treasury_batches b ON b.id = bp.batch_id
			JOIN payments p ON p.id = bp.payment_id JOIN outgoing_transfers o ON o.tx_hash = p.refund_tx_hash
		WHERE bp.open AND b.status IN ('proposed', 'ready')`); err != nil {
		return 0, err
	}
	if err := voidRefundedElsewhere(ctx, tx, byHand); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM unattributed_inflows WHERE block_number > $1`, number); err != nil {
		return 0, err
	}
	if err := rewindFlows(ctx, tx, number); err != nil {
		return 0, err
	}
	if err := rewindSanctions(ctx, tx, number); err != nil {
		return 0, err
	}
	// Reverted withdraw calls are this scan's; withdrawals from logs are the reconciler's.
	if err := tx.SelectContext(ctx, &withdrawals, `
		DELETE FROM withdrawals WHERE log_index IS NULL AND block_number > $1 RETURNING id`, number); err != nil {
		return 0, err
	}
	// A held payment goes too, giving back the unit an identity check's hold kept; a release
	// recorded for it stays with its reference, for the payment if a later block holds it again.
	if _, err := tx.ExecContext(ctx, `
		DELETE FROM payment_referrals WHERE payment_id IN (
			SELECT id FROM payments WHERE block_number > $1 AND status IN ('pending', 'rejected', 'held'))`, number); err != nil {
		return 0, err
	}
	if err := tx.SelectContext(ctx, &payments, `
		DELETE FROM payments WHERE block_number > $1 AND status IN ('pending', 'rejected', 'held') RETURNING id`, number); err != nil {
		return 0, err
	}
	forgotten = int64(len(payments))
	// What the webhooks said of them, taken back.
	if err := revert(ctx, tx, paymentSubjects(unrefunded), EventPaymentRefunded); err != nil {
		return 0, err
	}
	if err := revert(ctx, tx, commissionSubjects(unpaid), EventReferralPaid); err != nil {
		return 0, err
	}
	if err := revert(ctx, tx, withdrawalSubjects(withdrawals), EventWithdrawalRecorded); err != nil {
		return 0, err
	}
	if err := revert(ctx, tx, paymentSubjects(payments), EventPaymentSeen, EventPaymentHeld, EventPaymentRejected); err != nil {
		return 0, err
	}
	if err := forgetDigests(ctx, tx, number, hash); err != nil {
		return 0, err
	}
	if err := rewindTo(ctx, tx, name, number, hash); err != nil {
		return 0, err
	}
	return forgotten, tx.Commit()
}

// PaymentsByStatus returns the payments in status in chain order: by block, place in the block,
// call in the transaction (then id, for payments recorded without a place); the first limit of
// them, or all when limit is 0.
func (s *Store) PaymentsByStatus(ctx context.Context, status PaymentStatus, limit int) (_ []Payment, err error) {
	defer wrap(&err, "PaymentsByStatus")
	var ps []Payment
	err = s.db.SelectContext(ctx, &ps, `
		SELECT `+paymentColumns+` FROM payments WHERE status = $1 ORDER BY block_number, tx_index, call_index, id
		LIMIT nullif($2, 0)`, status, limit)
	return ps, err
}

// ChainRead is one call a judgement made to the chain and what it answered, kept with the
// payment (payments.judged_reads): the chain's state at a past block needs an archive node, so a
// rebuild reuses it and a verify against an archive node asks again.
type ChainRead struct {
	Contract string          `json:"contract"` // lower case
	Call     string          `json:"call"`     // the function and its arguments: "nodesOf(0x…)"
	Block    int64           `json:"block"`
	Result   json.RawMessage `json:"result"`
}

// readsValue is reads as a jsonb value; nil (SQL null) for none.
func readsValue(reads []ChainRead) (*string, error) {
	if reads == nil {
		return nil, nil
	}
	b, err := json.Marshal(reads)
	return new(string(b)), err
}

// RejectPayment records why a payment in status `from` (pending: its check; minting: its mint
// reverted) does not become a node, with what its judgement read of the chain (nil: it keeps the
// reads it has, as a mint's refusal does). A payment no longer in that status is left as it is: a check
// never undoes a mint another pass has sent meanwhile.
func (s *Store) RejectPayment(ctx context.Context, id int64, from PaymentStatus, code ReasonCode, args any, reads []ChainRead) (err error) {
	defer wrap(&err, "RejectPayment")
	return s.decide(ctx, id, from, PaymentRejected, EventPaymentRejected, code, args, reads)
}

// HoldPayment records that the screening holds a pending payment (code says why), with what its
// judgement read of the chain: it waits for an admin's release (ReleasePayment).
func (s *Store) HoldPayment(ctx context.Context, id int64, code ReasonCode, args any, reads []ChainRead) (err error) {
	defer wrap(&err, "HoldPayment")
	return s.decide(ctx, id, PaymentPending, PaymentHeld, EventPaymentHeld, code, args, reads)
}

// decide moves a payment from status `from` to `to` with its reason and reads (RejectPayment,
// HoldPayment), and emits event; a payment no longer in status `from` is left as it is.
func (s *Store) decide(ctx context.Context, id int64, from, to PaymentStatus, event EventType, code ReasonCode, args any, reads []ChainRead) error {
	argsJSON, err := jsonValue(args)
	if err != nil {
		return err
	}
	readsJSON, err := readsValue(reads)
	if err != nil {
		return err
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var moved []int64
	if err := s.allIn(ctx, tx, &moved, `
		UPDATE payments SET status = $3, reason_code = $4, reason_args = $5,
			judged_reads = coalesce($6, judged_reads), updated_at = now()
		WHERE id = $1 AND status = $2 RETURNING id`, id, from, to, code, argsJSON, readsJSON); err != nil {
		return err
	}
	if err := emitPayments(ctx, tx, event, moved); err != nil {
		return err
	}
	return tx.Commit()
}

// RecordMint records the node a payment's mint created, as RecordMints does, and returns the
// ledger's row; created is false when the node was recorded already.
func (s *Store) RecordMint(ctx context.Context, paymentID int64, n NewNode) (_ Node, created bool, err error) {
	defer wrap(&err, "RecordMint")
	n.PaymentID = &paymentID
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return Node{}, false, err
	}
	defer tx.Rollback()
	added, err := recordMints(ctx, tx, []NewNode{n})
	if err != nil {
		return Node{}, false, err
	}
	var node Node
	if err := tx.GetContext(ctx, &node, `SELECT `+nodeColumns+` FROM nodes WHERE id = $1`, n.ChainNodeID.Int64()); err != nil {
		return Node{}, false, err
	}
	return node, len(added) == 1, tx.Commit()
}

// RecordMints records the nodes mints created, each with the payment it was minted for
// (PaymentID), marks those payments minted and writes what they earn their referrers, in one
// transaction: a mint transaction's nodes in four statements. Recording a node again changes
// nothing.
func (s *Store) RecordMints(ctx context.Context, nodes []NewNode) (err error) {
	defer wrap(&err, "RecordMints")
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := recordMints(ctx, tx, nodes); err != nil {
		return err
	}
	return tx.Commit()
}

// recordMints is RecordMints inside tx; it returns the ids of the nodes it added.
func recordMints(ctx context.Context, tx *sqlx.Tx, nodes []NewNode) (added []int64, err error) {
	type row struct {
		ID           int64      `json:"id"`
		Tier         int        `json:"tier"`
		Owner        string     `json:"owner"`
		PriceWei     string     `json:"price_wei"`
		MintTx       string     `json:"mint_tx"`
		PaymentID    *int64     `json:"payment_id"`
		NextCreditAt *time.Time `json:"next_credit_at"`
		Block        int64      `json:"block_number"`
	}
	rows := make([]row, len(nodes))
	var payments []int64
	for i, n := range nodes {
		id, err := mintedRowID(n)
		if err != nil {
			return nil, err
		}
		rows[i] = row{ID: id, Tier: n.Tier, Owner: n.Owner, PriceWei: n.PriceWei.String(), MintTx: n.MintTx,
			PaymentID: n.PaymentID, NextCreditAt: n.NextCreditAt, Block: n.Block}
		if n.PaymentID != nil {
			payments = append(payments, *n.PaymentID)
		}
	}
	doc, err := json.Marshal(rows)
	if err != nil {
		return nil, err
	}
	// A node the reconciler or a sync recorded first, before its payment or its block was known,
	// learns them now, and with its payment what was paid. The UPDATE does not see the rows the
	// INSERT adds: one snapshot.
	if err := tx.SelectContext(ctx, &added, `
		WITH minted AS (
			SELECT * FROM jsonb_to_recordset($1::jsonb) AS m (id bigint, tier smallint, owner text, price_wei numeric,
				mint_tx text, payment_id bigint, next_credit_at timestamptz, block_number bigint)
		), learnt AS (
			UPDATE nodes n SET block_number = coalesce(n.block_number, nullif(m.block_number, 0)),
				payment_id = coalesce(n.payment_id, m.payment_id),
				price_wei = CASE WHEN n.payment_id IS NULL AND m.payment_id IS NOT NULL THEN m.price_wei ELSE n.price_wei END
			FROM minted m
			WHERE n.id = m.id AND (n.block_number IS NULL AND m.block_number <> 0 OR n.payment_id IS NULL AND m.payment_id IS NOT NULL)
		)
		INSERT INTO nodes (id, tier, owner, price_wei, mint_tx, payment_id, next_credit_at, block_number)
		SELECT id, tier, owner, price_wei, mint_tx, payment_id, next_credit_at, nullif(block_number, 0) FROM minted ORDER BY id
		ON CONFLICT (id) DO NOTHING
		RETURNING id`, string(doc)); err != nil {
		return nil, err
	}
	var minted []int64
	if err := tx.SelectContext(ctx, &minted, `
		UPDATE payments SET status = 'minted', updated_at = now() WHERE id = ANY ($1) AND status = 'minting' RETURNING id`,
		pq.Array(payments)); err != nil {
		return nil, err
	}
	earned, err := earnCommissions(ctx, tx, minted)
	if err != nil {
		return nil, err
	}
	if err := emitCommissions(ctx, tx, EventReferralEarned, earned); err != nil {
		return nil, err
	}
	return added, emitPayments(ctx, tx, EventPaymentMinted, minted)
}

// Holdings is what a wallet holds or is being minted, as the ledger knows it.
type Holdings struct {
	OfTier  int `db:"of_tier"` // of one tier: nodes recorded and payments minting or holding a unit
	Minting int `db:"minting"` // payments minting or holding a unit (an identity check's hold), in all tiers
	Nodes   int `db:"nodes"`   // nodes recorded, in all tiers (the chain may know more: Judge)
}

// WalletHoldings counts what a wallet holds or is being minted, of tier and in all.
func (s *Store) WalletHoldings(ctx context.Context, owner string, tier int) (_ Holdings, err error) {
	defer wrap(&err, "WalletHoldings")
	var h Holdings
	err = s.get(ctx, &h, walletHoldingsSQL, owner, tier)
	return h, err
}

// walletHoldingsSQL is WalletHoldings', run at every judgement: it reads the wallet's own nodes
// (nodes_owner_tier) and open payments (payments_open_by_wallet), however many it has settled
// (see PassSQL).
const walletHoldingsSQL = `
	SELECT
		(SELECT count(*) FROM nodes WHERE owner = $1 AND tier = $2)
		+ (SELECT count(*) FROM payments p WHERE p.from_address = $1 AND p.tier = $2 AND p.status IN ('minting', 'held')) AS of_tier,
		(SELECT count(*) FROM payments WHERE from_address = $1 AND (status = 'minting' OR status = 'held' AND tier IS NOT NULL)) AS minting,
		(SELECT count(*) FROM nodes WHERE owner = $1) AS nodes`

// Refunds returns the rejected payments, newest first: what the operator owes back.
func (s *Store) Refunds(ctx context.Context, limit int) (_ []Payment, err error) {
	defer wrap(&err, "Refunds")
	var ps []Payment
	err = s.db.SelectContext(ctx, &ps, `
		SELECT `+paymentColumns+` FROM payments WHERE status = 'rejected'
		ORDER BY block_number DESC, id DESC LIMIT $1`, limit)
	return ps, err
}

// MintedSince returns the minted payments of blocks from `from` on, oldest first.
func (s *Store) MintedSince(ctx context.Context, from int64) (_ []Payment, err error) {
	defer wrap(&err, "MintedSince")
	var ps []Payment
	err = s.db.SelectContext(ctx, &ps, `
		SELECT `+paymentColumns+` FROM payments WHERE status = 'minted' AND block_number >= $1
		ORDER BY block_number, id`, from)
	return ps, err
}

// MatchRefunds marks refunded the rejected payments the payments wallet has paid back: for each
// transfer out of it that refunds nothing yet, oldest first, the oldest rejected payment from its
// recipient of exactly its value in an earlier block. It runs after the payments are checked, so
// a refund read in the same scan as the payment it returns is matched once that is rejected.
func (s *Store) MatchRefunds(ctx context.Context) (matched int, err error) {
	defer wrap(&err, "MatchRefunds")
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var refunds []string
	err = tx.SelectContext(ctx, &refunds, `
		SELECT o.tx_hash FROM outgoing_transfers o
		WHERE NOT EXISTS (SELECT 1 FROM payments p WHERE p.refund_tx_hash = o.tx_hash)
		  AND EXISTS (SELECT 1 FROM payments p WHERE p.status = 'rejected' AND p.from_address = o.to_address
		              AND p.value_wei = o.value_wei AND p.block_number < o.block_number)
		ORDER BY o.block_number, o.tx_hash`)
	if err != nil {
		return 0, err
	}
	var refunded []int64
	for _, hash := range refunds { // one at a time: each takes the oldest payment the last one left
		var matched []int64
		if err := tx.SelectContext(ctx, &matched, `
			UPDATE payments SET status = 'refunded', refund_tx_hash = $1, updated_at = now()
			WHERE id = (
				SELECT p.id FROM payments p JOIN outgoing_transfers o ON o.tx_hash = $1
				WHERE p.status = 'rejected' AND p.from_address = o.to_address
				  AND p.value_wei = o.value_wei AND p.block_number < o.block_number
				ORDER BY p.block_number, p.id LIMIT 1)
			RETURNING id`, hash); err != nil {
			return 0, err
		}
		refunded = append(refunded, matched...)
	}
	if err := voidRefundedElsewhere(ctx, tx, refunded); err != nil {
		return 0, err
	}
	if err := emitPayments(ctx, tx, EventPaymentRefunded, refunded); err != nil {
		return 0, err
	}
	return len(refunded), tx.Commit()
}

// PaymentRecord is a payment as its buyer follows it: the ledger's status, and the node it became
// or the transfer that refunded it.
type PaymentRecord struct {
	TxHash    string  `db:"tx_hash"`
	CallIndex int     `db:"call_index"`
	From      string  `db:"from_address"`
	ValueWei  Uint256 `db:"value_wei"`
	// What was paid: ETH (Token nil) or a listed token, Amount in its base units (ETH: wei).
	Token        *string       `db:"token"`
	Symbol       string        `db:"symbol"`
	Decimals     int           `db:"decimals"`
	Amount       Uint256       `db:"amount"`
	BlockNumber  int64         `db:"block_number"`
	Status       PaymentStatus `db:"status"`
	Reason       *Reason       `db:"reason"`
	Tier         *int          `db:"tier"`
	NodeID       *int64        `db:"node_id"`
	ChainNodeID  Uint256       `db:"chain_node_id"` // nil until minted
	MintTx       *string       `db:"mint_tx"`
	RefundTxHash *string       `db:"refund_tx_hash"`
	// The referral code its node was bought under, and what it took off the price in the currency
	// paid (as Amount): nil when none, and until the payment is judged to buy a node.
	ReferralCode *string   `db:"referral_code"`
	Discount     Uint256   `db:"discount"`
	CreatedAt    time.Time `db:"created_at"`
	UpdatedAt    time.Time `db:"updated_at"`

	// The refund batch that holds the payment, if one that is not void or failed does: its
	// status, its approvals and threshold, and the transaction that executes it (sent or mined).
	BatchStatus    *BatchStatus `db:"batch_status"`
	BatchApprovals *int         `db:"batch_approvals"`
	BatchThreshold *int         `db:"batch_threshold"`
	BatchTx        *string      `db:"batch_tx"`
}

// RefundStatus is where a payment's refund in a treasury batch is, as its buyer reads it.
type RefundStatus string

// The refund's statuses: owners approve the batch, its transaction is sent (the chain holds it,
// not yet confirmed), and it is refunded.
const (
	RefundApproving RefundStatus = "approving"
	RefundSent      RefundStatus = "sent"
	RefundRefunded  RefundStatus = "refunded"
)

// RefundDoc is a payment's refund in a treasury batch as its buyer follows it.
type RefundDoc struct {
	Status    RefundStatus `json:"status"`
	Approvals int          `json:"approvals"` // owners who signed the batch
	Threshold int          `json:"threshold"` // how many must
	TxHash    *string      `json:"txHash"`    // sent or refunded: the transaction
}

// refund is r's refund in a batch; nil when no batch holds it.
func (r PaymentRecord) refund() *RefundDoc {
	if r.BatchStatus == nil {
		return nil
	}
	d := RefundDoc{Status: RefundApproving, Approvals: *r.BatchApprovals, Threshold: *r.BatchThreshold, TxHash: r.BatchTx}
	switch {
	case *r.BatchStatus == BatchExecuted:
		d.Status = RefundRefunded
	case r.BatchTx != nil:
		d.Status = RefundSent
	}
	return &d
}

// PaymentDoc is a payment as its buyer follows it: as GET /api/payments/{txHash} answers it, and
// as a webhook event carries it, frozen when the event is written. One type for both, so that the
// two cannot drift apart. Two of its fields are not the ledger's, and are filled in where it is
// shown: Reason, the sentence written from the reason's code and values, and
// ConfirmationsNeeded, the service's setting.
type PaymentDoc struct {
	TxHash              string      `json:"txHash"`
	CallIndex           int         `json:"callIndex"`
	From                string      `json:"from"`
	ValueWei            Uint256     `json:"valueWei"` // "0" for a token payment
	Token               *string     `json:"token"`    // null: ETH
	Symbol              string      `json:"symbol"`
	Decimals            int         `json:"decimals"`
	Amount              Uint256     `json:"amount"` // in the token's base units (ETH: wei)
	ReferralCode        *string     `json:"referralCode"`
	DiscountWei         Uint256     `json:"discountWei"` // "0" for a token payment
	Discount            Uint256     `json:"discount"`    // in the currency paid, as amount`
	BlockNumber         int64       `json:"blockNumber"`
	Status              BuyerStatus `json:"status"`
	Reason              *string     `json:"reason"`     // rejected or refunded: why, a sentence
	ReasonCode          *ReasonCode `json:"reasonCode"` // the same as a code
	Confirmations       *uint64     `json:"confirmations"`
	ConfirmationsNeeded uint64      `json:"confirmationsNeeded"`
	Tier                *string     `json:"tier"`
	NodeID              *int64      `json:"nodeId"`
	ChainNodeID         Uint256     `json:"chainNodeId"`
	MintTx              *string     `json:"mintTx"`
	RefundTxHash        *string     `json:"refundTxHash"`
	Refund              *RefundDoc  `json:"refund,omitempty"` // in a treasury refund batch: where the refund is
	CreatedAt           *string     `json:"createdAt"`
	UpdatedAt           *string     `json:"updatedAt"`
}

// UnmarshalJSON reads a payment as an event stored it. Events stored before payments in tokens
// were ETH payments and carry no symbol: they read as ETH, amount their valueWei; those stored
// before codes worked on tokens carry no discount: an ETH payment's is its discountWei.
func (d *PaymentDoc) UnmarshalJSON(b []byte) error {
	type plain PaymentDoc // without this method
	if err := json.Unmarshal(b, (*plain)(d)); err != nil {
		return err
	}
	if d.Symbol == "" && d.Token == nil {
		d.Symbol, d.Decimals, d.Amount = "ETH", 18, d.ValueWei
	}
	if d.Discount.Int == nil && d.Token == nil {
		d.Discount = d.DiscountWei
	}
	return nil
}

// Doc is r as its buyer follows it, but for Reason and ConfirmationsNeeded (see PaymentDoc);
// waiting is its status while it waits to be checked: minting, or held while the operator holds
// minting.
func (r PaymentRecord) Doc(held bool) PaymentDoc {
	status := r.Status.Buyer(held)
	var tier *string
	if r.Tier != nil {
		t := strconv.Itoa(*r.Tier)
		tier = &t
	}
	p := PaymentDoc{
		TxHash: r.TxHash, CallIndex: r.CallIndex, From: r.From, ValueWei: r.ValueWei, Token: r.Token, Symbol: r.Symbol,
		Decimals: r.Decimals, Amount: r.Amount, ReferralCode: r.ReferralCode,
		DiscountWei: r.Discount, Discount: r.Discount, BlockNumber: r.BlockNumber,
		Status: status, Tier: tier, NodeID: r.NodeID, ChainNodeID: r.ChainNodeID, MintTx: r.MintTx,
		RefundTxHash: r.RefundTxHash, Refund: r.refund(), CreatedAt: APITime(&r.CreatedAt), UpdatedAt: APITime(&r.UpdatedAt),
	}
	if r.Reason != nil {
		p.ReasonCode = &r.Reason.Code
	}
	if r.Token != nil && r.Discount.Int != nil {
		p.DiscountWei = Uint256{Int: new(big.Int)}
	}
	return p
}

// APITime is t as the API writes times: ISO 8601 in UTC, to the millisecond, as api_time does in
// SQL (migrations/0005); nil for none.
func APITime(t *time.Time) *string {
	if t == nil || t.IsZero() {
		return nil
	}
	s := t.UTC().Format("2006-01-02T15:04:05.000Z")
	return &s
}

// paymentRecordSQL reads PaymentRecords; the mint transaction is the one that minted the node
// when there is one, else the one on its way.
const paymentRecordSQL = `SELECT ` + paymentRecordColumns + ` FROM payments p ` + paymentRecordJoins

// What trackers and /me ask on every poll (store_test's plans test holds them to indexes).
const (
	paymentByTxSQL  = paymentRecordSQL + ` WHERE p.tx_hash = $1 ORDER BY p.call_index LIMIT 1`
	paymentsFromSQL = paymentRecordSQL + ` WHERE p.from_address = $1 ORDER BY p.block_number DESC, p.id DESC LIMIT $2`
)

// paymentRecordJoins join a payment p to its node n, the code pr it buys it under, and the batch
// rb that refunds it, if any, and the token tk it was paid in.
const paymentRecordJoins = `LEFT JOIN nodes n ON n.payment_id = p.id
	LEFT JOIN tokens tk ON tk.address = p.token
	LEFT JOIN payment_referrals pr ON pr.payment_id = p.id AND p.status IN ('minting', 'minted')
	LEFT JOIN LATERAL (
		SELECT b.status, b.threshold, coalesce(b.executed_tx, b.sent_tx) AS tx,
			(SELECT count(*) FROM treasury_batch_approvals a WHERE a.batch_id = b.id AND a.counted) AS approvals
		FROM treasury_batch_payments bp JOIN treasury_batches b ON b.id = bp.batch_id
		WHERE bp.payment_id = p.id AND bp.open) rb ON true`

// paymentRecordColumns are a PaymentRecord's, of payment p and its node n.
const paymentRecordColumns = `p.tx_hash, p.call_index, p.from_address, p.value_wei, p.token,
	coalesce(tk.symbol, 'ETH') AS symbol, coalesce(tk.decimals, 18) AS decimals, coalesce(p.amount, p.value_wei) AS amount,
	p.block_number, p.status, ` + paymentReasonSQL + `,
	p.tier, n.id AS node_id, n.id AS chain_node_id, coalesce(n.mint_tx, p.mint_tx) AS mint_tx,
	p.refund_tx_hash, pr.code AS referral_code, pr.discount, p.created_at, p.updated_at,
	rb.status AS batch_status, rb.approvals AS batch_approvals, rb.threshold AS batch_threshold, rb.tx AS batch_tx`

// PaymentByTx returns the payment made by transaction hash (lower case); for a contract wallet's
// transaction that paid several times, the first. ErrNotFound when the scan has seen none.
func (s *Store) PaymentByTx(ctx context.Context, hash string) (_ PaymentRecord, err error) {
	defer wrap(&err, "PaymentByTx")
	var p PaymentRecord
	err = s.get(ctx, &p, paymentByTxSQL, hash)
	if errors.Is(err, sql.ErrNoRows) {
		return p, ErrNotFound
	}
	return p, err
}

// PaymentsFrom returns the latest limit payments from wallet (lower case), newest first.
func (s *Store) PaymentsFrom(ctx context.Context, wallet string, limit int) (_ []PaymentRecord, err error) {
	defer wrap(&err, "PaymentsFrom")
	ps := []PaymentRecord{}
	err = s.all(ctx, &ps, paymentsFromSQL, wallet, limit)
	return ps, err
}

// UnsettledPayments counts the payments without their verdict yet: pending, or minting.
func (s *Store) UnsettledPayments(ctx context.Context) (n int, err error) {
	defer wrap(&err, "UnsettledPayments")
	err = s.db.GetContext(ctx, &n, `SELECT count(*) FROM payments WHERE status IN ('pending', 'minting')`)
	return n, err
}

// JudgedReads returns what the judgements of the payments of references refs read of the chain,
// by reference; a payment not judged, or judged before reads were kept, is absent.
func (s *Store) JudgedReads(ctx context.Context, refs []string) (_ map[string][]ChainRead, err error) {
	defer wrap(&err, "JudgedReads")
	var rows []struct {
		Ref   string `db:"payment_ref"`
		Reads []byte `db:"judged_reads"`
	}
	if err := s.db.SelectContext(ctx, &rows, `
		SELECT payment_ref, judged_reads FROM payments WHERE payment_ref = ANY ($1) AND judged_reads IS NOT NULL`,
		pq.Array(refs)); err != nil {
		return nil, err
	}
	out := make(map[string][]ChainRead, len(rows))
	for _, r := range rows {
		var reads []ChainRead
		if err := json.Unmarshal(r.Reads, &reads); err != nil {
			return nil, err
		}
		out[r.Ref] = reads
	}
	return out, nil
}
