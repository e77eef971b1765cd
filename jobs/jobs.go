// Package jobs owns the passes that keep the ledger: payments (turn payments into nodes), credit
// (credit due nodes in rounds) and the reconciler (bring the ledger in line with the chain), and
// the runner that ticks them. The cron routes, the operator page and the runner all call the same
// functions. Every pass is safe to stop at any instant and run again.
package jobs

import (
	"log/slog"
	"math/big"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/jobs/sale"
	"nodeledger/jobs/treasury"
	"nodeledger/store"
)

// Config is what the passes need to know about the deployment.
// DefaultKYCHold is how long a payment waits for its wallet's identity check when KYC_HOLD_DAYS
// is unset: the 7 days regulated custodians hold a deposit from a wallet not verified.
const DefaultKYCHold = 7 * 24 * time.Hour

type Config struct {
	ChainID        *big.Int
	PaymentAddress common.Address
	// Confirmations is how far behind the head the payments scan stays, so a reorg within that
	// depth never reaches the ledger.
	Confirmations uint64
	// ScanFrom is the first block the payments scan reads on a fresh ledger.
	ScanFrom uint64
	// ScanTo, when not 0, is the last block the payments scan reads: a rebuild's --to-block.
	ScanTo uint64
	// Observe has the payments pass record what the chain did and send nothing, as a rebuild
	// does: it judges the payments and settles each one it claims from the factory's events for
	// its reference (the node minted, or why its order was skipped).
	Observe bool
	// ReadsFrom, in observe mode, gives the chain reads of the judgements a rebuild reuses
	// (sale.ChainState.Recalling): a payment judged is judged again with the answers it got, at
	// the blocks it asked; nil, or a payment it does not hold, reads the chain at the payment's
	// block.
	ReadsFrom Reads
	// VerifyInto is the scratch ledger the continuous verifier rebuilds the ledger into (Verify);
	// nil: it is off.
	VerifyInto *store.Store
	// BlocksPerPass bounds one pass's scan, so a pass ends in reasonable time after a long pause.
	BlocksPerPass uint64
	// ChecksPerPass bounds the pending payments one pass checks (the earliest), so that a pass
	// in a backlog of thousands ends, records what was mined and leaves the rest to the next
	// head, rather than signing for minutes while nothing is recorded.
	ChecksPerPass int
	// MintBatch is the most payments one mint transaction carries (MINT_BATCH): what waits to be
	// minted goes out in batches (factory.mintBatch), each paying once for what a transaction
	// costs besides its nodes.
	MintBatch int
	// ScanEveryBlock has the payments scan read every block (SCAN_EVERY_BLOCK). Otherwise a range
	// where the payments wallet (without code) neither received nor sent anything is recorded
	// unread, and withdraw calls that failed there are not seen.
	ScanEveryBlock bool
	// PriceGrace is how long after a tier's price changes a payment of the price before it still
	// buys the tier (PRICE_GRACE_SEC): a page opened before the change never leads to a rejection.
	PriceGrace time.Duration
	// KYCHold is how long a payment for a tier that requires a verified identity is held for its
	// wallet's check (KYC_HOLD_DAYS) before it is refunded; 0: DefaultKYCHold.
	KYCHold time.Duration
	// PriceSpreadBps is how far apart in US dollars a tier's prices in two currencies may be
	// saved, when one changes and the other does not, without a confirmation (PRICE_SPREAD_BPS);
	// 0: no check.
	PriceSpreadBps int
	// WalletCodes are the terms of a wallet's own address as a referral code, while it holds a
	// node (REFERRAL_DISCOUNT_BPS, REFERRAL_COMMISSION_BPS).
	WalletCodes sale.WalletCodes
	// PaymentTokens are the ERC-20 tokens the sale accepts beside ETH (PAYMENT_TOKENS), as each
	// told its symbol and decimals at start.
	PaymentTokens []store.Token

	DistEnabled bool
	DistMode    store.DistMode
	DistPeriod  time.Duration // how often a node is credited
	DistBaseWei *big.Int      // fixed mode: credited per node and period at payoutBps 10000
	DistPoolWei *big.Int      // pool mode: shared per round by every node, pro rata payoutBps

	// ReceiptTimeout is how long a pass waits for its transaction to be mined before leaving it
	// for the next pass.
	ReceiptTimeout time.Duration
	// BumpBlocks is how many blocks a transaction may wait unmined before it is replaced at the
	// same nonce with higher fees (TX_BUMP_BLOCKS).
	BumpBlocks uint64
	// MaxFeeWei caps the fee per gas of every transaction the service signs (MAX_FEE_GWEI); nil:
	// no cap.
	MaxFeeWei *big.Int

	// Treasury is the Safe the sale's money goes to (TREASURY_ADDRESS): the payments wallet is
	// swept to it, and the payments scan reads its executions of treasury batches; zero: none.
	Treasury common.Address
	// MultiSend is the MultiSendCallOnly contract a treasury batch of several transfers
	// delegatecalls (MULTISEND_ADDRESS; Safe's canonical 1.4.1 deployment unless set).
	MultiSend common.Address
	// BatchMaxGas is the most gas a treasury batch's transfers and its execution may take
	// (TREASURY_BATCH_MAX_GAS); 0: as much as one transaction may take on the chain. "All" beyond
	// it proposes the first transfers that fit and says how many remain.
	BatchMaxGas uint64
	// Sweep says when the payments wallet's money goes to the treasury.
	Sweep SweepConfig

	// WebhookAllowPrivate lets webhooks go to loopback, private, link-local and the other
	// special-purpose addresses (WEBHOOK_ALLOW_PRIVATE; on in dev mode), which are otherwise
	// refused.
	WebhookAllowPrivate bool
	// WebhookRetention is how long webhook events, their deliveries and tries are kept once none
	// is pending (WEBHOOK_RETENTION_DAYS, 30).
	WebhookRetention time.Duration
}

// Jobs runs the passes over one ledger and one chain.
type Jobs struct {
	store       *store.Store
	chain       *chain.Client
	sale        *sale.Sale // the sale's rules, which the payments pass applies
	treasury    *treasury.Treasury
	minter      *outbox // nil: no minter signer, payments are recorded but not minted
	distributor *outbox // nil: no distributor signer, no credit rounds
	sweeper     *outbox // the payments wallet's; nil: no signer for it, no sweeps
	cfg         Config
	log         *slog.Logger

	// tracing is what the scans found of the node's debug_traceBlockByNumber: traceUnknown,
	// traceNotNeeded, traceServed or traceUnsupported.
	tracing atomic.Int32
	// lastWallet is the payments wallet's state at the end of the last range the scan looked at,
	// which the next pass, starting after it, need not read again.
	lastWallet atomic.Pointer[chain.WalletState]
	// mintGas is the gas limit of a mint, once estimated (Funds); 0 until then.
	mintGas atomic.Uint64
	// sweepGasLimit is the gas limit of a sweep, once estimated; 0 until then.
	sweepGasLimit atomic.Uint64
	// resend says the next payments pass sends every mint under way again first: true at start
	// and after a pass failed, when the node may have dropped them or never got them.
	resend atomic.Bool

	// crash, set by tests only, stops a pass at the named step as a crash would.
	crash func(step string) error
}

const (
	traceUnknown int32 = iota
	traceNotNeeded
	traceServed
	traceUnsupported
)

// InternalTransfers says whether payments sent by contract wallets are seen. The scan traces only
// the blocks where the payments wallet received ETH its transactions do not explain, so this is
// the node's last answer to such a trace: "traced" when it served it, "unsupported" when it does
// not serve debug_traceBlockByNumber (the ETH is then recorded as unattributed inflows, and the
// operator must know); "not needed" while no block scanned since the start needed a trace, and ""
// before the first scan.
func (j *Jobs) InternalTransfers() string {
	switch j.tracing.Load() {
	case traceNotNeeded:
		return "not needed"
	case traceServed:
		return "traced"
	case traceUnsupported:
		return "unsupported"
	}
	return ""
}

// New returns the passes; a nil signer disables what it signs.
func New(s *store.Store, c *chain.Client, minter, distributor chain.Signer, cfg Config, log *slog.Logger) *Jobs {
	if cfg.KYCHold == 0 {
		cfg.KYCHold = DefaultKYCHold
	}
	if cfg.ChecksPerPass == 0 {
		// More than a 30M-gas block takes (about 230 mints at mainnet prices): the chain, not
		// the pass, bounds how fast a backlog clears.
		cfg.ChecksPerPass = 300
	}
	if cfg.MintBatch == 0 {
		cfg.MintBatch = 50
	}
	if cfg.BlocksPerPass == 0 {
		cfg.BlocksPerPass = 2000
	}
	if cfg.ReceiptTimeout == 0 {
		cfg.ReceiptTimeout = 2 * time.Minute
	}
	if cfg.BumpBlocks == 0 {
		cfg.BumpBlocks = 3
	}
	j := &Jobs{store: s, chain: c, sale: sale.New(s, c, cfg.PriceGrace, cfg.KYCHold, cfg.PriceSpreadBps, cfg.WalletCodes, cfg.PaymentTokens, log), cfg: cfg, log: log}
	var chainID int64
	if cfg.ChainID != nil {
		chainID = cfg.ChainID.Int64()
	}
	j.treasury = treasury.New(s, c, treasury.Config{ChainID: chainID, Safe: cfg.Treasury, MultiSend: cfg.MultiSend, BatchMaxGas: cfg.BatchMaxGas}, log)
	j.resend.Store(true)
	if minter != nil {
		j.minter = j.newOutbox("minter", c.NewSender(minter, cfg.ChainID))
	}
	if distributor != nil {
		j.distributor = j.newOutbox("distributor", c.NewSender(distributor, cfg.ChainID))
	}
	j.cfg.Sweep = cfg.Sweep.withDefaults()
	if cfg.Sweep.Signer != nil {
		j.sweeper = j.newOutbox("payments wallet", c.NewSender(cfg.Sweep.Signer, cfg.ChainID))
	}
	return j
}

// A step is a boundary of a pass where a test may stop it as a crash would: scan.fetched,
// mint.stored, credit.recorded...
type step string

// step marks the step boundary at, where a test may stop the pass.
func (j *Jobs) step(at step) error {
	if j.crash != nil {
		return j.crash(string(at))
	}
	return nil
}

// hexLower is the ledger's form of an address or hash.
func hexLower(v interface{ Hex() string }) string { return strings.ToLower(v.Hex()) }

// Sale is the sale whose rules the payments pass applies: the handlers preview and change it
// through the same instance, so its read model forgets what they change.
func (j *Jobs) Sale() *sale.Sale { return j.sale }

// Treasury is the treasury's batches, which the payments pass settles and the handlers propose.
func (j *Jobs) Treasury() *treasury.Treasury { return j.treasury }
