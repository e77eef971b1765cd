package main

import (
	"bufio"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"net/netip"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// config is the deployment's settings, read once from the environment (and .env) at start.
type config struct {
	ListenAddr     string
	MetricsAddr    string // empty: no /metrics; else a private address for Prometheus and pprof
	DatabaseURL    string // empty: a private dev cluster under .data/
	EthRPCURL      string // empty: dev mode, with the embedded dev chain
	DevRPCAddr     string // where dev mode serves the dev chain's JSON-RPC
	ChainID        int64
	FactoryAddress common.Address
	PriceFeed      common.Address // zero: no ETH/USD quote
	PaymentAddress string         // lower case; empty switches /api/deploy-quote off (503)
	MinterKey      *ecdsa.PrivateKey
	DistributorKey *ecdsa.PrivateKey
	TrustedProxies []netip.Prefix
	TickSec        int
	StaleAfterSec  int
	DistEnabled    bool
	DistMode       string   // fixed or pool
	CronKey        string   // empty: /api/cron/payments is 404 and /api/cron/credit 401
	AdminKey       string   // empty: /api/admin/* is 404
	PublicURL      *url.URL // where browsers reach the service: the sign-in message's domain
	SessionSecret  []byte   // signs session cookies; empty in dev mode: a random key per start
	Confirmations  uint64
	ScanFrom       uint64
	DistPeriodSec  int
	DistBaseWei    *big.Int
	DistPoolWei    *big.Int
	Bench          bool // BENCH_MODE: rate limits lifted and GET /bench/hello on, for `make bench` only
}

// devMode is true when no chain is configured: the server runs its own dev chain.
func (c config) devMode() bool { return c.EthRPCURL == "" }

// devChainID is the chain id of the embedded dev chain.
const devChainID = 1337

var addressRe = regexp.MustCompile(`^0x[0-9a-fA-F]{40}$`)

// loadConfig reads the settings; an error names the setting in one line.
func loadConfig(getenv func(string) string) (config, error) {
	cfg := config{
		ListenAddr:  or(getenv("LISTEN_ADDR"), "127.0.0.1:8080"),
		MetricsAddr: getenv("METRICS_ADDR"),
		DatabaseURL: getenv("DATABASE_URL"),
		EthRPCURL:   getenv("ETH_RPC_URL"),
		DevRPCAddr:  or(getenv("DEV_RPC_ADDR"), "127.0.0.1:8545"),
		DistMode:    or(getenv("DIST_MODE"), "fixed"),
	}
	var err error
	if cfg.FactoryAddress, err = parseAddress(getenv, "FACTORY_ADDRESS", !cfg.devMode()); err != nil {
		return config{}, err
	}
	if cfg.PriceFeed, err = parseAddress(getenv, "PRICE_FEED_ADDRESS", false); err != nil {
		return config{}, err
	}
	if cfg.MinterKey, err = parseKey(getenv, "MINTER_KEY"); err != nil {
		return config{}, err
	}
	if cfg.DistributorKey, err = parseKey(getenv, "DISTRIBUTOR_KEY"); err != nil {
		return config{}, err
	}
	// Dev mode ticks and credits often and waits for one confirmation, so that a payment made by
	// hand shows up as a node, and then a credit, within a minute or two.
	tick, period, confirmations := 60, 86400, 12
	if cfg.devMode() {
		tick, period, confirmations = 10, 60, 1
	}
	if cfg.TickSec, err = parsePositive(getenv, "TICK_SEC", tick); err != nil {
		return config{}, err
	}
	if cfg.DistPeriodSec, err = parsePositive(getenv, "DIST_PERIOD_SEC", period); err != nil {
		return config{}, err
	}
	if cfg.Confirmations, err = parseUint(getenv, "CONFIRMATIONS", uint64(confirmations)); err != nil {
		return config{}, err
	}
	if cfg.ScanFrom, err = parseUint(getenv, "SCAN_FROM_BLOCK", 0); err != nil {
		return config{}, err
	}
	if cfg.DistBaseWei, err = parseWei(getenv, "DIST_BASE_WEI", "1000000000000000"); err != nil { // 0.001 ETH
		return config{}, err
	}
	if cfg.DistPoolWei, err = parseWei(getenv, "DIST_POOL_WEI", "100000000000000000"); err != nil { // 0.1 ETH
		return config{}, err
	}
	cfg.CronKey, cfg.AdminKey = getenv("CRON_KEY"), getenv("ADMIN_KEY")
	if cfg.PublicURL, err = parsePublicURL(getenv("PUBLIC_URL"), cfg); err != nil {
		return config{}, err
	}
	switch secret := getenv("SESSION_SECRET"); {
	case len(secret) >= 32:
		cfg.SessionSecret = []byte(secret)
	case secret != "":
		return config{}, errors.New("SESSION_SECRET: must be at least 32 characters")
	case !cfg.devMode():
		return config{}, errors.New("SESSION_SECRET: required when ETH_RPC_URL is set (32 characters or more)")
	}
	if cfg.StaleAfterSec, err = parsePositive(getenv, "STALE_AFTER_SEC", 300); err != nil {
		return config{}, err
	}
	// Payouts are on in dev mode, to show the whole product, and off elsewhere until switched on.
	if cfg.DistEnabled, err = parseBool(getenv, "DIST_ENABLED", cfg.devMode()); err != nil {
		return config{}, err
	}
	if cfg.Bench, err = parseBool(getenv, "BENCH_MODE", false); err != nil {
		return config{}, err
	}
	if cfg.DistMode != "fixed" && cfg.DistMode != "pool" {
		return config{}, fmt.Errorf("DIST_MODE: %q is neither fixed nor pool", cfg.DistMode)
	}

	switch v := getenv("CHAIN_ID"); {
	case v != "":
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id <= 0 {
			return config{}, fmt.Errorf("CHAIN_ID: %q is not a positive whole number", v)
		}
		cfg.ChainID = id
	case !cfg.devMode():
		return config{}, errors.New("CHAIN_ID: required when ETH_RPC_URL is set")
	default:
		cfg.ChainID = devChainID
	}

	payments, err := parseAddress(getenv, "PAYMENT_ADDRESS", false)
	if err != nil {
		return config{}, err
	}
	if payments != (common.Address{}) {
		cfg.PaymentAddress = strings.ToLower(payments.Hex())
	}

	for _, s := range strings.Split(getenv("TRUSTED_PROXIES"), ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		p, err := netip.ParsePrefix(s)
		if err != nil {
			a, aerr := netip.ParseAddr(s)
			if aerr != nil {
				return config{}, fmt.Errorf("TRUSTED_PROXIES: %q is neither an address nor a CIDR range", s)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		cfg.TrustedProxies = append(cfg.TrustedProxies, p)
	}
	return cfg, nil
}

// parseBool reads a true/false (or 1/0) setting; unset is def.
func parseBool(getenv func(string) string, name string, def bool) (bool, error) {
	switch v := getenv(name); v {
	case "":
		return def, nil
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	default:
		return false, fmt.Errorf("%s: %q is neither true nor false", name, v)
	}
}

func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// parseAddress reads the address setting name; unset is the zero address unless required. The
// zero address itself is refused: nothing can be sent to it or read from it.
func parseAddress(getenv func(string) string, name string, required bool) (common.Address, error) {
	v := getenv(name)
	switch {
	case v == "" && required:
		return common.Address{}, fmt.Errorf("%s: required when ETH_RPC_URL is set", name)
	case v == "":
		return common.Address{}, nil
	case !addressRe.MatchString(v):
		return common.Address{}, fmt.Errorf("%s: %q is not an address (0x and 40 hex digits)", name, v)
	case strings.Trim(v[2:], "0") == "":
		return common.Address{}, fmt.Errorf("%s: the zero address is not usable", name)
	}
	return common.HexToAddress(v), nil
}

// parseKey reads a hex private key setting, with or without 0x; unset is nil.
func parseKey(getenv func(string) string, name string) (*ecdsa.PrivateKey, error) {
	v := getenv(name)
	if v == "" {
		return nil, nil
	}
	key, err := crypto.HexToECDSA(strings.TrimPrefix(v, "0x"))
	if err != nil {
		return nil, fmt.Errorf("%s: not a hex secp256k1 private key", name) // the value is secret: not echoed
	}
	return key, nil
}

func parsePositive(getenv func(string) string, name string, def int) (int, error) {
	v := getenv(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s: %q is not a positive whole number", name, v)
	}
	return n, nil
}

// parsePublicURL reads PUBLIC_URL, an http(s) origin; unset, it is the listen address in dev mode
// and required otherwise.
func parsePublicURL(v string, cfg config) (*url.URL, error) {
	if v == "" && !cfg.devMode() {
		return nil, errors.New("PUBLIC_URL: required when ETH_RPC_URL is set (e.g. https://nodes.example.com)")
	}
	if v == "" {
		v = "http://" + cfg.ListenAddr
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
		return nil, fmt.Errorf("PUBLIC_URL: %q is not an http(s) origin", v)
	}
	return &url.URL{Scheme: u.Scheme, Host: u.Host}, nil
}

func parseUint(getenv func(string) string, name string, def uint64) (uint64, error) {
	v := getenv(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not a whole number", name, v)
	}
	return n, nil
}

func parseWei(getenv func(string) string, name, def string) (*big.Int, error) {
	v := or(getenv(name), def)
	n, ok := new(big.Int).SetString(v, 10)
	if !ok || n.Sign() < 0 || strings.ContainsAny(v, "+-") {
		return nil, fmt.Errorf("%s: %q is not a whole number of wei", name, v)
	}
	return n, nil
}

// withDotenv returns a getenv that falls back to the KEY=VALUE lines of the file at path, when it
// exists; the environment wins over the file.
func withDotenv(path string, getenv func(string) string) (func(string) string, error) {
	f, err := os.Open(path) // #nosec G304 -- the operator's own .env, by a path of ours
	if errors.Is(err, os.ErrNotExist) {
		return getenv, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	file := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, value, ok := strings.Cut(strings.TrimPrefix(line, "export "), "=")
		if !ok {
			return nil, fmt.Errorf("%s:%d: expected KEY=VALUE", path, n)
		}
		value = strings.TrimSpace(value)
		if len(value) >= 2 && (value[0] == '"' || value[0] == '\'') && value[len(value)-1] == value[0] {
			value = value[1 : len(value)-1]
		}
		file[strings.TrimSpace(key)] = value
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return func(key string) string {
		if v := getenv(key); v != "" {
			return v
		}
		return file[key]
	}, nil
}
