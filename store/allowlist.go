package store

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// AllowlistEntry is a wallet on a tier's allowlist and how many nodes of the tier it may buy
// while the allowlist phase lasts.
type AllowlistEntry struct {
	Address    string `db:"address"` // lower case
	Allocation int    `db:"allocation"`
}

// AllowlistProblem names what is wrong with a line of an allowlist upload.
type AllowlistProblem string

const (
	AllowlistColumns    AllowlistProblem = "columns"    // not two comma-separated values
	AllowlistAddress    AllowlistProblem = "address"    // the first is not an address
	AllowlistAllocation AllowlistProblem = "allocation" // the second is not a whole number from 1 to MaxAllocation
	DenylistReason      AllowlistProblem = "reason"     // a denylist's reason is longer than MaxDenylistReason
	AllowlistDuplicate  AllowlistProblem = "duplicate"  // the address is on an earlier line too
	AllowlistTooMany    AllowlistProblem = "too_many"   // more than MaxAllowlist lines
)

// Bounds of an allowlist upload.
const (
	MaxAllowlist  = 100_000
	MaxAllocation = 1_000_000
)

// AllowlistLineError is the first line of an upload that cannot be read: the whole upload is
// refused. Value is the offending value as written; FirstLine, for a duplicate, the line the
// address was first on.
type AllowlistLineError struct {
	Line      int
	Problem   AllowlistProblem
	Value     string
	FirstLine int
}

func (e *AllowlistLineError) Error() string {
	return fmt.Sprintf("allowlist line %d: %s %q", e.Line, e.Problem, e.Value)
}

var allowlistAddressRe = regexp.MustCompile(`^0x[0-9a-fA-F]{40}$`)

// ParseAllowlist reads an allowlist upload: lines of `address,allocation` (addresses in any case,
// an allocation a whole number from 1 to MaxAllocation), an optional header line
// `address,allocation` first, blank lines ignored. Any line that cannot be read refuses it all,
// with an *AllowlistLineError naming the line (1-based); so does an address listed twice. An
// upload with no entries is an empty list. The operator page's preview and the admin API both
// read uploads with it.
func ParseAllowlist(r io.Reader) ([]AllowlistEntry, error) {
	return parseWallets(r, "allocation", AllowlistAllocation, false, func(addr, alloc string) (AllowlistEntry, bool) {
		n, err := strconv.Atoi(alloc)
		return AllowlistEntry{Address: addr, Allocation: n}, err == nil && n >= 1 && n <= MaxAllocation && !strings.HasPrefix(alloc, "+")
	})
}

// parseWallets reads an upload of `address,<column>` lines, each an entry made by entry from the
// address (lower case) and the second value, false when that value cannot be read (problem): the
// reading of allowlists and the denylist, with the same header, blank lines, duplicates, bounds
// and errors. With commas, the value is the rest of the line after the address (a denylist's
// reason may hold commas); without, a line holds two values.
func parseWallets[E any](r io.Reader, column string, problem AllowlistProblem, commas bool, entry func(addr, value string) (E, bool)) ([]E, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 4096)
	entries := []E{}
	first := map[string]int{}
	line, read := 0, false // read: a line with something on it came before
	for sc.Scan() {
		line++
		text := strings.TrimSpace(strings.TrimPrefix(sc.Text(), "\ufeff")) // a spreadsheet's byte order mark
		if text == "" {
			continue
		}
		addr, value, ok := strings.Cut(text, ",")
		if !ok || !commas && strings.Contains(value, ",") {
			return nil, &AllowlistLineError{Line: line, Problem: AllowlistColumns, Value: text}
		}
		addr, value = strings.TrimSpace(addr), strings.TrimSpace(value)
		header := !read && strings.EqualFold(addr, "address") && strings.EqualFold(value, column)
		read = true
		if header {
			continue
		}
		if !allowlistAddressRe.MatchString(addr) {
			return nil, &AllowlistLineError{Line: line, Problem: AllowlistAddress, Value: addr}
		}
		addr = strings.ToLower(addr)
		e, ok := entry(addr, value)
		if !ok {
			return nil, &AllowlistLineError{Line: line, Problem: problem, Value: value}
		}
		if at, dup := first[addr]; dup {
			return nil, &AllowlistLineError{Line: line, Problem: AllowlistDuplicate, Value: addr, FirstLine: at}
		}
		if len(entries) == MaxAllowlist {
			return nil, &AllowlistLineError{Line: line, Problem: AllowlistTooMany}
		}
		first[addr] = line
		entries = append(entries, e)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &AllowlistLineError{Line: line + 1, Problem: AllowlistColumns}
		}
		return nil, err
	}
	return entries, nil
}

// AllowlistVersion is a tier's allowlist as one upload set it.
type AllowlistVersion struct {
	Tier            int       `db:"tier"`
	EffectiveAt     time.Time `db:"effective_at"`
	Rows            int       `db:"rows"`
	TotalAllocation int64     `db:"total_allocation"`
}

// ReplaceAllowlist makes entries tier's allowlist from now on (none: no wallet is listed), as a
// new version: the lists before stay, for the payments made while they were in force.
// ErrNotFound when there is no such tier.
func (tx Tx) ReplaceAllowlist(ctx context.Context, tier int, entries []AllowlistEntry) (AllowlistVersion, error) {
	v := AllowlistVersion{Tier: tier, Rows: len(entries)}
	var id int64
	err := sqlx.GetContext(ctx, tx.q, &id, `
		INSERT INTO allowlist_versions (tier) SELECT id FROM tiers WHERE id = $1 RETURNING id`, tier)
	if errors.Is(err, sql.ErrNoRows) {
		return v, ErrNotFound
	}
	if err != nil {
		return v, err
	}
	addrs, allocs := make([]string, len(entries)), make([]int64, len(entries))
	for i, e := range entries {
		addrs[i], allocs[i] = e.Address, int64(e.Allocation)
		v.TotalAllocation += int64(e.Allocation)
	}
	if _, err := tx.q.ExecContext(ctx, `
		INSERT INTO allowlist_entries (version, address, allocation)
		SELECT $1, a, n FROM unnest($2::text[], $3::int[]) AS e (a, n)`,
		id, pq.Array(addrs), pq.Array(allocs)); err != nil {
		return v, err
	}
	err = sqlx.GetContext(ctx, tx.q, &v.EffectiveAt, `SELECT effective_at FROM allowlist_versions WHERE id = $1`, id)
	return v, err
}

// AllowlistRows locks tier's row and counts the wallets on its newest allowlist (0: it has none,
// or an empty one), so that what a replacement is judged against cannot change before it is
// written. ErrNotFound when there is no such tier.
func (tx Tx) AllowlistRows(ctx context.Context, tier int) (int, error) {
	var id int
	err := sqlx.GetContext(ctx, tx.q, &id, `SELECT id FROM tiers WHERE id = $1 FOR UPDATE`, tier)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrNotFound
	}
	if err != nil {
		return 0, err
	}
	var n int
	err = sqlx.GetContext(ctx, tx.q, &n, `
		SELECT count(*) FROM allowlist_entries WHERE version =
			(SELECT id FROM allowlist_versions WHERE tier = $1 ORDER BY effective_at DESC, id DESC LIMIT 1)`, tier)
	return n, err
}

// allowlistAtSQL is the id of tier $1's allowlist in force at $2 (none: NULL).
const allowlistAtSQL = `(SELECT id FROM allowlist_versions WHERE tier = $1 AND effective_at <= $2
	ORDER BY effective_at DESC, id DESC LIMIT 1)`

// Allocation returns wallet's allocation on tier's allowlist in force at instant at; 0 when it
// is not on it (or there is none).
func (s *Store) Allocation(ctx context.Context, tier int, wallet string, at time.Time) (_ int, err error) {
	defer wrap(&err, "Allocation")
	var n int
	err = s.get(ctx, &n, `
		SELECT coalesce((SELECT allocation FROM allowlist_entries WHERE version = `+allowlistAtSQL+` AND address = $3), 0)`,
		tier, at, wallet)
	return n, err
}

// AllowlistUse is a wallet on an allowlist, with the nodes of the tier it has (minted or being
// minted), which count against its allocation.
type AllowlistUse struct {
	AllowlistEntry
	Used int `db:"used"`
}

// Allowlist returns tier's allowlist in force at instant at with each wallet's use, by address;
// ErrNotFound when the tier never had one.
func (s *Store) Allowlist(ctx context.Context, tier int, at time.Time) (_ AllowlistVersion, _ []AllowlistUse, err error) {
	defer wrap(&err, "Allowlist")
	var v AllowlistVersion
	err = s.db.GetContext(ctx, &v, `
		SELECT a.tier, a.effective_at, count(e.address) AS rows, coalesce(sum(e.allocation), 0) AS total_allocation
		FROM allowlist_versions a LEFT JOIN allowlist_entries e ON e.version = a.id
		WHERE a.id = `+allowlistAtSQL+` GROUP BY a.id`, tier, at)
	if errors.Is(err, sql.ErrNoRows) {
		return v, nil, ErrNotFound
	}
	if err != nil {
		return v, nil, err
	}
	uses := []AllowlistUse{}
	err = s.db.SelectContext(ctx, &uses, `
		SELECT e.address, e.allocation,
			(SELECT count(*) FROM nodes n WHERE n.owner = e.address AND n.tier = $1)
			+ (SELECT count(*) FROM payments p WHERE p.from_address = e.address AND p.tier = $1 AND p.status = 'minting') AS used
		FROM allowlist_entries e WHERE e.version = `+allowlistAtSQL+` ORDER BY e.address`, tier, at)
	return v, uses, err
}
