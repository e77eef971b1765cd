// Package treasury owns a treasury batch's life on the sale's Safe: it proposes one (the nonce it
// takes, the MultiSend it packs, the SafeTx hash the owners sign, the simulations that keep a
// transfer the chain refuses, or a batch too large for one transaction, out of it) and takes the
// owners' approvals, counted against the Safe's owners as the chain holds them. The service
// proposes; only the owners' signatures move the treasury's money. Handlers parse a request,
// call it and tell its answer; its errors carry values, never sentences.
package treasury

import (
	"context"
	"errors"
	"log/slog"
	"math/big"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/store"
)

// Config is where the treasury is and how large a batch may be.
type Config struct {
	ChainID int64
	// Safe is the treasury (TREASURY_ADDRESS); MultiSend the MultiSendCallOnly a batch of several
	// transfers delegatecalls.
	Safe, MultiSend common.Address
	// BatchMaxGas caps a batch's gas below what one transaction may take; 0: no cap of our own.
	BatchMaxGas uint64
}

// Treasury proposes the sale's treasury batches, takes their approvals and executions, and
// settles them after each payments scan.
type Treasury struct {
	store *store.Store
	chain *chain.Client
	cfg   Config
	log   *slog.Logger
}

// New returns the treasury over the ledger st and chain c.
func New(st *store.Store, c *chain.Client, cfg Config, log *slog.Logger) *Treasury {
	return &Treasury{store: st, chain: c, cfg: cfg, log: log}
}

// Item is one transfer a batch may make and what it settles: a payment's refund (Payment,
// PaymentTx; InToken for a token's), or a referrer's commissions.
type Item struct {
	Payout      chain.Payout
	Payment     int64
	PaymentTx   string
	InToken     *store.TokenAmount
	Commissions []int64
}

// safeExecGas is what the Safe's execTransaction takes beyond its batch's transfers (the
// signatures' checks, its event, its nonce and refund bookkeeping), with room to spare: a batch
// whose transfers fit the limit less this fits one transaction.
const safeExecGas = 150_000

// Errors of Propose, each with what its sentence needs.
type (
	// UncoveredError: the treasury holds less than the batch pays, in ETH (Token nil) or a token.
	UncoveredError struct {
		Token      *common.Address
		Held, Want *big.Int
	}
	// NothingPayableError: the chain refuses every transfer of the batch.
	NothingPayableError struct{ LeftOut store.LeftOuts }
	// RevertsError: the batch's simulation at block Head reverts.
	RevertsError struct{ Head uint64 }
	// TooLargeError: one transfer alone takes more gas than a transaction may.
	TooLargeError struct{ Gas, Limit uint64 }
)

func (e *UncoveredError) Error() string      { return "the treasury holds less than the batch pays" }
func (e *NothingPayableError) Error() string { return "the chain refuses every transfer of the batch" }
func (e *RevertsError) Error() string        { return "the batch's simulation reverts" }
func (e *TooLargeError) Error() string       { return "one transfer takes more gas than a transaction may" }

// Propose builds the treasury's Safe transaction of items' payouts at its nonce now, and records
// it as a batch of kind with what they settle for the owners to sign, audited as e with the
// outcome the recorded batch makes, proposed by proposedBy: the one way a batch of any kind is
// proposed. Items must settle what kind pays (store.ErrBatchKind). First the
// chain is asked, at one block: the treasury must hold the batch's total (*UncoveredError); each
// transfer is simulated alone, and those the chain refuses (a payer that reverts on taking ETH, a
// token that refuses the payer) are left out, listed with the batch, so one address cannot make
// every batch revert (*NothingPayableError when none is left); the batch keeps as many of the
// rest, in order, as one transaction's gas allows (the others remain for a later batch); and the
// batch as a whole must run in the Safe's place (*RevertsError).
//
// The nonce is the Safe's own, not one past the batches still open: a batch nobody signs then
// never holds back the next one. When two open batches share a nonce, the first executed takes
// it; the other goes void and what it held is owed again.
func (t *Treasury) Propose(ctx context.Context, e store.AuditEntry, kind store.BatchKind, items []Item, proposedBy string,
	outcome func(b store.TreasuryBatch) store.AuditOutcome) (store.TreasuryBatch, error) {
	safe, err := t.chain.Safe(ctx, t.cfg.Safe)
	if err != nil {
		return store.TreasuryBatch{}, err
	}
	head, err := t.chain.HeadNumber(ctx)
	if err != nil {
		return store.TreasuryBatch{}, err
	}
	if err := t.covers(ctx, safe, head, items); err != nil {
		return store.TreasuryBatch{}, err
	}
	keep, left, err := t.payable(ctx, head, items)
	if err != nil {
		return store.TreasuryBatch{}, err
	}
	tx, remaining, err := t.fit(ctx, safe.Nonce, head, keep)
	if err != nil {
		return store.TreasuryBatch{}, err
	}
	keep = keep[:len(keep)-remaining]
	nb := store.NewTreasuryBatch{}
	for _, it := range keep {
		nb.Commissions = append(nb.Commissions, it.Commissions...)
		if it.Payment != 0 {
			nb.Payments = append(nb.Payments, it.Payment)
		}
	}
	hash := tx.Hash(big.NewInt(t.cfg.ChainID), t.cfg.Safe)
	zero := store.Uint256{Int: new(big.Int)}
	nb.TreasuryBatch = store.TreasuryBatch{Kind: kind, Safe: lower(t.cfg.Safe), To: lower(tx.To),
		Value: store.Uint256{Int: tx.Value}, Data: append([]byte{}, tx.Data...), Operation: tx.Operation, SafeTxGas: zero, BaseGas: zero,
		GasPrice: zero, GasToken: lower(tx.GasToken), RefundReceiver: lower(tx.RefundReceiver), Nonce: store.Uint256{Int: tx.Nonce},
		SafeTxHash: lower(hash), Threshold: int(safe.Threshold), ProposedBy: proposedBy, LeftOut: left, Remaining: remaining}
	e.Target = nb.SafeTxHash
	var b store.TreasuryBatch
	err = t.store.Audited(ctx, e, func(tx store.Tx, e *store.AuditEntry) (err error) {
		if b, err = tx.AddTreasuryBatch(ctx, nb); err != nil {
			return err
		}
		e.After = map[string]any{"id": b.ID, "kind": b.Kind, "safeTxHash": b.SafeTxHash, "nonce": b.Nonce.String(),
			"payments": len(nb.Payments), "commissions": len(nb.Commissions), "leftOut": len(left), "remaining": remaining}
		e.Outcome = outcome(b)
		return nil
	})
	return b, err
}

// covers is an *UncoveredError when the treasury holds less at block head than items pay, in ETH
// or in a token: every transfer would then be refused for the treasury's want, not its payee's.
func (t *Treasury) covers(ctx context.Context, safe chain.Safe, head uint64, items []Item) error {
	eth, tokens := new(big.Int), map[common.Address]*big.Int{}
	for _, it := range items {
		if it.Payout.Token == (common.Address{}) {
			eth.Add(eth, it.Payout.Value)
			continue
		}
		if tokens[it.Payout.Token] == nil {
			tokens[it.Payout.Token] = new(big.Int)
		}
		tokens[it.Payout.Token].Add(tokens[it.Payout.Token], it.Payout.Value)
	}
	if eth.Cmp(safe.Balance) > 0 {
		return &UncoveredError{Held: safe.Balance, Want: eth}
	}
	for token, want := range tokens {
		held, err := t.chain.TokenBalanceAt(ctx, token, t.cfg.Safe, new(big.Int).SetUint64(head))
		if err != nil {
			return err
		}
		if want.Cmp(held) > 0 {
			return &UncoveredError{Token: &token, Held: held, Want: want}
		}
	}
	return nil
}

// payable simulates each of items' transfers alone at block head from the treasury: those the
// chain takes, and those it refuses, with what it said. A payee the sanctions oracle lists at
// head is left out too: no batch pays a sanctioned address.
func (t *Treasury) payable(ctx context.Context, head uint64, items []Item) ([]Item, store.LeftOuts, error) {
	checks, err := t.chain.CheckPayouts(ctx, t.cfg.Safe, head, payouts(items))
	if err != nil {
		return nil, nil, err
	}
	payees := make([]common.Address, len(items))
	for i, it := range items {
		payees[i] = it.Payout.To
	}
	listed, err := t.sanctioned(ctx, new(big.Int).SetUint64(head), payees)
	if err != nil {
		return nil, nil, err
	}
	var keep []Item
	var left store.LeftOuts
	for i, it := range items {
		if !checks[i].Refused && !listed[i] {
			keep = append(keep, it)
			continue
		}
		out := store.LeftOut{Payment: it.PaymentTx, Commissions: it.Commissions, To: lower(it.Payout.To),
			AmountWei: store.Uint256{Int: it.Payout.Value}, InToken: it.InToken, ChainSays: checks[i].Reason, Sanctioned: listed[i]}
		if it.InToken != nil {
			out.AmountWei = store.Uint256{Int: new(big.Int)}
		}
		left = append(left, out)
	}
	if len(keep) == 0 {
		return nil, left, &NothingPayableError{LeftOut: left}
	}
	return keep, left, nil
}

// fit builds the batch of items' payouts at nonce and simulates it at block head in the Safe's
// place: it keeps as many items, in order, as one transaction's gas allows (the block's gas
// limit, EIP-7825's cap, and BatchMaxGas when set), and says how many it left for a later batch.
func (t *Treasury) fit(ctx context.Context, nonce *big.Int, head uint64, items []Item) (chain.SafeTx, int, error) {
	n := len(items)
	for {
		tx := chain.Batch(t.cfg.MultiSend, nonce, payouts(items[:n]))
		gas, blockGas, err := t.chain.BatchGas(ctx, t.cfg.Safe, head, tx)
		if errors.Is(err, chain.ErrBatchReverts) {
			return chain.SafeTx{}, 0, &RevertsError{Head: head}
		}
		if err != nil {
			return chain.SafeTx{}, 0, err
		}
		limit := min(blockGas, chain.TxGasCap)
		if t.cfg.BatchMaxGas > 0 {
			limit = min(limit, t.cfg.BatchMaxGas)
		}
		if gas+safeExecGas <= limit {
			return tx, len(items) - n, nil
		}
		if n == 1 || limit <= safeExecGas {
			return chain.SafeTx{}, 0, &TooLargeError{Gas: gas + safeExecGas, Limit: limit}
		}
		// Transfers cost about the same each: cut to the share that fits, with a tenth to spare.
		n = max(1, min(n-1, int(uint64(n)*(limit-safeExecGas)/gas*9/10)))
	}
}

// sanctioned tells, for each of payees, whether the sanctions oracle lists it at block (nil: the
// head); none is when no oracle is set.
func (t *Treasury) sanctioned(ctx context.Context, block *big.Int, payees []common.Address) ([]bool, error) {
	oracle := t.chain.SanctionsOracle()
	if oracle == (common.Address{}) {
		return make([]bool, len(payees)), nil
	}
	return t.chain.Sanctioned(ctx, oracle, block, payees)
}

// SanctionedPayees are the payees of batch b the sanctions oracle lists now: its execution data
// is not given out while there is one.
func (t *Treasury) SanctionedPayees(ctx context.Context, b store.TreasuryBatch) ([]string, error) {
	var payees []common.Address
	for _, p := range BatchPayouts(b) {
		payees = append(payees, p.To)
	}
	listed, err := t.sanctioned(ctx, nil, payees)
	if err != nil {
		return nil, err
	}
	var out []string
	for i, l := range listed {
		if l && !slices.Contains(out, lower(payees[i])) {
			out = append(out, lower(payees[i]))
		}
	}
	return out, nil
}

func payouts(items []Item) []chain.Payout {
	out := make([]chain.Payout, len(items))
	for i, it := range items {
		out[i] = it.Payout
	}
	return out
}

// lower is an address or hash in lower case, as the ledger writes them.
func lower(x interface{ Hex() string }) string { return strings.ToLower(x.Hex()) }

// owners are the Safe's owners in lower case, as the ledger writes addresses.
func owners(safe chain.Safe) []string {
	out := make([]string, len(safe.Owners))
	for i, o := range safe.Owners {
		out[i] = lower(o)
	}
	return out
}

// Now is batch id with its approvals counted against the treasury's owners and threshold read
// now (the Safe, returned): a signature of an owner removed since the last pass is no longer
// counted nor given in execData, which the Safe would refuse (GS026).
func (t *Treasury) Now(ctx context.Context, id int64) (store.TreasuryBatch, chain.Safe, error) {
	b, err := t.store.TreasuryBatch(ctx, id)
	if err != nil {
		return b, chain.Safe{}, err
	}
	safe, err := t.chain.Safe(ctx, common.HexToAddress(b.Safe))
	if err != nil || !b.Status.Open() {
		return b, safe, err
	}
	now := owners(safe)
	stale := b.Threshold != int(safe.Threshold) ||
		slices.ContainsFunc(b.Approvals, func(a store.BatchApproval) bool { return !slices.Contains(now, a.Owner) }) ||
		slices.ContainsFunc(b.Dropped, func(a store.BatchApproval) bool { return slices.Contains(now, a.Owner) })
	if !stale {
		return b, safe, nil
	}
	if _, err := t.store.CountApprovals(ctx, b.Safe, now, int(safe.Threshold)); err != nil {
		return b, safe, err
	}
	b, err = t.store.TreasuryBatch(ctx, id)
	return b, safe, err
}

// VoidError: the batch approved is void (b says why), and takes no approval.
type VoidError struct{ Batch store.TreasuryBatch }

func (e *VoidError) Error() string { return "the batch is void" }

// Approve keeps an owner's signature sig of batch id once it recovers to one of the treasury's
// owners now (chain.ErrNotAnOwner when it does not), audited as e with the owner and who
// carried it (submittedBy): the one way an approval is taken. The same owner again changes
// nothing. A void batch is a *VoidError, one executed or cancelled store.ErrBatchDecided; past
// the batch's read, an error comes with the batch as read.
func (t *Treasury) Approve(ctx context.Context, e store.AuditEntry, id int64, sig []byte, submittedBy string) (store.TreasuryBatch, error) {
	b, err := t.store.TreasuryBatch(ctx, id)
	if err != nil {
		return store.TreasuryBatch{}, err
	}
	if b.Status == store.BatchVoid {
		return b, &VoidError{Batch: b}
	}
	if !b.Status.Open() {
		return b, store.ErrBatchDecided
	}
	safe, err := t.chain.Safe(ctx, common.HexToAddress(b.Safe))
	if err != nil {
		return b, err
	}
	owner, err := chain.SafeSigner(common.HexToHash(b.SafeTxHash), sig, safe.Owners)
	if err != nil {
		return b, err
	}
	a := store.NewApproval{Owner: lower(owner), Signature: sig, SubmittedBy: submittedBy, Owners: owners(safe),
		Threshold: int(safe.Threshold)}
	e.Target = b.SafeTxHash
	err = t.store.Audited(ctx, e, func(tx store.Tx, e *store.AuditEntry) (err error) {
		if b, _, err = tx.AddApproval(ctx, id, a); err != nil {
			return err
		}
		e.After = map[string]any{"id": b.ID, "owner": a.Owner, "status": b.Status}
		e.Outcome = store.AuditOutcome{Code: store.OutcomeBatchApproved, Args: store.AuditArgs{Batch: b.ID, Kind: b.Kind,
			Address: a.Owner, Approvals: len(b.Approvals), Threshold: b.Threshold}}
		return nil
	})
	return b, err
}
