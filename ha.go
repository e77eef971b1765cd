package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"nodeledger/store/pgdev"
)

// haDir is where `make ha` keeps its formation.
const haDir = ".data/ha"

// haCmd runs `nodeledger ha`: a pg_auto_failover formation on this machine (a monitor, a primary
// and its synchronous standby, under .data/ha, made fresh) until interrupted, starting a node
// killed again once the other is primary, as a host's service manager would; and
// `nodeledger ha kill`: kill -9 its primary. It is for trying a failover with the product on
// one machine (docs/operations.md); production runs each on a host of its own.
func haCmd(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) > 0 {
		if args[0] != "kill" || len(args) > 1 {
			return errors.New("ha: use `nodeledger ha` to run a formation, `nodeledger ha kill` to kill -9 its primary")
		}
		name, err := pgdev.KillPrimaryIn(ctx, haDir)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "kill -9 of %s, the primary: the monitor has the standby take writes in about 25 s, and make ha starts %s again as the standby\n", name, name)
		return nil
	}
	fmt.Fprintln(stdout, "ha: starting a monitor and two nodes under "+haDir+" (about 10 s)")
	h, err := pgdev.StartHA(ctx, haDir)
	if err != nil {
		return err
	}
	defer h.Stop()
	fmt.Fprintf(stdout, `ha: the formation runs (its log: %s/ha.log); in another terminal:

  DATABASE_URL='%s' make run

and to lose the primary: make ha-kill (the standby is promoted, the old primary rejoins as its
standby; /health's Database standbys card shows it). Ctrl-C stops the formation. Dev mode's chain
lives in memory and starts anew, so a second make run needs a fresh formation: make ha again.
`, haDir, h.URL)
	say := func(s string) { fmt.Fprintf(stdout, "%s ha: %s\n", time.Now().Format(time.TimeOnly), s) }
	h.Supervise(ctx, say)
	return nil
}
