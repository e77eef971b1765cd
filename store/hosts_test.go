package store_test

import (
	"cmp"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"nodeledger/store"
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

// TestOpenOverTheSocket: a URL for this machine's server is opened over the server's Unix
// socket where it is there, and over TCP where the socket refuses (here a file that is no
// socket) or the URL asks for TLS or names its host in the query.
func TestOpenOverTheSocket(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	dsn := storetest.NewURL(t)
	overTCP := func(db *store.Store) bool {
		t.Helper()
		var tcp bool
		if err := db.DB().GetContext(ctx, &tcp, `SELECT inet_server_addr() IS NOT NULL`); err != nil {
			t.Fatal(err)
		}
		return tcp
	}
	// Where the server's socket takes this URL's user (a private test server has none; .ci/run
	// trusts local connections), Open goes through it.
	if local, ok := store.LocalSocket(dsn, store.SocketDirs); ok {
		if direct, err := sqlx.Connect("postgres", local); err == nil {
			direct.Close()
			db, err := store.Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if overTCP(db) {
				t.Fatalf("%s is opened over TCP, not over %s", dsn, local)
			}
		} else {
			t.Logf("the server's socket refuses %s (%v): only the fallback is tested", local, err)
		}
	}

	fake := t.TempDir()
	u, _ := url.Parse(dsn)
	if err := os.WriteFile(filepath.Join(fake, ".s.PGSQL."+cmp.Or(u.Port(), "5432")), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := store.LocalSocket(dsn, []string{fake}); !ok {
		t.Fatal("the fake socket is not tried")
	}
	tcp, err := store.OpenWithSockets(ctx, dsn, []string{fake})
	if err != nil {
		t.Fatalf("a socket that refuses: %v", err)
	}
	defer tcp.Close()
	if !overTCP(tcp) {
		t.Fatal("opened over a socket that refuses")
	}

	for k, v := range map[string]string{"sslmode": "require", "host": "127.0.0.1"} {
		q := u.Query()
		q.Set(k, v)
		asked := *u
		asked.RawQuery = q.Encode()
		if s, ok := store.LocalSocket(asked.String(), store.SocketDirs); ok {
			t.Fatalf("%s is rewritten to %s", &asked, s)
		}
	}
}
