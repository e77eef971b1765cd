package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"nodeledger/store"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

const factory = "0x5fbdb2315678afecb367f032d93f642f64180aa3"

// withChain is kv after the settings of a real chain, so that a case tests its own setting and
// not dev mode's refusal of chain settings.
func withChain(kv ...string) []string {
	return append([]string{"ETH_RPC_URL", "http://rpc", "CHAIN_ID", "8453", "FACTORY_ADDRESS", factory,
		"PUBLIC_URL", "https://nodes.example.com", "SESSION_SECRET", strings.Repeat("s", 32), "REFUND_POLICY", "within 2 working days"}, kv...)
}

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
			cfg.Passes.BumpBlocks != 3 || cfg.Passes.MaxFeeWei != nil || cfg.Passes.PriceGrace != 10*time.Minute ||
			cfg.Handlers.RefundPolicy != devRefundPolicy || cfg.Handlers.SupportURL != "" || cfg.DBMaxConns != store.DefaultMaxConns ||
			cfg.Handlers.ExportSlots != store.DefaultMaxConns/4 || cfg.Handlers.ExportStall != 30*time.Second {
			t.Fatalf("got %+v", cfg)
		}
	})
	t.Run("exports: a quarter of the connections unless set, and below them", func(t *testing.T) {
		for _, tc := range []struct {
			env   []string
			slots int
			stall time.Duration
		}{
			{[]string{"DB_MAX_CONNS", "25"}, 6, 30 * time.Second},
			{[]string{"DB_MAX_CONNS", "2"}, 1, 30 * time.Second},
			{[]string{"DB_MAX_CONNS", "8", "EXPORT_MAX_CONCURRENT", "7", "EXPORT_STALL_SEC", "5"}, 7, 5 * time.Second},
		} {
			cfg, err := loadConfig(env(tc.env...))
			if err != nil || cfg.Handlers.ExportSlots != tc.slots || cfg.Handlers.ExportStall != tc.stall {
				t.Fatalf("%v: %d exports, stall %v, %v; want %d, %v", tc.env, cfg.Handlers.ExportSlots, cfg.Handlers.ExportStall, err, tc.slots, tc.stall)
			}
		}
	})
	t.Run("values", func(t *testing.T) {
		cfg, err := loadConfig(env("ETH_RPC_URL", "http://rpc", "CHAIN_ID", "8453", "FACTORY_ADDRESS", factory,
			"PUBLIC_URL", "https://nodes.example.com/", "SESSION_SECRET", strings.Repeat("s", 32),
			"MINTER_KEY", "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80", "DIST_MODE", "pool",
			"PAYMENT_ADDRESS", "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc", "TRUSTED_PROXIES", "10.0.0.0/8, 192.0.2.1",
			"TX_BUMP_BLOCKS", "5", "MINT_BATCH", "20", "MAX_FEE_GWEI", "150.000000001", "PRICE_GRACE_SEC", "0",
			"REFUND_POLICY", "within 2 working days", "SUPPORT_URL", "mailto:help@example.com", "DB_MAX_CONNS", "25"))
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Handlers.ChainID != 8453 || cfg.Passes.ChainID.Int64() != 8453 ||
			cfg.Handlers.PaymentAddress != "0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc" ||
			cfg.Passes.PaymentAddress.Hex() != "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc" ||
			len(cfg.Web.TrustedProxies) != 2 || cfg.Web.TrustedProxies[1].String() != "192.0.2.1/32" || !cfg.Web.HTTPS ||
			cfg.Chain.Factory.Hex() != "0x5FbDB2315678afecb367f032d93F642f64180aa3" || cfg.Passes.DistMode != "pool" ||
			cfg.Handlers.DistMode != "pool" || cfg.Passes.DistEnabled || cfg.MinterKey == nil || cfg.Tick != time.Minute ||
			cfg.Handlers.StaleAfterSec != 300 || cfg.Passes.Confirmations != 12 || cfg.Passes.BumpBlocks != 5 || cfg.Passes.MintBatch != 20 ||
			cfg.Passes.MaxFeeWei.String() != "150000000001" || cfg.Passes.PriceGrace != 0 ||
			cfg.Handlers.RefundPolicy != "within 2 working days" || cfg.Handlers.SupportURL != "mailto:help@example.com" ||
			cfg.Handlers.PublicURL.String() != "https://nodes.example.com" || len(cfg.Handlers.SessionSecret) != 32 ||
			cfg.DBMaxConns != 25 {
			t.Fatalf("got %+v", cfg)
		}
	})
	t.Run("scan every block", func(t *testing.T) {
		for v, want := range map[string]bool{"": false, "false": false, "true": true} {
			cfg, err := loadConfig(env("SCAN_EVERY_BLOCK", v))
			if err != nil || cfg.Passes.ScanEveryBlock != want {
				t.Fatalf("SCAN_EVERY_BLOCK=%q: %v, %v; want %v", v, cfg.Passes.ScanEveryBlock, err, want)
			}
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
		{"factory zero", withChain("FACTORY_ADDRESS", "0x0000000000000000000000000000000000000000"), "FACTORY_ADDRESS"},
		{"price feed malformed", []string{"PRICE_FEED_ADDRESS", "feed"}, "PRICE_FEED_ADDRESS"},
		{"minter key malformed", withChain("MINTER_KEY", "0x1234"), "MINTER_KEY"},
		{"tick not a number", []string{"TICK_SEC", "soon"}, "TICK_SEC"},
		{"stale after zero", []string{"STALE_AFTER_SEC", "0"}, "STALE_AFTER_SEC"},
		{"minter low mints zero", []string{"MINTER_LOW_MINTS", "0"}, "MINTER_LOW_MINTS"},
		{"no database connections", []string{"DB_MAX_CONNS", "0"}, "DB_MAX_CONNS"},
		{"exports as many as the connections", []string{"DB_MAX_CONNS", "8", "EXPORT_MAX_CONCURRENT", "8"}, "EXPORT_MAX_CONCURRENT"},
		{"no exports", []string{"EXPORT_MAX_CONCURRENT", "0"}, "EXPORT_MAX_CONCURRENT"},
		{"export stall zero", []string{"EXPORT_STALL_SEC", "0"}, "EXPORT_STALL_SEC"},
		{"dist enabled not a boolean", []string{"DIST_ENABLED", "yes"}, "DIST_ENABLED"},
		{"bench mode not a boolean", []string{"BENCH_MODE", "on"}, "BENCH_MODE"},
		{"scan every block not a boolean", []string{"SCAN_EVERY_BLOCK", "always"}, "SCAN_EVERY_BLOCK"},
		{"dist mode unknown", []string{"DIST_MODE", "lottery"}, "DIST_MODE"},
		{"chain id not a number", withChain("CHAIN_ID", "main"), "CHAIN_ID"},
		{"payment address malformed", withChain("PAYMENT_ADDRESS", "0x12"), "PAYMENT_ADDRESS"},
		{"payment address zero", withChain("PAYMENT_ADDRESS", "0x0000000000000000000000000000000000000000"), "PAYMENT_ADDRESS"},
		{"price grace negative", []string{"PRICE_GRACE_SEC", "-1"}, "PRICE_GRACE_SEC"},
		{"price grace over a day", []string{"PRICE_GRACE_SEC", "86401"}, "PRICE_GRACE_SEC"},
		{"price grace past a duration", []string{"PRICE_GRACE_SEC", "9300000000000"}, "PRICE_GRACE_SEC"},
		{"support neither a page nor mail", []string{"SUPPORT_URL", "help@example.com"}, "SUPPORT_URL"},
		{"support mail without an address", []string{"SUPPORT_URL", "mailto:"}, "SUPPORT_URL"},
		{"bump blocks zero", []string{"TX_BUMP_BLOCKS", "0"}, "TX_BUMP_BLOCKS"},
		{"max fee below a wei", []string{"MAX_FEE_GWEI", "0.0000000001"}, "MAX_FEE_GWEI"},
		{"max fee negative", []string{"MAX_FEE_GWEI", "-3"}, "MAX_FEE_GWEI"},
		{"max fee not a number", []string{"MAX_FEE_GWEI", "lots"}, "MAX_FEE_GWEI"},
		{"max fee in hex", []string{"MAX_FEE_GWEI", "0x10"}, "MAX_FEE_GWEI"},
		{"max fee with a binary exponent", []string{"MAX_FEE_GWEI", "1p3"}, "MAX_FEE_GWEI"},
		{"one key for minter and distributor", withChain("MINTER_KEY", "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
			"DISTRIBUTOR_KEY", "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"), "DISTRIBUTOR_KEY"},
		{"proxy not an address", []string{"TRUSTED_PROXIES", "10.0.0.0/8,proxy.local"}, "TRUSTED_PROXIES"},
		{"admin key short", []string{"ADMIN_KEY", strings.Repeat("a", 31)}, "ADMIN_KEY"},
		{"cron key short", []string{"CRON_KEY", "1234"}, "CRON_KEY"},
		{"cron key is the admin key", []string{"ADMIN_KEY", strings.Repeat("k", 32), "CRON_KEY", strings.Repeat("k", 32)}, "CRON_KEY"},
		{"admin key is the session secret", []string{"ADMIN_KEY", strings.Repeat("s", 40), "SESSION_SECRET", strings.Repeat("s", 40)}, "ADMIN_KEY"},
		{"cron key is the session secret", []string{"CRON_KEY", strings.Repeat("s", 40), "SESSION_SECRET", strings.Repeat("s", 40)}, "CRON_KEY"},
		{"metrics on every interface", []string{"METRICS_ADDR", ":9090"}, "METRICS_ADDR"},
		{"metrics on a public address", []string{"METRICS_ADDR", "203.0.113.9:9090"}, "METRICS_ADDR"},
		{"metrics on a host name", []string{"METRICS_ADDR", "metrics.example.com:9090"}, "METRICS_ADDR"},
		{"metrics public not a boolean", []string{"METRICS_ADDR", "10.0.0.5:9090", "METRICS_PUBLIC", "yes"}, "METRICS_PUBLIC"},
		{"dev mode with a chain id", []string{"CHAIN_ID", "8453"}, "CHAIN_ID"},
		{"dev mode with a factory", []string{"FACTORY_ADDRESS", factory}, "FACTORY_ADDRESS"},
		{"dev mode with a payments wallet", []string{"PAYMENT_ADDRESS", factory}, "PAYMENT_ADDRESS"},
		{"dev mode with a payments key", []string{"PAYMENTS_KEY", "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"}, "PAYMENTS_KEY"},
		{"dev mode with a minter key", []string{"MINTER_KEY", "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"}, "MINTER_KEY"},
		{"dev mode with a distributor key", []string{"DISTRIBUTOR_KEY", "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"}, "DISTRIBUTOR_KEY"},
		{"dev mode with a minter signer", []string{"MINTER_SIGNER", "http://127.0.0.1:8550"}, "MINTER_SIGNER"},
		{"dev mode with a distributor signer", []string{"DISTRIBUTOR_SIGNER", "http://127.0.0.1:8550"}, "DISTRIBUTOR_SIGNER"},
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

func TestStartChecksAllow(t *testing.T) {
	for name, kv := range map[string][]string{
		"dev mode with its database, keys and secret": {"DATABASE_URL", "postgres://db/x", "ADMIN_KEY", strings.Repeat("a", 32),
			"CRON_KEY", strings.Repeat("c", 32), "SESSION_SECRET", strings.Repeat("s", 32), "PRICE_FEED_ADDRESS", factory},
		"metrics on loopback":          {"METRICS_ADDR", "127.0.0.1:9090"},
		"metrics on IPv6 loopback":     {"METRICS_ADDR", "[::1]:9090"},
		"metrics on localhost":         {"METRICS_ADDR", "localhost:9090"},
		"metrics on a private address": {"METRICS_ADDR", "10.1.2.3:9090"},
		"metrics public when said so":  {"METRICS_ADDR", ":9090", "METRICS_PUBLIC", "true"},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := loadConfig(env(kv...)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestDotenvPermissions(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".env")
	os.WriteFile(path, []byte("LISTEN_ADDR=127.0.0.1:9999\nADMIN_KEY="+strings.Repeat("a", 32)+"\n"), 0o600)
	if err := os.Chmod(path, 0o644); err != nil { // whatever the umask made of it
		t.Fatal(err)
	}
	_, err := withDotenv(path, env())
	if err == nil || !strings.Contains(err.Error(), "chmod 600") || !strings.Contains(err.Error(), "ADMIN_KEY") ||
		strings.Contains(err.Error(), "aaaa") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("a key in a .env others can read: %v, want one line saying chmod 600", err)
	}
	os.Chmod(path, 0o600)
	if _, err := withDotenv(path, env()); err != nil {
		t.Fatalf("mode 600: %v", err)
	}
	os.WriteFile(path, []byte("LISTEN_ADDR=127.0.0.1:9999\n"), 0o600)
	os.Chmod(path, 0o644)
	if _, err := withDotenv(path, env()); err != nil {
		t.Fatalf("a .env with no secret may be readable: %v", err)
	}
}

func TestDotenv(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".env")
	os.WriteFile(path, []byte("# settings\nCHAIN_ID=10\nexport LISTEN_ADDR=\"127.0.0.1:9999\"\n\nPAYMENT_ADDRESS='0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc'\n"), 0o600)
	// A real chain's settings: dev mode refuses CHAIN_ID and PAYMENT_ADDRESS.
	getenv, err := withDotenv(path, env("CHAIN_ID", "20", "ETH_RPC_URL", "http://rpc", "FACTORY_ADDRESS", factory,
		"PUBLIC_URL", "https://nodes.example.com", "SESSION_SECRET", strings.Repeat("s", 32), "REFUND_POLICY", "within 2 working days"))
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
	const account0, account1 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
	t.Run("the payments wallet's signer and the sweeps", func(t *testing.T) {
		cfg, err := loadConfig(env(withChain("PAYMENT_ADDRESS", account0, "PAYMENTS_SIGNER", "http://127.0.0.1:8550#"+account0,
			"TREASURY_ADDRESS", account1, "SWEEP_KEEP_WEI", "5")...))
		if err != nil {
			t.Fatal(err)
		}
		sw := cfg.Passes.Sweep
		if cfg.PaymentsSigner.Account.Hex() != account0 || cfg.Passes.Treasury.Hex() != account1 || cfg.Handlers.Treasury.Hex() != account1 ||
			sw.KeepWei.Int64() != 5 || sw.MinWei.String() != "1000000000000000000" || sw.EveryBlocks != 300 {
			t.Fatalf("payments signer %+v, treasury %s, sweeps %+v", cfg.PaymentsSigner, cfg.Passes.Treasury, sw)
		}
		dev, err := loadConfig(env())
		if err != nil || dev.Passes.Sweep.KeepWei.String() != "100000000000000000000" {
			t.Fatalf("dev mode keeps %v (%v), want 100 ETH", dev.Passes.Sweep.KeepWei, err)
		}
	})
	t.Run("a signer and its account", func(t *testing.T) {
		cfg, err := loadConfig(env(withChain("MINTER_SIGNER", "http://127.0.0.1:8550#"+account0, "DISTRIBUTOR_SIGNER", "/run/clef/clef.ipc#0x70997970C51812dc3A010C7d01b50e0d17dc79C8")...))
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
		{"the payments key signs for another wallet", []string{"PAYMENT_ADDRESS", account1, "PAYMENTS_KEY", key0}, "PAYMENTS_KEY"},
		{"a payments signer without a payments wallet", []string{"PAYMENTS_SIGNER", "http://127.0.0.1:8550#" + account0}, "PAYMENTS_SIGNER"},
		{"the minter's key signs for the payments wallet", []string{"MINTER_KEY", key0, "PAYMENT_ADDRESS", account0,
			"PAYMENTS_SIGNER", "http://127.0.0.1:8550#" + account0}, "PAYMENTS_SIGNER"},
		{"a sweep minimum that is no amount", []string{"SWEEP_MIN_WEI", "1e18"}, "SWEEP_MIN_WEI"},
		{"sweeps every 0 blocks", []string{"SWEEP_EVERY_BLOCKS", "0"}, "SWEEP_EVERY_BLOCKS"},
		{"no refund policy on a real chain", []string{"REFUND_POLICY", ""}, "REFUND_POLICY"},
		{"a wallet code's discount that is no number", []string{"REFERRAL_DISCOUNT_BPS", "5 %"}, "REFERRAL_DISCOUNT_BPS"},
		{"wallet codes that take over half the price", []string{"REFERRAL_DISCOUNT_BPS", "3000", "REFERRAL_COMMISSION_BPS", "2001"}, "REFERRAL_COMMISSION_BPS"},
		{"a wallet code's commission past any sum", []string{"REFERRAL_DISCOUNT_BPS", "1", "REFERRAL_COMMISSION_BPS", "18446744073709551615"}, "REFERRAL_COMMISSION_BPS"},
		{"blocked countries without a database to tell them by", []string{"BLOCKED_COUNTRIES", "US"}, "GEOIP_DB"},
		{"a blocked country that is no code", []string{"BLOCKED_COUNTRIES", "US,USA", "GEOIP_DB", "/x.mmdb"}, "BLOCKED_COUNTRIES"},
		{"an identity provider nobody reads", []string{"KYC_PROVIDER", "onfido"}, "KYC_PROVIDER"},
		{"an identity provider without its secret", []string{"KYC_PROVIDER", "sumsub", "KYC_FORM_URL", "https://kyc.example/form"}, "KYC_WEBHOOK_SECRET"},
		{"an identity provider without its form", []string{"KYC_PROVIDER", "blockpass", "KYC_WEBHOOK_SECRET", "0123456789abcdef0123"}, "KYC_FORM_URL"},
		{"a hold of no days", []string{"KYC_HOLD_DAYS", "0"}, "KYC_HOLD_DAYS"},
		{"a sanctions oracle that is no address", []string{"SANCTIONS_ORACLE", "chainalysis"}, "SANCTIONS_ORACLE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := loadConfig(env(withChain(tc.env...)...))
			if err == nil {
				t.Fatal("accepted")
			}
			if msg := err.Error(); !strings.HasPrefix(msg, tc.setting+": ") || strings.Contains(msg, "secret") || strings.Contains(msg, "ac0974") {
				t.Fatalf("error %q: want one line naming %s, without the value", msg, tc.setting)
			}
		})
	}
}

// TestReferralSettings: wallet codes give and earn nothing until the operator opts in.
func TestReferralSettings(t *testing.T) {
	cfg, err := loadConfig(env(withChain()...))
	if err != nil || cfg.Passes.WalletCodes.DiscountBps != 0 || cfg.Passes.WalletCodes.CommissionBps != 0 {
		t.Fatalf("defaults: %d, %d, %v", cfg.Passes.WalletCodes.DiscountBps, cfg.Passes.WalletCodes.CommissionBps, err)
	}
	cfg, err = loadConfig(env(withChain("REFERRAL_DISCOUNT_BPS", "500", "REFERRAL_COMMISSION_BPS", "4500")...))
	if err != nil || cfg.Passes.WalletCodes.DiscountBps != 500 || cfg.Passes.WalletCodes.CommissionBps != 4500 {
		t.Fatalf("set: %d, %d, %v", cfg.Passes.WalletCodes.DiscountBps, cfg.Passes.WalletCodes.CommissionBps, err)
	}
}
