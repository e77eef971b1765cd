// Command nodeledger sells nodes on an EVM chain and keeps their ledger.
//
//	nodeledger [serve]   serve the API (the default)
//	nodeledger migrate   apply the database migrations and exit
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"nodeledger/handlers"
	"nodeledger/migrations"
	"nodeledger/store"
	"nodeledger/store/pgdev"
	"nodeledger/web"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "nodeledger:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) error {
	cmd := "serve"
	if len(args) > 0 {
		cmd = args[0]
	}
	getenv, err := withDotenv(".env", getenv)
	if err != nil {
		return err
	}
	cfg, err := loadConfig(getenv)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewJSONHandler(stderr, nil))

	switch cmd {
	case "serve":
		return serve(ctx, cfg, log)
	case "migrate":
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
	default:
		return fmt.Errorf("unknown command %q: use serve or migrate", cmd)
	}
}

func serve(ctx context.Context, cfg config, log *slog.Logger) error {
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

	h := handlers.New(db, handlers.Config{ChainID: cfg.ChainID, PaymentAddress: cfg.PaymentAddress}, log)
	srv := &http.Server{
		Handler:           web.New(h, web.Options{TrustedProxies: cfg.TrustedProxies, Log: log}),
		ReadHeaderTimeout: 5 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	ln, err := net.Listen("tcp", cfg.ListenAddr)
	if err != nil {
		return err
	}
	log.Info("serving", "addr", "http://"+ln.Addr().String())

	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	log.Info("shutting down")
	return srv.Shutdown(shutdownCtx)
}

// devDatabase is the database of dev mode, made fresh at each start: the ledger never outlives
// the dev chain it records.
const devDatabase = "nodeledger_dev"

// openDatabase opens DATABASE_URL or, when it is unset, a fresh database on a private cluster
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
			log.Info("dev mode: private PostgreSQL cluster", "dir", ".data/pg", "url", dbURL)
			return db, func() { db.Close(); cluster.Stop() }, nil
		}
	}
	cluster.Stop()
	return nil, nil, err
}
