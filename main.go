// Command nodeledger sells nodes on an EVM chain and keeps their ledger.
//
//	nodeledger [serve]   serve the API (the default)
//	nodeledger migrate   apply the database migrations and exit
//	nodeledger deploy    deploy the factory contract and print its address
//	nodeledger seed      fill an empty ledger with a made-up one, for benchmarks
//	nodeledger settings export [--after N] | check [FILE]
//	                     write the settings log as JSON lines, or check such lines
//	nodeledger ha [kill] run a pg_auto_failover formation on this machine, or kill -9 its primary
package main

import (
	"cmp"
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/migrations"
	"nodeledger/store"
	"nodeledger/store/pgdev"
	"nodeledger/web"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "nodeledger:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := "serve"
	if len(args) > 0 {
		cmd = args[0]
	}
	getenv, err := withDotenv(".env", getenv)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewJSONHandler(stderr, nil))

	switch cmd {
	case "serve", "migrate":
	case "deploy":
		return deploy(ctx, args[1:], getenv, stdout)
	case "seed":
		return seed(ctx, args[1:], getenv, stdout)
	case "settings":
		return settingsCmd(ctx, args[1:], getenv, stdout)
	case "digests":
		return digestsCmd(ctx, args[1:], getenv, stdout)
	case "rebuild":
		return rebuildCmd(ctx, args[1:], getenv, stdout, log)
	case "verify":
		return verifyCmd(ctx, args[1:], getenv, stdout, log)
	case "witness":
		return witnessCmd(ctx, args[1:], getenv, stdout, stderr, log)
	case "ha":
		return haCmd(ctx, args[1:], stdout)
	default:
		return fmt.Errorf("unknown command %q: use serve, migrate, deploy, seed, settings, digests, rebuild, verify, witness or ha", cmd)
	}
	cfg, err := loadConfig(getenv)
	if err != nil {
		return err
	}
	if cmd == "migrate" {
		return migrate(ctx, cfg, log)
	}
	a, err := newApp(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer a.Close()
	return a.Run(ctx, stdout)
}

func migrate(ctx context.Context, cfg config, log *slog.Logger) error {
	if cfg.DatabaseURL == "" {
		return errors.New("DATABASE_URL: required by migrate (the dev database is made fresh at each start)")
	}
	db, err := store.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	applied, err := db.Migrate(ctx, migrations.FS)
	log.Info("migrated", "applied", applied)
	return err
}

// app is the whole service, built from its config: the database, the chain, the passes and the
// HTTP server. newApp builds it; Run serves until the context ends; Close releases what it holds.
type app struct {
	cfg    config
	log    *slog.Logger
	dev    *devEnv // nil unless dev mode
	passes *jobs.Jobs
	reads  *store.Reads // where the public read routes read, measured by Run
	pages  *handlers.Handlers
	http   *http.Server
	closer []func() // in the order they run
}

// newApp opens and connects everything the service needs; on failure it releases what it opened.
func newApp(ctx context.Context, cfg config, log *slog.Logger) (_ *app, err error) {
	a := &app{log: log}
	defer func() {
		if err != nil {
			a.Close()
		}
	}()
	var ch *chain.Client
	if cfg.devMode() {
		if a.dev, err = startDev(ctx, &cfg, log); err != nil {
			return nil, err
		}
		a.closer = append(a.closer, a.dev.Close)
		ch = a.dev.client // its connection belongs to the dev chain, closed with it
	}
	db, dbURL, err := a.openDatabase(ctx, cfg)
	if err != nil {
		return nil, err
	}
	applied, err := db.Migrate(ctx, migrations.FS)
	if err != nil {
		return nil, err
	}
	log.Info("database ready", "migrations_applied", applied)
	if a.dev != nil && cfg.DatabaseURL != "" {
		// The dev chain lives in memory and starts anew: a ledger of an earlier one disagrees
		// with it from its first block.
		if held, err := db.HoldsLedger(ctx); err != nil || held {
			return nil, cmp.Or(err, errors.New("DATABASE_URL holds the ledger of an earlier dev chain, and dev mode's chain starts anew "+
				"at each start: give dev mode an empty database (make ha makes a fresh one each time it starts), or set ETH_RPC_URL "+
				"to the chain this ledger follows"))
		}
	}
	if a.reads, err = a.openReads(cfg, db); err != nil {
		return nil, err
	}
	cfg.Handlers.Reads = a.reads
	if cfg.VerifyLedger {
		if cfg.Passes.VerifyInto, err = a.openVerifier(ctx, db, dbURL); err != nil {
			return nil, fmt.Errorf("VERIFY_LEDGER: the verifier's schema: %w", err)
		}
	}
	if err := db.SeedOperators(ctx, cfg.Operators, store.Actor{Who: "setting OPERATORS"}); err != nil {
		return nil, err
	}
	if a.dev != nil {
		if err := a.dev.seedTiers(ctx, db); err != nil {
			return nil, err
		}
	} else {
		if ch, err = dialChain(ctx, cfg, log); err != nil {
			return nil, err
		}
		a.closer = append(a.closer, ch.Close)
	}

	if err := checkTreasury(ctx, ch, cfg.Handlers.Treasury, log); err != nil {
		return nil, err
	}
	if cfg.Passes.PaymentTokens, err = listTokens(ctx, ch, db, cfg.PaymentTokens, log); err != nil {
		return nil, err
	}
	if logged, err := db.LogDeployment(ctx, cfg.deployment()); err != nil {
		return nil, err
	} else if logged {
		log.Info("settings log: this start's settings differ from the last logged; logged them")
	}
	minter, err := a.signer(ctx, "MINTER", cfg.MinterKey, cfg.MinterSigner)
	if err != nil {
		return nil, err
	}
	distributor, err := a.signer(ctx, "DISTRIBUTOR", cfg.DistributorKey, cfg.DistributorSigner)
	if err != nil {
		return nil, err
	}
	if cfg.Passes.Sweep.Signer, err = a.signer(ctx, "PAYMENTS", cfg.PaymentsKey, cfg.PaymentsSigner); err != nil {
		return nil, err
	}
	a.passes = jobs.New(db, ch, minter, distributor, cfg.Passes, log)
	if cfg.Chain.PriceFeed != (common.Address{}) {
		cfg.Handlers.Price = ch
	}
	if cfg.GeoIPDB != "" {
		if cfg.Handlers.Geo, err = handlers.OpenGeo(cfg.GeoIPDB, cfg.BlockedCountries); err != nil {
			return nil, err
		}
	}
	cfg.Web.Log = log
	a.pages = handlers.New(db, ch, a.passes, cfg.Handlers, log)
	a.http = web.HTTPServer(web.New(a.pages, cfg.Web))
	a.cfg = cfg
	return a, nil
}

// checkTreasury refuses to start when TREASURY_ADDRESS is not a Safe of chain.SafeVersion on
// this chain: the sale's money must never be sent to an address nobody can approve from. A chain
// that cannot be read now is only logged: the treasury is read again wherever it is used.
func checkTreasury(ctx context.Context, ch *chain.Client, addr common.Address, log *slog.Logger) error {
	if addr == (common.Address{}) {
		return nil
	}
	s, err := ch.Safe(ctx, addr)
	switch {
	case errors.Is(err, chain.ErrNotASafe):
		return fmt.Errorf("TREASURY_ADDRESS: %s is %w", addr.Hex(), err)
	case err != nil:
		log.Warn("treasury: the Safe cannot be read now", "treasury", addr, "err", err)
		return nil
	}
	log.Info("treasury", "safe", addr, "owners", len(s.Owners), "threshold", s.Threshold, "nonce", s.Nonce)
	return nil
}

// listTokens reads the symbol and decimals of each token the sale accepts and records them in
// the ledger, whose token amounts are written in them. A token that answers neither is refused:
// nobody could be told what they paid in it.
func listTokens(ctx context.Context, ch *chain.Client, db *store.Store, tokens []common.Address, log *slog.Logger) ([]store.Token, error) {
	out := make([]store.Token, len(tokens))
	for i, addr := range tokens {
		t, err := ch.TokenInfo(ctx, addr)
		if err != nil {
			return nil, fmt.Errorf("PAYMENT_TOKENS: %s does not answer symbol() and decimals() as an ERC-20 token: %w", addr.Hex(), err)
		}
		out[i] = store.Token{Address: strings.ToLower(addr.Hex()), Symbol: t.Symbol, Decimals: int(t.Decimals)}
		log.Info("payment token", "token", addr, "symbol", t.Symbol, "decimals", t.Decimals)
	}
	return out, db.PutTokens(ctx, out)
}

// signer is a signing role's signer (role MINTER, DISTRIBUTOR or PAYMENTS): its external signer when one
// is set, else its key; nil when it has neither. Over HTTP each request connects, so a signer that
// is down fails the passes that sign, as an unreachable chain does, and not the start; an IPC
// socket must be there at start. A raw key on a real chain starts, but not silently.
func (a *app) signer(ctx context.Context, role string, key *ecdsa.PrivateKey, ext externalSigner) (chain.Signer, error) {
	switch {
	case ext.Endpoint != "":
		s, err := chain.DialSigner(ctx, ext.Endpoint, ext.Account)
		if err != nil {
			return nil, fmt.Errorf("%s_SIGNER: %w", role, err)
		}
		a.closer = append(a.closer, s.Close)
		a.log.Info("external signer", "role", role+"_SIGNER", "account", ext.Account)
		return s, nil
	case key != nil:
		if a.dev == nil {
			// Dev mode's keys are the well-known test accounts', on its own chain; elsewhere a key
			// in the environment is readable by anything that reads the process's environment,
			// and signs for the role's funds without a rule on what it signs.
			who := strings.ToLower(role)
			if role == "PAYMENTS" {
				who = "payments wallet"
			}
			a.log.Warn(fmt.Sprintf("%s_KEY: a raw private key signs the %s's transactions on a real chain (ETH_RPC_URL is set); "+
				"set %s_SIGNER to an external signer (clef) instead, see docs/operations.md", role, who, role),
				"setting", role+"_KEY", "instead", role+"_SIGNER")
		}
		return chain.LocalSigner(key), nil
	}
	return nil, nil
}

// Close releases what the app holds, the newest first.
func (a *app) Close() {
	for i := len(a.closer) - 1; i >= 0; i-- {
		a.closer[i]()
	}
}

// passGrace is how long a shutdown waits for the pass under way: inside the 30 s that process
// managers usually give between SIGTERM and SIGKILL.
const passGrace = 20 * time.Second

// Run serves HTTP, ticks the passes, runs the payments pass at each new head, delivers the
// webhooks and keeps the pages' memory of the ledger in step with it until ctx ends. On SIGTERM the server stops taking requests, the passes under way finish and no other
// starts; one still running after passGrace is cut off, as safely as a crash.
func (a *app) Run(ctx context.Context, stdout io.Writer) error {
	ln, err := net.Listen("tcp", a.cfg.ListenAddr)
	if err != nil {
		return err
	}
	a.log.Info("serving", "addr", "http://"+ln.Addr().String())
	if a.cfg.MetricsAddr != "" {
		mln, err := net.Listen("tcp", a.cfg.MetricsAddr)
		if err != nil {
			ln.Close()
			return fmt.Errorf("METRICS_ADDR: %w", err)
		}
		metrics := &http.Server{Handler: web.MetricsHandler(a.passes.Collector()), ReadHeaderTimeout: 5 * time.Second}
		defer metrics.Close()
		go metrics.Serve(mln)
		a.log.Info("metrics", "addr", "http://"+mln.Addr().String()+"/metrics")
	}
	if a.cfg.Web.Bench {
		a.log.Warn("BENCH_MODE: no request is refused for its rate; never run a public server like this")
	}
	if a.dev != nil {
		a.dev.banner(stdout, a.cfg, "http://"+ln.Addr().String())
	}

	passWork, cutPasses := context.WithCancel(context.WithoutCancel(ctx))
	defer cutPasses()
	passesDone := make(chan struct{})
	go func() {
		defer close(passesDone)
		var wg sync.WaitGroup
		wg.Go(func() { a.passes.Run(ctx, passWork, a.cfg.Tick) })
		wg.Go(func() { a.passes.FollowHead(ctx, passWork) })
		wg.Go(func() { a.passes.DeliverWebhooks(ctx) })
		wg.Go(func() { a.reads.Follow(ctx, time.Second) })
		wg.Go(func() { a.pages.FollowLedger(ctx) })
		wg.Wait()
	}()
	served := make(chan error, 1)
	go func() { served <- a.http.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}

	cutOff := time.After(passGrace)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	a.log.Info("shutting down: draining requests and letting the pass under way finish")
	err = a.http.Shutdown(shutdownCtx)
	select {
	case <-passesDone:
	case <-cutOff:
		a.log.Warn("a pass did not finish in time: cut off, the next start resumes it")
		cutPasses()
		<-passesDone
	}
	return err
}

// dialChain connects to ETH_RPC_URL's endpoints and checks that each serves CHAIN_ID, naming
// the one that does not by its scheme and host only. An endpoint that does not answer is not
// refused: the ledger is served meanwhile, and reads go to those that answer; of several, one is
// read only once it has said it serves CHAIN_ID (the client asks it again until it does).
func dialChain(ctx context.Context, cfg config, log *slog.Logger) (*chain.Client, error) {
	want := cfg.Handlers.ChainID
	cfg.Chain.ChainID = big.NewInt(want)
	ch, err := chain.Dial(ctx, cfg.EthRPCURL, cfg.Chain)
	if err != nil {
		return nil, fmt.Errorf("ETH_RPC_URL: %w", err)
	}
	for _, ep := range ch.ChainIDs(ctx) {
		switch {
		case ep.Err != nil:
			log.Warn("chain not reachable at start; serving the ledger and retrying on each request", "endpoint", ep.Endpoint, "err", ep.Err)
		case !ep.ID.IsInt64() || ep.ID.Int64() != want:
			ch.Close()
			return nil, fmt.Errorf("CHAIN_ID: is %d but the ETH_RPC_URL endpoint %s serves chain %s", want, ep.Endpoint, ep.ID)
		}
	}
	return ch, nil
}

// openDatabase opens DATABASE_URL or, in its absence, a fresh database on a private cluster
// under .data/pg, and registers its closing.
func (a *app) openDatabase(ctx context.Context, cfg config) (_ *store.Store, url string, _ error) {
	if cfg.DatabaseURL != "" {
		db, err := store.Open(ctx, cfg.DatabaseURL)
		if err != nil {
			return nil, "", err
		}
		db.LimitConns(cfg.DBMaxConns)
		a.closer = append(a.closer, func() { db.Close() })
		return db, cfg.DatabaseURL, nil
	}
	cluster, err := pgdev.Start(ctx, ".data/pg")
	if err != nil {
		return nil, "", fmt.Errorf("DATABASE_URL is unset and the private dev cluster could not start: %w", err)
	}
	a.closer = append(a.closer, func() { cluster.Stop() })
	dbURL, err := pgdev.CreateDatabase(ctx, cluster.URL, devDatabase)
	if err != nil {
		return nil, "", err
	}
	db, err := store.Open(ctx, dbURL)
	if err != nil {
		return nil, "", err
	}
	a.closer = append(a.closer, func() { db.Close() })
	a.log.Info("private PostgreSQL cluster", "dir", ".data/pg", "url", dbURL)
	return db, dbURL, nil
}

// openReads opens DATABASE_READ_URL, the standbys the public read routes read from while they
// keep up with the primary, db; without it they read db.
func (a *app) openReads(cfg config, db *store.Store) (*store.Reads, error) {
	if cfg.DatabaseReadURL == "" {
		return store.NewReads(db, nil, 0), nil
	}
	standby, err := store.OpenStandby(cfg.DatabaseReadURL)
	if err != nil {
		return nil, fmt.Errorf("DATABASE_READ_URL: %w", err)
	}
	standby.LimitConns(cfg.DBMaxConns)
	a.closer = append(a.closer, func() { standby.Close() })
	return store.NewReads(db, standby, cfg.ReadMaxLag), nil
}

// verifierSchema is the schema of the live database the continuous verifier rebuilds into.
const verifierSchema = "nodeledger_verifier"

// verifierConns bounds the verifier's connections: one pass at a time uses them.
const verifierConns = 4

// openVerifier opens the continuous verifier's scratch ledger, in its own schema of the database
// live is open on (at url); it keeps what it rebuilt across restarts.
func (a *app) openVerifier(ctx context.Context, live *store.Store, url string) (*store.Store, error) {
	db, err := openSchema(ctx, live, url, verifierSchema)
	if err != nil {
		return nil, err
	}
	db.LimitConns(verifierConns)
	a.closer = append(a.closer, func() { db.Close() })
	return db, nil
}

// openSchema creates schema name in the database db is open on (at url), unless it is there,
// and opens a ledger in it, migrated as the ledger is, for a rebuild (store.OpenRebuild).
func openSchema(ctx context.Context, db *store.Store, url, name string) (*store.Store, error) {
	// Instances starting together may both create it: one wins, and the other finds it there.
	if _, err := db.DB().ExecContext(ctx, `CREATE SCHEMA IF NOT EXISTS `+name); err != nil {
		var exists bool
		if db.DB().GetContext(ctx, &exists, `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)`, name) != nil || !exists {
			return nil, err
		}
	}
	s, err := store.OpenRebuild(ctx, withSearchPath(url, name))
	if err != nil {
		return nil, err
	}
	if _, err := s.Migrate(ctx, migrations.FS); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}
