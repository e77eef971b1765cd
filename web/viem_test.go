package web

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"nodeledger/handlers"
	"nodeledger/store/storetest"
)

// TestSignInWithViem signs in with a real wallet library in another language: viem's
// signMessage (Node.js) signs the message of /api/auth/nonce, as a browser wallet would.
// `make test` installs it (npm ci in web/testdata/viem).
func TestSignInWithViem(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "viem")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "viem")); err != nil {
		t.Fatal("viem is not installed: `make test` installs it, or run npm ci in web/testdata/viem")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node not found: .ci/run installs Node.js")
	}
	db := storetest.New(t)
	s := authServer(t, db, nil, nil, handlers.Config{})
	srv := httptest.NewServer(s.e)
	defer srv.Close()

	key, _ := crypto.GenerateKey()
	out, err := exec.Command(node, filepath.Join(dir, "signin.mjs"), srv.URL, hexutil.Encode(crypto.FromECDSA(key))).CombinedOutput()
	if err != nil {
		t.Fatalf("viem sign-in: %v\n%s", err, out)
	}
	var me struct {
		Address string `json:"address"`
	}
	if err := json.Unmarshal(out, &me); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	if me.Address != strings.ToLower(crypto.PubkeyToAddress(key.PublicKey).Hex()) {
		t.Fatalf("signed in as %s", me.Address)
	}
}
