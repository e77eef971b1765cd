package store

// PollSQL is what readers ask on every poll, with arguments to plan it with: the plans test holds
// each to an index.
var PollSQL = map[string]struct {
	SQL  string
	Args []any
}{
	"PaymentByTx":     {paymentByTxSQL, []any{"0x00000000000000000000000000000000000000000000000000000000000000aa"}},
	"PaymentsFrom":    {paymentsFromSQL, []any{"0x00000000000000000000000000000000000000aa", 20}},
	"HeadPaymentByTx": {headPaymentSQL, []any{"0x00000000000000000000000000000000000000000000000000000000000000aa"}},
}
