package web

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common/hexutil"

	"nodeledger/chain"
	"nodeledger/chain/bindings"
)

// TestWalletSelectors checks what static/wallet.js precomputed against the factory's ABI: the
// table that turns each custom error's selector into a sentence, and the nodeInfo selector of
// the withdraw form's balance check. A renamed, added or removed error fails here, not in a
// person's wallet.
func TestWalletSelectors(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(filepath.Join("..", "static", "wallet.js"))
	if err != nil {
		t.Fatal(err)
	}
	factory, err := bindings.NodeFactoryMetaData.ParseABI()
	if err != nil {
		t.Fatal(err)
	}

	t.Run("custom errors", func(t *testing.T) {
		table := map[string]string{} // error name -> selector, as wallet.js has them
		for _, m := range regexp.MustCompile(`'(0x[0-9a-f]{8})': \['(\w+)', '`).FindAllStringSubmatch(string(src), -1) {
			if _, dup := table[m[2]]; dup {
				t.Errorf("wallet.js maps %s twice", m[2])
			}
			table[m[2]] = m[1]
		}
		if len(factory.Errors) == 0 {
			t.Fatal("the factory's ABI has no custom error")
		}
		for name, e := range factory.Errors {
			want := hexutil.Encode(e.ID[:4])
			switch got, ok := table[name]; {
			case !ok:
				t.Errorf("wallet.js has no sentence for the factory's error %s (%s)", name, want)
			case got != want:
				t.Errorf("wallet.js maps %s to %s; its selector is %s", name, got, want)
			}
			delete(table, name)
		}
		for name, sel := range table {
			t.Errorf("wallet.js maps %s (%s), which the factory does not have", name, sel)
		}
	})

	t.Run("nodeInfo", func(t *testing.T) {
		m := regexp.MustCompile(`const NODE_INFO = '(0x[0-9a-f]{8})'`).FindStringSubmatch(string(src))
		if m == nil {
			t.Fatal("wallet.js has no NODE_INFO selector")
		}
		if want := hexutil.Encode(factory.Methods["nodeInfo"].ID); m[1] != want {
			t.Errorf("wallet.js's NODE_INFO is %s; nodeInfo(uint256) is %s", m[1], want)
		}
	})

	t.Run("SafeTx", func(t *testing.T) {
		// The typed data a wallet signs for a refund batch: a field missing, renamed or out of
		// order makes a signature that recovers to no owner.
		for name, want := range map[string]string{"SAFE_DOMAIN": chain.SafeDomainType, "SAFE_TX": chain.SafeTxType} {
			m := regexp.MustCompile(`(?s)const ` + name + ` = \[(.*?)\];`).FindStringSubmatch(string(src))
			if m == nil {
				t.Fatalf("wallet.js has no %s", name)
			}
			var fields []string
			for _, f := range regexp.MustCompile(`\{ name: '(\w+)', type: '(\w+)' \}`).FindAllStringSubmatch(m[1], -1) {
				fields = append(fields, f[2]+" "+f[1])
			}
			if got := want[:strings.Index(want, "(")+1] + strings.Join(fields, ",") + ")"; got != want {
				t.Errorf("wallet.js's %s types %s; the Safe hashes %s", name, got, want)
			}
		}
	})
}
