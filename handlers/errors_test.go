package handlers

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"nodeledger/chain"
)

// TestSignerRefusalSentence: a pass that the external signer refused answers the operator's
// button with a sentence naming the signer, not the 500 of an unknown failure.
func TestSignerRefusalSentence(t *testing.T) {
	err := fmt.Errorf("payment 1: mint: sign: %w (request denied)", chain.ErrSignerRefused)
	status, msg, _ := Classify(err)
	if status != http.StatusBadGateway || !strings.HasPrefix(msg, "The signer refused the transaction") || strings.Contains(msg, "request denied") {
		t.Fatalf("Classify = %d %q", status, msg)
	}
}
