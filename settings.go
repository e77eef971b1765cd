package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"nodeledger/store"
)

// settingsPage is how many entries the export reads at a time.
const settingsPage = 500

// settingsCmd runs `nodeledger settings export [--after N]`, which writes the ledger's settings
// log as JSON lines, each checked against the one before as it goes, and `nodeledger settings
// check [FILE]`, which checks such lines (a file, or standard input) with nothing but sha256.
func settingsCmd(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	if len(args) == 0 {
		return errors.New("settings: use `settings export [--after N]` or `settings check [FILE]`")
	}
	switch args[0] {
	case "export":
		fs := flag.NewFlagSet("settings export", flag.ContinueOnError)
		after := fs.Int64("after", 0, "write the entries after this one")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		db, err := openLedger(ctx, getenv, "settings export")
		if err != nil {
			return err
		}
		defer db.Close()
		return exportSettings(ctx, db, *after, stdout)
	case "check":
		in := io.Reader(os.Stdin)
		if len(args) > 1 {
			f, err := os.Open(args[1]) // #nosec G703 G304 -- the operator names the file to check on its own command line
			if err != nil {
				return err
			}
			defer f.Close()
			in = f
		}
		return checkSettings(in, stdout)
	}
	return fmt.Errorf("settings: unknown %q: use export or check", args[0])
}

// openLedger opens DATABASE_URL's ledger for command what, which needs it.
func openLedger(ctx context.Context, getenv func(string) string, what string) (*store.Store, error) {
	url := getenv("DATABASE_URL")
	if url == "" {
		return nil, errors.New("DATABASE_URL: required by " + what)
	}
	return store.Open(ctx, url)
}

// exportSettings writes the log's entries after seq after, one JSON line each; it stops at the
// first entry that breaks the chain, after writing those before it.
func exportSettings(ctx context.Context, db *store.Store, after int64, out io.Writer) (err error) {
	w := bufio.NewWriter(out)
	defer func() { err = errors.Join(err, w.Flush()) }()
	enc := json.NewEncoder(w)
	var chain chainCheck
	for {
		page, err := db.SettingsLog(ctx, after, settingsPage)
		if err != nil || len(page) == 0 {
			return err
		}
		for _, e := range page {
			if err := chain.next(e); err != nil {
				return err
			}
			if err := enc.Encode(e); err != nil {
				return err
			}
		}
		after = chain.after
	}
}

// eachEntry reads the lines of an export, as `settings export` writes them, and hands each entry
// to f in turn; it stops at f's first error, or at the first line that is no entry.
func eachEntry(in io.Reader, f func(store.LogEntry) error) error {
	dec := json.NewDecoder(bufio.NewReader(in))
	var after int64
	for {
		var e store.LogEntry
		err := dec.Decode(&e)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("after entry %d: not an entry: %w", after, err)
		}
		if err := f(e); err != nil {
			return err
		}
		after = e.Seq
	}
}

// checkSettings checks the lines of an export and says how far they hold.
func checkSettings(in io.Reader, out io.Writer) error {
	var chain chainCheck
	if err := eachEntry(in, chain.next); err != nil {
		return err
	}
	if chain.prev == nil {
		return errors.New("no entry to check")
	}
	_, err := fmt.Fprintf(out, "entries %d to %d hold: each hashes to its hash and names the one before it; the last hash is 0x%x\n",
		chain.first, chain.after, chain.prev)
	return err
}

// chainCheck checks entries one after another (store.CheckLog), each against the one before. The
// log's first entry must name the genesis hash; a first entry further on is taken on its word,
// since the entry before it is not at hand.
type chainCheck struct {
	first, after int64
	prev         []byte
}

func (c *chainCheck) next(e store.LogEntry) error {
	if c.prev == nil {
		c.first, c.after, c.prev = e.Seq, e.Seq-1, e.PrevHash
		if e.Seq == 1 {
			c.prev = store.GenesisHash
		}
	}
	prev, err := store.CheckLog(c.after, c.prev, []store.LogEntry{e})
	if err != nil {
		return err
	}
	c.after, c.prev = e.Seq, prev
	return nil
}
