package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"nodeledger/store/storetest"
)

// TestSettingsExport: `settings export` writes the log as JSON lines that `settings check` holds
// with nothing but the file; a line changed in the file is named; --after writes the rest.
func TestSettingsExport(t *testing.T) {
	t.Parallel()
	url := storetest.NewURL(t)
	db, err := storetest.Open(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for i, price := range []string{"100", "200", "300"} {
		storetest.Tier(t, db, i+1, "Tier", price, true)
	}
	var out bytes.Buffer
	if err := run(t.Context(), []string{"settings", "export"}, env("DATABASE_URL", url), &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines: %s", len(lines), out.String())
	}
	file := filepath.Join(t.TempDir(), "settings.jsonl")
	check := func(content string) (string, error) {
		if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		var said bytes.Buffer
		err := run(t.Context(), []string{"settings", "check", file}, env(), &said, io.Discard)
		return said.String(), err
	}
	if said, err := check(out.String()); err != nil || !strings.HasPrefix(said, "entries 1 to 3 hold") {
		t.Fatalf("%q, %v", said, err)
	}
	tampered := strings.Replace(out.String(), `\"price_wei\": 200`, `\"price_wei\": 1`, 1)
	if tampered == out.String() {
		t.Fatal("the test found no price to change")
	}
	if _, err := check(tampered); err == nil || !strings.Contains(err.Error(), "entry 2") {
		t.Fatalf("a price changed in the file: %v", err)
	}

	out.Reset()
	if err := run(t.Context(), []string{"settings", "export", "--after", "2"}, env("DATABASE_URL", url), &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if said, err := check(out.String()); err != nil || !strings.HasPrefix(said, "entries 3 to 3 hold") {
		t.Fatalf("after 2: %q, %v", said, err)
	}
}
