package store_test

import (
	"net/url"
	"strings"
	"testing"

	"nodeledger/store/storetest"
)

// TestOpenServerList: DATABASE_URL may name a primary and its standbys in libpq's URL form
// (postgres://h1:p1,h2:p2/db): the store tries them in order and keeps the one that answers, here
// a port nobody listens on, then the test server. Naming the servers twice is refused in a
// sentence that shows the form that works.
func TestOpenServerList(t *testing.T) {
	t.Parallel()
	u, err := url.Parse(storetest.NewURL(t))
	if err != nil {
		t.Fatal(err)
	}
	u.Host = "127.0.0.1:1," + u.Host
	q := u.Query()
	q.Set("target_session_attrs", "read-write")
	u.RawQuery = q.Encode()
	db, err := storetest.Open(t.Context(), u.String())
	if err != nil {
		t.Fatalf("open %s: %v", u, err)
	}
	defer db.Close()
	var port int
	if err := db.DB().GetContext(t.Context(), &port, `SELECT current_setting('port')::int`); err != nil || port == 1 {
		t.Fatalf("port %d, %v", port, err)
	}

	q.Set("port", "5432")
	u.RawQuery = q.Encode()
	if _, err := storetest.Open(t.Context(), u.String()); err == nil || !strings.Contains(err.Error(), "postgres://user@host1:5432,host2:5432/db") {
		t.Fatalf("servers named twice: %v", err)
	}
}
