package chain

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// Every frame that moves value to or from the address counts, whatever its type; a frame that
// only shows its caller's value (DELEGATECALL), a self-transfer, and a failed frame with all
// below it do not.
func TestCollectValueMovingFrames(t *testing.T) {
	addr := "0x0000000000000000000000000000000000000009"
	var frames []callFrame
	if err := json.Unmarshal([]byte(`[
		{"type": "CALL", "from": "0x0000000000000000000000000000000000000001", "to": "`+addr+`", "value": "0xa"},
		{"type": "CREATE", "from": "0x0000000000000000000000000000000000000001", "to": "0x0000000000000000000000000000000000000002", "value": "0x5", "calls": [
			{"type": "SELFDESTRUCT", "from": "0x0000000000000000000000000000000000000002", "to": "`+addr+`", "value": "0x3"}
		]},
		{"type": "CALL", "from": "0x0000000000000000000000000000000000000001", "to": "`+addr+`", "value": "0x0"},
		{"type": "CALL", "from": "`+addr+`", "to": "`+addr+`", "value": "0x7"},
		{"type": "DELEGATECALL", "from": "`+addr+`", "to": "0x0000000000000000000000000000000000000003", "value": "0x63"},
		{"type": "CREATE2", "from": "`+addr+`", "to": "0x0000000000000000000000000000000000000004", "value": "0x4"},
		{"type": "CALL", "from": "0x0000000000000000000000000000000000000001", "to": "0x0000000000000000000000000000000000000005", "value": "0x1", "error": "execution reverted", "calls": [
			{"type": "SELFDESTRUCT", "from": "0x0000000000000000000000000000000000000005", "to": "`+addr+`", "value": "0x1"}
		]}
	]`), &frames); err != nil {
		t.Fatal(err)
	}
	var got []string
	collect(frames, common.HexToAddress(addr), func(f callFrame) {
		got = append(got, f.Type+" "+f.Value.ToInt().String())
	})
	want := []string{"CALL 10", "SELFDESTRUCT 3", "CREATE2 4"}
	if len(got) != len(want) {
		t.Fatalf("collected %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("collected %v, want %v", got, want)
		}
	}

	t.Run("only a CALL in is a payment", func(t *testing.T) {
		to := common.HexToAddress(addr)
		for _, c := range []struct {
			tr   InternalTransfer
			want bool
		}{
			{InternalTransfer{Type: "CALL", From: common.Address{1}, To: to, Value: big.NewInt(1)}, true},
			{InternalTransfer{Type: "SELFDESTRUCT", From: common.Address{1}, To: to, Value: big.NewInt(1)}, false},
			{InternalTransfer{Type: "CALL", From: to, To: common.Address{1}, Value: big.NewInt(1)}, false},
		} {
			if got := c.tr.Payment(to); got != c.want {
				t.Errorf("%+v: payment %v, want %v", c.tr, got, c.want)
			}
		}
	})
}
