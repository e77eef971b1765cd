package handlers

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"nodeledger/chain"
	"nodeledger/store"
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

// TestNotFoundIsA404: a row the store does not have is a 404 however deep it is wrapped, with a
// sentence that names nothing of the error's text; a handler's own sentence still wins.
func TestNotFoundIsA404(t *testing.T) {
	secret := "webhook_endpoints id 7"
	for _, tc := range []struct {
		name   string
		err    error
		status int
		msg    string // "": the generic sentence
	}{
		{"bare", store.ErrNotFound, http.StatusNotFound, ""},
		{"wrapped", fmt.Errorf("store.Webhook(%s): %w", secret, store.ErrNotFound), http.StatusNotFound, ""},
		{"wrapped twice", fmt.Errorf("redeliver: %w", fmt.Errorf("store.Redeliver(%s): %w", secret, store.ErrNotFound)), http.StatusNotFound, ""},
		{"joined", errors.Join(fmt.Errorf("%s: %w", secret, store.ErrNothingDue), errors.New(secret)), http.StatusNotFound, ""},
		{"a handler's own sentence", errorf(http.StatusNotFound, "There is no tier 9."), http.StatusNotFound, "There is no tier 9."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, msg, _ := Classify(tc.err)
			if status != tc.status {
				t.Fatalf("status = %d, want %d (%q)", status, tc.status, msg)
			}
			if tc.msg != "" {
				if msg != tc.msg {
					t.Fatalf("msg = %q, want %q", msg, tc.msg)
				}
				return
			}
			if msg == "" || msg == StatusMessage(http.StatusInternalServerError) || strings.Contains(msg, secret) ||
				strings.Contains(msg, "store.") || strings.Contains(msg, store.ErrNotFound.Error()) {
				t.Fatalf("msg = %q leaks the error or says nothing", msg)
			}
		})
	}
}
