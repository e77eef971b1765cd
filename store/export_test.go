package store

import "context"

// Query is a statement and the arguments to plan it with.
type Query struct {
	SQL  string
	Args []any
}

// PollSQL is what readers ask on every poll, with arguments to plan it with: the plans test holds
// each to an index.
var PollSQL = map[string]Query{
	"PaymentByTx":     {paymentByTxSQL, []any{"0x00000000000000000000000000000000000000000000000000000000000000aa"}},
	"PaymentsFrom":    {paymentsFromSQL, []any{"0x00000000000000000000000000000000000000aa", 20}},
	"HeadPaymentByTx": {headPaymentSQL, []any{"0x00000000000000000000000000000000000000000000000000000000000000aa"}},
}

// PassSQL is what the passes ask at every pass or judgement, with arguments for wallet, a
// ledger's whale: the plans test holds each to what is open.
func PassSQL(wallet string) map[string]Query {
	return map[string]Query{
		"DigestFrontier": {digestFrontierSQL, nil},
		"WalletHoldings": {walletHoldingsSQL, []any{wallet, 1}},
	}
}

// OpenWithSockets is Open looking for the server's Unix socket in dirs; LocalSocket says
// whether Open would try one for dsn.
func OpenWithSockets(ctx context.Context, dsn string, dirs []string) (*Store, error) {
	return openIn(ctx, dsn, nil, dirs)
}

func LocalSocket(dsn string, dirs []string) (string, bool) { return localSocket(dsn, dirs) }

var SocketDirs = socketDirs

// NodeDocumentSQL is the SQL of a node as the API lists it: the wallets' announcements test
// holds the columns it shows to those migration 0060 announces.
const NodeDocumentSQL = nodeJSON
