package jobs

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"slices"
	"sync"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/store"
)

// A witness (issue 50 §6) is everything a rebuild of the ledger up to a block reads: the settings
// log, the chain reads its judgements reuse, and the node's answer to every JSON-RPC call it
// made, with the ledger's digests up to that block. From the file alone, with no node and no
// access to the ledger, anyone rebuilds the ledger (into a scratch PostgreSQL) and recomputes the
// digests, to compare with those the service publishes (GET /api/ledger/digests).

// WitnessVersion is the witness file's format.
const WitnessVersion = 1

// Witness is a witness file.
type Witness struct {
	Version  int                          `json:"version"`
	ToBlock  uint64                       `json:"toBlock"`
	Settings []store.LogEntry             `json:"settings"`
	Reads    map[string][]store.ChainRead `json:"reads"`   // by payment reference
	Answers  []chain.Answer               `json:"answers"` // the node's, by call
	Digests  []WitnessDigest              `json:"digests"` // the ledger's, up to ToBlock
}

// WitnessDigest is a block's digest as the ledger published it, as GET /api/ledger/digests
// writes it.
type WitnessDigest struct {
	Block     int64  `json:"block"`
	BlockHash string `json:"blockHash"`
	Events    int    `json:"events"`
	Digest    string `json:"digest"` // 0x-prefixed hex
}

func witnessDigests(ds []store.BlockDigest) []WitnessDigest {
	out := make([]WitnessDigest, len(ds))
	for i, d := range ds {
		out[i] = WitnessDigest{Block: d.Block, BlockHash: d.BlockHash, Events: d.Events, Digest: "0x" + hex.EncodeToString(d.Digest)}
	}
	return out
}

// ChainConfig is the chain client's configuration for deployment d: its chain, factory and feed.
func ChainConfig(d store.Deployment) chain.Config {
	cfg := chain.Config{Factory: common.HexToAddress(d.Factory), ChainID: big.NewInt(d.ChainID)}
	if d.PriceFeed != nil {
		cfg.PriceFeed = common.HexToAddress(*d.PriceFeed)
	}
	if d.SanctionsOracle != nil {
		cfg.SanctionsOracle = common.HexToAddress(*d.SanctionsOracle)
	}
	return cfg
}

// ExportWitness rebuilds ledger up to block to (0: the last block it digested) into scratch, an
// empty ledger, reading the chain at the HTTP endpoint rpcURL, and returns the witness of it:
// what the rebuild read, and ledger's digests up to the block the rebuild digested. The rebuild's
// summary says how far that is.
func ExportWitness(ctx context.Context, scratch, ledger *store.Store, rpcURL string, to uint64, log *slog.Logger) (Witness, RebuildSummary, error) {
	entries, err := ledger.SettingsLogAfter(ctx, 0)
	if err != nil {
		return Witness{}, RebuildSummary{}, err
	}
	d, err := LastDeployment(entries)
	if err != nil {
		return Witness{}, RebuildSummary{}, err
	}
	if to == 0 {
		_, cur, ok, err := ledger.DigestsAt(ctx)
		if err != nil {
			return Witness{}, RebuildSummary{}, err
		}
		if !ok || cur.Number < 0 {
			return Witness{}, RebuildSummary{}, errors.New("the ledger has digested no block yet")
		}
		to = uint64(cur.Number)
	}
	answers := chain.NewAnswers(nil)
	c, err := chain.DialRecording(ctx, rpcURL, ChainConfig(d), answers)
	if err != nil {
		return Witness{}, RebuildSummary{}, err
	}
	defer c.Close()
	kept := &keptReads{from: ledger, kept: map[string][]store.ChainRead{}}
	sum, err := Rebuild(ctx, scratch, c, entries, kept, to, log)
	if err != nil {
		return Witness{}, sum, err
	}
	// The balances the money identity reads are answers the witness carries too; what it finds
	// is verify --witness's to say.
	if _, err := IdentityOf(ctx, scratch, c, entries, 0, int64(sum.DigestedTo), log); err != nil {
		return Witness{}, sum, err
	}
	digests, err := ledger.StoredDigests(ctx, 0, int64(sum.DigestedTo))
	if err != nil {
		return Witness{}, sum, err
	}
	return Witness{Version: WitnessVersion, ToBlock: to, Settings: entries, Reads: kept.kept, Answers: answers.List(),
		Digests: witnessDigests(digests)}, sum, nil
}

// WitnessCheck is what VerifyWitness found: how many of the witness's digests it recomputed
// (those up to the block its rebuild digested), and the first that differs, if any.
type WitnessCheck struct {
	Checked    int
	DigestedTo uint64
	Last       *WitnessDigest // the last recomputed
	Differs    *WitnessDigest // the witness's digest of the first block that differs
	Rebuilt    *WitnessDigest // the rebuild's of that block (nil: it holds no events there)
	// Unexplained are the money identity's differences in the rebuild (MoneyIdentity).
	Unexplained []store.EventDiff
}

// VerifyWitness rebuilds the ledger w witnesses into scratch, an empty ledger, with no node (every
// call answered from w), and compares the digests it computes with w's.
func VerifyWitness(ctx context.Context, scratch *store.Store, w Witness, log *slog.Logger) (WitnessCheck, error) {
	if w.Version != WitnessVersion {
		return WitnessCheck{}, fmt.Errorf("a witness of version %d: this build reads version %d", w.Version, WitnessVersion)
	}
	d, err := LastDeployment(w.Settings)
	if err != nil {
		return WitnessCheck{}, err
	}
	c, err := chain.Replaying(ctx, ChainConfig(d), chain.NewAnswers(w.Answers))
	if err != nil {
		return WitnessCheck{}, err
	}
	defer c.Close()
	sum, err := Rebuild(ctx, scratch, c, w.Settings, readsMap(w.Reads), w.ToBlock, log)
	if err != nil {
		return WitnessCheck{}, err
	}
	stored, err := scratch.StoredDigests(ctx, 0, int64(sum.DigestedTo))
	if err != nil {
		return WitnessCheck{}, err
	}
	check := compareWitness(w.Digests, witnessDigests(stored), sum.DigestedTo)
	check.Unexplained, err = IdentityOf(ctx, scratch, c, w.Settings, 0, int64(sum.DigestedTo), log)
	return check, err
}

// compareWitness compares the witness's digests with the rebuild's, block by block, up to the
// block the rebuild digested: the first block either names that the other does not, or names
// with another digest, differs.
func compareWitness(want, got []WitnessDigest, to uint64) WitnessCheck {
	check := WitnessCheck{DigestedTo: to}
	want = slices.DeleteFunc(slices.Clone(want), func(d WitnessDigest) bool { return d.Block > int64(to) })
	for i := 0; i < max(len(want), len(got)); i++ {
		switch {
		case i >= len(want):
			check.Differs, check.Rebuilt = &WitnessDigest{Block: got[i].Block}, &got[i]
			return check
		case i >= len(got) || got[i].Block != want[i].Block:
			check.Differs = &want[i]
			if i < len(got) && got[i].Block < want[i].Block {
				check.Differs, check.Rebuilt = &WitnessDigest{Block: got[i].Block}, &got[i]
			}
			return check
		case got[i] != want[i]:
			check.Differs, check.Rebuilt = &want[i], &got[i]
			return check
		}
		check.Checked, check.Last = i+1, &want[i]
	}
	return check
}

// keptReads answers as from does, and keeps every answer it gave: the reads a witness carries.
type keptReads struct {
	from Reads
	mu   sync.Mutex
	kept map[string][]store.ChainRead
}

func (k *keptReads) JudgedReads(ctx context.Context, refs []string) (map[string][]store.ChainRead, error) {
	got, err := k.from.JudgedReads(ctx, refs)
	if err != nil {
		return nil, err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	for ref, reads := range got {
		k.kept[ref] = reads
	}
	return got, nil
}

// readsMap gives the reads a witness carries.
type readsMap map[string][]store.ChainRead

func (m readsMap) JudgedReads(_ context.Context, refs []string) (map[string][]store.ChainRead, error) {
	out := make(map[string][]store.ChainRead, len(refs))
	for _, ref := range refs {
		if reads, ok := m[ref]; ok {
			out[ref] = reads
		}
	}
	return out, nil
}
