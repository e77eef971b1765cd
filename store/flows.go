package store

import (
	"context"
	"math/big"

	"github.com/jmoiron/sqlx"
)

// The money identity (issue 50 §5): every wei and token unit in or out of the payments wallet
// and the treasury is one ledger row. The scan records, beside the payments, sweeps and
// transfers out, the three kinds of row below; Flows sums them all by block, for a verifier to
// hold against the chain's balances.

// WalletFee is what the payments wallet paid for the gas of a transaction it sent.
type WalletFee struct {
	TxHash      string
	BlockNumber int64
	FeeWei      *big.Int
}

// TreasuryInflow is money that reached the treasury that is no sweep: ETH (Token "") as the
// Safe's SafeReceived log says, or a listed token's transfer to it.
type TreasuryInflow struct {
	TxHash      string
	LogIndex    int
	From        string
	Token       string // "": ETH
	Amount      *big.Int
	BlockNumber int64
}

// recordFlows records the scan's fees, treasury inflows and the outflows of its Safe
// executions; recording them again changes nothing.
func recordFlows(ctx context.Context, tx *sqlx.Tx, scan Scan) error {
	for _, f := range scan.Fees { // the payments wallet's own transactions: rare
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO wallet_fees (tx_hash, block_number, fee_wei) VALUES ($1, $2, $3) ON CONFLICT (tx_hash) DO NOTHING`,
			f.TxHash, f.BlockNumber, Uint256{f.FeeWei}); err != nil {
			return err
		}
	}
	for _, in := range scan.TreasuryIn {
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO treasury_inflows (tx_hash, log_index, from_address, token, amount, block_number)
			VALUES ($1, $2, $3, nullif($4, ''), $5, $6) ON CONFLICT (tx_hash, log_index) DO NOTHING`,
			in.TxHash, in.LogIndex, in.From, in.Token, Uint256{in.Amount}, in.BlockNumber); err != nil {
			return err
		}
	}
	for _, e := range scan.SafeExecutions {
		for i, o := range e.Outflows {
			if _, err := tx.ExecContext(ctx, `
				INSERT INTO treasury_outflows (safe_tx_hash, idx, tx_hash, to_address, token, amount, block_number)
				VALUES ($1, $2, $3, $4, nullif($5, ''), $6, $7) ON CONFLICT (safe_tx_hash, idx) DO NOTHING`,
				e.SafeTxHash, i, e.TxHash, o.To, o.Token, o.Amount, e.BlockNumber); err != nil {
				return err
			}
		}
	}
	return nil
}

// rewindFlows forgets the fees and the treasury's movements above block number, after a reorg.
func rewindFlows(ctx context.Context, tx *sqlx.Tx, number int64) error {
	for _, table := range []string{"wallet_fees", "treasury_inflows", "treasury_outflows"} {
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE block_number > $1`, number); err != nil {
			return err
		}
	}
	return nil
}

// Flow is what the ledger's rows say moved in one block into (positive) or out of (negative) a
// wallet it watches, in ETH (Token "") or a token.
type Flow struct {
	Wallet WatchedWallet
	Token  string
	Block  int64
	Amount *big.Int
}

// Flows sums, by wallet, currency and block, what the ledger's rows of blocks from..to say moved
// in and out of the payments wallet and the treasury: into the payments wallet its payments and
// unattributed inflows; out of it its transfers out, sweeps and fees; into the treasury the
// sweeps and its other inflows; out of it what its executions sent. A failed sweep moved
// nothing but its fee.
func (s *Store) Flows(ctx context.Context, from, to int64) (_ []Flow, err error) {
	defer wrap(&err, "Flows")
	var rows []struct {
		Wallet WatchedWallet `db:"wallet"`
		Token  string        `db:"token"`
		Block  int64         `db:"block"`
		Amount string        `db:"amount"` // signed: Uint256 holds none
	}
	if err := s.db.SelectContext(ctx, &rows, `
		SELECT wallet, token, block, sum(amount)::text AS amount FROM (
			SELECT 'payments_wallet' AS wallet, coalesce(p.token, '') AS token, p.block_number AS block,
				coalesce(p.amount, p.value_wei) AS amount FROM payments p
			UNION ALL SELECT 'payments_wallet', '', u.block_number, u.amount_wei FROM unattributed_inflows u
			UNION ALL SELECT 'payments_wallet', '', o.block_number, -o.value_wei FROM outgoing_transfers o
			UNION ALL SELECT 'payments_wallet', '', f.block_number, -f.fee_wei FROM wallet_fees f
			UNION ALL SELECT 'payments_wallet', coalesce(s.token, ''), s.block_number, -s.amount_wei FROM sweeps s WHERE s.status = 'swept'
			UNION ALL SELECT 'treasury', coalesce(s.token, ''), s.block_number, s.amount_wei FROM sweeps s WHERE s.status = 'swept'
			UNION ALL SELECT 'treasury', coalesce(i.token, ''), i.block_number, i.amount FROM treasury_inflows i
			UNION ALL SELECT 'treasury', coalesce(t.token, ''), t.block_number, -t.amount FROM treasury_outflows t
		) f WHERE block BETWEEN $1 AND $2
		GROUP BY wallet, token, block HAVING sum(amount) <> 0
		ORDER BY wallet, token, block`, from, to); err != nil {
		return nil, err
	}
	out := make([]Flow, len(rows))
	for i, r := range rows {
		amount, _ := new(big.Int).SetString(r.Amount, 10)
		out[i] = Flow{Wallet: r.Wallet, Token: r.Token, Block: r.Block, Amount: amount}
	}
	return out, nil
}
