package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"

	"nodeledger/chain/devchain"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// The start tests need a PostgreSQL server to make their databases on (EmptyDatabase).
func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

// A raw MINTER_KEY or DISTRIBUTOR_KEY on a real chain (ETH_RPC_URL set: here the dev chain's
// HTTP RPC, as an outside node would serve it) starts with a warning naming the setting and the
// external signer to set instead. Signing through external signers, or in dev mode (the test
// accounts' keys on its own chain), there is none.
func TestRawKeysOnARealChainWarn(t *testing.T) {
	dc, err := devchain.Start(t.Context(), devchain.Options{RPCAddr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dc.Close() })
	// start builds the app from the settings as run does, and returns each warning's setting.
	start := func(t *testing.T, kv ...string) (warned []string, messages string) {
		t.Helper()
		cfg, err := loadConfig(env(append([]string{"DATABASE_URL", storetest.EmptyDatabase(t), "DEV_RPC_ADDR", "127.0.0.1:0"}, kv...)...))
		if err != nil {
			t.Fatal(err)
		}
		var logs bytes.Buffer
		a, err := newApp(t.Context(), cfg, slog.New(slog.NewJSONHandler(&logs, nil)))
		if err != nil {
			t.Fatal(err)
		}
		a.Close()
		for line := range strings.Lines(logs.String()) {
			var rec struct{ Level, Msg, Setting, Instead string }
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Fatalf("log line %q: %v", line, err)
			}
			if rec.Level == "WARN" && rec.Setting != "" {
				warned = append(warned, rec.Setting+" -> "+rec.Instead)
				messages += rec.Msg + "\n"
			}
		}
		return warned, messages
	}
	realChain := func(kv ...string) []string {
		return append([]string{"ETH_RPC_URL", dc.RPCURL(), "CHAIN_ID", dc.ChainID().String(), "REFUND_POLICY", "within 2 working days", "FACTORY_ADDRESS", dc.Factory.Hex(),
			"PUBLIC_URL", "https://nodes.example.com", "SESSION_SECRET", strings.Repeat("s", 32)}, kv...)
	}
	minterKey, distributorKey := hex.EncodeToString(crypto.FromECDSA(dc.Minter.Key)), hex.EncodeToString(crypto.FromECDSA(dc.Distributor.Key))

	t.Run("raw keys on a real chain", func(t *testing.T) {
		warned, messages := start(t, realChain("MINTER_KEY", minterKey, "DISTRIBUTOR_KEY", distributorKey)...)
		if !slices.Equal(warned, []string{"MINTER_KEY -> MINTER_SIGNER", "DISTRIBUTOR_KEY -> DISTRIBUTOR_SIGNER"}) {
			t.Fatalf("warnings %q", warned)
		}
		if !strings.Contains(messages, "MINTER_KEY: a raw private key signs the minter's transactions on a real chain") ||
			!strings.Contains(messages, "set MINTER_SIGNER to an external signer (clef) instead") {
			t.Fatalf("messages %q", messages)
		}
		if strings.Contains(messages, minterKey) || strings.Contains(messages, distributorKey) {
			t.Fatal("a warning carries a key")
		}
	})
	t.Run("a raw key for one role", func(t *testing.T) {
		warned, _ := start(t, realChain("DISTRIBUTOR_KEY", distributorKey,
			"MINTER_SIGNER", "http://127.0.0.1:8550#"+dc.Minter.Address.Hex())...)
		if !slices.Equal(warned, []string{"DISTRIBUTOR_KEY -> DISTRIBUTOR_SIGNER"}) {
			t.Fatalf("warnings %q", warned)
		}
	})
	t.Run("external signers", func(t *testing.T) {
		warned, _ := start(t, realChain("MINTER_SIGNER", "http://127.0.0.1:8550#"+dc.Minter.Address.Hex(),
			"DISTRIBUTOR_SIGNER", "http://127.0.0.1:8550#"+dc.Distributor.Address.Hex())...)
		if len(warned) != 0 {
			t.Fatalf("warnings %q", warned)
		}
	})
	t.Run("dev mode", func(t *testing.T) {
		if warned, _ := start(t); len(warned) != 0 {
			t.Fatalf("warnings %q", warned)
		}
	})
}

// TestTreasuryAtStart: TREASURY_ADDRESS must be a Safe on the chain: an account or another
// contract refuses the start with one line naming the setting; the dev chain's Safe starts, and
// the start logs its settings in the settings log once (a second start with the same adds none).
func TestTreasuryAtStart(t *testing.T) {
	dc, err := devchain.Start(t.Context(), devchain.Options{RPCAddr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dc.Close() })
	start := func(treasury string, dbURL ...string) error {
		url := storetest.EmptyDatabase(t)
		if len(dbURL) > 0 {
			url = dbURL[0]
		}
		cfg, err := loadConfig(env("DATABASE_URL", url, "ETH_RPC_URL", dc.RPCURL(),
			"CHAIN_ID", dc.ChainID().String(), "FACTORY_ADDRESS", dc.Factory.Hex(), "PUBLIC_URL", "https://nodes.example.com",
			"SESSION_SECRET", strings.Repeat("s", 32), "TREASURY_ADDRESS", treasury, "REFUND_POLICY", "within 2 working days"))
		if err != nil {
			t.Fatal(err)
		}
		a, err := newApp(t.Context(), cfg, slog.New(slog.DiscardHandler))
		if err == nil {
			a.Close()
		}
		return err
	}
	for name, addr := range map[string]string{"an account": dc.Payments.Hex(), "the factory": dc.Factory.Hex()} {
		err := start(addr)
		if err == nil || err.Error() != "TREASURY_ADDRESS: "+addr+" is not a Safe 1.4.1 on this chain" {
			t.Errorf("%s as the treasury: %v", name, err)
		}
	}
	url := storetest.EmptyDatabase(t)
	for range 2 {
		if err := start(dc.Treasury.Hex(), url); err != nil {
			t.Fatalf("the dev Safe: %v", err)
		}
	}
	db, err := storetest.Open(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	entries, err := db.SettingsLog(t.Context(), 0, 10)
	if err != nil || len(entries) != 1 || entries[0].Kind != store.LogDeployment {
		t.Fatalf("the settings log after two starts: %+v (%v)", entries, err)
	}
	var d store.Deployment
	if err := json.Unmarshal(entries[0].Body, &d); err != nil {
		t.Fatal(err)
	}
	if d.ChainID != dc.ChainID().Int64() || d.Factory != strings.ToLower(dc.Factory.Hex()) || d.Treasury == nil ||
		*d.Treasury != strings.ToLower(dc.Treasury.Hex()) || d.PaymentsWallet == "" || d.Confirmations == 0 {
		t.Fatalf("the deployment logged: %+v", d)
	}
}

// TestDevModeRefusesAnEarlierLedger: dev mode's chain starts anew at each start, so dev mode
// with DATABASE_URL starts on an empty ledger and refuses one an earlier start left.
func TestDevModeRefusesAnEarlierLedger(t *testing.T) {
	url := storetest.EmptyDatabase(t)
	start := func() error {
		cfg, err := loadConfig(env("DATABASE_URL", url, "DEV_RPC_ADDR", "127.0.0.1:0"))
		if err != nil {
			t.Fatal(err)
		}
		a, err := newApp(t.Context(), cfg, slog.New(slog.DiscardHandler))
		if err == nil {
			a.Close()
		}
		return err
	}
	if err := start(); err != nil {
		t.Fatalf("dev mode on an empty database: %v", err)
	}
	// The first start put the dev tiers on sale: the ledger is no longer empty.
	if err := start(); err == nil || !strings.Contains(err.Error(), "holds the ledger of an earlier dev chain") {
		t.Fatalf("dev mode on an earlier start's ledger: %v", err)
	}
}
