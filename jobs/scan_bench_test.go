package jobs

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"math/big"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"

	"nodeledger/chain"
	"nodeledger/chain/gethdev"
	"nodeledger/store/storetest"
)

// BenchmarkPaymentsScan measures the payments pass's scan over geth --dev blocks of 100
// transactions, a tenth of them payments (the blocks in batches, the payments wallet's balance
// and code at each block, and recording the payments with the cursor), next to a raw batched
// eth_getBlockByNumber fetch of the same blocks. The payments are top-level transfers from an
// account, so every balance change is explained and no block is traced. It reports both and
// raw÷scan time, the scan's share of the raw speed; `make bench` tabulates them. It needs GETH,
// as `make test` and `make bench` set it.
func BenchmarkPaymentsScan(b *testing.B) {
	const blocks, perBlock, paymentsPerBlock = 20, 100, 10
	if os.Getenv("GETH") == "" {
		b.Skip("GETH is not set: `make bench` sets it")
	}
	ctx := b.Context()
	g := gethdev.Start(b)
	c, err := chain.Dial(ctx, g.URL(), chain.Config{Factory: common.HexToAddress("0xf1")})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	raw, err := rpc.DialContext(ctx, g.URL())
	if err != nil {
		b.Fatal(err)
	}
	defer raw.Close()

	// Payments from a funded account, perBlock signed and sent at once, so they are mined together.
	key, err := crypto.GenerateKey()
	if err != nil {
		b.Fatal(err)
	}
	g.Fund(strings.ToLower(crypto.PubkeyToAddress(key.PublicKey).Hex()), 1000)
	var nonce uint64
	if res, err := g.RPC("eth_getTransactionCount", crypto.PubkeyToAddress(key.PublicKey), "pending"); err != nil {
		b.Fatal(err)
	} else if err := json.Unmarshal(res, (*hexutil.Uint64)(&nonce)); err != nil {
		b.Fatal(err)
	}
	signer := types.LatestSignerForChainID(big.NewInt(1337))
	payTo := common.HexToAddress("0x00000000000000000000000000000000000000bb")
	others := common.HexToAddress("0x00000000000000000000000000000000000000cc")
	var from, to uint64
	for i := range blocks {
		elems := make([]rpc.BatchElem, perBlock)
		hashes := make([]common.Hash, perBlock)
		for k := range elems {
			to := &others
			if k%(perBlock/paymentsPerBlock) == 0 {
				to = &payTo
			}
			tx, err := types.SignNewTx(key, signer, &types.DynamicFeeTx{
				ChainID: big.NewInt(1337), Nonce: nonce, Gas: 21_000, To: to,
				GasTipCap: big.NewInt(params.GWei), GasFeeCap: big.NewInt(100 * params.GWei),
				Value: big.NewInt(int64(1000 + i*perBlock + k)),
			})
			nonce++
			if err != nil {
				b.Fatal(err)
			}
			bin, err := tx.MarshalBinary()
			if err != nil {
				b.Fatal(err)
			}
			hashes[k] = tx.Hash()
			elems[k] = rpc.BatchElem{Method: "eth_sendRawTransaction", Args: []any{hexutil.Bytes(bin)}, Result: new(common.Hash)}
		}
		if err := raw.BatchCallContext(ctx, elems); err != nil {
			b.Fatal(err)
		}
		for _, e := range elems {
			if e.Error != nil {
				b.Fatal(e.Error)
			}
		}
		for _, h := range []common.Hash{hashes[0], hashes[perBlock-1]} {
			r, err := c.WaitMined(ctx, h, 100*time.Millisecond)
			if err != nil {
				b.Fatal(err)
			}
			if n := r.BlockNumber.Uint64(); from == 0 || n < from {
				from = n
			} else if n > to {
				to = n
			}
		}
	}

	db := storetest.New(b)
	j := New(db, c, nil, nil, Config{PaymentAddress: payTo, ScanFrom: from, BlocksPerPass: to - from + 1}, slog.New(slog.DiscardHandler))
	var scan, fetch time.Duration
	var seen int
	for b.Loop() {
		b.StopTimer()
		storetest.Reset(b, db)
		b.StartTimer()
		start := time.Now()
		var sum PaymentsSummary
		if _, _, err := j.scan(ctx, &sum); err != nil {
			b.Fatal(err)
		}
		scan += time.Since(start)
		if sum.ToBlock != to {
			b.Fatalf("scanned to %d, not %d", sum.ToBlock, to)
		}
		seen = sum.Seen

		start = time.Now()
		for n := from; n <= to; n += 50 {
			var elems []rpc.BatchElem
			for k := n; k <= min(n+49, to); k++ {
				elems = append(elems, rpc.BatchElem{Method: "eth_getBlockByNumber", Args: []any{hexutil.EncodeUint64(k), true}, Result: new(json.RawMessage)})
			}
			if err := raw.BatchCallContext(ctx, elems); err != nil {
				b.Fatal(err)
			}
		}
		fetch += time.Since(start)
	}
	if seen != blocks*paymentsPerBlock {
		b.Fatalf("the scan saw %d payments of %d", seen, blocks*paymentsPerBlock)
	}
	b.ReportMetric(float64(blocks*perBlock)/float64(to-from+1), "txs/block")
	b.ReportMetric(scan.Seconds()/float64(b.N), "scan-s/op")
	b.ReportMetric(fetch.Seconds()/float64(b.N), "raw-fetch-s/op")
	b.ReportMetric(fetch.Seconds()/scan.Seconds(), "raw/scan")
	fmt.Fprintf(os.Stderr, "scanned blocks %d-%d, internal transfers %s\n", from, to, j.InternalTransfers())
}

// BenchmarkQuietScanRequests counts the JSON-RPC requests the payments scan makes over 10,000
// blocks of the simulated chain holding 20 payments (and 4 transfers out of the payments wallet),
// each alone in a block, spread evenly: reading every block (SCAN_EVERY_BLOCK=true) against
// skipping the ranges where the payments wallet did not move. Requests are what providers bill;
// the chain is local, so times say little.
func BenchmarkQuietScanRequests(b *testing.B) {
	const blocks = 10_000
	e := quietChain(b, blocks, 20, 4)
	var every, skipping scanned
	for b.Loop() {
		every, skipping = scanAll(b, e, true), scanAll(b, e, false)
	}
	if len(every.Payments) != 20 || !slices.Equal(every.Payments, skipping.Payments) || every.Cursor != skipping.Cursor {
		b.Fatalf("every block recorded %d payments up to %d, skipping %d up to %d", len(every.Payments), every.Cursor, len(skipping.Payments), skipping.Cursor)
	}
	per10k := func(s scanned) float64 { return float64(s.Requests) * 10_000 / float64(s.Cursor+1) }
	b.ReportMetric(per10k(every), "every-block-requests/10k-blocks")
	b.ReportMetric(per10k(skipping), "skipping-requests/10k-blocks")
	b.ReportMetric(per10k(every)/per10k(skipping), "every/skipping")
}
