// Package clefdev runs clef, go-ethereum's external signer, for the tests: a keystore holding one
// key, and the rules recommended for production (docs/operations.md): for the minter and the
// distributor, only mint, mintBatch and distribute calls to the factory (Rules); for the payments wallet,
// only sweeps to the treasury, of ETH and of the listed tokens (SweepRules).
package clefdev

import (
	"crypto/ecdsa"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain/bindings"
	"nodeledger/chain/gethdev"
)

// Path is the clef binary: $CLEF, or clef on PATH. `make test` installs the pinned version and
// sets CLEF. Without one the test is skipped, except in CI (CI set), where it fails.
func Path(t testing.TB) string {
	if p := os.Getenv("CLEF"); p != "" {
		return p
	}
	p, err := exec.LookPath("clef")
	if err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatal("clef not found: `make test` installs it and sets CLEF")
	}
	t.Skip("clef not found: `make test` installs it and sets CLEF (go-ethereum v1.16.9's cmd/clef)")
	return ""
}

// Rules is the rules file: approve a call to factory whose selector is mint's, mintBatch's or
// distribute's (read from the factory's ABI, so a change of their parameters changes the rules),
// and a
// transfer of nothing from the account to itself (the nonce filler, which moves no money);
// reject everything else. A rule that neither approves nor rejects would leave the request to a
// person at clef's console.
func Rules(factory common.Address) string {
	methods := bindings.NewNodeFactory().GetABI().Methods
	return fmt.Sprintf(`// nodeledger: the minter and distributor may call mint, mintBatch and distribute on the factory, nothing else.
var FACTORY = %q;
var SELECTORS = [%q, %q, %q]; // mint, mintBatch, distribute

function ApproveTx(req) {
	var tx = req.transaction;
	var to = tx.to ? tx.to.toLowerCase() : "";
	var input = (tx.input || tx.data || "0x").toLowerCase();
	if (to == FACTORY && SELECTORS.indexOf(input.slice(0, 10)) >= 0) {
		return "Approve";
	}
	if (to == tx.from.toLowerCase() && input == "0x" && (tx.value == "0x0" || tx.value == "0x")) {
		return "Approve";
	}
	return "Reject";
}

function ApproveListing(req) { return "Reject"; }
function ApproveSignData(req) { return "Reject"; }
`, strings.ToLower(factory.Hex()), "0x"+hex.EncodeToString(methods["mint"].ID), "0x"+hex.EncodeToString(methods["mintBatch"].ID),
		"0x"+hex.EncodeToString(methods["distribute"].ID))
}

// SweepRules is the payments wallet's rules file: approve a plain transfer (no call data) of
// any value to treasury, the ETH sweep; a call of transfer(treasury, amount) without value to one
// of tokens, the token sweep; and the nonce filler; reject everything else, so that a service
// that is compromised can move the sale's money only into the treasury.
func SweepRules(treasury common.Address, tokens ...common.Address) string {
	listed := make([]string, len(tokens))
	for i, t := range tokens {
		listed[i] = fmt.Sprintf("%q", strings.ToLower(t.Hex()))
	}
	transfer := bindings.NewTestToken().GetABI().Methods["transfer"]
	return fmt.Sprintf(`// nodeledger: the payments wallet may send ETH, and the listed tokens, to the treasury Safe, nothing else.
var TREASURY = %q;
var TOKENS = [%s]; // PAYMENT_TOKENS, lower case
var TRANSFER_TO_TREASURY = %q + "000000000000000000000000" + TREASURY.slice(2); // transfer(TREASURY, …)

function ApproveTx(req) {
	var tx = req.transaction;
	var to = tx.to ? tx.to.toLowerCase() : "";
	var input = (tx.input || tx.data || "0x").toLowerCase();
	var noValue = tx.value == "0x0" || tx.value == "0x";
	if (input == "0x" && to == TREASURY) {
		return "Approve";
	}
	if (input == "0x" && to == tx.from.toLowerCase() && noValue) {
		return "Approve";
	}
	if (TOKENS.indexOf(to) >= 0 && noValue && input.length == 138 && input.slice(0, 74) == TRANSFER_TO_TREASURY) {
		return "Approve";
	}
	return "Reject";
}

function ApproveListing(req) { return "Reject"; }
function ApproveSignData(req) { return "Reject"; }
`, strings.ToLower(treasury.Hex()), strings.Join(listed, ", "), "0x"+hex.EncodeToString(transfer.ID))
}

// fourBytes is clef's custom 4-byte database with the factory's mint, mintBatch and distribute
// and ERC-20's transfer: clef refuses calls whose selector it cannot name before its rules are
// asked.
func fourBytes() []byte {
	db := map[string]string{}
	for _, name := range []string{"mint", "mintBatch", "distribute"} {
		m := bindings.NewNodeFactory().GetABI().Methods[name]
		db[hex.EncodeToString(m.ID)] = m.Sig
	}
	transfer := bindings.NewTestToken().GetABI().Methods["transfer"]
	db[hex.EncodeToString(transfer.ID)] = transfer.Sig
	b, _ := json.Marshal(db)
	return b
}

// Start runs clef signing with key for chainID under rules (Rules, SweepRules), and returns its
// HTTP URL; it stops when the test ends.
func Start(t testing.TB, key *ecdsa.PrivateKey, chainID int64, rules string) string {
	t.Helper()
	bin, dir := Path(t), t.TempDir()
	const master, password = "master password of the test", "keystore password of the test"
	ks, config := filepath.Join(dir, "keystore"), filepath.Join(dir, "config")
	account, err := keystore.NewKeyStore(ks, keystore.LightScryptN, keystore.LightScryptP).ImportECDSA(key, password)
	if err != nil {
		t.Fatal(err)
	}
	js := []byte(rules)
	rules = filepath.Join(dir, "rules.js")
	sum := sha256.Sum256(js)
	fb := filepath.Join(dir, "4byte.json")
	for path, b := range map[string][]byte{rules: js, fb: fourBytes()} {
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// clef reads its passwords from stdin one line each: init asks for the master password
	// twice, setpw for the account's twice and then the master one, attest for the master one.
	run := func(stdin string, args ...string) {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"--suppress-bootwarn", "--lightkdf"}, args...)...) // #nosec G204 -- the tests' own clef
		cmd.Stdin = strings.NewReader(stdin)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("clef %s: %v\n%s", args[0], err, out)
		}
	}
	run(master+"\n"+master+"\n", "init", "--configdir", config)
	run(password+"\n"+password+"\n"+master+"\n", "setpw", "--configdir", config, account.Address.Hex())
	run(master+"\n", "attest", "--configdir", config, hex.EncodeToString(sum[:]))

	addr := gethdev.FreeAddr(t)
	_, port, _ := net.SplitHostPort(addr)
	cmd := exec.Command(bin, "--suppress-bootwarn", "--lightkdf", "--nousb", "--ipcdisable", // #nosec G204 -- the tests' own clef
		"--keystore", ks, "--configdir", config, "--chainid", fmt.Sprint(chainID),
		"--rules", rules, "--4bytedb-custom", fb, "--auditlog", filepath.Join(dir, "audit.log"),
		"--http", "--http.addr", "127.0.0.1", "--http.port", port)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(dir, "clef.log")
	logFile, err := os.Create(logPath) // #nosec G304 -- the test's own temporary directory
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); logFile.Close(); close(exited) }()
	log := func() string { b, _ := os.ReadFile(logPath); return string(b) } // #nosec G304 -- as above
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	})
	io.WriteString(stdin, master+"\n") // the master password, to unlock the rules and the credentials
	url := "http://" + addr
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if ping(url) {
			break
		}
		select {
		case <-exited:
			t.Fatalf("clef exited:\n%s", log())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("clef did not answer within 30 s:\n%s", log())
		}
	}
	if !strings.Contains(log(), "Rule engine configured") {
		t.Fatalf("clef runs without the rules:\n%s", log())
	}
	return url
}

// ping tells whether clef answers account_version at url.
func ping(url string) bool {
	// #nosec G107 -- the URL of the test's own clef
	resp, err := http.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"account_version","params":[]}`))
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}
