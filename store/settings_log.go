package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
)

// LogKind is what a settings log entry records (settings_log.kind).
type LogKind string

// The kinds, each written by the trigger of its table (migrations/0049) or, for the deployment,
// by LogDeployment.
const (
	LogDeployment   LogKind = "deployment"    // the service's settings at a start that changed them
	LogTier         LogKind = "tier"          // a tier version (tier_versions)
	LogAllowlist    LogKind = "allowlist"     // an allowlist version with every entry
	LogReferralCode LogKind = "referral_code" // a referral code's version
	LogBinding      LogKind = "binding"       // a wallet bound to a code, with its sign-in
	LogSetting      LogKind = "setting"       // an operator switch (minting held or resumed)
	LogDenylist     LogKind = "denylist"      // a denylist version with every entry
	LogRelease      LogKind = "release"       // an admin's release of a held payment
	LogKYC          LogKind = "kyc"           // a wallet's identity check changed status
)

// LogEntry is one entry of the settings log as it is exported: Entry is the exact text its hash
// covers, Hash = sha256(PrevHash ‖ Entry); the other fields are read from it for people and
// queries.
type LogEntry struct {
	Seq         int64           `db:"seq" json:"seq"`
	Kind        LogKind         `db:"kind" json:"kind"`
	AppliesFrom string          `db:"applies_from" json:"appliesFrom"` // as the entry writes it; "-infinity" for what always held
	HeadBlock   *int64          `db:"head_block" json:"headBlock"`
	Body        json.RawMessage `db:"body" json:"body"`
	Entry       string          `db:"entry" json:"entry"`
	PrevHash    hexutil.Bytes   `db:"prev_hash" json:"prevHash"`
	Hash        hexutil.Bytes   `db:"hash" json:"hash"`
	WrittenAt   time.Time       `db:"written_at" json:"writtenAt"`
}

// GenesisHash is the PrevHash of the log's first entry.
var GenesisHash = make([]byte, sha256.Size)

// settingsLogSQL reads entries with their times as the entry writes them.
const settingsLogSQL = `
	SELECT seq, kind, (entry::jsonb)->>'appliesFrom' AS applies_from, head_block, body, entry, prev_hash, hash, written_at
	FROM settings_log`

// SettingsLog is up to limit entries after seq after, in order.
func (s *Store) SettingsLog(ctx context.Context, after int64, limit int) (_ []LogEntry, err error) {
	defer wrap(&err, "SettingsLog")
	var out []LogEntry
	err = s.db.SelectContext(ctx, &out, settingsLogSQL+` WHERE seq > $1 ORDER BY seq LIMIT $2`, after, limit)
	return out, err
}

// SettingsLogAfter returns every entry of the log after seq after, in order: what a rebuild
// replays.
func (s *Store) SettingsLogAfter(ctx context.Context, after int64) (_ []LogEntry, err error) {
	defer wrap(&err, "SettingsLogAfter")
	var out []LogEntry
	err = s.db.SelectContext(ctx, &out, settingsLogSQL+` WHERE seq > $1 ORDER BY seq`, after)
	return out, err
}

// Deployment is what the settings log keeps of the service's settings at a start: what the
// ledger's judgements are made against besides the tiers, codes and bindings.
type Deployment struct {
	ChainID        int64   `json:"chainId"`
	Factory        string  `json:"factory"`
	PaymentsWallet string  `json:"paymentsWallet"`
	Treasury       *string `json:"treasury"` // nil: none
	Tokens         []Token `json:"tokens"`   // listed, with their symbol and decimals as the chain told them
	Confirmations  uint64  `json:"confirmations"`
	// WalletCodes are a wallet's own code's terms while it holds a node.
	WalletCodes struct {
		DiscountBps   int `json:"discountBps"`
		CommissionBps int `json:"commissionBps"`
	} `json:"walletCodes"`
	// What else a rebuild needs to judge and record as the service did: where the scan starts,
	// whether it reads every block, the ETH/USD feed payments are booked with, and how long an
	// old price still buys its tier.
	ScanFrom       uint64  `json:"scanFrom"`
	ScanEveryBlock bool    `json:"scanEveryBlock"`
	PriceFeed      *string `json:"priceFeed"` // nil: none
	PriceGraceSec  int64   `json:"priceGraceSec"`
	// The sanctions oracle payers are screened against (nil: none; left out then, so that the
	// deployments logged before it existed read the same).
	SanctionsOracle *string `json:"sanctionsOracle,omitempty"`
	// How long a payment waits for its wallet's identity check (KYC_HOLD_DAYS).
	KYCHoldDays int `json:"kycHoldDays,omitempty"`
}

// LogDeployment appends d to the settings log unless it is the last deployment logged: a start
// that changes nothing adds nothing, and instances starting together add it once.
func (s *Store) LogDeployment(ctx context.Context, d Deployment) (logged bool, err error) {
	defer wrap(&err, "LogDeployment")
	if d.Tokens == nil {
		d.Tokens = []Token{}
	}
	body, err := json.Marshal(d)
	if err != nil {
		return false, err
	}
	var seq *int64
	err = s.db.GetContext(ctx, &seq, `SELECT settings_log_append_changed('deployment', date_trunc('second', clock_timestamp()), $1::jsonb)`,
		string(body))
	return seq != nil, err
}

// BrokenLogError is where a settings log fails its own hashes: entry Seq, and why.
type BrokenLogError struct {
	Seq int64
	Why string
}

func (e *BrokenLogError) Error() string {
	return fmt.Sprintf("settings log entry %d: %s", e.Seq, e.Why)
}

// CheckLog checks entries, which follow the entry of seq after whose hash is prev (GenesisHash
// and 0 for the log's start): each comes next, names the hash before it, says in its text what
// its fields say, and hashes to its Hash. It returns the last hash, to check the next page with.
func CheckLog(after int64, prev []byte, entries []LogEntry) ([]byte, error) {
	for _, e := range entries {
		var in struct {
			Seq         int64           `json:"seq"`
			Kind        LogKind         `json:"kind"`
			AppliesFrom string          `json:"appliesFrom"`
			HeadBlock   *int64          `json:"headBlock"`
			Body        json.RawMessage `json:"body"`
		}
		sum := sha256.Sum256(append(append([]byte{}, e.PrevHash...), e.Entry...))
		switch {
		case e.Seq != after+1:
			return prev, &BrokenLogError{e.Seq, fmt.Sprintf("follows entry %d", after)}
		case !bytes.Equal(e.PrevHash, prev):
			return prev, &BrokenLogError{e.Seq, "does not name the hash of the entry before it"}
		case !bytes.Equal(sum[:], e.Hash):
			return prev, &BrokenLogError{e.Seq, "its hash is not sha256(prevHash ‖ entry)"}
		case json.Unmarshal([]byte(e.Entry), &in) != nil:
			return prev, &BrokenLogError{e.Seq, "its entry is not JSON"}
		case in.Seq != e.Seq || in.Kind != e.Kind || in.AppliesFrom != e.AppliesFrom || !sameBlock(in.HeadBlock, e.HeadBlock) || !sameJSON(in.Body, e.Body):
			return prev, &BrokenLogError{e.Seq, "its fields differ from the entry its hash covers"}
		}
		after, prev = e.Seq, e.Hash
	}
	return prev, nil
}

func sameBlock(a, b *int64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// sameJSON compares two JSON texts as values: the body column is jsonb, the entry its text.
// Numbers are compared as their digits: a wei amount does not fit a float.
func sameJSON(a, b json.RawMessage) bool {
	norm := func(raw json.RawMessage) ([]byte, bool) {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil {
			return nil, false
		}
		out, err := json.Marshal(v) // maps come out with their keys sorted
		return out, err == nil
	}
	x, okx := norm(a)
	y, oky := norm(b)
	return okx && oky && bytes.Equal(x, y)
}
