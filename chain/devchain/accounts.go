package devchain

import (
	"crypto/ecdsa"
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/sha512"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// Mnemonic is the well-known test mnemonic of Hardhat, Anvil and Ganache: wallets and scripts
// that already know its accounts work against the dev chain without importing keys.
const Mnemonic = "test test test test test test test test test test test junk"

// NumAccounts is how many accounts of Mnemonic the dev chain funds, as Hardhat and Anvil do.
const NumAccounts = 10

// Account is a dev account: its address and the private key that signs for it.
type Account struct {
	Address common.Address
	Key     *ecdsa.PrivateKey
}

// DevAccounts derives the first NumAccounts accounts of Mnemonic along m/44'/60'/0'/0/i, in order.
func DevAccounts() ([]Account, error) {
	seed, err := mnemonicSeed(Mnemonic, "")
	if err != nil {
		return nil, err
	}
	master, err := newMasterKey(seed)
	if err != nil {
		return nil, err
	}
	// The account level is shared by all ten, so derive it once.
	parent, err := master.derivePath(hardened+44, hardened+60, hardened+0, 0)
	if err != nil {
		return nil, err
	}
	accounts := make([]Account, NumAccounts)
	for i := range accounts {
		child, err := parent.child(uint32(i))
		if err != nil {
			return nil, fmt.Errorf("derive account %d: %w", i, err)
		}
		key, err := crypto.ToECDSA(child.key)
		if err != nil {
			return nil, fmt.Errorf("derive account %d: %w", i, err)
		}
		accounts[i] = Account{Address: crypto.PubkeyToAddress(key.PublicKey), Key: key}
	}
	return accounts, nil
}

// mnemonicSeed is the BIP-39 seed of a mnemonic. The words are not checked against the word list
// nor their checksum verified: the seed does not depend on either. Nor is the text NFKD-normalised,
// which only matters for non-ASCII mnemonics or passphrases.
func mnemonicSeed(mnemonic, passphrase string) ([]byte, error) {
	seed, err := pbkdf2.Key(sha512.New, mnemonic, []byte("mnemonic"+passphrase), 2048, 64)
	if err != nil {
		return nil, fmt.Errorf("bip39 seed: %w", err)
	}
	return seed, nil
}

// hardened is added to a BIP-32 index to derive a hardened child (written i' in paths).
const hardened = uint32(1) << 31

var errInvalidKey = errors.New("bip32: derived key is zero or not below the curve order")

// extendedKey is a BIP-32 extended private key.
type extendedKey struct {
	key       []byte // 32 bytes, big-endian
	chainCode []byte // 32 bytes
}

// newMasterKey derives the BIP-32 master key of a seed.
func newMasterKey(seed []byte) (*extendedKey, error) {
	sum := hmacSHA512([]byte("Bitcoin seed"), seed)
	k := new(big.Int).SetBytes(sum[:32])
	if k.Sign() == 0 || k.Cmp(crypto.S256().Params().N) >= 0 {
		return nil, errInvalidKey
	}
	return &extendedKey{key: sum[:32], chainCode: sum[32:]}, nil
}

// derivePath derives the descendant along path, one index per level.
func (k *extendedKey) derivePath(path ...uint32) (*extendedKey, error) {
	for _, index := range path {
		var err error
		if k, err = k.child(index); err != nil {
			return nil, err
		}
	}
	return k, nil
}

// child is BIP-32 CKDpriv: the private child key at index, hardened when index >= 2^31.
func (k *extendedKey) child(index uint32) (*extendedKey, error) {
	data := make([]byte, 0, 37)
	if index >= hardened {
		// Hardened children hash the private key, so the public parent cannot derive them.
		data = append(data, 0)
		data = append(data, k.key...)
	} else {
		priv, err := crypto.ToECDSA(k.key)
		if err != nil {
			return nil, fmt.Errorf("bip32: %w", err)
		}
		data = append(data, crypto.CompressPubkey(&priv.PublicKey)...)
	}
	data = binary.BigEndian.AppendUint32(data, index)
	sum := hmacSHA512(k.chainCode, data)

	n := crypto.S256().Params().N
	tweak := new(big.Int).SetBytes(sum[:32])
	if tweak.Cmp(n) >= 0 {
		// BIP-32 says to skip to the next index; with odds below 2^-127 an error is simpler.
		return nil, errInvalidKey
	}
	childKey := tweak.Add(tweak, new(big.Int).SetBytes(k.key))
	childKey.Mod(childKey, n)
	if childKey.Sign() == 0 {
		return nil, errInvalidKey
	}
	return &extendedKey{key: childKey.FillBytes(make([]byte, 32)), chainCode: sum[32:]}, nil
}

func hmacSHA512(key, data []byte) []byte {
	mac := hmac.New(sha512.New, key)
	mac.Write(data)
	return mac.Sum(nil)
}
