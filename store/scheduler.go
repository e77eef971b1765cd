package store

import (
	"context"
	"database/sql/driver"
	"time"
)

// Schedule is what the ledger knows of the scheduler: its last tick and the nodes it credits. A
// round credits every node the chain has, so nodes are due together: when the next round's time
// has come, every scheduled node is due.
type Schedule struct {
	LastTickAt     *time.Time `db:"last_tick_at"`    // nil when it never ticked
	DueNodes       int64      `db:"due_nodes"`       // the scheduled nodes when a round is due now; else 0
	ScheduledNodes int64      `db:"scheduled_nodes"` // active nodes, each credited by the next round
	NextAt         *time.Time `db:"next_at"`         // when the next round is due; nil: no node is scheduled
}

// Schedule reads the last tick and counts the due and scheduled nodes.
func (s *Store) Schedule(ctx context.Context) (_ Schedule, err error) {
	defer wrap(&err, "Schedule")
	var sc Schedule
	err = s.db.GetContext(ctx, &sc, `
		WITH scheduled AS (
			SELECT count(*) AS nodes FROM nodes WHERE status = 'active' AND next_credit_at IS NOT NULL
		)
		SELECT
			(SELECT max(started_at) FROM scheduler_ticks) AS last_tick_at,
			CASE WHEN next_at <= now() THEN nodes ELSE 0 END AS due_nodes,
			nodes AS scheduled_nodes,
			CASE WHEN nodes > 0 THEN next_at END AS next_at
		FROM scheduled, (SELECT `+nextRoundSQL+` AS next_at) s`)
	return sc, err
}

// StartTick records that a scheduler tick began and returns its id.
func (s *Store) StartTick(ctx context.Context) (_ int64, err error) {
	defer wrap(&err, "StartTick")
	var id int64
	err = s.db.GetContext(ctx, &id, `INSERT INTO scheduler_ticks DEFAULT VALUES RETURNING id`)
	return id, err
}

// FinishTick records the end of tick id and what its passes did (a JSON document).
func (s *Store) FinishTick(ctx context.Context, id int64, summary []byte) (err error) {
	defer wrap(&err, "FinishTick")
	_, err = s.db.ExecContext(ctx, `UPDATE scheduler_ticks SET finished_at = now(), summary = $2 WHERE id = $1`, id, string(summary))
	return err
}

// PassName names a pass whose status the ledger keeps.
type PassName string

// The passes health reports on.
const (
	PassPayments  PassName = "payments"
	PassCredit    PassName = "credit"
	PassReconcile PassName = "reconcile"
	PassSweep     PassName = "sweep"
)

// PassNames are every pass, in the order health lists them.
var PassNames = []PassName{PassPayments, PassCredit, PassReconcile, PassSweep}

// PassErrorCode says why a pass failed, as a stable snake_case word; the sentence a person reads
// is written from it and its PassErrorArgs where it is shown. The error's own text is only
// logged: it can carry an RPC URL or SQL.
type PassErrorCode string

// The pass error codes, each with the PassErrorArgs it carries.
const (
	// PassCannotPayGas: a signer's balance does not cover its transaction's gas at the fees it
	// was signed with. Signer (minter or distributor), BalanceWei, NeedWei.
	PassCannotPayGas PassErrorCode = "cannot_pay_gas"
	// PassChainUnavailable: the RPC could not be reached, or kept failing. No arguments.
	PassChainUnavailable PassErrorCode = "chain_unavailable" // #nosec G101 -- an error code, not a credential
	// PassLedgerUnavailable: the database could not be reached. No arguments.
	PassLedgerUnavailable PassErrorCode = "ledger_unavailable"
	// PassTimedOut: the pass ran out of its time. No arguments.
	PassTimedOut PassErrorCode = "timed_out"
	// PassFailed: any other failure; the log has it. No arguments.
	PassFailed PassErrorCode = "failed"
	// PassSanctionsUnreadable: the sanctions oracle cannot be read, and payments wait to be
	// screened.
	PassSanctionsUnreadable PassErrorCode = "sanctions_unreadable"
)

// PassError is why a pass failed: a code and the values it is told with.
type PassError struct {
	Code PassErrorCode `json:"code"`
	Args PassErrorArgs `json:"args"`
}

// PassErrorArgs are the values a pass error is told with; each code sets those it lists.
type PassErrorArgs struct {
	Signer     string  `json:"signer,omitempty"`
	BalanceWei Uint256 `json:"balanceWei,omitzero"`
	NeedWei    Uint256 `json:"needWei,omitzero"`
}

// Value writes the arguments as the jsonb column error_args.
func (a PassErrorArgs) Value() (driver.Value, error) { return jsonValue(a) }

// Scan reads the jsonb column error_args.
func (a *PassErrorArgs) Scan(src any) error { return scanJSON(src, a) }

// PassStatus is how a pass went lately, wherever it ran.
type PassStatus struct {
	Pass     PassName
	LastOKAt *time.Time // nil: it never succeeded
	Failures int        // failed runs in a row since its last success
	Error    *PassError // the last failure's, while Failures > 0
}

// RecordPass records that pass ran and how: perr nil for a success, which clears the failures.
// It returns the failures in a row, this one included.
func (s *Store) RecordPass(ctx context.Context, pass PassName, perr *PassError) (failures int, err error) {
	defer wrap(&err, "RecordPass")
	var code *PassErrorCode
	var args *PassErrorArgs
	if perr != nil {
		code, args = &perr.Code, &perr.Args
	}
	err = s.db.GetContext(ctx, &failures, `
		INSERT INTO pass_status AS p (pass, last_ok_at, failures, error_code, error_args)
		VALUES ($1, CASE WHEN $2::text IS NULL THEN now() END, CASE WHEN $2::text IS NULL THEN 0 ELSE 1 END, $2, $3)
		ON CONFLICT (pass) DO UPDATE SET
			last_ok_at = coalesce(excluded.last_ok_at, p.last_ok_at),
			failures   = CASE WHEN $2::text IS NULL THEN 0 ELSE p.failures + 1 END,
			error_code = excluded.error_code,
			error_args = excluded.error_args,
			updated_at = now()
		RETURNING failures`, pass, code, args)
	return failures, err
}

// PassStatuses reads the status of every pass in PassNames' order; a pass that never ran has
// no success, no failure.
func (s *Store) PassStatuses(ctx context.Context) (_ []PassStatus, err error) {
	defer wrap(&err, "PassStatuses")
	var rows []struct {
		Pass     PassName       `db:"pass"`
		LastOKAt *time.Time     `db:"last_ok_at"`
		Failures int            `db:"failures"`
		Code     *PassErrorCode `db:"error_code"`
		Args     *PassErrorArgs `db:"error_args"`
	}
	if err := s.db.SelectContext(ctx, &rows, `SELECT pass, last_ok_at, failures, error_code, error_args FROM pass_status`); err != nil {
		return nil, err
	}
	out := make([]PassStatus, len(PassNames))
	for i, name := range PassNames {
		out[i].Pass = name
		for _, r := range rows {
			if r.Pass != name {
				continue
			}
			out[i].LastOKAt, out[i].Failures = r.LastOKAt, r.Failures
			if r.Code != nil {
				out[i].Error = &PassError{Code: *r.Code}
				if r.Args != nil {
					out[i].Error.Args = *r.Args
				}
			}
		}
	}
	return out, nil
}
