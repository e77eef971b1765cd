package chain

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
)

// Signer signs the transactions of one account. Every transaction the service signs goes
// through one: a key held by the process (LocalSigner: dev mode and tests), or an external
// signer such as clef that holds the key and the rules of what it signs (DialSigner).
type Signer interface {
	// Address is the account the signer signs for.
	Address() common.Address
	// SignTx returns tx signed for chainID; ErrSignerRefused when the signer will not.
	SignTx(ctx context.Context, tx *types.Transaction, chainID *big.Int) (*types.Transaction, error)
}

// ErrSignerRefused is an external signer's refusal of a transaction: its rules reject it, or it
// finds the request invalid. The signer's own words follow in parentheses.
var ErrSignerRefused = errors.New("the signer refused the transaction")

// LocalSigner signs with a key the process holds.
func LocalSigner(key *ecdsa.PrivateKey) Signer {
	return localSigner{key: key, addr: crypto.PubkeyToAddress(key.PublicKey)}
}

type localSigner struct {
	key  *ecdsa.PrivateKey
	addr common.Address
}

func (s localSigner) Address() common.Address { return s.addr }

func (s localSigner) SignTx(_ context.Context, tx *types.Transaction, chainID *big.Int) (*types.Transaction, error) {
	return types.SignTx(tx, types.LatestSignerForChainID(chainID), s.key)
}

// signerTimeout bounds each request to an external signer. A rules file that neither approves
// nor rejects hands the request to a person at clef's console; the pass must not wait for them.
const signerTimeout = 30 * time.Second

// ExternalSigner asks a signer that speaks clef's external API (account_signTransaction) to sign
// for account; the process never holds the key.
type ExternalSigner struct {
	rpc     *rpc.Client
	account common.Address
}

// DialSigner connects to the external signer at endpoint (http(s) URL or IPC path), which signs
// for account.
func DialSigner(ctx context.Context, endpoint string, account common.Address) (*ExternalSigner, error) {
	rc, err := rpc.DialContext(ctx, endpoint)
	if err != nil {
		return nil, fmt.Errorf("signer: %w: %w", ErrUnavailable, withoutURL(err))
	}
	return &ExternalSigner{rpc: rc, account: account}, nil
}

// Close closes the connection to the signer.
func (s *ExternalSigner) Close() { s.rpc.Close() }

// Address is the account the signer signs for.
func (s *ExternalSigner) Address() common.Address { return s.account }

// SignTx asks the signer to sign tx (a dynamic-fee transaction) and checks that what comes back
// is tx, signed by the account: a signer (or a person at its console) may edit a request.
// A signer that cannot be reached or does not answer in time is ErrUnavailable; one that answers
// no is ErrSignerRefused.
func (s *ExternalSigner) SignTx(ctx context.Context, tx *types.Transaction, chainID *big.Int) (*types.Transaction, error) {
	data := hexutil.Bytes(tx.Data())
	args := apitypes.SendTxArgs{
		From:                 common.NewMixedcaseAddress(s.account),
		Gas:                  hexutil.Uint64(tx.Gas()),
		MaxFeePerGas:         (*hexutil.Big)(tx.GasFeeCap()),
		MaxPriorityFeePerGas: (*hexutil.Big)(tx.GasTipCap()),
		Value:                hexutil.Big(*tx.Value()),
		Nonce:                hexutil.Uint64(tx.Nonce()),
		Input:                &data,
		ChainID:              (*hexutil.Big)(chainID),
	}
	if tx.To() != nil {
		to := common.NewMixedcaseAddress(*tx.To())
		args.To = &to
	}
	ctx, cancel := context.WithTimeout(ctx, signerTimeout)
	defer cancel()
	var res struct {
		Raw hexutil.Bytes `json:"raw"`
	}
	if err := s.rpc.CallContext(ctx, &res, "account_signTransaction", args); err != nil {
		var rerr rpc.Error
		if errors.As(err, &rerr) {
			return nil, fmt.Errorf("%w (%s)", ErrSignerRefused, rerr.Error())
		}
		return nil, fmt.Errorf("signer: %w: %w", ErrUnavailable, withoutURL(err))
	}
	signed := new(types.Transaction)
	if err := signed.UnmarshalBinary(res.Raw); err != nil {
		return nil, fmt.Errorf("signer: the signed transaction does not decode: %w", err)
	}
	signer := types.LatestSignerForChainID(chainID)
	if from, err := types.Sender(signer, signed); err != nil || from != s.account || signer.Hash(signed) != signer.Hash(tx) {
		return nil, fmt.Errorf("signer: it returned another transaction than the one asked for, or signed by another account than %s", s.account.Hex())
	}
	return signed, nil
}

// withoutURL drops the endpoint Go's HTTP errors quote: a signer's URL may carry credentials.
func withoutURL(err error) error {
	var uerr *url.Error
	if errors.As(err, &uerr) {
		return uerr.Err
	}
	return err
}
