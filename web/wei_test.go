package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/labstack/echo/v4"
)

// Spec §1: every field whose name ends in Wei is a string of decimal digits. Every test server
// (newServerWith) walks each JSON answer it gives, at any depth, and the test that made it fails
// when one such field is anything else (null is allowed where the document says so). This covers
// every answer the suite produces, documented routes or not, and so every future field too.

var weiDigits = regexp.MustCompile(`^\d+$`)

// weiViolations lists the fields of the JSON document body whose name ends in "Wei" and whose
// value is neither null nor a string of decimal digits, as "path: value".
func weiViolations(body []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil // not JSON: the OpenAPI and envelope checks judge it
	}
	var out []string
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				p := path + "." + k
				if strings.HasSuffix(k, "Wei") {
					if s, ok := v[k].(string); v[k] != nil && (!ok || !weiDigits.MatchString(s)) {
						out = append(out, fmt.Sprintf("%s: %v", p, jsonText(v[k])))
					}
				}
				walk(p, v[k])
			}
		case []any:
			for i, e := range v {
				walk(fmt.Sprintf("%s[%d]", path, i), e)
			}
		}
	}
	walk("$", doc)
	return out
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// weiAudit is the middleware a test server runs to collect the violations of its answers.
type weiAudit struct {
	mu         sync.Mutex
	violations []string
}

func (a *weiAudit) middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		tee := &teeWriter{ResponseWriter: c.Response().Writer}
		c.Response().Writer = tee
		err := next(c)
		if err != nil {
			c.Error(err) // render the error now, through the tee, so it is walked too
			err = nil
		}
		// The OpenAPI document describes such fields; it holds none.
		if strings.HasPrefix(c.Response().Header().Get(echo.HeaderContentType), echo.MIMEApplicationJSON) && c.Path() != "/api/openapi.json" {
			if v := weiViolations(tee.body.Bytes()); len(v) > 0 {
				a.mu.Lock()
				a.violations = append(a.violations, fmt.Sprintf("%s %s: %s", c.Request().Method, c.Request().URL, strings.Join(v, ", ")))
				a.mu.Unlock()
			}
		}
		return err
	}
}

// check fails t when any answer had a violation.
func (a *weiAudit) check(t testing.TB) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, v := range a.violations {
		t.Errorf("a field ending in Wei is not a decimal string (spec §1): %s", v)
	}
}

type teeWriter struct {
	http.ResponseWriter
	body bytes.Buffer
}

func (w *teeWriter) Write(p []byte) (int, error) {
	w.body.Write(p)
	return w.ResponseWriter.Write(p)
}

func (w *teeWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection through the tee, as it does on the
// server without it: the exports set their write deadline through it.
func (w *teeWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func TestWeiViolations(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"decimal strings and null", `{"balanceWei":"0","x":{"totalWei":"12"},"outstandingWei":null}`, nil},
		{"a number", `{"priceWei":100}`, []string{"$.priceWei: 100"}},
		{"a word, nested in a list", `{"tiers":[{"enforcedBy":{"holdingWei":"operator"}}]}`,
			[]string{`$.tiers[0].enforcedBy.holdingWei: "operator"`}},
		{"a sign", `[{"amountWei":"-1"}]`, []string{`$[0].amountWei: "-1"`}},
		{"a decimal point", `{"a":{"b":[{"totalWei":"1.5"}]}}`, []string{`$.a.b[0].totalWei: "1.5"`}},
		{"an object", `{"feeWei":{"v":"1"}}`, []string{`$.feeWei: {"v":"1"}`}},
		{"not JSON", `<html>`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := weiViolations([]byte(tc.body))
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}
