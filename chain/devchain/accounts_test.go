package devchain

import (
	"encoding/hex"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

func TestDevAccountsMatchWellKnownAddresses(t *testing.T) {
	accounts, err := DevAccounts()
	if err != nil {
		t.Fatal(err)
	}
	if len(accounts) != NumAccounts {
		t.Fatalf("got %d accounts, want %d", len(accounts), NumAccounts)
	}
	want := map[int]string{
		0: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
		1: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
		2: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
		3: "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
		9: "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720",
	}
	for i, addr := range want {
		if got := accounts[i].Address; got != common.HexToAddress(addr) {
			t.Errorf("account %d = %s, want %s", i, got, addr)
		}
	}
	for i, a := range accounts {
		if got := crypto.PubkeyToAddress(a.Key.PublicKey); got != a.Address {
			t.Errorf("account %d: key is for %s, address says %s", i, got, a.Address)
		}
	}
	const key0 = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
	if got := hex.EncodeToString(crypto.FromECDSA(accounts[0].Key)); got != key0 {
		t.Errorf("account 0 key = %s, want %s", got, key0)
	}
}

// The BIP-39 vector pins the seed on its own, with a passphrase the dev mnemonic does not use.
func TestMnemonicSeedVector(t *testing.T) {
	seed, err := mnemonicSeed("abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about", "TREZOR")
	if err != nil {
		t.Fatal(err)
	}
	const want = "c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04"
	if got := hex.EncodeToString(seed); got != want {
		t.Errorf("seed = %s, want %s", got, want)
	}
}

// BIP-32 test vector 1 pins hardened and normal derivation apart from the mnemonic.
func TestBIP32Vector1(t *testing.T) {
	seed, _ := hex.DecodeString("000102030405060708090a0b0c0d0e0f")
	master, err := newMasterKey(seed)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		path      []uint32
		key, code string
	}{
		{"m", nil,
			"e8f32e723decf4051aefac8e2c93c9c5b214313817cdb01a1494b917c8436b35",
			"873dff81c02f525623fd1fe5167eac3a55a049de3d314bb42ee227ffed37d508"},
		{"m/0'", []uint32{hardened + 0},
			"edb2e14f9ee77d26dd93b4ecede8d16ed408ce149b6cd80b0715a2d911a0afea",
			"47fdacbd0f1097043b78c63c20c34ef4ed9a111d980047ad16282c7ae6236141"},
		{"m/0'/1", []uint32{hardened + 0, 1},
			"3c6cb8d0f6a264c91ea8b5030fadaa8e538b020f0a387421a12de9319dc93368",
			"2a7857631386ba23dacac34180dd1983734e444fdbf774041578e9b6adb37c19"},
		{"m/0'/1/2'", []uint32{hardened + 0, 1, hardened + 2},
			"cbce0d719ecf7431d88e6a89fa1483e02e35092af60c042b1df2ff59fa424dca",
			"04466b9cc8e161e966409ca52986c584f07e9dc81f735db683c3ff6ec7b1503f"},
	}
	for _, tt := range tests {
		k, err := master.derivePath(tt.path...)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := hex.EncodeToString(k.key); got != tt.key {
			t.Errorf("%s key = %s, want %s", tt.name, got, tt.key)
		}
		if got := hex.EncodeToString(k.chainCode); got != tt.code {
			t.Errorf("%s chain code = %s, want %s", tt.name, got, tt.code)
		}
	}
}
