package sale

import (
	"fmt"

	"nodeledger/store"
)

// buyerOf is the one table of what a payment's buyer reads for each status the ledger gives it
// (the payments.status CHECK; a test holds the two to each other). A pending payment is
// seen and waits for its check: its buyer reads Waiting's word for it.
var buyerOf = map[store.PaymentStatus]store.BuyerStatus{
	store.PaymentPending:  "", // Waiting.Status
	store.PaymentMinting:  store.BuyerMinting,
	store.PaymentMinted:   store.BuyerMinted,
	store.PaymentRejected: store.BuyerRejected,
	store.PaymentRefunded: store.BuyerRefunded,
}

// BuyerStatus is what the buyer of a payment in status s reads, w being what a waiting payment
// waits on. A status this version does not know is an error, never passed on as it is.
func BuyerStatus(s store.PaymentStatus, w Waiting) (store.BuyerStatus, error) {
	b, ok := buyerOf[s]
	switch {
	case !ok:
		return "", fmt.Errorf("sale: the ledger's payment status %q has no buyer's status", s)
	case b == "":
		return w.Status(), nil
	}
	return b, nil
}

// Status is what a buyer reads of a payment waiting for its check: held while the operator holds
// minting, else on its way to minting.
func (w Waiting) Status() store.BuyerStatus {
	if w.Held {
		return store.BuyerHeld
	}
	return store.BuyerMinting
}
