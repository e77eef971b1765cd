package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"nodeledger/chain"
	"nodeledger/jobs"
)

// witnessCmd runs `nodeledger witness export [--to-block N] > FILE`: the ledger at DATABASE_URL
// is rebuilt up to block N (default: the last it digested) from the chain at ETH_RPC_URL into a
// scratch schema, dropped after, and what the rebuild read (the settings log, its judgements'
// reads, every answer of the node) is written to stdout as JSON, with the ledger's digests, for
// `verify --witness` to check with no node and no access to the ledger.
func witnessCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer, log *slog.Logger) error {
	if len(args) == 0 || args[0] != "export" {
		return errors.New("witness: use `nodeledger witness export [--to-block N] > FILE`")
	}
	fs := flag.NewFlagSet("witness export", flag.ContinueOnError)
	to := fs.Uint64("to-block", 0, "the last block the witness covers (default: the last the ledger digested)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if err := refuseSigners(getenv); err != nil {
		return err
	}
	rpc := getenv("ETH_RPC_URL")
	if rpc == "" {
		return errors.New("ETH_RPC_URL: required by witness export (the chain the ledger is rebuilt from)")
	}
	ledger, err := openLedger(ctx, getenv, "witness export")
	if err != nil {
		return err
	}
	defer ledger.Close()
	scratch, drop, err := scratchSchema(ctx, getenv("DATABASE_URL"))
	if err != nil {
		return err
	}
	defer drop()
	// The first endpoint only: the witness is one node's answers.
	w, sum, err := jobs.ExportWitness(ctx, scratch, ledger, chain.SplitURLs(rpc)[0], *to, log)
	if err != nil {
		return fmt.Errorf("witness export: %w", err)
	}
	out := bufio.NewWriter(stdout)
	if err := json.NewEncoder(out).Encode(w); err != nil {
		return err
	}
	if err := out.Flush(); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stderr, "witness of blocks %d-%d: %d settings entries, %d payments' reads, %d node answers, %d digests\n",
		sum.FromBlock, w.ToBlock, len(w.Settings), len(w.Reads), len(w.Answers), len(w.Digests))
	return err
}

// verifyWitness runs `nodeledger verify --witness FILE`: the ledger the witness covers is rebuilt
// from the file alone into a scratch schema of DATABASE_URL (any PostgreSQL; dropped after), and
// its digests are compared with the witness's.
func verifyWitness(ctx context.Context, file string, getenv func(string) string, stdout io.Writer, log *slog.Logger) error {
	url := getenv("DATABASE_URL")
	if url == "" {
		return errors.New("DATABASE_URL: verify --witness needs a PostgreSQL server to rebuild in (any: it makes a scratch schema and drops it)")
	}
	f, err := os.Open(file) // #nosec G304 -- the user names the file on their own command line
	if err != nil {
		return err
	}
	defer f.Close()
	var w jobs.Witness
	if err := json.NewDecoder(bufio.NewReader(f)).Decode(&w); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	scratch, drop, err := scratchSchema(ctx, url)
	if err != nil {
		return err
	}
	defer drop()
	check, err := jobs.VerifyWitness(ctx, scratch, w, log)
	if err != nil {
		return fmt.Errorf("verify --witness: %w", err)
	}
	if d := check.Differs; d != nil {
		got := "no events"
		if check.Rebuilt != nil {
			got = fmt.Sprintf("%d events, digest %s", check.Rebuilt.Events, check.Rebuilt.Digest)
		}
		want := "no events"
		if d.Digest != "" {
			want = fmt.Sprintf("%d events, digest %s", d.Events, d.Digest)
		}
		return fmt.Errorf("the witness differs from its rebuild at block %d: the witness has %s, the rebuild %s", d.Block, want, got)
	}
	if len(check.Unexplained) > 0 {
		return differencesError(0, int64(check.DigestedTo), check.Unexplained)
	}
	if check.Last == nil {
		_, err = fmt.Fprintf(stdout, "the witness's rebuild digested to block %d: no block held events\n", check.DigestedTo)
		return err
	}
	_, err = fmt.Fprintf(stdout, "verified the witness to block %d: %d digests recomputed, each the witness's; the last, block %d: %s "+
		"(compare it with GET /api/ledger/digests?from=%d&to=%d)\n",
		check.DigestedTo, check.Checked, check.Last.Block, check.Last.Digest, check.Last.Block, check.Last.Block)
	return err
}

// refuseSigners fails when a signer setting is set: what reads the chain for a rebuild sends
// nothing, and says so rather than leave a reader to wonder.
func refuseSigners(getenv func(string) string) error {
	for _, name := range signerSettings {
		if getenv(name) != "" {
			return fmt.Errorf("%s: a rebuild signs and sends nothing; unset it", name)
		}
	}
	return nil
}
