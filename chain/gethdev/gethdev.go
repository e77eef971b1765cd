// Package gethdev runs `geth --dev` for the end-to-end tests and the benchmarks.
package gethdev

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
)

// Path is the geth binary: $GETH, or geth on PATH. `make test` installs the pinned version and
// sets GETH.
func Path(t testing.TB) string {
	if p := os.Getenv("GETH"); p != "" {
		return p
	}
	p, err := exec.LookPath("geth")
	if err != nil {
		t.Fatal("geth not found: `make test` installs it, or set GETH to a geth binary")
	}
	return p
}

// FreeAddr is a loopback address nothing listens on, for a server a test starts.
func FreeAddr(t testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// Node is a `geth --dev` node serving HTTP JSON-RPC; it can be stopped and started again on
// the same port and data directory.
type Node struct {
	t      testing.TB
	bin    string
	dir    string
	addr   string
	cmd    *exec.Cmd
	args   []string
	exited chan struct{}
}

// Start starts geth --dev, mining a block each second unless args give --dev.period, with
// args added to its command line, and stops it when the test ends.
func Start(t testing.TB, args ...string) *Node {
	g := &Node{t: t, bin: Path(t), dir: t.TempDir(), addr: FreeAddr(t), args: args}
	g.Start()
	t.Cleanup(g.Stop)
	return g
}

// URL is where it serves JSON-RPC.
func (g *Node) URL() string { return "http://" + g.addr }

// Start starts it (again).
func (g *Node) Start() {
	g.t.Helper()
	host, port, _ := net.SplitHostPort(g.addr)
	args := []string{"--dev", "--datadir", g.dir,
		"--http", "--http.addr", host, "--http.port", port, "--http.api", "eth,net,web3,debug,miner",
		"--ipcdisable", "--nodiscover", "--maxpeers", "0", "--verbosity", "2"}
	if !slices.Contains(g.args, "--dev.period") {
		args = append(args, "--dev.period", "1")
	}
	args = append(args, g.args...)
	g.cmd = exec.Command(g.bin, args...) // #nosec G204 -- the tests' own geth ($GETH) with our arguments
	logFile, err := os.OpenFile(filepath.Join(g.dir, "geth.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		g.t.Fatal(err)
	}
	g.cmd.Stdout, g.cmd.Stderr = logFile, logFile
	if err := g.cmd.Start(); err != nil {
		g.t.Fatal(err)
	}
	g.exited = make(chan struct{})
	go func() { g.cmd.Wait(); logFile.Close(); close(g.exited) }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := g.RPC("eth_blockNumber"); err == nil {
			return
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(g.dir, "geth.log"))
			g.t.Fatalf("geth did not answer within 30 s:\n%s", log)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Stop stops it, gracefully if it lets itself.
func (g *Node) Stop() {
	if g.cmd == nil || g.cmd.Process == nil {
		return
	}
	g.cmd.Process.Signal(os.Interrupt)
	select {
	case <-g.exited:
	case <-time.After(20 * time.Second):
		g.cmd.Process.Kill()
		<-g.exited
	}
	g.cmd = nil
}

// RPC makes one JSON-RPC call and returns its raw result.
func (g *Node) RPC(method string, params ...any) (json.RawMessage, error) {
	if params == nil {
		params = []any{}
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	resp, err := http.Post(g.URL(), "application/json", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out struct {
		Result json.RawMessage
		Error  *struct{ Message string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, err
	}
	if out.Error != nil {
		return nil, fmt.Errorf("%s: %s", method, out.Error.Message)
	}
	return out.Result, nil
}

// Fund sends eth from geth's unlocked dev account to addr and waits for it to be mined.
func (g *Node) Fund(addr string, eth int64) { g.FundAll([]string{addr}, eth) }

// FundAll sends eth to each of addrs from geth's unlocked dev account, all at once, and waits
// until every transfer is mined: a thousand wallets are funded in a block or two.
func (g *Node) FundAll(addrs []string, eth int64) {
	g.t.Helper()
	res, err := g.RPC("eth_accounts")
	if err != nil {
		g.t.Fatal(err)
	}
	var accounts []string
	json.Unmarshal(res, &accounts)
	value := new(big.Int).Mul(big.NewInt(eth), big.NewInt(1e18))
	// Nonces counted here: sent back to back, geth could hand out one twice.
	res, err = g.RPC("eth_getTransactionCount", accounts[0], "pending")
	if err != nil {
		g.t.Fatal(err)
	}
	var nonce hexutil.Uint64
	json.Unmarshal(res, &nonce)
	hashes := make([]string, len(addrs))
	for i, addr := range addrs {
		res, err = g.RPC("eth_sendTransaction", map[string]any{"from": accounts[0], "to": addr, "value": (*hexutil.Big)(value), "nonce": nonce + hexutil.Uint64(i)})
		if err != nil {
			g.t.Fatal(err)
		}
		json.Unmarshal(res, &hashes[i])
	}
	deadline := time.Now().Add(20*time.Second + time.Duration(len(addrs))*20*time.Millisecond)
	for i := 0; i < len(hashes); {
		if r, err := g.RPC("eth_getTransactionReceipt", hashes[i]); err == nil && string(r) != "null" {
			i++
			continue
		}
		if time.Now().After(deadline) {
			g.t.Fatalf("funding %s was not mined", addrs[i])
		}
		time.Sleep(200 * time.Millisecond)
	}
}
