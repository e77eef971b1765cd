package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"nodeledger/migrations"
	"nodeledger/store"
)

// seed fills the empty ledger at DATABASE_URL with a made-up one, for benchmarks.
func seed(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("seed", flag.ContinueOnError)
	var sz store.SeedSize
	fs.Int64Var(&sz.Nodes, "nodes", 1_000_000, "nodes to mint")
	fs.Int64Var(&sz.Owners, "owners", 200_000, "wallets holding them")
	fs.Int64Var(&sz.Rounds, "rounds", 50, "distribution rounds, one a day")
	fs.Int64Var(&sz.Withdrawals, "withdrawals", 100_000, "withdrawals")
	fs.Int64Var(&sz.HotNodes, "hot", 1_000, "nodes credited in every round, with many withdrawals")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := sz.Validate(); err != nil { // before connecting: a typo should not wait on a database
		return err
	}
	url := getenv("DATABASE_URL")
	if url == "" {
		return errors.New("DATABASE_URL: required by seed")
	}
	db, err := store.Open(ctx, url)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Migrate(ctx, migrations.FS); err != nil {
		return err
	}
	start := time.Now()
	err = db.Seed(ctx, sz, func(step string, took time.Duration) {
		fmt.Fprintf(stdout, "%-26s %6.1fs\n", step, took.Seconds())
	})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "seeded %d nodes, %d owners, %d rounds, %d withdrawals in %.0fs\n",
		sz.Nodes, sz.Owners, sz.Rounds, sz.Withdrawals, time.Since(start).Seconds())
	return err
}
