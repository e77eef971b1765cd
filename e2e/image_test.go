//go:build long

package e2e

import (
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"nodeledger/chain/gethdev"
	"nodeledger/store/storetest"
)

// TestImage runs the container image `make image` built (IMAGE) with podman against the
// machine's PostgreSQL, with dev mode's embedded chain, as a non-root user on scratch: /livez and
// /readyz answer 200 once the service has migrated its database and reads the chain.
func TestImage(t *testing.T) {
	image := os.Getenv("IMAGE")
	if image == "" {
		t.Skip("IMAGE is unset: make image-test builds the image and sets it")
	}
	size, err := exec.Command("podman", "image", "inspect", "--format", "{{.Size}}", image).Output()
	if err != nil {
		t.Fatalf("podman image inspect %s: %v", image, err)
	}
	t.Logf("image %s: %s bytes", image, strings.TrimSpace(string(size)))

	addr := gethdev.FreeAddr(t)
	name := "nodeledger-image-test-" + strconv.Itoa(os.Getpid())
	// The host's network, where the tests' PostgreSQL listens. runc, and limits no higher than
	// this process's own: Debian's crun refuses mixed v1/v2 cgroups, and a container runtime
	// without CAP_SYS_RESOURCE (a sandboxed CI) may not raise a limit.
	run := exec.Command("podman", "run", "--detach", "--rm", "--name", name, "--network=host", "--runtime", "runc",
		"--ulimit", "nofile=4096:4096", "--ulimit", "nproc=4096:4096",
		"-e", "DATABASE_URL="+storetest.EmptyDatabase(t), "-e", "LISTEN_ADDR="+addr, "-e", "DEV_RPC_ADDR=127.0.0.1:0", image)
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("podman run: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		if t.Failed() {
			logs, _ := exec.Command("podman", "logs", name).CombinedOutput()
			t.Logf("the container's log:\n%s", logs)
		}
		exec.Command("podman", "stop", "--time", "5", name).Run()
	})

	start := time.Now()
	for _, path := range []string{"/readyz", "/livez"} {
		for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(250 * time.Millisecond) {
			resp, err := http.Get("http://" + addr + path)
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					break
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s never answered 200 (last: %v %v)", path, resp, err)
			}
		}
	}
	t.Logf("ready %v after podman run", time.Since(start).Round(100*time.Millisecond))
}
