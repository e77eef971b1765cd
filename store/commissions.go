package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// CommissionStatus is where a commission stands: owed until a treasury batch that pays it
// executes.
type CommissionStatus string

// The commission's statuses.
const (
	CommissionOwed CommissionStatus = "owed"
	CommissionPaid CommissionStatus = "paid"
)

// Commission is what a referrer earned of one minted payment (commissions), in the currency the
// payment was made in, with the batch that paid it, if one executed.
// It is also the document GET /api/admin/commissions lists and the referral.* webhooks carry.
type Commission struct {
	ID        int64   `db:"id" json:"id"`
	PaymentID int64   `db:"payment_id" json:"-"`
	Payment   string  `db:"payment_tx" json:"payment"` // the payment's transaction
	Code      string  `db:"code" json:"code"`
	Referrer  string  `db:"referrer" json:"referrer"`
	Role      string  `db:"role" json:"role"`            // "owner" of the code, or "parent": the partner above
	AmountWei Uint256 `db:"amount_wei" json:"amountWei"` // "0" for a commission in a token
	// InToken is a commission on a token payment: owed, and paid, in that token (null: ETH).
	InToken   *TokenAmount     `db:"in_token" json:"inToken"`
	Status    CommissionStatus `db:"status" json:"status"`
	PaidTx    *string          `db:"paid_tx" json:"paidTx"`
	CreatedAt string           `db:"created_at" json:"createdAt"`
}

// Money is what c is owed in: its token's address ("" for ETH) and the amount in base units.
func (c Commission) Money() Money {
	if c.InToken != nil {
		return Money{Token: c.InToken.Address, Amount: c.InToken.Amount.Int}
	}
	return Money{Amount: c.AmountWei.Int}
}

// commissionPaidSQL joins to commission c, as paid, the executed batch that made its transfer
// (paid.tx NULL: owed).
const commissionPaidSQL = `LEFT JOIN LATERAL (
		SELECT b.executed_tx AS tx FROM treasury_batch_commissions bc JOIN treasury_batches b ON b.id = bc.batch_id
		WHERE bc.commission_id = c.id AND b.status = 'executed' AND bc.open) paid ON true`

// commissionSQL reads Commissions: a commission c with its payment and referral, and the executed
// batch that paid it, if any.
const commissionSQL = `
	SELECT c.id, c.payment_id, p.tx_hash AS payment_tx, r.code, c.referrer, c.role,
		CASE WHEN p.token IS NULL THEN c.amount ELSE 0 END AS amount_wei,
		CASE WHEN p.token IS NOT NULL THEN jsonb_build_object('token', p.token, 'symbol', tk.symbol, 'decimals', tk.decimals,
			'amount', c.amount::text) END AS in_token,
		CASE WHEN paid.tx IS NULL THEN 'owed' ELSE 'paid' END AS status, paid.tx AS paid_tx,
		api_time(c.created_at) AS created_at
	FROM commissions c
	JOIN payment_referrals r ON r.payment_id = c.payment_id
	JOIN payments p ON p.id = c.payment_id
	LEFT JOIN tokens tk ON tk.address = p.token
	` + commissionPaidSQL

// Commissions lists the commissions in status (every one when empty), oldest first.
func (s *Store) Commissions(ctx context.Context, status CommissionStatus) (_ []Commission, err error) {
	defer wrap(&err, "Commissions")
	out := []Commission{}
	err = s.db.SelectContext(ctx, &out, `SELECT * FROM (`+commissionSQL+`) x
		WHERE $1 = '' OR x.status = $1 ORDER BY x.id`, status)
	return out, err
}

// CodeStats is how a referral code was used: payments minted under it, what they paid, what the
// code took off their prices, and what its referrers (its owner and the partner above) are owed
// and were paid, each in ETH and in every token paid under it.
type CodeStats struct {
	Code                         string // a partner code's spelling, or a wallet's address
	Uses                         int
	Volume, Discount, Owed, Paid Amounts
}

// codeFigures is one currency's row of a code's figures: token NULL for ETH.
type codeFigures struct {
	Code     string  `db:"code"`
	Uses     int     `db:"uses"`
	Token    *string `db:"token"`
	Symbol   *string `db:"symbol"`
	Decimals *int    `db:"decimals"`
	Volume   Uint256 `db:"volume"`
	Discount Uint256 `db:"discount"`
	Owed     Uint256 `db:"owed"`
	Paid     Uint256 `db:"paid"`
}

// codeStats folds rows of figures, a code's currencies in a row each (in code order), into one
// CodeStats a code, in the same order.
func codeStats(rows []codeFigures) []CodeStats {
	var out []CodeStats
	for _, r := range rows {
		if len(out) == 0 || CodeKey(out[len(out)-1].Code) != CodeKey(r.Code) {
			out = append(out, CodeStats{Code: r.Code, Volume: NoAmounts(), Discount: NoAmounts(), Owed: NoAmounts(), Paid: NoAmounts()})
		}
		s := &out[len(out)-1]
		s.Uses += r.Uses
		figures := []struct {
			sum    *Amounts
			amount Uint256
		}{{&s.Volume, r.Volume}, {&s.Discount, r.Discount}, {&s.Owed, r.Owed}, {&s.Paid, r.Paid}}
		for _, f := range figures {
			if r.Token == nil {
				f.sum.Add(Amounts{ETH: f.amount})
			} else {
				f.sum.Add(Amounts{Tokens: []TokenAmount{{Token: Token{Address: *r.Token, Symbol: *r.Symbol, Decimals: *r.Decimals}, Amount: f.amount}}})
			}
		}
	}
	return out
}

// codeFiguresSQL are the figures of the codes of the CTE mine (key, code), for the commissions of
// referrer $1 (” for every referrer's): one row a code and currency it was used in, and one of
// zeros (token NULL) for a code never used.
const codeFiguresSQL = `
	used AS (
		SELECT lower(r.code) AS key, p.token, count(*) AS uses, sum(coalesce(p.amount, p.value_wei)) AS volume,
			sum(r.discount) AS discount
		FROM payment_referrals r JOIN payments p ON p.id = r.payment_id AND p.status = 'minted'
		WHERE lower(r.code) IN (SELECT key FROM mine) GROUP BY lower(r.code), p.token),
	earned AS (
		SELECT lower(r.code) AS key, p.token,
			coalesce(sum(c.amount) FILTER (WHERE paid.tx IS NULL), 0) AS owed,
			coalesce(sum(c.amount) FILTER (WHERE paid.tx IS NOT NULL), 0) AS paid
		FROM commissions c JOIN payment_referrals r ON r.payment_id = c.payment_id JOIN payments p ON p.id = c.payment_id
		` + commissionPaidSQL + `
		WHERE ($1::text = '' OR c.referrer = $1::text) AND lower(r.code) IN (SELECT key FROM mine) GROUP BY lower(r.code), p.token),
	figures AS (
		SELECT coalesce(u.key, e.key) AS key, coalesce(u.token, e.token) AS token, coalesce(u.uses, 0) AS uses,
			coalesce(u.volume, 0) AS volume, coalesce(u.discount, 0) AS discount, coalesce(e.owed, 0) AS owed, coalesce(e.paid, 0) AS paid
		FROM used u FULL JOIN earned e ON e.key = u.key AND e.token IS NOT DISTINCT FROM u.token)
	SELECT m.code, coalesce(f.uses, 0) AS uses,
		f.token, tk.symbol, tk.decimals,
		coalesce(f.volume, 0) AS volume, coalesce(f.discount, 0) AS discount, coalesce(f.owed, 0) AS owed, coalesce(f.paid, 0) AS paid
	FROM (SELECT DISTINCT ON (key) key, code FROM mine ORDER BY key) m
	LEFT JOIN figures f ON f.key = m.key LEFT JOIN tokens tk ON tk.address = f.token
	ORDER BY m.key, f.token NULLS FIRST`

// ReferralStats returns every used code's figures, keyed by CodeKey of the code.
func (s *Store) ReferralStats(ctx context.Context) (_ map[string]CodeStats, err error) {
	defer wrap(&err, "ReferralStats")
	var rows []codeFigures
	err = s.db.SelectContext(ctx, &rows, `
		WITH mine AS (SELECT lower(code) AS key, min(code) AS code FROM payment_referrals GROUP BY lower(code)),
		`+codeFiguresSQL, "")
	out := map[string]CodeStats{}
	for _, c := range codeStats(rows) {
		out[CodeKey(c.Code)] = c
	}
	return out, err
}

// BatchPayout is one transfer of a commission batch: a referrer paid the sum of its commissions
// in the batch in one currency, ETH (ValueWei) or a token (InToken; ValueWei 0).
type BatchPayout struct {
	To          string
	ValueWei    Uint256
	InToken     *TokenAmount
	Commissions []int64
	// NotPaid tells a transfer of an executed batch that moved nothing (a token that answered
	// false): its commissions are owed again.
	NotPaid bool
}

// NotOwedCommissionError is a commission a batch cannot pay: there is none of that id, or it is
// paid.
type NotOwedCommissionError struct{ ID int64 }

func (e *NotOwedCommissionError) Error() string {
	return fmt.Sprintf("commission %d is not owed", e.ID)
}

// CommissionInBatchError is a commission already in a batch that is not void or failed.
type CommissionInBatchError struct{ ID, Batch int64 }

func (e *CommissionInBatchError) Error() string {
	return fmt.Sprintf("commission %d is already in batch %d", e.ID, e.Batch)
}

// ErrNoCommissionOwed is a batch of "all" commissions owed when none is outside a batch.
var ErrNoCommissionOwed = errors.New("no commission is owed")

// Payouts groups owed commissions into a batch's transfers: one a referrer and currency, in the
// order of their addresses (ETH first, then tokens by address), each the sum it is owed in it.
func Payouts(owed []Commission) []BatchPayout {
	at := map[[2]string]int{}
	var out []BatchPayout
	for _, c := range owed {
		m := c.Money()
		key := [2]string{c.Referrer, m.Token}
		i, ok := at[key]
		if !ok {
			i = len(out)
			at[key] = i
			p := BatchPayout{To: c.Referrer, ValueWei: Uint256{Int: new(big.Int)}}
			if c.InToken != nil {
				p.InToken = &TokenAmount{Token: c.InToken.Token, Amount: Uint256{Int: new(big.Int)}}
			}
			out = append(out, p)
		}
		sum := out[i].ValueWei.Int
		if out[i].InToken != nil {
			sum = out[i].InToken.Amount.Int
		}
		sum.Add(sum, m.Amount)
		out[i].Commissions = append(out[i].Commissions, c.ID)
	}
	slices.SortFunc(out, func(a, b BatchPayout) int {
		return cmp.Or(strings.Compare(a.To, b.To), strings.Compare(a.token(), b.token()))
	})
	return out
}

// token is the address of the token p pays in, "" for ETH.
func (p BatchPayout) token() string {
	if p.InToken == nil {
		return ""
	}
	return p.InToken.Address
}

// commissionBatchSQL is the batch that holds commission c, open or executed (NULL: none).
const commissionBatchSQL = `(SELECT bc.batch_id FROM treasury_batch_commissions bc WHERE bc.commission_id = c.id AND bc.open)`

// OwedCommissions are the commissions a batch may pay: those of ids, or with none, every one owed
// outside a batch. One of ids that is not owed is a *NotOwedCommissionError, one in an open or
// executed batch a *CommissionInBatchError, and "all" with nothing owed ErrNoCommissionOwed.
func (s *Store) OwedCommissions(ctx context.Context, ids []int64) (_ []Commission, err error) {
	defer wrap(&err, "OwedCommissions")
	var rows []struct {
		Commission
		Batch *int64 `db:"batch"`
	}
	err = s.db.SelectContext(ctx, &rows, `
		SELECT x.*, `+commissionBatchSQL+` AS batch FROM (`+commissionSQL+`) x JOIN commissions c ON c.id = x.id
		WHERE CASE WHEN coalesce(cardinality($1::bigint[]), 0) = 0 THEN x.status = 'owed' ELSE x.id = ANY ($1) END
		ORDER BY x.id`, pq.Array(ids))
	if err != nil {
		return nil, err
	}
	var owed []Commission
	for _, r := range rows {
		switch {
		case r.Status != CommissionOwed && len(ids) > 0:
			return nil, &NotOwedCommissionError{ID: r.ID}
		case r.Batch != nil && len(ids) > 0:
			return nil, &CommissionInBatchError{ID: r.ID, Batch: *r.Batch}
		case r.Batch == nil:
			owed = append(owed, r.Commission)
		}
	}
	for _, id := range ids {
		if !slices.ContainsFunc(owed, func(c Commission) bool { return c.ID == id }) {
			return nil, &NotOwedCommissionError{ID: id}
		}
	}
	if len(owed) == 0 {
		return nil, ErrNoCommissionOwed
	}
	return owed, nil
}

// addBatchCommissions puts commissions ids in batch id, each still owed and in no open or
// executed batch (else a *CommissionInBatchError), under a lock so that two batches proposed at
// once cannot both take one.
func addBatchCommissions(ctx context.Context, q sqlx.ExtContext, id int64, ids []int64) error {
	var locked []int64
	if err := sqlx.SelectContext(ctx, q, &locked, `SELECT id FROM commissions WHERE id = ANY ($1) ORDER BY id FOR UPDATE`,
		pq.Array(ids)); err != nil {
		return err
	}
	var taken []struct {
		ID    int64 `db:"commission_id"`
		Batch int64 `db:"batch_id"`
	}
	if err := sqlx.SelectContext(ctx, q, &taken, `
		SELECT commission_id, batch_id FROM treasury_batch_commissions WHERE commission_id = ANY ($1) AND open
		ORDER BY commission_id`, pq.Array(ids)); err != nil {
		return err
	}
	if len(taken) > 0 {
		return &CommissionInBatchError{ID: taken[0].ID, Batch: taken[0].Batch}
	}
	// The unique index treasury_batch_commissions_once is the rule's last word.
	_, err := q.ExecContext(ctx, `
		INSERT INTO treasury_batch_commissions (batch_id, commission_id) SELECT $1, unnest($2::bigint[])`, id, pq.Array(ids))
	return err
}

// batchPayouts reads the transfers of the commission batches ids, by batch, each marked NotPaid
// when its batch executed without making it.
func batchPayouts(ctx context.Context, q sqlx.QueryerContext, ids []int64) (map[int64][]BatchPayout, error) {
	var rows []struct {
		BatchID int64 `db:"batch_id"`
		NotPaid bool  `db:"not_paid"`
		Commission
	}
	if err := sqlx.SelectContext(ctx, q, &rows, `
		SELECT bc.batch_id, NOT bc.open AND b.status = 'executed' AS not_paid, x.*
		FROM treasury_batch_commissions bc JOIN treasury_batches b ON b.id = bc.batch_id
		JOIN (`+commissionSQL+`) x ON x.id = bc.commission_id
		WHERE bc.batch_id = ANY ($1) ORDER BY bc.batch_id, x.id`, pq.Array(ids)); err != nil {
		return nil, err
	}
	by, notPaid := map[int64][]Commission{}, map[int64]bool{}
	for _, r := range rows {
		by[r.BatchID] = append(by[r.BatchID], r.Commission)
		notPaid[r.ID] = r.NotPaid
	}
	out := map[int64][]BatchPayout{}
	for id, cs := range by {
		out[id] = Payouts(cs)
		for i, p := range out[id] {
			out[id][i].NotPaid = notPaid[p.Commissions[0]] // a transfer's commissions are paid together
		}
	}
	return out, nil
}

// ReferrerStats returns what referrer earned of each code it earns from: the partner codes it
// owns or is the partner above, the codes it earned from before (an owner changed since), and,
// when walletCode, its own address as a code. Uses and volume are the code's; owed and paid are
// referrer's own part. By code.
func (s *Store) ReferrerStats(ctx context.Context, referrer string, walletCode bool) (_ []CodeStats, err error) {
	defer wrap(&err, "ReferrerStats")
	var rows []codeFigures
	err = s.db.SelectContext(ctx, &rows, `
		WITH mine AS (
			SELECT key, code FROM referral_codes WHERE owner = $1 OR parent = $1
			UNION SELECT lower(r.code), min(r.code) FROM commissions c JOIN payment_referrals r USING (payment_id)
				WHERE c.referrer = $1 GROUP BY lower(r.code)
			UNION SELECT $1, $1 WHERE $2),
		`+codeFiguresSQL, referrer, walletCode)
	out := codeStats(rows)
	if out == nil {
		out = []CodeStats{}
	}
	return out, err
}

// Payout is a treasury transaction that paid a referrer commissions: when (the executed batch's
// block, and the time the ledger saw it executed) and what it paid the referrer in each currency.
type Payout struct {
	Tx      string
	Block   int64
	At      time.Time
	Amounts Amounts
}

// ReferrerPayouts lists the latest limit transactions that paid referrer its commissions, newest
// first.
func (s *Store) ReferrerPayouts(ctx context.Context, referrer string, limit int) (_ []Payout, err error) {
	defer wrap(&err, "ReferrerPayouts")
	var rows []struct {
		Tx       string    `db:"tx"`
		Block    int64     `db:"block_number"`
		At       time.Time `db:"at"`
		Token    *string   `db:"token"`
		Symbol   *string   `db:"symbol"`
		Decimals *int      `db:"decimals"`
		Amount   Uint256   `db:"amount"`
	}
	err = s.db.SelectContext(ctx, &rows, `
		WITH latest AS (
			SELECT b.id, b.executed_tx, b.block_number, b.updated_at FROM treasury_batches b
			WHERE b.status = 'executed' AND b.kind = 'commissions' AND EXISTS (
				SELECT 1 FROM treasury_batch_commissions bc JOIN commissions c ON c.id = bc.commission_id
				WHERE bc.batch_id = b.id AND bc.open AND c.referrer = $1)
			ORDER BY b.block_number DESC, b.id DESC LIMIT $2)
		SELECT l.executed_tx AS tx, l.block_number, l.updated_at AS at, p.token, tk.symbol, tk.decimals, sum(c.amount) AS amount
		FROM latest l
		JOIN treasury_batch_commissions bc ON bc.batch_id = l.id AND bc.open
		JOIN commissions c ON c.id = bc.commission_id AND c.referrer = $1
		JOIN payments p ON p.id = c.payment_id
		LEFT JOIN tokens tk ON tk.address = p.token
		GROUP BY l.id, l.executed_tx, l.block_number, l.updated_at, p.token, tk.symbol, tk.decimals
		ORDER BY l.block_number DESC, l.id DESC, p.token NULLS FIRST`, referrer, limit)
	var out []Payout
	for _, r := range rows {
		if len(out) == 0 || out[len(out)-1].Tx != r.Tx {
			out = append(out, Payout{Tx: r.Tx, Block: r.Block, At: r.At, Amounts: NoAmounts()})
		}
		p := &out[len(out)-1]
		if r.Token == nil {
			p.Amounts.ETH = r.Amount
			continue
		}
		p.Amounts.Tokens = append(p.Amounts.Tokens, TokenAmount{Token: Token{Address: *r.Token, Symbol: deref(r.Symbol, ""), Decimals: deref(r.Decimals, 0)}, Amount: r.Amount})
	}
	return out, err
}
