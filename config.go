package main

import (
	"bufio"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/netip"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"nodeledger/chain"
	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/jobs/sale"
	"nodeledger/store"
	"nodeledger/web"
)

// config is the deployment's settings, read once from the environment (and .env) at start, each
// straight into the configuration of the part that uses it.
type config struct {
	// GeoIPDB is the MaxMind-format database BlockedCountries are told by (GEOIP_DB); "": none.
	GeoIPDB          string
	BlockedCountries []string
	ListenAddr       string
	MetricsAddr      string // empty: no /metrics; else a private address for Prometheus and pprof
	DatabaseURL      string // empty: a private dev cluster under .data/
	// DatabaseReadURL names the ledger's standbys the public read routes read from while they keep
	// within ReadMaxLag of the primary (store.Reads); empty: they read the primary.
	DatabaseReadURL string
	ReadMaxLag      time.Duration
	DBMaxConns      int // connections to the database at most
	// VerifyLedger runs the continuous verifier (VERIFY_LEDGER, on unless false): the ledger is
	// rebuilt behind the passes into the schema nodeledger_verifier of its database and compared.
	VerifyLedger bool
	EthRPCURL    string // one endpoint or several, comma-separated; empty: dev mode, with the embedded dev chain
	DevRPCAddr   string // where dev mode serves the dev chain's JSON-RPC
	Tick         time.Duration

	Operators []store.Operator // OPERATORS: the wallets the operator list holds at start
	// PaymentTokens are the ERC-20 contracts the sale accepts beside ETH (PAYMENT_TOKENS); their
	// symbols and decimals are read from the chain at start (listTokens).
	PaymentTokens []common.Address

	// Each role signs with a key in the environment (MINTER_KEY) or through an external signer
	// (MINTER_SIGNER), never both; with neither, payments are recorded, not minted (minter) and
	// no credit rounds run (distributor).
	MinterKey, DistributorKey       *ecdsa.PrivateKey
	MinterSigner, DistributorSigner externalSigner
	// The payments wallet's signer (PAYMENTS_KEY, PAYMENTS_SIGNER) signs its sweeps to the
	// treasury; with neither, there are no sweeps.
	PaymentsKey    *ecdsa.PrivateKey
	PaymentsSigner externalSigner

	Chain    chain.Config
	Passes   jobs.Config
	Handlers handlers.Config
	Web      web.Options
}

// devMode is true when no chain is configured: the server runs its own dev chain.
func (c config) devMode() bool { return c.EthRPCURL == "" }

// devChainID is the chain id of the embedded dev chain.
const devChainID = 1337

// loadConfig reads the settings; an error names the first bad setting in one line.
func loadConfig(getenv func(string) string) (config, error) {
	s := &settings{getenv: getenv}
	cfg := config{
		ListenAddr:      s.str("LISTEN_ADDR", "127.0.0.1:8080"),
		MetricsAddr:     s.str("METRICS_ADDR", ""),
		DatabaseURL:     s.str("DATABASE_URL", ""),
		DatabaseReadURL: s.str("DATABASE_READ_URL", ""),
		ReadMaxLag:      time.Duration(s.positive("READ_MAX_LAG_SEC", 5)) * time.Second,
		DBMaxConns:      s.positive("DB_MAX_CONNS", store.DefaultMaxConns),
		EthRPCURL:       s.rpcURLs("ETH_RPC_URL"),
		DevRPCAddr:      s.str("DEV_RPC_ADDR", "127.0.0.1:8545"),
	}
	dev := cfg.devMode()
	if dev {
		s.chainOnly()
	}
	cfg.Chain = chain.Config{
		Factory:   s.address("FACTORY_ADDRESS", !dev),
		PriceFeed: s.address("PRICE_FEED_ADDRESS", false),
		// Chainalysis's oracle is at the same address on Ethereum and several L2s, not on every
		// chain: an address with no code there fails the payments pass (sanctions_unreadable),
		// never passes a payer unscreened. Dev mode deploys one.
		SanctionsOracle: s.address("SANCTIONS_ORACLE", false),
	}
	cfg.MinterKey, cfg.MinterSigner = s.role("MINTER_KEY", "MINTER_SIGNER")
	cfg.DistributorKey, cfg.DistributorSigner = s.role("DISTRIBUTOR_KEY", "DISTRIBUTOR_SIGNER")
	if m, d := roleAccount(cfg.MinterKey, cfg.MinterSigner), roleAccount(cfg.DistributorKey, cfg.DistributorSigner); m != nil && d != nil && *m == *d {
		// Each pass hands out its account's nonces and repairs their gaps: one account for both
		// would have them fill each other's.
		name := "DISTRIBUTOR_KEY"
		if cfg.DistributorSigner.Endpoint != "" {
			name = "DISTRIBUTOR_SIGNER"
		}
		s.fail(name, "signs for the minter's account: the payments and credit passes each need an account of their own")
	}
	cfg.PaymentsKey, cfg.PaymentsSigner = s.role("PAYMENTS_KEY", "PAYMENTS_SIGNER")

	// Dev mode ticks and credits often and waits for one confirmation, so that a payment made by
	// hand shows up as a node, and then a credit, within a minute or two.
	tick, period, confirmations := 60, 86400, uint64(12)
	if dev {
		tick, period, confirmations = 10, 60, 1
	}
	tickSec := s.positive("TICK_SEC", tick)
	cfg.Tick = time.Duration(tickSec) * time.Second
	passes := jobs.Config{
		DistPeriod:    time.Duration(s.positive("DIST_PERIOD_SEC", period)) * time.Second,
		Confirmations: s.uint("CONFIRMATIONS", confirmations),
		ScanFrom:      s.uint("SCAN_FROM_BLOCK", 0),
		DistBaseWei:   s.wei("DIST_BASE_WEI", "1000000000000000"),   // 0.001 ETH
		DistPoolWei:   s.wei("DIST_POOL_WEI", "100000000000000000"), // 0.1 ETH
		BumpBlocks:    uint64(s.positive("TX_BUMP_BLOCKS", 3)),
		MintBatch:     s.positive("MINT_BATCH", 50),
		MaxFeeWei:     s.gwei("MAX_FEE_GWEI"),
		PriceGrace:    s.priceGrace("PRICE_GRACE_SEC"),
		// A tier's prices in ETH and in a token may drift apart by 3 % before a save is confirmed.
		PriceSpreadBps: int(s.uint("PRICE_SPREAD_BPS", 300)),
	}
	publicURL := s.publicURL(dev, cfg.ListenAddr)
	secret := s.sessionSecret(dev)
	adminKey, cronKey := s.routeKey("ADMIN_KEY", secret), s.routeKey("CRON_KEY", secret)
	if adminKey != "" && adminKey == cronKey {
		s.fail("CRON_KEY", "must differ from ADMIN_KEY: a leaked cron key must not open the operator surface")
	}
	s.metricsAddr(cfg.MetricsAddr)
	staleAfter := s.positive("STALE_AFTER_SEC", 300)
	minterLow := s.positive("MINTER_LOW_MINTS", handlers.DefaultMinterLowMints)
	// Payouts are on in dev mode, to show the whole product, and off elsewhere until switched on.
	passes.DistEnabled = s.bool("DIST_ENABLED", dev)
	bench := s.bool("BENCH_MODE", false)
	passes.DistMode = oneOf(s, "DIST_MODE", store.DistFixed, store.DistPool)
	// Off, the payments scan skips the ranges where the payments wallet did not move, and with
	// them the withdraw calls that failed there.
	passes.ScanEveryBlock = s.bool("SCAN_EVERY_BLOCK", false)
	cfg.VerifyLedger = s.bool("VERIFY_LEDGER", true)
	// A sale's ledger runs on a primary with a synchronous standby; dev mode's private cluster has none.
	requireSyncStandby := s.bool("DB_REQUIRE_SYNC_STANDBY", !dev)
	// Dev mode's webhooks go to the developer's own machine.
	passes.WebhookAllowPrivate = s.bool("WEBHOOK_ALLOW_PRIVATE", dev)
	passes.WebhookRetention = time.Duration(s.positive("WEBHOOK_RETENTION_DAYS", 30)) * 24 * time.Hour
	chainID := s.chainID(dev)
	payments := s.address("PAYMENT_ADDRESS", false)
	treasury := s.address("TREASURY_ADDRESS", false)
	s.paymentsSigner(cfg, payments)
	// Dev mode keeps enough in the payments wallet for refunds by hand from it.
	keep := "0"
	if dev {
		keep = "100000000000000000000"
	}
	passes.Sweep = jobs.SweepConfig{
		KeepWei:     s.wei("SWEEP_KEEP_WEI", keep),
		MinWei:      s.wei("SWEEP_MIN_WEI", strconv.Itoa(jobs.DefaultSweepMinWei)),
		EveryBlocks: uint64(s.positive("SWEEP_EVERY_BLOCKS", jobs.DefaultSweepEveryBlocks)),
	}
	// A treasury batch takes at most this gas (0: as much as one transaction may on the chain).
	batchMaxGas := s.uint("TREASURY_BATCH_MAX_GAS", 0)
	multiSend := s.address("MULTISEND_ADDRESS", false)
	if multiSend == (common.Address{}) {
		multiSend = canonicalMultiSend
	}
	proxies := s.prefixes("TRUSTED_PROXIES")
	explorer, walletRPC := s.httpURL("EXPLORER_URL"), s.httpURL("WALLET_RPC_URL")
	chainName := s.str("CHAIN_NAME", "")
	refundPolicy, support := s.str("REFUND_POLICY", ""), s.supportURL("SUPPORT_URL")
	switch {
	case refundPolicy == "" && dev:
		// A trial shows buyers the sentence a real sale does.
		refundPolicy = devRefundPolicy
	case refundPolicy == "":
		// A buyer whose payment buys nothing is owed a refund and must be told when it comes.
		s.fail("REFUND_POLICY", "required when ETH_RPC_URL is set: what a buyer owed a refund is promised, e.g. \"within 2 working days\"")
	}
	exportSlots := s.exportSlots("EXPORT_MAX_CONCURRENT", cfg.DBMaxConns)
	exportStall := time.Duration(s.positive("EXPORT_STALL_SEC", 30)) * time.Second
	cfg.Operators = s.operators("OPERATORS")
	cfg.PaymentTokens = s.addresses("PAYMENT_TOKENS")
	kyc := s.kyc(dev, publicURL)
	cfg.GeoIPDB, cfg.BlockedCountries = s.str("GEOIP_DB", ""), s.countries("BLOCKED_COUNTRIES")
	if len(cfg.BlockedCountries) > 0 && cfg.GeoIPDB == "" {
		s.fail("GEOIP_DB", "required with BLOCKED_COUNTRIES: a MaxMind-format database (GeoLite2 Country, say) that tells a visitor's country")
	}
	passes.KYCHold = time.Duration(s.positive("KYC_HOLD_DAYS", int(jobs.DefaultKYCHold/(24*time.Hour)))) * 24 * time.Hour
	refDiscount, refCommission := s.uint("REFERRAL_DISCOUNT_BPS", 0), s.uint("REFERRAL_COMMISSION_BPS", 0)
	if refDiscount > sale.MaxReferralBps || refCommission > sale.MaxReferralBps || refDiscount+refCommission > sale.MaxReferralBps {
		// The partner codes' rule (jobs/sale.ReadReferralCode) holds for the wallet codes too.
		s.fail("REFERRAL_COMMISSION_BPS", "REFERRAL_DISCOUNT_BPS and REFERRAL_COMMISSION_BPS together are %d bps: at most %d (50 %% of the price)",
			refDiscount+refCommission, sale.MaxReferralBps)
	}
	if s.err != nil {
		return config{}, s.err
	}

	passes.WalletCodes = sale.WalletCodes{DiscountBps: int(refDiscount), CommissionBps: int(refCommission)}
	passes.MultiSend, passes.BatchMaxGas = multiSend, uint64(batchMaxGas)
	cfg.Passes = passes
	cfg.Handlers = handlers.Config{
		ChainName:          chainName,
		WalletRPC:          walletRPC,
		Explorer:           explorer,
		RefundPolicy:       refundPolicy,
		SupportURL:         support,
		CronKey:            cronKey,
		AdminKey:           adminKey,
		PublicURL:          publicURL,
		SessionSecret:      secret,
		TickSec:            tickSec,
		StaleAfterSec:      staleAfter,
		RequireSyncStandby: requireSyncStandby,
		MinterLowMints:     minterLow,
		DistEnabled:        passes.DistEnabled,
		DistMode:           passes.DistMode,
		DistPeriod:         passes.DistPeriod,
		DistBaseWei:        passes.DistBaseWei,
		DistPoolWei:        passes.DistPoolWei,
		ExportSlots:        exportSlots,
		ExportStall:        exportStall,
		KYC:                kyc,
		ChainReadsPerSec:   s.positive("CHAIN_READS_PER_SEC", handlers.DefaultChainReadsPerSec),
	}
	cfg.setChainID(chainID)
	cfg.setPaymentAddress(payments)
	cfg.setTreasury(treasury)
	cfg.Web = web.Options{TrustedProxies: proxies, Bench: bench, HTTPS: publicURL.Scheme == "https"}
	return cfg, nil
}

// countries reads a list of ISO 3166-1 alpha-2 country codes ("US,KP"); unset: none.
func (s *settings) countries(name string) []string {
	var out []string
	for c := range strings.SplitSeq(s.str(name, ""), ",") {
		c = strings.ToUpper(strings.TrimSpace(c))
		if c == "" {
			continue
		}
		if len(c) != 2 || c[0] < 'A' || c[0] > 'Z' || c[1] < 'A' || c[1] > 'Z' {
			s.fail(name, "%q is not a two-letter country code (ISO 3166-1 alpha-2, such as US)", c)
			return nil
		}
		out = append(out, c)
	}
	return out
}

// kyc reads the identity checks' provider (KYC_PROVIDER: sumsub or blockpass; unset: none, and a
// wallet is verified only by an admin), the secret its webhooks are signed with
// (KYC_WEBHOOK_SECRET) and the form buyers are sent to (KYC_FORM_URL). Dev mode, which has no
// provider to reach, stands in for Sumsub: a random secret, and its own verification page.
func (s *settings) kyc(dev bool, public *url.URL) handlers.KYCConfig {
	k := handlers.KYCConfig{Provider: store.KYCProvider(s.str("KYC_PROVIDER", "")), Secret: s.str("KYC_WEBHOOK_SECRET", ""),
		FormURL: s.httpURL("KYC_FORM_URL")}
	if dev && k.Provider == "" {
		k = handlers.KYCConfig{Provider: store.KYCSumsub, Secret: randomKey(), FormURL: public.String() + "/dev/kyc", Dev: true}
	}
	switch {
	case k.Provider == "":
	case k.Provider != store.KYCSumsub && k.Provider != store.KYCBlockpass:
		s.fail("KYC_PROVIDER", "%q is none of sumsub, blockpass", k.Provider)
	case len(k.Secret) < 16:
		s.fail("KYC_WEBHOOK_SECRET", "required with KYC_PROVIDER, at least 16 characters: the key the provider signs its webhooks with")
	case k.FormURL == "":
		s.fail("KYC_FORM_URL", "required with KYC_PROVIDER: the provider's form buyers verify on (the wallet is passed as its reference)")
	}
	return k
}

// canonicalMultiSend is Safe's MultiSendCallOnly 1.4.1 at its canonical address, the same on
// every chain Safe deploys to (safe-global/safe-deployments, v1.4.1/multi_send_call_only.json):
// the contract a treasury batch delegatecalls unless MULTISEND_ADDRESS names another.
var canonicalMultiSend = common.HexToAddress("0x9641d764fc13c8B624c04430C7356C1C7C8102e2")

// setPaymentAddress points the passes and the quote at the payments wallet; the zero address
// leaves it unset (/api/deploy-quote answers 503).
func (c *config) setPaymentAddress(a common.Address) {
	c.Passes.PaymentAddress, c.Handlers.PaymentAddress = a, ""
	if a != (common.Address{}) {
		c.Handlers.PaymentAddress = strings.ToLower(a.Hex())
	}
}

// setTreasury points the passes (sweeps) and the handlers at the treasury Safe; the zero address
// is none.
func (c *config) setTreasury(a common.Address) {
	c.Passes.Treasury, c.Handlers.Treasury = a, a
}

// deployment is what the settings log keeps of these settings (store.LogDeployment).
func (c config) deployment() store.Deployment {
	d := store.Deployment{ChainID: c.Handlers.ChainID, Factory: strings.ToLower(c.Chain.Factory.Hex()),
		PaymentsWallet: strings.ToLower(c.Passes.PaymentAddress.Hex()), Tokens: c.Passes.PaymentTokens, Confirmations: c.Passes.Confirmations}
	if c.Passes.Treasury != (common.Address{}) {
		t := strings.ToLower(c.Passes.Treasury.Hex())
		d.Treasury = &t
	}
	d.WalletCodes.DiscountBps, d.WalletCodes.CommissionBps = c.Passes.WalletCodes.DiscountBps, c.Passes.WalletCodes.CommissionBps
	d.ScanFrom, d.ScanEveryBlock, d.PriceGraceSec = c.Passes.ScanFrom, c.Passes.ScanEveryBlock, int64(c.Passes.PriceGrace/time.Second)
	d.KYCHoldDays = int(c.Passes.KYCHold / (24 * time.Hour))
	if c.Chain.PriceFeed != (common.Address{}) {
		f := strings.ToLower(c.Chain.PriceFeed.Hex())
		d.PriceFeed = &f
	}
	if c.Chain.SanctionsOracle != (common.Address{}) {
		o := strings.ToLower(c.Chain.SanctionsOracle.Hex())
		d.SanctionsOracle = &o
	}
	return d
}

// setChainID sets the chain id wherever a part needs it.
func (c *config) setChainID(id int64) {
	c.Passes.ChainID, c.Handlers.ChainID = big.NewInt(id), id
}

// settings reads settings by name and keeps the first error: after one, every read returns a
// zero value, so a reader goes straight through and checks err once.
type settings struct {
	getenv func(string) string
	err    error
}

func (s *settings) fail(name, format string, args ...any) {
	if s.err == nil {
		s.err = fmt.Errorf("%s: %s", name, fmt.Sprintf(format, args...))
	}
}

// str reads a plain setting; unset is def.
func (s *settings) str(name, def string) string {
	if v := s.getenv(name); v != "" {
		return v
	}
	return def
}

// bool reads a true/false (or 1/0) setting; unset is def.
func (s *settings) bool(name string, def bool) bool {
	switch v := s.getenv(name); v {
	case "":
		return def
	case "true", "1":
		return true
	case "false", "0":
		return false
	default:
		s.fail(name, "%q is neither true nor false", v)
		return false
	}
}

// oneOf reads a setting that is one of choices, as their type; unset is the first. (A function:
// a method cannot take a type parameter.)
func oneOf[T ~string](s *settings, name string, choices ...T) T {
	v := T(s.str(name, string(choices[0])))
	if slices.Contains(choices, v) {
		return v
	}
	words := make([]string, len(choices))
	for i, c := range choices {
		words[i] = string(c)
	}
	s.fail(name, "%q is none of %s", v, strings.Join(words, ", "))
	return ""
}

func (s *settings) positive(name string, def int) int {
	v := s.getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		s.fail(name, "%q is not a positive whole number", v)
	}
	return n
}

func (s *settings) uint(name string, def uint64) uint64 {
	v := s.getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		s.fail(name, "%q is not a whole number", v)
	}
	return n
}

func (s *settings) wei(name, def string) *big.Int {
	v := s.str(name, def)
	n, ok := new(big.Int).SetString(v, 10)
	if !ok || n.Sign() < 0 || strings.ContainsAny(v, "+-") {
		s.fail(name, "%q is not a whole number of wei", v)
		return new(big.Int)
	}
	return n
}

var gweiPattern = regexp.MustCompile(`^[0-9]+(\.[0-9]{1,9})?$`)

// gwei reads a positive amount of gwei (decimals allowed, down to the wei) as wei; nil when unset.
func (s *settings) gwei(name string) *big.Int {
	v := s.getenv(name)
	if v == "" {
		return nil
	}
	r, ok := new(big.Rat).SetString(v)
	if ok {
		r.Mul(r, new(big.Rat).SetInt64(1e9))
	}
	if !gweiPattern.MatchString(v) || !ok || !r.IsInt() || r.Sign() <= 0 {
		s.fail(name, "%q is not a positive amount of gwei (at most 9 decimals)", v)
		return nil
	}
	return r.Num()
}

// chainID reads CHAIN_ID, required unless dev (the dev chain's id).
func (s *settings) chainID(dev bool) int64 {
	const name = "CHAIN_ID"
	switch v := s.getenv(name); {
	case v != "":
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id <= 0 {
			s.fail(name, "%q is not a positive whole number", v)
		}
		return id
	case !dev:
		s.fail(name, "required when ETH_RPC_URL is set")
	}
	return devChainID
}

var addressRe = regexp.MustCompile(`^0x[0-9a-fA-F]{40}$`)

// address reads an address setting; unset is the zero address unless required. The zero address
// itself is refused: nothing can be sent to it or read from it.
func (s *settings) address(name string, required bool) common.Address {
	switch v := s.getenv(name); {
	case v == "" && required:
		s.fail(name, "required when ETH_RPC_URL is set")
	case v == "":
	case !addressRe.MatchString(v):
		s.fail(name, "%q is not an address (0x and 40 hex digits)", v)
	case strings.Trim(v[2:], "0") == "":
		s.fail(name, "the zero address is not usable")
	default:
		return common.HexToAddress(v)
	}
	return common.Address{}
}

// addresses reads a comma-separated list of addresses, each once; unset is none.
func (s *settings) addresses(name string) []common.Address {
	var out []common.Address
	for _, v := range strings.Split(s.getenv(name), ",") {
		v = strings.TrimSpace(v)
		switch {
		case v == "":
		case !addressRe.MatchString(v):
			s.fail(name, "%q is not an address (0x and 40 hex digits)", v)
		case strings.Trim(v[2:], "0") == "":
			s.fail(name, "the zero address is not usable")
		case slices.Contains(out, common.HexToAddress(v)):
			s.fail(name, "%s is listed twice", v)
		default:
			out = append(out, common.HexToAddress(v))
		}
	}
	return out
}

// operators reads the operator list, "0xabc…:admin,0xdef…:viewer": each entry an address and a
// role, each address once; unset is none.
func (s *settings) operators(name string) []store.Operator {
	v := s.getenv(name)
	if strings.TrimSpace(v) == "" {
		return nil
	}
	var ops []store.Operator
	seen := map[string]bool{}
	for i, entry := range strings.Split(v, ",") {
		addr, role, _ := strings.Cut(strings.TrimSpace(entry), ":")
		r := store.OperatorRole(strings.ToLower(strings.TrimSpace(role)))
		addr = strings.ToLower(strings.TrimSpace(addr))
		switch {
		case !addressRe.MatchString(addr):
			s.fail(name, "entry %d (%q) does not start with an address (0x and 40 hex digits): write address:role, such as 0xabc…:admin", i+1, entry)
		case !r.Valid():
			s.fail(name, "entry %d (%q) has no role of viewer, operator or admin after its address and a colon", i+1, entry)
		case seen[addr]:
			s.fail(name, "entry %d names %s a second time", i+1, addr)
		default:
			seen[addr] = true
			ops = append(ops, store.Operator{Address: addr, Role: r})
			continue
		}
		return nil
	}
	return ops
}

// key reads a hex private key setting, with or without 0x; unset is nil.
func (s *settings) key(name string) *ecdsa.PrivateKey {
	v := s.getenv(name)
	if v == "" {
		return nil
	}
	key, err := crypto.HexToECDSA(strings.TrimPrefix(v, "0x"))
	if err != nil {
		s.fail(name, "not a hex secp256k1 private key") // the value is secret: not echoed
	}
	return key
}

// externalSigner is a signer outside the process (clef) and the account it signs for; the zero
// value is none.
type externalSigner struct {
	Endpoint string // an http(s) URL or an IPC socket's path
	Account  common.Address
}

// role reads a signing role's two settings, its key and its external signer: at most one.
func (s *settings) role(keyName, signerName string) (*ecdsa.PrivateKey, externalSigner) {
	key, ext := s.key(keyName), s.signer(signerName)
	if key != nil && ext.Endpoint != "" {
		s.fail(signerName, "cannot be set with %s: with an external signer the process holds no key for the role; unset %s", keyName, keyName)
	}
	return key, ext
}

// paymentsSigner checks the payments wallet's signer: it signs for PAYMENT_ADDRESS (a sweep
// from any other account would be nobody's), and for no other role, whose nonces it would share.
func (s *settings) paymentsSigner(cfg config, payments common.Address) {
	name := "PAYMENTS_KEY"
	if cfg.PaymentsSigner.Endpoint != "" {
		name = "PAYMENTS_SIGNER"
	}
	a := roleAccount(cfg.PaymentsKey, cfg.PaymentsSigner)
	switch {
	case a == nil:
	case payments == (common.Address{}):
		s.fail(name, "needs PAYMENT_ADDRESS, the wallet it signs for")
	case *a != payments:
		s.fail(name, "signs for %s, not for PAYMENT_ADDRESS %s", a.Hex(), payments.Hex())
	case sameAccount(a, cfg.MinterKey, cfg.MinterSigner), sameAccount(a, cfg.DistributorKey, cfg.DistributorSigner):
		s.fail(name, "signs for the minter's or the distributor's account: the payments wallet needs an account of its own")
	}
}

// sameAccount says whether a role (its key or signer) signs for a.
func sameAccount(a *common.Address, key *ecdsa.PrivateKey, ext externalSigner) bool {
	b := roleAccount(key, ext)
	return b != nil && *a == *b
}

// roleAccount is the account a role signs for; nil when it has neither key nor signer.
func roleAccount(key *ecdsa.PrivateKey, ext externalSigner) *common.Address {
	switch {
	case key != nil:
		a := crypto.PubkeyToAddress(key.PublicKey)
		return &a
	case ext.Endpoint != "":
		return &ext.Account
	}
	return nil
}

// signer reads an external signer setting, ENDPOINT#ACCOUNT: the signer's http(s) URL or IPC
// path, and the account it signs for (e.g. http://127.0.0.1:8550#0xabc…); unset is the zero value.
func (s *settings) signer(name string) externalSigner {
	v := s.getenv(name)
	if v == "" {
		return externalSigner{}
	}
	// The value is not echoed: a signer's URL may carry credentials.
	endpoint, account, ok := strings.Cut(v, "#")
	if !ok || !addressRe.MatchString(account) {
		s.fail(name, "must end with #ACCOUNT, the address the signer signs for (e.g. http://127.0.0.1:8550#0xabc…)")
		return externalSigner{}
	}
	if !strings.HasPrefix(endpoint, "/") { // else the absolute path of an IPC socket
		if u, err := url.Parse(endpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			s.fail(name, "the signer must be an http(s) URL or the absolute path of its IPC socket")
			return externalSigner{}
		}
	}
	return externalSigner{Endpoint: endpoint, Account: common.HexToAddress(account)}
}

// publicURL reads PUBLIC_URL, an http(s) origin; unset, it is the listen address in dev mode
// and required otherwise.
func (s *settings) publicURL(dev bool, listenAddr string) *url.URL {
	const name = "PUBLIC_URL"
	v := s.getenv(name)
	switch {
	case v == "" && !dev:
		s.fail(name, "required when ETH_RPC_URL is set (e.g. https://nodes.example.com)")
	case v == "":
		v = "http://" + listenAddr
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
		s.fail(name, "%q is not an http(s) origin", v)
		return &url.URL{Scheme: "http", Host: listenAddr}
	}
	return &url.URL{Scheme: u.Scheme, Host: u.Host}
}

// httpURL reads an optional http(s) URL, such as a block explorer's; unset is "".
func (s *settings) httpURL(name string) string {
	v := s.getenv(name)
	if v == "" {
		return ""
	}
	if u, err := url.Parse(v); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		s.fail(name, "%q is not an http(s) URL", v)
		return ""
	}
	return v
}

// rpcURLs reads the chain's JSON-RPC endpoints, comma-separated (chain.SplitURLs): each an
// http(s) or ws(s) URL, or an IPC socket's path. A bad one is named by its place in the list and
// its scheme and host only: providers put their keys in the rest.
func (s *settings) rpcURLs(name string) string {
	v := s.getenv(name)
	if v == "" {
		return ""
	}
	for i, raw := range chain.SplitURLs(v) {
		u, err := url.Parse(raw)
		switch {
		case raw == "":
			s.fail(name, "endpoint %d of the list is empty", i+1)
		case err != nil:
			s.fail(name, "endpoint %d of the list is not a URL", i+1)
		case u.Scheme == "" && u.Host == "":
			// An IPC socket's path.
		case u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "ws" && u.Scheme != "wss" || u.Host == "":
			s.fail(name, "endpoint %d of the list (%s://%s) is not an http(s) or ws(s) URL or an IPC path", i+1, u.Scheme, u.Host)
		}
	}
	return v
}

// exportSlots reads how many CSV exports an instance streams at once: fewer than its database
// connections, since each export holds one for as long as its reader takes (handlers/exports.go);
// unset, a quarter of them.
func (s *settings) exportSlots(name string, maxConns int) int {
	n := s.positive(name, handlers.ExportSlotsFor(maxConns))
	if s.getenv(name) != "" && n >= maxConns {
		s.fail(name, "%d is not below DB_MAX_CONNS (%d): each export holds a database connection while it is read, and the routes and the passes need the rest", n, maxConns)
	}
	return n
}

// maxPriceGrace bounds PRICE_GRACE_SEC: a page open for longer than a day before a price change
// is not one the old price should still buy from.
const maxPriceGrace = 24 * time.Hour

// priceGrace reads how long an old price still buys its tier after a change (600 s unset).
func (s *settings) priceGrace(name string) time.Duration {
	sec := s.uint(name, 600)
	if sec > uint64(maxPriceGrace/time.Second) {
		s.fail(name, "%d seconds is more than a day", sec)
		return 0
	}
	return time.Duration(sec) * time.Second
}

// supportURL reads where buyers ask for help: an http(s) URL or a mailto: address.
func (s *settings) supportURL(name string) string {
	v := s.getenv(name)
	if u, err := url.Parse(v); err == nil && u.Scheme == "mailto" && u.Opaque != "" {
		return v
	}
	return s.httpURL(name)
}

// sessionSecret reads SESSION_SECRET; in dev mode unset is nil (a random key per start).
func (s *settings) sessionSecret(dev bool) []byte {
	const name = "SESSION_SECRET"
	switch v := s.getenv(name); {
	case len(v) >= 32:
		return []byte(v)
	case v != "":
		s.fail(name, "must be at least 32 characters")
	case !dev:
		s.fail(name, "required when ETH_RPC_URL is set (32 characters or more)")
	}
	return nil
}

// chainOnly refuses, in dev mode, the settings only a real chain uses: dev mode would replace or
// ignore them and run a fake chain that looks like the one they name.
func (s *settings) chainOnly() {
	for _, name := range []string{"CHAIN_ID", "FACTORY_ADDRESS", "PAYMENT_ADDRESS", "MINTER_KEY", "DISTRIBUTOR_KEY",
		"MINTER_SIGNER", "DISTRIBUTOR_SIGNER", "PAYMENTS_KEY", "PAYMENTS_SIGNER"} {
		if s.getenv(name) != "" {
			s.fail(name, "is for a real chain, but ETH_RPC_URL is unset (dev mode, its own chain): set ETH_RPC_URL, or unset %s", name)
		}
	}
}

// minRouteKey is the shortest ADMIN_KEY or CRON_KEY: 32 characters, as SESSION_SECRET.
const minRouteKey = 32

// routeKey reads ADMIN_KEY or CRON_KEY: unset is "" (the routes are off, or dev mode makes one);
// set, it is long and not the session secret, whose leak must not open the routes (nor the
// reverse).
func (s *settings) routeKey(name string, sessionSecret []byte) string {
	v := s.getenv(name)
	switch {
	case v == "":
	case len(v) < minRouteKey:
		s.fail(name, "must be at least %d characters (e.g. openssl rand -hex 32)", minRouteKey)
	case v == string(sessionSecret):
		s.fail(name, "must differ from SESSION_SECRET")
	}
	return v
}

// devRefundPolicy is dev mode's REFUND_POLICY when none is set.
const devRefundPolicy = "within 2 working days"

// metricsAddr checks METRICS_ADDR, which serves pprof as well as /metrics: only on a loopback or
// private address, unless METRICS_PUBLIC=true says the exposure is meant.
func (s *settings) metricsAddr(addr string) {
	const name = "METRICS_ADDR"
	if public := s.bool("METRICS_PUBLIC", false); addr == "" || public {
		return
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		s.fail(name, "%q is not host:port", addr)
		return
	}
	ip, err := netip.ParseAddr(host)
	switch {
	case host == "localhost":
	case err != nil:
		s.fail(name, "%q: give a loopback or private IP address (it serves pprof), or set METRICS_PUBLIC=true", addr)
	case !ip.Unmap().IsLoopback() && !ip.Unmap().IsPrivate():
		s.fail(name, "%q is neither a loopback nor a private address (it serves pprof): set METRICS_PUBLIC=true to expose it anyway", addr)
	}
}

// prefixes reads a comma-separated list of addresses and CIDR ranges.
func (s *settings) prefixes(name string) []netip.Prefix {
	var out []netip.Prefix
	for _, v := range strings.Split(s.getenv(name), ",") {
		if v = strings.TrimSpace(v); v == "" {
			continue
		}
		p, err := netip.ParsePrefix(v)
		if err != nil {
			a, aerr := netip.ParseAddr(v)
			if aerr != nil {
				s.fail(name, "%q is neither an address nor a CIDR range", v)
				continue
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		out = append(out, p)
	}
	return out
}

// secretSettings are the settings that hold a secret.
var secretSettings = []string{"MINTER_KEY", "DISTRIBUTOR_KEY", "DEPLOYER_KEY", "ADMIN_KEY", "CRON_KEY", "SESSION_SECRET"}

// privateEnough refuses a .env that holds a secret and that others than its owner may open.
func privateEnough(f *os.File, path string, file map[string]string) error {
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if info.Mode().Perm()&0o077 == 0 {
		return nil
	}
	for _, name := range secretSettings {
		if file[name] != "" {
			return fmt.Errorf("%s holds %s and others than its owner may read it: run chmod 600 %s", path, name, path)
		}
	}
	return nil
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
	if err := privateEnough(f, path, file); err != nil {
		return nil, err
	}
	return func(key string) string {
		if v := getenv(key); v != "" {
			return v
		}
		return file[key]
	}, nil
}
