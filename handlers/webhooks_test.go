package handlers

import (
	"testing"

	"nodeledger/store"
)

// The sentences written from the codes and values are the ones the deliverer wrote before it
// kept codes: store's TestWebhookFailureCodesMigration reads these same sentences into these
// codes.
func TestWebhookSentences(t *testing.T) {
	// The old sentence of a private address is read into the same code; the words now say what the rule is.
	const private = "the address's host is not a public address (10.1.2.3); set WEBHOOK_ALLOW_PRIVATE=true to allow it"
	for want, f := range map[string]store.TryFailure{
		"no answer within 10s": {Code: store.TryTimedOut, Args: store.TryFailureArgs{Seconds: 10}},
		private:                {Code: store.TryPrivateAddress, Args: store.TryFailureArgs{Address: "10.1.2.3"}},
		"the address's host could not be checked":     {Code: store.TryAddressUnchecked},
		"the host name did not resolve: no such host": {Code: store.TryUnresolved, Args: store.TryFailureArgs{Error: "no such host"}},
		"could not connect: connection refused":       {Code: store.TryUnreachable, Args: store.TryFailureArgs{Error: "connection refused"}},
		"could not connect":                           {Code: store.TryUnreachable},
		"something else":                              {Code: store.TryOther, Args: store.TryFailureArgs{Text: "something else"}},
	} {
		if got := tryFailureSentence(f); got != want {
			t.Errorf("%+v: %q, want %q", f, got, want)
		}
	}
	status := 502
	for want, o := range map[string]store.WebhookOff{
		"every try of event evt_ab12 failed for 72h0m0s; the last: HTTP 502": {Code: store.OffGaveUp,
			Args: store.WebhookOffArgs{EventID: "evt_ab12", Seconds: 259200, StatusCode: &status}},
		"every try of event evt_cd34 failed for 72h0m0s; the last: " + private: {Code: store.OffGaveUp,
			Args: store.WebhookOffArgs{EventID: "evt_cd34", Seconds: 259200,
				Failure: &store.TryFailure{Code: store.TryPrivateAddress, Args: store.TryFailureArgs{Address: "10.1.2.3"}}}},
		"switched off by hand": {Code: store.OffOther, Args: store.WebhookOffArgs{Text: "switched off by hand"}},
	} {
		if got := webhookOffSentence(&o); got == nil || *got != want {
			t.Errorf("%+v: %v, want %q", o, got, want)
		}
	}
	if webhookOffSentence(nil) != nil {
		t.Error("an endpoint that is on has a reason")
	}
}
