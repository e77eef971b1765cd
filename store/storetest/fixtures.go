package storetest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/big"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"nodeledger/store"
)

// The fixtures write rows the way the passes will, with SQL, so read paths can be tested before
// and independently of the chain.

// Tier inserts a tier.
func Tier(t testing.TB, db *store.Store, id int, label, priceWei string, onSale bool) {
	t.Helper()
	mustExec(t, db, `
		INSERT INTO tiers (id, label, price_wei, max_per_wallet, holding_wei, on_sale)
		VALUES ($1, $2, $3, 5, 0, $4)`, id, label, priceWei, onSale)
}

// Node inserts a node of tier 1 (made when missing) and returns its ledger row id, which is its
// chain node id.
func Node(t testing.TB, db *store.Store, chainNodeID, owner string, createdAt time.Time) int64 {
	t.Helper()
	mustExec(t, db, `
		INSERT INTO tiers (id, label, price_wei, max_per_wallet)
		VALUES (1, 'Standard', 100000000000000000, 5) ON CONFLICT DO NOTHING`)
	var id int64
	err := db.DB().Get(&id, `
		INSERT INTO nodes (id, tier, owner, balance_wei, cumulative_wei, withdrawn_wei,
			price_wei, mint_tx, created_at)
		VALUES ($1, 1, $2, 7, 10, 3, 100000000000000000, $3, $4)
		RETURNING id`, chainNodeID, owner, TxHash(chainNodeID), createdAt)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// Distribution inserts a round and returns its id.
func Distribution(t testing.TB, db *store.Store, totalWei, status string, createdAt time.Time, confirmedAt *time.Time) int64 {
	t.Helper()
	var id int64
	err := db.DB().Get(&id, `
		INSERT INTO distributions (total_wei, node_count, mode, funding_mode, status, created_at, confirmed_at)
		VALUES ($1, 1, 'fixed', 'value', $2, $3, $4)
		RETURNING id`, totalWei, status, createdAt, confirmedAt)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// Credit inserts a credit of a round to a node and returns its id.
func Credit(t testing.TB, db *store.Store, distributionID, nodeID int64, amountWei string, createdAt time.Time) int64 {
	t.Helper()
	var id int64
	err := db.DB().Get(&id, `
		INSERT INTO credits (distribution_id, node_id, amount_wei, created_at)
		VALUES ($1, $2, $3, $4)
		RETURNING id`, distributionID, nodeID, amountWei, createdAt)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// withdrawalSeq makes each fixture withdrawal a transaction of its own.
var withdrawalSeq atomic.Int64

// Withdrawal inserts a sent withdrawal from a node and returns its id.
func Withdrawal(t testing.TB, db *store.Store, nodeID int64, amountWei, to string, createdAt time.Time) int64 {
	t.Helper()
	var id int64
	err := db.DB().Get(&id, `
		INSERT INTO withdrawals (node_id, amount_wei, to_address, tx_hash, log_index, status, created_at, confirmed_at)
		VALUES ($1, $2, $3, $4, 0, 'sent', $5, $5)
		RETURNING id`, nodeID, amountWei, to, TxHash(fmt.Sprint("withdrawal", withdrawalSeq.Add(1))), createdAt)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TxHash makes a distinct, well-formed transaction hash from seed.
func TxHash(seed string) string {
	sum := sha256.Sum256([]byte(seed))
	return "0x" + hex.EncodeToString(sum[:])
}

func mustExec(t testing.TB, db *store.Store, query string, args ...any) {
	t.Helper()
	if _, err := db.DB().Exec(query, args...); err != nil {
		t.Fatal(err)
	}
}

// MintingPayment records a payment of 1 wei from `from` as minting with tier 1 (which must
// exist), its mint transaction in the given outbox versions, oldest first; without versions it
// stays pending. The versions are not
// real transactions, so the payment is deleted, with them, when the test ends: no later test's
// pass may find them.
func MintingPayment(t testing.TB, db *store.Store, seed, from string, versions ...store.SentTx) int64 {
	t.Helper()
	var id int64
	if err := db.DB().Get(&id, `
		INSERT INTO payments (tx_hash, payment_ref, from_address, value_wei, block_number, block_hash)
		VALUES ($1, $1, $2, 1, 1, $1) RETURNING id`, TxHash(seed), from); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if len(versions) > 0 {
		if err := db.ClaimMint(ctx, id, 1, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	f := store.TxFor{Mints: []int64{id}}
	for _, v := range versions {
		var err error
		if f, err = db.KeepTx(ctx, f, v); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		mustExec(t, db, `DELETE FROM payments WHERE id = $1`, id)
		mustExec(t, db, `DELETE FROM outbox WHERE mint_batch = $1`, f.MintBatch)
		mustExec(t, db, `DELETE FROM mint_batches WHERE id = $1`, f.MintBatch)
	})
	return id
}

// SentTx is an outbox version of a transaction named by seed, at nonce, as a pass stores one
// before sending it (raw is not a real transaction: the store does not read it).
func SentTx(seed string, nonce int64) store.SentTx {
	one := store.Uint256{Int: big.NewInt(1)}
	return store.SentTx{Hash: TxHash(seed), Sender: "0x" + strings.Repeat("ab", 20), Nonce: nonce,
		Raw: []byte(seed), TipWei: one, FeeCapWei: one}
}

// Due moves the credit schedule to at: the next round, and every node's next credit.
func Due(t testing.TB, db *store.Store, at time.Time) {
	t.Helper()
	mustExec(t, db, `UPDATE nodes SET next_credit_at = $1`, at)
	mustExec(t, db, `UPDATE distributions SET next_at = $1 WHERE next_at IS NOT NULL`, at)
}

// Unannounced runs query on db with the ledger's triggers off, so that nothing of it is announced
// (store.Follow): a change the instances are not told of, as a database restored under them is.
func Unannounced(t testing.TB, db *store.Store, query string, args ...any) {
	t.Helper()
	tx, err := db.DB().Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`SET LOCAL session_replication_role = replica`); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(query, args...); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// EndAnnouncements ends, as the server would, the connections of db's database that hear the
// ledger's announcements (store.Follow): those whose last statement is a LISTEN or their
// own announcement's NOTIFY.
func EndAnnouncements(t testing.TB, db *store.Store) {
	t.Helper()
	mustExec(t, db, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND (query LIKE 'LISTEN %' OR query LIKE 'NOTIFY %')`)
}
