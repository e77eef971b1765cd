package e2e

import (
	"cmp"
	"fmt"
	"maps"
	"math/big"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"nodeledger/chain"
	"nodeledger/chain/bindings"
)

// Half a sale day's payments are in a 6-decimals stablecoin the sale lists (issue 36): a
// TestToken deployed for the day, of which every wallet holds enough for all it pays, and tiers
// priced in it as well as in ETH.
const (
	usdcDecimals = 6
	usdcPerBuyer = 100_000 // whole USDC minted to each wallet
)

var (
	usdcPrices    = map[int]*big.Int{tierAny: usdc(30), tierCap: usdc(60), tierOne: usdc(90)}
	usdcBadAmount = big.NewInt(12_345_000) // 12.345 USDC: no tier's price
)

// usdc is whole USDC in base units.
func usdc(whole int64) *big.Int {
	return new(big.Int).Mul(big.NewInt(whole), new(big.Int).Exp(big.NewInt(10), big.NewInt(usdcDecimals), nil))
}

// inUSDC tells the payments made in the stablecoin: every other one, so each kind of payment
// (and each pair to the one-per-wallet tier, whose limit counts nodes whatever they were paid in)
// has both currencies.
func inUSDC(i int) bool { return i%2 == 1 }

// deployUSDC deploys the day's stablecoin from owner and mints usdcPerBuyer of it to each wallet:
// the first mint waited for, the others signed with its gas at consecutive nonces, sent at once,
// and the last of them waited for (the chain mines them in nonce order). It returns the token and
// the gas a payment in it is signed with: a transfer to the payments wallet, estimated before the
// wallet holds any (what writing its balance the first time costs), plus the margin the service
// adds to its own estimates.
func (s *saleDay) deployUSDC(t *testing.T, owner *chain.Sender) (common.Address, uint64) {
	t.Helper()
	ctx := t.Context()
	token := bindings.NewTestToken()
	r, err := owner.Transact(ctx, nil, append(common.FromHex(bindings.TestTokenMetaData.Bin),
		token.PackConstructor("USD Coin (sale day)", "USDC", usdcDecimals)...), nil)
	if err != nil || r.Status != 1 {
		t.Fatalf("deploying the USDC: %v", err)
	}
	addr, amount := r.ContractAddress, usdc(usdcPerBuyer)
	// The first mint also writes the supply from zero: the others cost no more.
	if r, err = owner.Transact(ctx, &addr, token.PackMint(s.buyers[0].addr, amount), nil); err != nil || r.Status != 1 {
		t.Fatalf("minting USDC: %v", err)
	}
	fees, err := owner.Fees(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var last *types.Transaction
	for _, b := range s.buyers[1:] {
		if last, err = owner.SignWith(ctx, fees, r.GasUsed, &addr, token.PackMint(b.addr, amount), nil); err != nil {
			t.Fatal(err)
		}
		if err := s.chain.Send(ctx, last); err != nil {
			t.Fatal(err)
		}
	}
	if last != nil {
		if r, err := s.chain.WaitMined(ctx, last.Hash(), 200*time.Millisecond); err != nil || r.Status != 1 {
			t.Fatalf("minting USDC to %d wallets: %v", len(s.buyers)-1, err)
		}
	}
	gas, err := s.chain.TokenTransferGas(ctx, s.buyers[0].addr, addr, s.payTo, usdcPrices[tierOne])
	if err != nil {
		t.Fatal(err)
	}
	return addr, gas
}

// calls is what geth has answered since it was last asked, by method (a batch's calls each
// counted; geth's timers start again from zero at each reading of its metrics), less the buyers'
// sends: the instances' requests, when nothing else reads the chain meanwhile (the test reads it
// itself only before and after the run).
func (s *saleDay) calls(t *testing.T) map[string]float64 {
	t.Helper()
	out, err := counts("http://"+s.gethMetrics+"/debug/metrics/prometheus", gethCallCount)
	if err != nil {
		t.Fatalf("reading geth's metrics: %v", err)
	}
	maps.DeleteFunc(out, func(_ string, n float64) bool { return n <= 0 })
	if out["eth_sendRawTransaction"] -= float64(s.sends.Swap(0)); out["eth_sendRawTransaction"] <= 0 {
		delete(out, "eth_sendRawTransaction")
	}
	return out
}

var gethCallCount = regexp.MustCompile(`^rpc_duration_([a-zA-Z0-9]+_[a-zA-Z0-9]+)_(?:success|failure)_count ([0-9.e+]+)$`)

// byMethod writes calls a block, the most asked method first.
func byMethod(calls map[string]float64, blocks float64) string {
	methods := slices.Collect(maps.Keys(calls))
	slices.SortFunc(methods, func(a, b string) int { return cmp.Or(cmp.Compare(calls[b], calls[a]), cmp.Compare(a, b)) })
	var out []string
	for _, m := range methods {
		out = append(out, fmt.Sprintf("%s %.1f", m, calls[m]/blocks))
	}
	return strings.Join(out, ", ")
}
