// Package migrations holds the ledger schema as plain SQL files, applied in name order.
package migrations

import "embed"

// FS holds every migration; the store applies those it has not recorded yet.
//
//go:embed *.sql
var FS embed.FS
