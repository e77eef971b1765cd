package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"

	"nodeledger/store"
)

// digestsCmd runs `nodeledger digests check [--from N] [--to M]`: every stored digest of blocks
// from..to is recomputed from the ledger's rows as they are now, so that a row changed, added or
// deleted since its block was digested (by hand, or by a bug) is named at its block. It needs
// DATABASE_URL only: the digests keep the block hashes they were made with.
func digestsCmd(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	if len(args) == 0 || args[0] != "check" {
		return errors.New("digests: use `digests check [--from N] [--to M]`")
	}
	fs := flag.NewFlagSet("digests check", flag.ContinueOnError)
	from := fs.Int64("from", 0, "first block to check")
	to := fs.Int64("to", math.MaxInt64, "last block to check (default: the last digested)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	db, err := openLedger(ctx, getenv, "digests check")
	if err != nil {
		return err
	}
	defer db.Close()
	checked, m, err := db.CheckDigests(ctx, *from, *to)
	if err != nil {
		return err
	}
	if m != nil {
		return mismatchError(checked, m)
	}
	_, err = fmt.Fprintf(stdout, "digests check: %d blocks holding events from block %d on agree with the ledger's rows: 0 differences\n", checked, *from)
	return err
}

// mismatchError says which block differs and what its rows say now.
func mismatchError(checked int, m *store.DigestMismatch) error {
	var b strings.Builder
	fmt.Fprintf(&b, "digests check: block %d differs from its digest (%d blocks agreed before it): ", m.Block, checked)
	if m.Stored == nil {
		fmt.Fprintf(&b, "it held no events when digested and holds %d now", len(m.Events))
	} else {
		fmt.Fprintf(&b, "it held %d events when digested and holds %d now", m.Stored.Events, len(m.Events))
	}
	for _, e := range m.Events {
		b.WriteString("\n  " + e.Line)
	}
	return errors.New(b.String())
}
