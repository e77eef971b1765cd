package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

const factory = "0x5fbdb2315678afecb367f032d93f642f64180aa3"

func TestLoadConfig(t *testing.T) {
	t.Run("dev defaults", func(t *testing.T) {
		cfg, err := loadConfig(env())
		if err != nil {
			t.Fatal(err)
		}
		if cfg.ListenAddr != "127.0.0.1:8080" || cfg.Handlers.ChainID != 1337 || cfg.Passes.ChainID.Int64() != 1337 ||
			cfg.Handlers.PaymentAddress != "" || cfg.DatabaseURL != "" || !cfg.devMode() || !cfg.Passes.DistEnabled ||
			!cfg.Handlers.DistEnabled || cfg.Passes.DistMode != "fixed" || cfg.DevRPCAddr != "127.0.0.1:8545" ||
			cfg.Tick != 10*time.Second || cfg.Handlers.TickSec != 10 || cfg.Passes.Confirmations != 1 ||
			cfg.Passes.BumpBlocks != 3 || cfg.Passes.MaxFeeWei != nil {
			t.Fatalf("got %+v", cfg)
		}
	})
	t.Run("values", func(t *testing.T) {
		cfg, err := loadConfig(env("ETH_RPC_URL", "http://rpc", "CHAIN_ID", "8453", "FACTORY_ADDRESS", factory,
			"PUBLIC_URL", "https://nodes.example.com/", "SESSION_SECRET", strings.Repeat("s", 32),
			"MINTER_KEY", "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80", "DIST_MODE", "pool",
			"PAYMENT_ADDRESS", "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc", "TRUSTED_PROXIES", "10.0.0.0/8, 192.0.2.1",
			"TX_BUMP_BLOCKS", "5", "MAX_FEE_GWEI", "150.000000001"))
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Handlers.ChainID != 8453 || cfg.Passes.ChainID.Int64() != 8453 ||
			cfg.Handlers.PaymentAddress != "0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc" ||
			cfg.Passes.PaymentAddress.Hex() != "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc" ||
			len(cfg.Web.TrustedProxies) != 2 || cfg.Web.TrustedProxies[1].String() != "192.0.2.1/32" || !cfg.Web.HTTPS ||
			cfg.Chain.Factory.Hex() != "0x5FbDB2315678afecb367f032d93F642f64180aa3" || cfg.Passes.DistMode != "pool" ||
			cfg.Handlers.DistMode != "pool" || cfg.Passes.DistEnabled || cfg.MinterKey == nil || cfg.Tick != time.Minute ||
			cfg.Handlers.StaleAfterSec != 300 || cfg.Passes.Confirmations != 12 || cfg.Passes.BumpBlocks != 5 ||
			cfg.Passes.MaxFeeWei.String() != "150000000001" ||
			cfg.Handlers.PublicURL.String() != "https://nodes.example.com" || len(cfg.Handlers.SessionSecret) != 32 {
			t.Fatalf("got %+v", cfg)
		}
	})
	for _, tc := range []struct {
		name    string
		env     []string
		setting string
	}{
		{"chain id required with an RPC", []string{"ETH_RPC_URL", "http://rpc", "FACTORY_ADDRESS", factory,
			"PUBLIC_URL", "https://x.io", "SESSION_SECRET", strings.Repeat("s", 32)}, "CHAIN_ID"},
		{"public URL required with an RPC", []string{"ETH_RPC_URL", "http://rpc", "FACTORY_ADDRESS", factory}, "PUBLIC_URL"},
		{"session secret required with an RPC", []string{"ETH_RPC_URL", "http://rpc", "FACTORY_ADDRESS", factory, "PUBLIC_URL", "https://x.io"}, "SESSION_SECRET"},
		{"session secret too short", []string{"SESSION_SECRET", "short"}, "SESSION_SECRET"},
		{"public URL not an origin", []string{"PUBLIC_URL", "ftp://x.io/app"}, "PUBLIC_URL"},
		{"factory required with an RPC", []string{"ETH_RPC_URL", "http://rpc", "CHAIN_ID", "1"}, "FACTORY_ADDRESS"},
		{"factory zero", []string{"FACTORY_ADDRESS", "0x0000000000000000000000000000000000000000"}, "FACTORY_ADDRESS"},
		{"price feed malformed", []string{"PRICE_FEED_ADDRESS", "feed"}, "PRICE_FEED_ADDRESS"},
		{"minter key malformed", []string{"MINTER_KEY", "0x1234"}, "MINTER_KEY"},
		{"tick not a number", []string{"TICK_SEC", "soon"}, "TICK_SEC"},
		{"stale after zero", []string{"STALE_AFTER_SEC", "0"}, "STALE_AFTER_SEC"},
		{"dist enabled not a boolean", []string{"DIST_ENABLED", "yes"}, "DIST_ENABLED"},
		{"bench mode not a boolean", []string{"BENCH_MODE", "on"}, "BENCH_MODE"},
		{"dist mode unknown", []string{"DIST_MODE", "lottery"}, "DIST_MODE"},
		{"chain id not a number", []string{"CHAIN_ID", "main"}, "CHAIN_ID"},
		{"payment address malformed", []string{"PAYMENT_ADDRESS", "0x12"}, "PAYMENT_ADDRESS"},
		{"payment address zero", []string{"PAYMENT_ADDRESS", "0x0000000000000000000000000000000000000000"}, "PAYMENT_ADDRESS"},
		{"bump blocks zero", []string{"TX_BUMP_BLOCKS", "0"}, "TX_BUMP_BLOCKS"},
		{"max fee below a wei", []string{"MAX_FEE_GWEI", "0.0000000001"}, "MAX_FEE_GWEI"},
		{"max fee negative", []string{"MAX_FEE_GWEI", "-3"}, "MAX_FEE_GWEI"},
		{"max fee not a number", []string{"MAX_FEE_GWEI", "lots"}, "MAX_FEE_GWEI"},
		{"max fee in hex", []string{"MAX_FEE_GWEI", "0x10"}, "MAX_FEE_GWEI"},
		{"max fee with a binary exponent", []string{"MAX_FEE_GWEI", "1p3"}, "MAX_FEE_GWEI"},
		{"one key for minter and distributor", []string{"MINTER_KEY", "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
			"DISTRIBUTOR_KEY", "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"}, "DISTRIBUTOR_KEY"},
		{"proxy not an address", []string{"TRUSTED_PROXIES", "10.0.0.0/8,proxy.local"}, "TRUSTED_PROXIES"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := loadConfig(env(tc.env...))
			if err == nil {
				t.Fatal("accepted")
			}
			if msg := err.Error(); !strings.HasPrefix(msg, tc.setting+": ") || strings.Contains(msg, "\n") || strings.Contains(msg, "1234") {
				t.Fatalf("error %q: want one line naming %s", msg, tc.setting)
			}
		})
	}
}

func TestDotenv(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".env")
	os.WriteFile(path, []byte("# settings\nCHAIN_ID=10\nexport LISTEN_ADDR=\"127.0.0.1:9999\"\n\nPAYMENT_ADDRESS='0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc'\n"), 0o600)
	getenv, err := withDotenv(path, env("CHAIN_ID", "20"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := loadConfig(getenv)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Handlers.ChainID != 20 || cfg.ListenAddr != "127.0.0.1:9999" || cfg.Handlers.PaymentAddress != "0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc" {
		t.Fatalf("got %+v: the environment wins, the file fills in", cfg)
	}
	os.WriteFile(path, []byte("NOT A SETTING\n"), 0o600)
	if _, err := withDotenv(path, env()); err == nil || !strings.Contains(err.Error(), ":1:") {
		t.Fatalf("malformed line: %v", err)
	}
	if _, err := withDotenv(filepath.Join(t.TempDir(), "none"), env()); err != nil {
		t.Fatalf("a missing file is no error: %v", err)
	}
}

func TestRunUnknownCommand(t *testing.T) {
	err := run(t.Context(), []string{"fly"}, env(), os.Stdout, os.Stderr)
	if err == nil || !strings.Contains(err.Error(), "unknown command") {
		t.Fatalf("got %v", err)
	}
}

func TestSeedAndDeployRefuseBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"deploy", "-max-per-wallet", "4294967296"},
		{"seed", "--nodes", "10", "--owners", "20"},
		{"seed", "--rounds", "0"},
	} {
		err := run(t.Context(), args, env(), os.Stdout, os.Stderr) // no DATABASE_URL: refused before connecting
		if err == nil || !strings.Contains(err.Error(), strings.TrimLeft(args[1], "-")) {
			t.Errorf("%v: %v, want an error naming %s", args, err, args[1])
		}
	}
}

func TestDeployReadsSettingsAsServeDoes(t *testing.T) {
	for _, tc := range []struct {
		env     []string
		setting string
	}{
		{[]string{"ETH_RPC_URL", "http://rpc", "CHAIN_ID", "main"}, "CHAIN_ID"},
		{[]string{"ETH_RPC_URL", "http://rpc"}, "CHAIN_ID"},
		{[]string{"ETH_RPC_URL", "http://rpc", "CHAIN_ID", "1", "DEPLOYER_KEY", "0x1234"}, "DEPLOYER_KEY"},
		{[]string{"ETH_RPC_URL", "http://rpc", "CHAIN_ID", "1"}, "DEPLOYER_KEY"},
	} {
		err := run(t.Context(), []string{"deploy"}, env(tc.env...), os.Stdout, os.Stderr)
		if err == nil || !strings.HasPrefix(err.Error(), tc.setting+": ") || strings.Contains(err.Error(), "1234") {
			t.Errorf("%v: %v, want one line naming %s", tc.env, err, tc.setting)
		}
	}
}

func TestSignerSettings(t *testing.T) {
	const key0 = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80" // account 0xf39f…2266
	const account0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
	t.Run("a signer and its account", func(t *testing.T) {
		cfg, err := loadConfig(env("MINTER_SIGNER", "http://127.0.0.1:8550#"+account0, "DISTRIBUTOR_SIGNER", "/run/clef/clef.ipc#0x70997970C51812dc3A010C7d01b50e0d17dc79C8"))
		if err != nil {
			t.Fatal(err)
		}
		if cfg.MinterKey != nil || cfg.MinterSigner.Endpoint != "http://127.0.0.1:8550" || cfg.MinterSigner.Account.Hex() != account0 ||
			cfg.DistributorSigner.Endpoint != "/run/clef/clef.ipc" {
			t.Fatalf("minter %+v, distributor %+v", cfg.MinterSigner, cfg.DistributorSigner)
		}
	})
	for _, tc := range []struct {
		name    string
		env     []string
		setting string
	}{
		{"a key and a signer for one role", []string{"MINTER_KEY", key0, "MINTER_SIGNER", "http://127.0.0.1:8550#" + account0}, "MINTER_SIGNER"},
		{"a signer without its account", []string{"MINTER_SIGNER", "http://user:secret@127.0.0.1:8550"}, "MINTER_SIGNER"},
		{"a signer that is no URL", []string{"DISTRIBUTOR_SIGNER", "ftp://secret@signer#" + account0}, "DISTRIBUTOR_SIGNER"},
		{"the minter's key signs for the distributor's signer", []string{"MINTER_KEY", key0, "DISTRIBUTOR_SIGNER", "http://127.0.0.1:8550#" + account0}, "DISTRIBUTOR_SIGNER"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := loadConfig(env(tc.env...))
			if err == nil {
				t.Fatal("accepted")
			}
			if msg := err.Error(); !strings.HasPrefix(msg, tc.setting+": ") || strings.Contains(msg, "secret") || strings.Contains(msg, "ac0974") {
				t.Fatalf("error %q: want one line naming %s, without the value", msg, tc.setting)
			}
		})
	}
}
