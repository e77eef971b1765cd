package web

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"nodeledger/handlers"
	"nodeledger/store/storetest"
)

func TestErrorEnvelope(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{})
	s.e.GET("/api/test/panic", func(echo.Context) error { panic("secret panic detail") })
	s.e.GET("/api/test/fail", func(echo.Context) error { return errors.New(`pq: relation "secret_table" does not exist`) })

	for _, tc := range []struct {
		name, method, path string
		status             int
		message            string
	}{
		{"unknown route", http.MethodGet, "/api/nope", http.StatusNotFound, "There is nothing at this address."},
		{"wrong method", http.MethodPost, "/api/stats", http.StatusMethodNotAllowed, "This method is not allowed here."},
		{"panic", http.MethodGet, "/api/test/panic", http.StatusInternalServerError, "Something went wrong on our side; please retry in a little while."},
		{"unexpected error", http.MethodGet, "/api/test/fail", http.StatusInternalServerError, "Something went wrong on our side; please retry in a little while."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := s.do(t, tc.method, tc.path, "")
			wantStatus(t, rec, tc.status)
			if msg := errorMessage(t, rec); msg != tc.message {
				t.Fatalf("message %q, want %q", msg, tc.message)
			}
			if rec.Header().Get("Cache-Control") != "no-store" {
				t.Fatalf("Cache-Control %q on an error", rec.Header().Get("Cache-Control"))
			}
		})
	}
	log := s.log.String()
	if !strings.Contains(log, "secret panic detail") || !strings.Contains(log, "goroutine") || !strings.Contains(log, "secret_table") {
		t.Fatalf("the detail of 500s belongs in the log, got:\n%s", log)
	}

	t.Run("the log line names the request", func(t *testing.T) {
		rec := s.do(t, http.MethodGet, "/api/test/fail", "")
		id := rec.Header().Get("X-Request-Id")
		if len(id) < 16 || !strings.Contains(s.log.String(), `"request_id":"`+id+`"`) {
			t.Fatalf("request id %q not in the log:\n%s", id, s.log.String())
		}
	})
}

// TestHtmxErrorFragment: an htmx request that fails gets its sentence alone, with its status,
// for the page's script to show where the answer would have gone (a whole page swapped into a
// corner of one helps nobody); the API keeps its envelope, and a history restore, which asks
// for a whole page, gets the page.
func TestHtmxErrorFragment(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{})
	s.e.GET("/test/fail", func(echo.Context) error { return errors.New(`pq: relation "secret_table" does not exist`) })
	missing := errorMessage(t, s.get(t, "/api/node/987654"))
	if !strings.Contains(missing, "987654") {
		t.Fatalf("the API's sentence for a missing node: %q", missing)
	}
	htmx := []string{"HX-Request", "true"}

	for _, tc := range []struct {
		name, path string
		status     int
		message    string
	}{
		{"a missing node", "/node/987654", http.StatusNotFound, missing},
		{"a missing route", "/partials/nope", http.StatusNotFound, "There is nothing at this address."},
		{"an unexpected failure", "/test/fail", http.StatusInternalServerError, "Something went wrong on our side; please retry in a little while."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := s.do(t, http.MethodGet, tc.path, "", htmx...)
			wantStatus(t, rec, tc.status)
			body := rec.Body.String()
			if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
				t.Fatalf("Content-Type %q", ct)
			}
			if strings.Contains(body, "<html") || strings.Contains(body, "<main") || strings.Contains(body, "secret_table") {
				t.Fatalf("not a fragment: %s", body)
			}
			p := page(t, rec.Body).Find(`body > p.bad[role=alert][data-testid=error]`)
			if p.Length() != 1 || p.Text() != tc.message {
				t.Fatalf("fragment %s, want the sentence %q", body, tc.message)
			}
		})
	}

	t.Run("the API answers htmx with its envelope", func(t *testing.T) {
		rec := s.do(t, http.MethodGet, "/api/node/987654", "", htmx...)
		wantStatus(t, rec, http.StatusNotFound)
		if msg := errorMessage(t, rec); msg != missing {
			t.Fatalf("message %q, want %q", msg, missing)
		}
	})
	t.Run("a history restore gets the page", func(t *testing.T) {
		rec := s.do(t, http.MethodGet, "/node/987654", "", "HX-Request", "true", "HX-History-Restore-Request", "true")
		wantStatus(t, rec, http.StatusNotFound)
		if !strings.Contains(rec.Body.String(), "<html") {
			t.Fatalf("a history restore got %s", rec.Body)
		}
	})
	t.Run("without htmx, the page", func(t *testing.T) {
		rec := s.do(t, http.MethodGet, "/node/987654", "")
		wantStatus(t, rec, http.StatusNotFound)
		if doc := page(t, rec.Body); doc.Find("html").Length() != 1 || !strings.Contains(doc.Find(`[data-testid=error]`).Text(), missing) {
			t.Fatalf("the error page: %q", doc.Text())
		}
	})
}

func TestResponseHeaders(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	plain := newServer(t, db, handlers.Config{})
	secure := newServerWith(t, db, unreachableChain(t), nil, handlers.Config{}, Options{HTTPS: true})
	for _, path := range []string{"/api/stats", "/", "/api/nope"} {
		rec := plain.do(t, http.MethodGet, path, "")
		h := rec.Header()
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "strict-origin-when-cross-origin" ||
			!strings.Contains(h.Get("Content-Security-Policy"), "default-src 'self'") {
			t.Errorf("%s: headers %v", path, h)
		}
		if h.Get("Strict-Transport-Security") != "" {
			t.Errorf("%s: HSTS over plain http", path)
		}
		if got := secure.do(t, http.MethodGet, path, "").Header().Get("Strict-Transport-Security"); !strings.HasPrefix(got, "max-age=31536000") {
			t.Errorf("%s over https: HSTS %q", path, got)
		}
	}

	t.Run("request ids", func(t *testing.T) {
		fromProxy := "lb-7f3a9c21-0001"
		if got := plain.do(t, http.MethodGet, "/api/stats", "", "X-Request-Id", fromProxy).Header().Get("X-Request-Id"); got != fromProxy {
			t.Errorf("a proxy's id %q came back as %q", fromProxy, got)
		}
		for _, bad := range []string{"", "short", strings.Repeat("a", 65), "has space in it", "<script>alert(1)</script>"} {
			got := plain.do(t, http.MethodGet, "/api/stats", "", "X-Request-Id", bad).Header().Get("X-Request-Id")
			if got == bad || len(got) < 16 {
				t.Errorf("id %q came back as %q: want a fresh one", bad, got)
			}
		}
		a := plain.do(t, http.MethodGet, "/api/stats", "").Header().Get("X-Request-Id")
		b := plain.do(t, http.MethodGet, "/api/stats", "").Header().Get("X-Request-Id")
		if a == b {
			t.Errorf("two requests, one id %q", a)
		}
	})
}

// TestRequestDeadline checks the deadline as routes.go attaches it: to everyone's routes, not to
// the operator's.
func TestRequestDeadline(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{})
	reportDeadline := func(c echo.Context) error {
		d, ok := c.Request().Context().Deadline()
		return c.JSON(http.StatusOK, map[string]any{"bounded": ok, "in": time.Until(d).Seconds()})
	}
	group{e: s.e, m: []echo.MiddlewareFunc{deadline}}.get("/test/deadline", reportDeadline)
	group{e: s.e}.get("/operator/test/deadline", reportDeadline)
	for path, bounded := range map[string]bool{"/test/deadline": true, "/operator/test/deadline": false} {
		got := decode[map[string]any](t, s.get(t, path))
		if got["bounded"] != bounded || (bounded && got["in"].(float64) > requestTimeout.Seconds()) {
			t.Errorf("%s: %v, want bounded %v within %v", path, got, bounded, requestTimeout)
		}
	}
}

// TestTricklingBody sends a POST whose body comes one byte a second: the server stops reading
// after readTimeout and frees the connection, instead of waiting for the body forever.
func TestTricklingBody(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	srv := httptest.NewUnstartedServer(nil)
	srv.Config = HTTPServer(newServer(t, db, handlers.Config{}).e)
	srv.Start()
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	fmt.Fprintf(conn, "POST /api/auth/verify HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{", srv.Listener.Addr())
	answered := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(conn) // until the server closes the connection
		answered <- string(b)
	}()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case got := <-answered:
			took := time.Since(start)
			if took < readTimeout-time.Second || took > readTimeout+3*time.Second {
				t.Fatalf("the connection ended after %v, want about %v; got %q", took, readTimeout, got)
			}
			t.Logf("the connection ended after %v with %q", took.Round(100*time.Millisecond), firstLine(got))
			return
		case <-tick.C:
			if time.Since(start) > readTimeout+5*time.Second {
				t.Fatalf("still reading a trickled body after %v", time.Since(start))
			}
			conn.Write([]byte(" "))
		}
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\r\n")
	return line
}
