package handlers

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"nodeledger/chain"
	"nodeledger/store"
)

// TestDriftProblem checks that each way the drift check fails is a sentence for the operator:
// it names what could not be read, says what to do, and carries none of the error's text.
func TestDriftProblem(t *testing.T) {
	const secret = "dial tcp 10.1.2.3:8545: connect: connection refused"
	for _, tc := range []struct {
		name     string
		err      error
		timedOut bool
		want     string
	}{
		{"the check's deadline", fmt.Errorf("nodeInfo: %w: %w", chain.ErrUnavailable, context.DeadlineExceeded), true, "could not read the chain within 10s"},
		{"the database", fmt.Errorf("store.NodesFrom: %w: %s", store.ErrUnavailable, secret), false, "could not read the ledger"},
		{"the chain", fmt.Errorf("nodeInfo: %w: %s", chain.ErrUnavailable, secret), false, "could not read the chain: the RPC cannot be reached"},
		{"an RPC call's own timeout", fmt.Errorf("nodeInfo: %w: %w", chain.ErrUnavailable, context.DeadlineExceeded), false, "could not read the chain: the RPC cannot be reached"},
		{"anything else", errors.New(secret), false, "could not finish"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := driftProblem(tc.err, tc.timedOut)
			if !strings.HasPrefix(got, "The drift check ") || !strings.Contains(got, tc.want) || !strings.Contains(got, "Check again") {
				t.Fatalf("%q, want it to say %q and what to do", got, tc.want)
			}
			if strings.Contains(got, "10.1.2.3") || strings.Contains(got, "dial") || strings.Contains(got, "deadline") {
				t.Fatalf("%q carries the error's text", got)
			}
		})
	}
}
