package jobs

import (
	"context"
	"errors"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"nodeledger/chain"
	"nodeledger/store"
)

// The outcomes of Sync that are not a recorded node.
var (
	ErrNotMinted  = errors.New("no such node minted, or its mint not confirmed yet")
	ErrMintFailed = errors.New("the transaction failed on chain")
	ErrNoMint     = errors.New("the transaction minted no node")
	ErrNotYours   = errors.New("the chain names another wallet as the node's owner")
	ErrMovedOn    = errors.New("the mint named this wallet, the chain no longer does")
)

// SyncTx records the node minted by transaction hash for wallet, at the wallet's request: the
// owner comes from the chain's NodeMinted log and is confirmed with nodeInfo, never from the
// caller. Recording a node twice changes nothing.
func (j *Jobs) SyncTx(ctx context.Context, wallet common.Address, hash common.Hash) (store.Node, error) {
	r, err := j.chain.Receipt(ctx, hash)
	if errors.Is(err, chain.ErrNotMined) {
		return store.Node{}, ErrNotMinted
	}
	if err != nil {
		return store.Node{}, err
	}
	if r.Status != types.ReceiptStatusSuccessful {
		return store.Node{}, ErrMintFailed
	}
	// A batch mints for many wallets: the caller's node, when it has one there.
	minted, _ := j.chain.MintsIn(r)
	if len(minted) == 0 {
		return store.Node{}, ErrNoMint
	}
	i := max(0, slices.IndexFunc(minted, func(m chain.Minted) bool { return m.Owner == wallet }))
	return j.sync(ctx, wallet, minted[i])
}

// SyncID is SyncTx for a chain node id.
func (j *Jobs) SyncID(ctx context.Context, wallet common.Address, id *big.Int) (store.Node, error) {
	m, found, err := j.chain.MintOf(ctx, id, j.cfg.ScanFrom)
	if err != nil {
		return store.Node{}, err
	}
	if !found {
		return store.Node{}, ErrNotMinted
	}
	return j.sync(ctx, wallet, m)
}

func (j *Jobs) sync(ctx context.Context, wallet common.Address, m chain.Minted) (store.Node, error) {
	if m.Owner != wallet {
		return store.Node{}, ErrNotYours
	}
	info, err := j.chain.NodeInfo(ctx, m.ID)
	if errors.Is(err, chain.ErrUnknownNode) {
		return store.Node{}, ErrNotMinted // its block was replaced since
	}
	if err != nil {
		return store.Node{}, err
	}
	if info.Owner != wallet {
		return store.Node{}, ErrMovedOn
	}
	if _, _, err := j.recordFound(ctx, m); err != nil {
		return store.Node{}, err
	}
	if _, err := j.syncNode(ctx, m.ID, nil); err != nil {
		return store.Node{}, err
	}
	return j.store.NodeByChainID(ctx, m.ID)
}
