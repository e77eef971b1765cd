package devchain

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"

	"nodeledger/chain/bindings"
)

// rawClient speaks JSON-RPC over plain HTTP, as a wallet or script would, so the tests check the
// served endpoint rather than go-ethereum's client talking to itself.
type rawClient struct {
	t   *testing.T
	url string
}

func (c rawClient) call(method string, params ...any) (json.RawMessage, error) {
	if params == nil {
		params = []any{}
	}
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	if err != nil {
		return nil, err
	}
	resp, err := http.Post(c.url, "application/json", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: HTTP %s", method, resp.Status)
	}
	var out struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	if out.Error != nil {
		return nil, fmt.Errorf("%s: %d %s", method, out.Error.Code, out.Error.Message)
	}
	return out.Result, nil
}

// must calls method and decodes its result into a value of type T.
func must[T any](c rawClient, method string, params ...any) T {
	c.t.Helper()
	raw, err := c.call(method, params...)
	if err != nil {
		c.t.Fatal(err)
	}
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		c.t.Fatalf("%s: decode %s: %v", method, raw, err)
	}
	return v
}

// ethCall runs eth_call against the latest block and returns the raw return data.
func (c rawClient) ethCall(to common.Address, data []byte) []byte {
	c.t.Helper()
	return must[hexutil.Bytes](c, "eth_call", map[string]any{"to": to, "input": hexutil.Bytes(data)}, "latest")
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// emptyEvery is the test chains' empty-block interval, shorter than the default so the test that
// waits for one does not wait 3 s.
const emptyEvery = 500 * time.Millisecond

func startChain(t *testing.T, ctx context.Context, addr string) *Chain {
	t.Helper()
	began := time.Now()
	c, err := Start(ctx, Options{RPCAddr: addr, Log: testLogger(t), EmptyBlockInterval: emptyEvery})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Start took %s", time.Since(began).Round(time.Millisecond))
	return c
}

func TestChain(t *testing.T) {
	addr := freeAddr(t)
	c := startChain(t, t.Context(), addr)
	defer c.Close()
	if want := "http://" + addr; c.RPCURL() != want {
		t.Fatalf("RPCURL = %q, want %q", c.RPCURL(), want)
	}
	rc := rawClient{t: t, url: c.RPCURL()}

	t.Run("chain id", func(t *testing.T) {
		rc := rawClient{t: t, url: c.RPCURL()}
		id := must[hexutil.Big](rc, "eth_chainId")
		if id.ToInt().Cmp(big.NewInt(1337)) != 0 || c.ChainID().Cmp(big.NewInt(1337)) != 0 {
			t.Errorf("eth_chainId = %s, ChainID() = %s, want 1337", id.ToInt(), c.ChainID())
		}
		if v := must[string](rc, "net_version"); v != "1337" {
			t.Errorf("net_version = %q", v)
		}
	})

	t.Run("roles and balances", func(t *testing.T) {
		rc := rawClient{t: t, url: c.RPCURL()}
		if c.Owner.Address != c.Accounts[0].Address || c.Minter.Address != c.Accounts[1].Address ||
			c.Distributor.Address != c.Accounts[2].Address || c.Payments != c.Accounts[9].Address ||
			len(c.Buyers) != 6 || c.Buyers[0].Address != c.Accounts[3].Address {
			t.Fatal("roles are not accounts 0, 1, 2, 9 and buyers 3..8")
		}
		want := new(big.Int).Mul(big.NewInt(AccountBalanceETH), big.NewInt(params.Ether))
		for _, a := range c.Buyers[1:] { // Buyers[0] pays in another subtest; deployer paid gas.
			if got := must[hexutil.Big](rc, "eth_getBalance", a.Address, "latest"); got.ToInt().Cmp(want) != 0 {
				t.Errorf("balance of %s = %s, want %s", a.Address, got.ToInt(), want)
			}
		}
	})

	t.Run("factory", func(t *testing.T) {
		rc := rawClient{t: t, url: c.RPCURL()}
		if code := must[hexutil.Bytes](rc, "eth_getCode", c.Factory, "latest"); len(code) == 0 {
			t.Fatal("no code at the factory address")
		}
		f := bindings.NewNodeFactory()
		check := func(name string, got, want any, err error) {
			t.Helper()
			if err != nil {
				t.Errorf("%s: %v", name, err)
			} else if got != want {
				t.Errorf("%s = %v, want %v", name, got, want)
			}
		}
		minter, err := f.UnpackMinter(rc.ethCall(c.Factory, f.PackMinter()))
		check("minter", minter, c.Minter.Address, err)
		distributor, err := f.UnpackDistributor(rc.ethCall(c.Factory, f.PackDistributor()))
		check("distributor", distributor, c.Distributor.Address, err)
		owner, err := f.UnpackOwner(rc.ethCall(c.Factory, f.PackOwner()))
		check("owner", owner, c.Owner.Address, err)
		paused, err := f.UnpackPaused(rc.ethCall(c.Factory, f.PackPaused()))
		check("paused", paused, false, err)
		maxPer, err := f.UnpackMaxPerWallet(rc.ethCall(c.Factory, f.PackMaxPerWallet()))
		check("maxPerWallet", maxPer, MaxPerWallet, err)
		outstanding, err := f.UnpackTotalOutstanding(rc.ethCall(c.Factory, f.PackTotalOutstanding()))
		if err != nil || outstanding.Sign() != 0 {
			t.Errorf("totalOutstanding = %v, %v; want 0", outstanding, err)
		}
	})

	t.Run("price feed", func(t *testing.T) {
		rc := rawClient{t: t, url: c.RPCURL()}
		a := bindings.NewMockAggregator()
		round, err := a.UnpackLatestRoundData(rc.ethCall(c.PriceFeed, a.PackLatestRoundData()))
		if err != nil {
			t.Fatal(err)
		}
		if round.Answer.Cmp(big.NewInt(3000_00000000)) != 0 {
			t.Errorf("answer = %s, want 3000e8", round.Answer)
		}
		decimals, err := a.UnpackDecimals(rc.ethCall(c.PriceFeed, a.PackDecimals()))
		if err != nil || decimals != 8 {
			t.Errorf("decimals = %d, %v; want 8", decimals, err)
		}
	})

	t.Run("token", func(t *testing.T) {
		rc := rawClient{t: t, url: c.RPCURL()}
		tok := bindings.NewTestToken()
		symbol, err := tok.UnpackSymbol(rc.ethCall(c.Token, tok.PackSymbol()))
		if err != nil || symbol != "DHT" {
			t.Errorf("symbol = %q, %v", symbol, err)
		}
		want := new(big.Int).Mul(big.NewInt(BuyerTokens), big.NewInt(params.Ether))
		for i, b := range c.Buyers {
			bal, err := tok.UnpackBalanceOf(rc.ethCall(c.Token, tok.PackBalanceOf(b.Address)))
			if err != nil {
				t.Fatal(err)
			}
			if i >= TokenHolders {
				want = new(big.Int)
			}
			if bal.Cmp(want) != 0 {
				t.Errorf("buyer %d holds %s DHT units, want %s", i, bal, want)
			}
		}
	})

	t.Run("usdc", func(t *testing.T) {
		rc := rawClient{t: t, url: c.RPCURL()}
		tok := bindings.NewTestToken()
		symbol, err := tok.UnpackSymbol(rc.ethCall(c.USDC, tok.PackSymbol()))
		if err != nil || symbol != "USDC" {
			t.Errorf("symbol = %q, %v", symbol, err)
		}
		decimals, err := tok.UnpackDecimals(rc.ethCall(c.USDC, tok.PackDecimals()))
		if err != nil || decimals != USDCDecimals {
			t.Errorf("decimals = %d, %v; want %d", decimals, err, USDCDecimals)
		}
		want := big.NewInt(BuyerUSDC * 1_000_000)
		for i, b := range c.Buyers {
			bal, err := tok.UnpackBalanceOf(rc.ethCall(c.USDC, tok.PackBalanceOf(b.Address)))
			if err != nil {
				t.Fatal(err)
			}
			if bal.Cmp(want) != 0 {
				t.Errorf("buyer %d holds %s USDC units, want %s", i, bal, want)
			}
		}
	})

	t.Run("payment over raw JSON-RPC is mined unprompted", func(t *testing.T) {
		rc := rawClient{t: t, url: c.RPCURL()}
		buyer := c.Accounts[3]
		before := must[hexutil.Big](rc, "eth_getBalance", c.Payments, "latest")

		chainID := must[*hexutil.Big](rc, "eth_chainId").ToInt()
		nonce := must[hexutil.Uint64](rc, "eth_getTransactionCount", buyer.Address, "pending")
		tip := must[*hexutil.Big](rc, "eth_maxPriorityFeePerGas").ToInt()
		head := must[struct {
			BaseFee *hexutil.Big `json:"baseFeePerGas"`
		}](rc, "eth_getBlockByNumber", "latest", false)
		feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee.ToInt(), big.NewInt(2)), tip)
		oneETH := big.NewInt(params.Ether)
		tx, err := types.SignTx(types.NewTx(&types.DynamicFeeTx{
			ChainID:   chainID,
			Nonce:     uint64(nonce),
			GasTipCap: tip,
			GasFeeCap: feeCap,
			Gas:       21_000,
			To:        &c.Payments,
			Value:     oneETH,
		}), types.LatestSignerForChainID(chainID), buyer.Key)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := tx.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}

		sent := time.Now()
		hash := must[common.Hash](rc, "eth_sendRawTransaction", hexutil.Bytes(raw))
		if hash != tx.Hash() {
			t.Fatalf("node returned hash %s, signed %s", hash, tx.Hash())
		}
		var receipt *struct {
			Status      hexutil.Uint64 `json:"status"`
			BlockNumber hexutil.Uint64 `json:"blockNumber"`
		}
		for receipt == nil {
			if time.Since(sent) > 2*time.Second {
				t.Fatal("no receipt within 2s")
			}
			time.Sleep(25 * time.Millisecond)
			receipt = must[*struct {
				Status      hexutil.Uint64 `json:"status"`
				BlockNumber hexutil.Uint64 `json:"blockNumber"`
			}](rc, "eth_getTransactionReceipt", hash)
		}
		t.Logf("mined in block %d after %s", receipt.BlockNumber, time.Since(sent).Round(time.Millisecond))
		if receipt.Status != 1 {
			t.Fatalf("receipt status %d", receipt.Status)
		}
		after := must[hexutil.Big](rc, "eth_getBalance", c.Payments, "latest")
		if got := new(big.Int).Sub(after.ToInt(), before.ToInt()); got.Cmp(oneETH) != 0 {
			t.Errorf("payments wallet gained %s wei, want %s", got, oneETH)
		}
	})

	t.Run("empty blocks keep coming", func(t *testing.T) {
		rc := rawClient{t: t, url: c.RPCURL()}
		start := must[hexutil.Uint64](rc, "eth_blockNumber")
		deadline := time.Now().Add(emptyEvery + 2*time.Second)
		for must[hexutil.Uint64](rc, "eth_blockNumber") == start {
			if time.Now().After(deadline) {
				t.Fatalf("no block after block %d for %s", start, emptyEvery+2*time.Second)
			}
			time.Sleep(100 * time.Millisecond)
		}
	})

	t.Run("in-process RPC", func(t *testing.T) {
		var n hexutil.Uint64
		if err := c.RPC().CallContext(t.Context(), &n, "eth_blockNumber"); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Error("block number 0 after deployment")
		}
	})

	// Close frees the port: a new chain starts on the same address.
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := rc.call("eth_blockNumber"); err == nil {
		t.Error("endpoint still answers after Close")
	}
	again := startChain(t, t.Context(), addr)
	if got := must[hexutil.Big](rawClient{t: t, url: again.RPCURL()}, "eth_chainId"); got.ToInt().Int64() != 1337 {
		t.Errorf("restarted chain id %s", got.ToInt())
	}
	if err := again.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestCloseAfterContextEndsLeavesNoGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(t.Context())
	c := startChain(t, ctx, "127.0.0.1:0")
	if !strings.HasPrefix(c.RPCURL(), "http://127.0.0.1:") || strings.HasSuffix(c.RPCURL(), ":0") {
		t.Fatalf("RPCURL = %q, want a resolved loopback port", c.RPCURL())
	}
	cancel()
	done := make(chan error, 1)
	go func() { done <- c.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close hung after the context ended")
	}
	// Some of the node's goroutines notice the shutdown a moment later.
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines before Start, %d after Close:\n%s",
				before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestStartWithoutHTTP(t *testing.T) {
	c := startChain(t, t.Context(), "")
	defer c.Close()
	if c.RPCURL() != "" {
		t.Errorf("RPCURL = %q, want none", c.RPCURL())
	}
	var code hexutil.Bytes
	if err := c.RPC().CallContext(t.Context(), &code, "eth_getCode", c.Factory, "latest"); err != nil || len(code) == 0 {
		t.Errorf("factory code over in-process RPC: %d bytes, %v", len(code), err)
	}
}

func TestStartOnTakenPortFails(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	before := runtime.NumGoroutine()
	c, err := Start(t.Context(), Options{RPCAddr: ln.Addr().String()})
	if err == nil {
		c.Close()
		t.Fatal("Start succeeded on a taken port")
	}
	var opErr *net.OpError
	if !errors.As(err, &opErr) {
		t.Errorf("error %v does not wrap the listen error", err)
	}
	if after := runtime.NumGoroutine(); after > before {
		t.Errorf("%d goroutines before the failed Start, %d after", before, after)
	}
}

// TestOneBlockATransaction: with empty blocks off, every block the miner seals after the deploy
// holds a transaction. Sent one after another, each waited for, twenty transfers make twenty
// blocks: a miner that looks at the pool before it has caught up with the last block seals an
// empty one after it, which moves the head under a test that counts confirmations.
func TestOneBlockATransaction(t *testing.T) {
	c, err := Start(t.Context(), Options{EmptyBlockInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := t.Context()
	start, err := c.client.BlockNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	from, to := c.Buyers[0], c.Buyers[1].Address
	for nonce := range uint64(20) {
		tx, err := types.SignNewTx(from.Key, types.LatestSignerForChainID(c.ChainID()), &types.DynamicFeeTx{ChainID: c.ChainID(),
			Nonce: nonce, GasTipCap: big.NewInt(params.GWei), GasFeeCap: big.NewInt(100 * params.GWei), Gas: 21_000, To: &to,
			Value: big.NewInt(1)})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.client.SendTransaction(ctx, tx); err != nil {
			t.Fatal(err)
		}
		for sent := time.Now(); ; time.Sleep(5 * time.Millisecond) { // bind.WaitMined looks once a second
			if _, err := c.client.TransactionReceipt(ctx, tx.Hash()); err == nil {
				break
			}
			if time.Since(sent) > time.Minute {
				t.Fatalf("transfer %d not mined after a minute", nonce)
			}
		}
	}
	head, err := c.client.BlockNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for n := start + 1; n <= head; n++ {
		b, err := c.client.BlockByNumber(ctx, new(big.Int).SetUint64(n))
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Transactions()) == 0 {
			t.Errorf("block %d is empty", n)
		}
	}
	if head-start != 20 {
		t.Errorf("20 transfers made %d blocks", head-start)
	}
}
