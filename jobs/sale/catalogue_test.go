package sale

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"testing"

	"nodeledger/store"
	"nodeledger/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

// update rewrites the API document's list of reason codes from the catalogue (go test
// ./jobs/sale -run TestCatalogue -update): the catalogue is where a reason is written.
var update = flag.Bool("update", false, "rewrite web/openapi.json's ReasonCode from the catalogue")

const openAPIPath = "../../web/openapi.json"

// TestCatalogue holds everything that names the reasons and the payment statuses to the
// catalogue and the status table: the SQL CHECKs, the API document, the labels and sentences.
// A code missing from any of them fails here.
func TestCatalogue(t *testing.T) {
	codes := make([]store.ReasonCode, len(Catalogue))
	for i, e := range Catalogue {
		codes[i] = e.Code
	}

	t.Run("each entry is whole and its own", func(t *testing.T) {
		labels := map[string]store.ReasonCode{}
		for _, e := range Catalogue {
			if e.Label == "" || e.Doc == "" || e.say == nil {
				t.Errorf("%s: a label, a description and a sentence are each required", e.Code)
			}
			if other, ok := labels[e.Label]; ok {
				t.Errorf("%s and %s are both counted as %q", other, e.Code, e.Label)
			}
			labels[e.Label] = e.Code
			if Entry(e.Code).Code != e.Code {
				t.Errorf("%s is in the catalogue twice", e.Code)
			}
		}
		if Catalogue[len(Catalogue)-1].Code != Other {
			t.Error("other must come last: Entry tells a code it does not know as the last entry")
		}
	})

	t.Run("the SQL CHECKs", func(t *testing.T) {
		s := migrated(t)
		if got := checkValues[store.ReasonCode](t, s, "payments_reason_code_check"); !sameSet(got, codes) {
			t.Errorf("payments.reason_code may be %v; the catalogue has %v: write a migration", got, codes)
		}
		for _, st := range checkValues[store.PaymentStatus](t, s, "payments_status_check") {
			if st.Buyer(false) == "" || st.Buyer(true) == "" {
				t.Errorf("payments.status may be %s, which the buyer's table (store/status.go) does not map", st)
			}
		}
	})

	t.Run("the API document", func(t *testing.T) {
		doc, err := os.ReadFile(openAPIPath)
		if err != nil {
			t.Fatal(err)
		}
		want := reasonCodeSchema()
		if *update {
			doc, err = replaceOneOf(doc, want)
			if err == nil {
				err = os.WriteFile(openAPIPath, doc, 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		var d struct {
			Components struct {
				Schemas struct {
					ReasonCode struct {
						OneOf []oneOf `json:"oneOf"`
					} `json:"ReasonCode"`
				} `json:"schemas"`
			} `json:"components"`
		}
		if err := json.Unmarshal(doc, &d); err != nil {
			t.Fatal(err)
		}
		if got := d.Components.Schemas.ReasonCode.OneOf; !slices.Equal(got, want) {
			t.Errorf("web/openapi.json's ReasonCode differs from the catalogue: run go test ./jobs/sale -run TestCatalogue -update\ndocumented %v\ncatalogue  %v", got, want)
		}
	})

	t.Run("every reason is told", func(t *testing.T) {
		tier := 1
		a := Args{Tier: &tier, TierLabel: "Pro", Text: "as recorded", Supply: 1, Sold: 1, MaxPerWallet: 1, Allocation: 1,
			PaidWei: store.Uint256{}, HoldingToken: "0x5fbdb2315678afecb367f032d93f642f64180aa3"}
		for _, e := range Catalogue {
			r := &Reason{Code: e.Code, Args: a}
			if s := r.Sentence(); s == nil || *s == "" {
				t.Errorf("%s has no sentence", e.Code)
			}
			if s := r.Precheck(); s == nil || *s == "" {
				t.Errorf("%s has no sentence for the pre-check", e.Code)
			}
		}
	})
}

// oneOf is one entry of the API document's ReasonCode.
type oneOf struct {
	Const       string `json:"const"`
	Description string `json:"description"`
}

func reasonCodeSchema() []oneOf {
	out := make([]oneOf, len(Catalogue))
	for i, e := range Catalogue {
		out[i] = oneOf{Const: string(e.Code), Description: e.Doc}
	}
	return out
}

// checkValues are the words CHECK constraint name of the payments table allows.
func checkValues[T ~string](t *testing.T, s *store.Store, name string) []T {
	t.Helper()
	var def string
	err := s.DB().Get(&def, `SELECT pg_get_constraintdef(oid) FROM pg_constraint
		WHERE conrelid = 'payments'::regclass AND conname = $1`, name)
	if err != nil {
		t.Fatalf("the CHECK %s: %v", name, err)
	}
	var out []T
	for _, m := range regexp.MustCompile(`'([a-z_]+)'::text`).FindAllStringSubmatch(def, -1) {
		out = append(out, T(m[1]))
	}
	return out
}

func sameSet[T ~string](a, b []T) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// replaceOneOf writes entries as the "oneOf" array of the document's ReasonCode schema, leaving
// the rest of the document byte for byte.
func replaceOneOf(doc []byte, entries []oneOf) ([]byte, error) {
	at := bytes.Index(doc, []byte(`"ReasonCode": {`))
	if at < 0 {
		return nil, fmt.Errorf("no ReasonCode schema")
	}
	open := bytes.Index(doc[at:], []byte(`"oneOf": [`))
	if open < 0 {
		return nil, fmt.Errorf("no oneOf in ReasonCode")
	}
	start := at + open + len(`"oneOf": `)
	// The array ends at the bracket that closes it; the descriptions hold no brackets' quotes.
	dec := json.NewDecoder(bytes.NewReader(doc[start:]))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, err
	}
	end := start + int(dec.InputOffset())
	lineStart := bytes.LastIndexByte(doc[:start], '\n') + 1
	indent := string(bytes.Repeat([]byte(" "), len(doc[lineStart:start])-len(bytes.TrimLeft(doc[lineStart:start], " "))))
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(indent, "  ")
	if err := enc.Encode(entries); err != nil {
		return nil, err
	}
	out := append([]byte{}, doc[:start]...)
	out = append(out, bytes.TrimRight(buf.Bytes(), "\n")...)
	return append(out, doc[end:]...), nil
}
