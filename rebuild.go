package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/url"
	"os"
	"strings"

	"nodeledger/chain"
	"nodeledger/jobs"
	"nodeledger/migrations"
	"nodeledger/store"
)

// signerSettings let the service sign: a rebuild or a verify sends nothing, and refuses to start
// with any of them set rather than leave a reader to wonder.
var signerSettings = []string{"MINTER_KEY", "MINTER_SIGNER", "DISTRIBUTOR_KEY", "DISTRIBUTOR_SIGNER", "PAYMENTS_KEY", "PAYMENTS_SIGNER"}

// rebuildCmd runs `nodeledger rebuild --into URL [--to-block N] [--settings FILE]`: the ledger
// rebuilt from the chain (ETH_RPC_URL) and the settings log (DATABASE_URL's, or FILE as
// `settings export` wrote it) into the empty database at URL, which it migrates. With
// DATABASE_URL, its judgements' chain reads are reused; without, the chain is read at each
// payment's block (an archive node for old ones).
func rebuildCmd(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer, log *slog.Logger) error {
	fs := flag.NewFlagSet("rebuild", flag.ContinueOnError)
	into := fs.String("into", "", "the empty database to rebuild into (a PostgreSQL URL)")
	to := fs.Uint64("to-block", 0, "the last block to rebuild (default: the chain's confirmed head)")
	file := fs.String("settings", "", "the settings log, as `settings export` writes it (default: DATABASE_URL's)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *into == "" {
		return errors.New("rebuild: --into names the empty database to rebuild into")
	}
	entries, c, err := observer(ctx, getenv, *file)
	if err != nil {
		return err
	}
	defer c.Close()
	db, err := store.OpenRebuild(ctx, *into)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Migrate(ctx, migrations.FS); err != nil {
		return err
	}
	// The source ledger, when it is there, gives what its judgements read of the chain, and
	// what no chain holds (store.CopyKept).
	var ledger *store.Store
	var source jobs.Reads
	if url := getenv("DATABASE_URL"); url != "" {
		if ledger, err = store.Open(ctx, url); err != nil {
			return err
		}
		defer ledger.Close()
		source = ledger
	}
	sum, err := jobs.Rebuild(ctx, db, c, entries, source, *to, log)
	if err != nil {
		return fmt.Errorf("rebuild: %w", err)
	}
	// What it reports is on disk before it is reported.
	if err := db.Durable(ctx); err != nil {
		return fmt.Errorf("rebuild: %w", err)
	}
	if _, err = fmt.Fprintf(stdout, "rebuilt blocks %d-%d in %d passes: %d payments (%d minted, %d rejected, %d without a verdict), digests to block %d\n",
		sum.FromBlock, sum.ToBlock, sum.Passes, sum.Payments, sum.Minted, sum.Rejected, sum.Unsettled, sum.DigestedTo); err != nil || ledger == nil {
		return err
	}
	kept, err := db.CopyKept(ctx, ledger)
	if err != nil {
		return fmt.Errorf("rebuild: copying what the chain does not hold: %w", err)
	}
	if err := db.Durable(ctx); err != nil {
		return fmt.Errorf("rebuild: %w", err)
	}
	_, err = fmt.Fprintf(stdout, "copied from DATABASE_URL: %d audit entries, %d operators, %d webhook endpoints with %d events, %d open treasury batches\n",
		kept.Rows["operator_audit"], kept.Rows["operators"], kept.Rows["webhook_endpoints"], kept.Rows["webhook_events"], kept.Batches)
	return err
}

// verifyCmd runs `nodeledger verify [--from N] [--to M] [--against URL]`: the ledger is rebuilt
// from the chain (ETH_RPC_URL) and DATABASE_URL's settings log into a scratch schema of that
// database, dropped after, and its events from block N to M are compared with the live ledger's
// (or those of the ledger at URL), event by event. The rebuild's judgements reuse the chain reads
// of the compared ledger's.
func verifyCmd(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer, log *slog.Logger) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	from := fs.Int64("from", 0, "the first block compared")
	to := fs.Int64("to", math.MaxInt64, "the last block compared (default: the last the ledger holds final)")
	against := fs.String("against", "", "the ledger compared with the rebuild (default: DATABASE_URL's)")
	witness := fs.String("witness", "", "a witness file (`witness export`): rebuild from it alone and compare its digests")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *witness != "" {
		return verifyWitness(ctx, *witness, getenv, stdout, log)
	}
	live := getenv("DATABASE_URL")
	if live == "" {
		return errors.New("DATABASE_URL: required by verify")
	}
	entries, c, err := observer(ctx, getenv, "")
	if err != nil {
		return err
	}
	defer c.Close()
	ledgerURL := live
	if *against != "" {
		ledgerURL = *against
	}
	ledger, err := store.Open(ctx, ledgerURL)
	if err != nil {
		return err
	}
	defer ledger.Close()
	final, ok, err := ledger.DigestFrontier(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("verify: the ledger has not read a block yet")
	}
	*to = min(*to, final)
	scratch, drop, err := scratchSchema(ctx, live)
	if err != nil {
		return err
	}
	defer drop()
	if _, err := jobs.Rebuild(ctx, scratch, c, entries, ledger, uint64(max(*to, 0)), log); err != nil {
		return fmt.Errorf("verify: rebuild: %w", err)
	}
	compared, diffs, err := jobs.CompareRebuilt(ctx, ledger, scratch, *from, *to)
	if err != nil {
		return err
	}
	unexplained, err := jobs.IdentityOf(ctx, scratch, c, entries, *from, *to, log)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	if diffs = store.SortDiffs(append(diffs, unexplained...)); len(diffs) > 0 {
		return differencesError(*from, *to, diffs)
	}
	_, err = fmt.Fprintf(stdout, "verified blocks %d-%d: %d events, 0 differences; every wei in and out of the wallets watched is explained\n", *from, *to, compared)
	return err
}

// differencesError names the first block that differs and each event that differs.
func differencesError(from, to int64, diffs []store.EventDiff) error {
	var b strings.Builder
	fmt.Fprintf(&b, "verify: blocks %d-%d: %d differences, the first at block %d", from, to, len(diffs), diffs[0].Block)
	for _, d := range diffs {
		fmt.Fprintf(&b, "\n  block %d, %s %s:\n    ledger:  %s\n    rebuilt: %s", d.Block, d.Kind, d.Key, orNone(d.Live), orNone(d.Rebuilt))
	}
	return errors.New(b.String())
}

func orNone(line string) string {
	if line == "" {
		return "(none)"
	}
	return line
}

// settingsFrom reads the whole settings log: from file (JSON lines, as `settings export` writes
// them), or from DATABASE_URL's ledger.
func settingsFrom(ctx context.Context, getenv func(string) string, file string) ([]store.LogEntry, error) {
	if file != "" {
		f, err := os.Open(file) // #nosec G304 -- the operator names the file on its own command line
		if err != nil {
			return nil, err
		}
		defer f.Close()
		var entries []store.LogEntry
		err = eachEntry(f, func(e store.LogEntry) error { entries = append(entries, e); return nil })
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		return entries, nil
	}
	db, err := openLedger(ctx, getenv, "rebuild to read the settings log (or name an export with --settings)")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return db.SettingsLogAfter(ctx, 0)
}

// observer reads the settings log (settingsFrom) and dials ETH_RPC_URL for the deployment it
// names, once it is sure no signer setting is set.
func observer(ctx context.Context, getenv func(string) string, file string) ([]store.LogEntry, *chain.Client, error) {
	if err := refuseSigners(getenv); err != nil {
		return nil, nil, err
	}
	rpc := getenv("ETH_RPC_URL")
	if rpc == "" {
		return nil, nil, errors.New("ETH_RPC_URL: required (the chain the ledger is rebuilt from)")
	}
	entries, err := settingsFrom(ctx, getenv, file)
	if err != nil {
		return nil, nil, err
	}
	d, err := jobs.LastDeployment(entries)
	if err != nil {
		return nil, nil, err
	}
	c, err := chain.Dial(ctx, rpc, jobs.ChainConfig(d))
	if err != nil {
		return nil, nil, fmt.Errorf("ETH_RPC_URL: %w", err)
	}
	return entries, c, nil
}

// scratchSchema creates an empty schema in the database at live and opens a migrated ledger in
// it; drop drops it with everything in it and closes the ledger.
func scratchSchema(ctx context.Context, live string) (_ *store.Store, drop func(), err error) {
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		return nil, nil, err
	}
	name := "nodeledger_verify_" + hex.EncodeToString(b)
	admin, err := store.Open(ctx, live)
	if err != nil {
		return nil, nil, err
	}
	dropSchema := func() {
		if _, err := admin.DB().ExecContext(context.WithoutCancel(ctx), `DROP SCHEMA IF EXISTS `+name+` CASCADE`); err != nil {
			fmt.Fprintf(os.Stderr, "verify: the scratch schema %s could not be dropped: %v\n", name, err)
		}
		admin.Close()
	}
	scratch, err := openSchema(ctx, admin, live, name)
	if err != nil {
		dropSchema()
		return nil, nil, err
	}
	return scratch, func() { scratch.Close(); dropSchema() }, nil
}

// withSearchPath is the connection string dsn (a URL or libpq's key=value form) whose sessions
// see schema first.
func withSearchPath(dsn, schema string) string {
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		return u.String()
	}
	return dsn + " search_path=" + schema
}
