package main

import (
	"strings"
	"testing"

	"nodeledger/store"
)

func TestOperatorsSetting(t *testing.T) {
	const a, b = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8", "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc"
	t.Run("entries with roles", func(t *testing.T) {
		cfg, err := loadConfig(env("OPERATORS", " 0x70997970C51812dc3A010C7d01b50e0d17dc79C8:admin , "+b+":Viewer"))
		if err != nil {
			t.Fatal(err)
		}
		want := []store.Operator{{Address: a, Role: store.RoleAdmin}, {Address: b, Role: store.RoleViewer}}
		if len(cfg.Operators) != 2 || cfg.Operators[0] != want[0] || cfg.Operators[1] != want[1] {
			t.Fatalf("operators %+v", cfg.Operators)
		}
	})
	for _, tc := range []struct{ name, value, want string }{
		{"no role", a, `OPERATORS: entry 1 ("` + a + `") has no role of viewer, operator or admin after its address and a colon`},
		{"an unknown role", a + ":root", `OPERATORS: entry 1 ("` + a + `:root") has no role`},
		{"a short address", a + ":admin,0x12:viewer", `OPERATORS: entry 2 ("0x12:viewer") does not start with an address`},
		{"an empty entry", a + ":admin,", `OPERATORS: entry 2 ("") does not start with an address`},
		{"an address twice", a + ":admin," + a + ":viewer", "OPERATORS: entry 2 names " + a + " a second time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := loadConfig(env("OPERATORS", tc.value))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q…", err, tc.want)
			}
		})
	}
}
