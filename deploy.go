package main

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/big"

	"github.com/ethereum/go-ethereum/crypto"

	"nodeledger/chain"
)

// deploy deploys the factory to ETH_RPC_URL from DEPLOYER_KEY (which becomes its owner), with the
// addresses of MINTER_KEY and DISTRIBUTOR_KEY as minter and distributor, and prints
// FACTORY_ADDRESS=0x... for the server's environment.
func deploy(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("deploy", flag.ContinueOnError)
	maxPerWallet := fs.Uint("max-per-wallet", 5, "nodes one wallet may hold in all (enforced by the contract)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *maxPerWallet > math.MaxUint32 {
		return fmt.Errorf("-max-per-wallet: %d is more than the contract holds (%d)", *maxPerWallet, uint32(math.MaxUint32))
	}
	// The same settings as the server's, read by the same rules.
	s := &settings{getenv: getenv}
	url := s.str("ETH_RPC_URL", "")
	if url == "" {
		return errors.New("ETH_RPC_URL: required by deploy")
	}
	chainID := s.chainID(false)
	keys := map[string]*ecdsa.PrivateKey{}
	for _, name := range []string{"DEPLOYER_KEY", "MINTER_KEY", "DISTRIBUTOR_KEY"} {
		if keys[name] = s.key(name); keys[name] == nil && s.err == nil {
			s.fail(name, "required by deploy")
		}
	}
	if s.err != nil {
		return s.err
	}
	deployer, minter, distributor := keys["DEPLOYER_KEY"], keys["MINTER_KEY"], keys["DISTRIBUTOR_KEY"]

	c, err := chain.Dial(ctx, url, chain.Config{})
	if err != nil {
		return err
	}
	defer c.Close()
	addr, err := c.DeployFactory(ctx, c.NewSender(chain.LocalSigner(deployer), big.NewInt(chainID)),
		crypto.PubkeyToAddress(minter.PublicKey), crypto.PubkeyToAddress(distributor.PublicKey), uint32(*maxPerWallet))
	if err != nil {
		return fmt.Errorf("deploy: %w", err)
	}
	_, err = fmt.Fprintf(stdout, "FACTORY_ADDRESS=%s\n", addr.Hex())
	return err
}
