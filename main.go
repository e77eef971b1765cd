// Command nodeledger sells nodes on an EVM chain and keeps their ledger.
//
//	nodeledger [serve]   serve the API (the default)
//	nodeledger migrate   apply the database migrations and exit
//	nodeledger deploy    deploy the factory contract and print its address
//	nodeledger seed      fill an empty ledger with a made-up one, for benchmarks
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/signal"
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
	default:
		return fmt.Errorf("unknown command %q: use serve, migrate, deploy or seed", cmd)
	}
	cfg, err := loadConfig(getenv)
	if err != nil {
		return err
	}
	if cmd == "serve" {
		return serve(ctx, cfg, log)
	}
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

func serve(ctx context.Context, cfg config, log *slog.Logger) error {
	var dev *devEnv
	if cfg.devMode() {
		var err error
		if dev, err = startDev(ctx, &cfg, log); err != nil {
			return err
		}
		defer dev.Close()
	}
	db, closeDB, err := openDatabase(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer closeDB()
	applied, err := db.Migrate(ctx, migrations.FS)
	if err != nil {
		return err
	}
	log.Info("database ready", "migrations_applied", applied)

	var ch *chain.Client
	if dev != nil {
		if err := dev.seedTiers(ctx, db); err != nil {
			return err
		}
		ch = dev.client // its connection belongs to the dev chain, closed with it
	} else {
		if ch, err = dialChain(ctx, cfg, log); err != nil {
			return err
		}
		defer ch.Close()
	}

	passes := jobs.New(db, ch, cfg.MinterKey, cfg.DistributorKey, jobs.Config{
		ChainID:        big.NewInt(cfg.ChainID),
		PaymentAddress: common.HexToAddress(cfg.PaymentAddress),
		Confirmations:  cfg.Confirmations,
		ScanFrom:       cfg.ScanFrom,
		DistEnabled:    cfg.DistEnabled,
		DistMode:       cfg.DistMode,
		DistPeriod:     time.Duration(cfg.DistPeriodSec) * time.Second,
		DistBaseWei:    cfg.DistBaseWei,
		DistPoolWei:    cfg.DistPoolWei,
	}, log)
	// On SIGTERM the pass under way finishes and no other starts; one still running after
	// passGrace is cut off, as safely as a crash.
	passWork, cutPasses := context.WithCancel(context.WithoutCancel(ctx))
	defer cutPasses()
	passesDone := make(chan struct{})
	go func() {
		defer close(passesDone)
		passes.Run(ctx, passWork, time.Duration(cfg.TickSec)*time.Second)
	}()

	hcfg := handlers.Config{
		CronKey:        cfg.CronKey,
		AdminKey:       cfg.AdminKey,
		PublicURL:      cfg.PublicURL,
		SessionSecret:  cfg.SessionSecret,
		ChainID:        cfg.ChainID,
		PaymentAddress: cfg.PaymentAddress,
		TickSec:        cfg.TickSec,
		StaleAfterSec:  cfg.StaleAfterSec,
		DistEnabled:    cfg.DistEnabled,
		DistMode:       cfg.DistMode,
	}
	if cfg.PriceFeed != (common.Address{}) {
		hcfg.Price = ch
	}
	srv := &http.Server{
		Handler: web.New(handlers.New(db, ch, passes, hcfg, log), web.Options{
			TrustedProxies: cfg.TrustedProxies, Log: log, Bench: cfg.Bench,
			HTTPS: cfg.PublicURL != nil && cfg.PublicURL.Scheme == "https",
		}),
		ReadHeaderTimeout: 5 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	ln, err := net.Listen("tcp", cfg.ListenAddr)
	if err != nil {
		return err
	}
	log.Info("serving", "addr", "http://"+ln.Addr().String())
	if cfg.MetricsAddr != "" {
		mln, err := net.Listen("tcp", cfg.MetricsAddr)
		if err != nil {
			return fmt.Errorf("METRICS_ADDR: %w", err)
		}
		metrics := &http.Server{Handler: web.MetricsHandler(), ReadHeaderTimeout: 5 * time.Second}
		defer metrics.Close()
		go metrics.Serve(mln)
		log.Info("metrics", "addr", "http://"+mln.Addr().String()+"/metrics")
	}
	if cfg.Bench {
		log.Warn("BENCH_MODE: no request is refused for its rate; never run a public server like this")
	}

	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	cutOff := time.After(passGrace)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	log.Info("shutting down: draining requests and letting the pass under way finish")
	err = srv.Shutdown(shutdownCtx)
	select {
	case <-passesDone:
	case <-cutOff:
		log.Warn("a pass did not finish in time: cut off, the next start resumes it")
		cutPasses()
		<-passesDone
	}
	return err
}

// passGrace is how long a shutdown waits for the pass under way: inside the 30 s that process
// managers usually give between SIGTERM and SIGKILL.
const passGrace = 20 * time.Second

// dialChain connects to ETH_RPC_URL and checks it serves CHAIN_ID. A chain that does not answer
// yet is no reason to refuse to start: the ledger can be served, and chain readings say null.
func dialChain(ctx context.Context, cfg config, log *slog.Logger) (*chain.Client, error) {
	ch, err := chain.Dial(ctx, cfg.EthRPCURL, chain.Config{Factory: cfg.FactoryAddress, PriceFeed: cfg.PriceFeed})
	if err != nil {
		return nil, fmt.Errorf("ETH_RPC_URL: %w", err)
	}
	id, err := ch.ChainID(ctx)
	switch {
	case err != nil:
		log.Warn("chain not reachable at start; serving the ledger and retrying on each request", "err", err)
	case id.Int64() != cfg.ChainID || !id.IsInt64():
		ch.Close()
		return nil, fmt.Errorf("CHAIN_ID: is %d but ETH_RPC_URL serves chain %s", cfg.ChainID, id)
	}
	return ch, nil
}

// openDatabase opens DATABASE_URL or, in its absence, a fresh database on a private cluster
// under .data/pg. The returned function closes whatever was opened.
func openDatabase(ctx context.Context, cfg config, log *slog.Logger) (*store.Store, func(), error) {
	if cfg.DatabaseURL != "" {
		db, err := store.Open(ctx, cfg.DatabaseURL)
		if err != nil {
			return nil, nil, err
		}
		return db, func() { db.Close() }, nil
	}
	cluster, err := pgdev.Start(ctx, ".data/pg")
	if err != nil {
		return nil, nil, fmt.Errorf("DATABASE_URL is unset and the private dev cluster could not start: %w", err)
	}
	dbURL, err := pgdev.CreateDatabase(ctx, cluster.URL, devDatabase)
	if err == nil {
		var db *store.Store
		if db, err = store.Open(ctx, dbURL); err == nil {
			log.Info("private PostgreSQL cluster", "dir", ".data/pg", "url", dbURL)
			return db, func() { db.Close(); cluster.Stop() }, nil
		}
	}
	cluster.Stop()
	return nil, nil, err
}
