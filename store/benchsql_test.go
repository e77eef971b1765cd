package store

import (
	"os"
	"strings"
	"testing"
)

// TestBenchSQLIsTheStoresSQL keeps the pgbench scripts of `make bench` running the very queries
// the handlers run: the ceiling they measure is only a ceiling of the same SQL.
func TestBenchSQLIsTheStoresSQL(t *testing.T) {
	t.Parallel()
	for file, want := range map[string][]string{
		"nodes.sql":         {bind(nodesByOwnerJSONSQL, ":owner")},
		"nodes-tail.sql":    {bind(nodesByOwnerJSONSQL, `'0x' || md5('owner' || :k) || left(md5('owner.' || :k), 8)`)},
		"node.sql":          {bind(nodeJSONSQL, ":id", ":limit")},
		"distributions.sql": {bind(distributionsJSONSQL, ":limit")},
		"stats.sql":         {statsSQL},
	} {
		src, err := os.ReadFile("../bench/sql/" + file)
		if err != nil {
			t.Fatal(err)
		}
		got := scriptStatements(string(src))
		if len(got) != len(want) {
			t.Errorf("%s: %d statements, the store runs %d", file, len(got), len(want))
			continue
		}
		for i := range want {
			if w := strings.Join(strings.Fields(want[i]), " "); got[i] != w {
				t.Errorf("bench/sql/%s statement %d:\n%s\nthe store runs:\n%s", file, i+1, got[i], w)
			}
		}
	}
}

// bind replaces $1, $2, ... with pgbench variables.
func bind(sql string, vars ...string) string {
	for i := len(vars); i > 0; i-- { // $10 before $1
		sql = strings.ReplaceAll(sql, "$"+string(rune('0'+i)), vars[i-1])
	}
	return sql
}

// scriptStatements returns the SQL of a pgbench script, one statement each, whitespace folded.
func scriptStatements(src string) []string {
	var sql []string
	for _, line := range strings.Split(src, "\n") {
		if t := strings.TrimSpace(line); !strings.HasPrefix(t, "--") && !strings.HasPrefix(t, `\`) {
			sql = append(sql, line)
		}
	}
	var out []string
	for _, s := range strings.Split(strings.Join(sql, "\n"), ";") {
		if s = strings.Join(strings.Fields(s), " "); s != "" {
			out = append(out, s)
		}
	}
	return out
}
