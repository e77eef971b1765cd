package e2e

import (
	"bytes"
	"crypto/ecdsa"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"nodeledger/chain/gethdev"
	"nodeledger/store/storetest"
)

// root is the module root, relative to this package's folder, where go test runs its tests.
const root = ".."

// Each deployment makes its own empty database (the binary migrates it), so the package needs
// only a server to make them on.
func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

const (
	cronKey  = "e2e-cron-key-0123456789abcdef012345"
	adminKey = "e2e-admin-key-0123456789abcdef01234"
)

// server is the real nodeledger binary, serving.
type server struct {
	base string
	cmd  *exec.Cmd
	out  *bytes.Buffer
}

// buildBinary builds the nodeledger command, the module root's package.
func buildBinary(t *testing.T) string {
	bin := filepath.Join(t.TempDir(), "nodeledger")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func runBinary(t *testing.T, bin string, env []string, args ...string) string {
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("nodeledger %v: %v\n%s", args, err, stderr.String())
	}
	return string(out)
}

// deployFactory runs `nodeledger deploy` with env and args and returns the factory's address it
// printed.
func deployFactory(t *testing.T, bin string, env []string, args ...string) string {
	t.Helper()
	out := runBinary(t, bin, env, append([]string{"deploy"}, args...)...)
	factory, ok := strings.CutPrefix(strings.TrimSpace(out), "FACTORY_ADDRESS=")
	if !ok || len(factory) != 42 {
		t.Fatalf("deploy printed %q", out)
	}
	return factory
}

func startServer(t *testing.T, bin string, env []string) *server {
	addr := gethdev.FreeAddr(t)
	s := &server{base: "http://" + addr, cmd: exec.Command(bin), out: &bytes.Buffer{}}
	s.cmd.Env = append(env, "LISTEN_ADDR="+addr)
	s.cmd.Stdout, s.cmd.Stderr = s.out, s.out
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.cmd.Process.Signal(os.Interrupt); s.cmd.Wait() })
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if resp, err := http.Get(s.base + "/healthz"); err == nil {
			resp.Body.Close()
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not start:\n%s", s.out)
		}
	}
}

func (s *server) get(t *testing.T, path string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Get(s.base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatalf("GET %s: %d %q", path, resp.StatusCode, raw)
	}
	return resp.StatusCode, body
}

// send makes a request with one header and a body, and decodes the JSON object it answers.
func (s *server) send(t *testing.T, method, path, header, value, body string) (int, map[string]any) {
	t.Helper()
	return s.sendAs(t, method, path, "application/json", body, header, value)
}

// sendAs is send with a body of contentType.
func (s *server) sendAs(t *testing.T, method, path, contentType, body, header, value string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(method, s.base+path, strings.NewReader(body))
	req.Header.Set(header, value)
	req.Header.Set("Content-Type", contentType)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

func hexKey(t *testing.T) (key, addr string) {
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return hexutil.Encode(crypto.FromECDSA(k)), strings.ToLower(crypto.PubkeyToAddress(k.PublicKey).Hex())
}

func mustKey(t *testing.T, hexKey string) *ecdsa.PrivateKey {
	k, err := crypto.HexToECDSA(strings.TrimPrefix(hexKey, "0x"))
	if err != nil {
		t.Fatal(err)
	}
	return k
}
