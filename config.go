package main

import (
	"bufio"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// config is the deployment's settings, read once from the environment (and .env) at start.
type config struct {
	ListenAddr     string
	DatabaseURL    string // empty: a private dev cluster under .data/
	EthRPCURL      string // empty: dev mode
	ChainID        int64
	PaymentAddress string // lower case; empty switches /api/deploy-quote off (503)
	TrustedProxies []netip.Prefix
}

// devChainID is the chain id of the embedded dev chain.
const devChainID = 1337

var addressRe = regexp.MustCompile(`^0x[0-9a-fA-F]{40}$`)

// loadConfig reads the settings; an error names the setting in one line.
func loadConfig(getenv func(string) string) (config, error) {
	cfg := config{
		ListenAddr:  getenv("LISTEN_ADDR"),
		DatabaseURL: getenv("DATABASE_URL"),
		EthRPCURL:   getenv("ETH_RPC_URL"),
	}
	if cfg.ListenAddr == "" {
		cfg.ListenAddr = "127.0.0.1:8080"
	}

	switch v := getenv("CHAIN_ID"); {
	case v != "":
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id <= 0 {
			return config{}, fmt.Errorf("CHAIN_ID: %q is not a positive whole number", v)
		}
		cfg.ChainID = id
	case cfg.EthRPCURL != "":
		return config{}, errors.New("CHAIN_ID: required when ETH_RPC_URL is set")
	default:
		cfg.ChainID = devChainID
	}

	if v := getenv("PAYMENT_ADDRESS"); v != "" {
		if !addressRe.MatchString(v) {
			return config{}, fmt.Errorf("PAYMENT_ADDRESS: %q is not an address (0x and 40 hex digits)", v)
		}
		if strings.Trim(v[2:], "0") == "" {
			return config{}, errors.New("PAYMENT_ADDRESS: the zero address cannot receive payments")
		}
		cfg.PaymentAddress = strings.ToLower(v)
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

// withDotenv returns a getenv that falls back to the KEY=VALUE lines of the file at path, when it
// exists; the environment wins over the file.
func withDotenv(path string, getenv func(string) string) (func(string) string, error) {
	f, err := os.Open(path)
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
