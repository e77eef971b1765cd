package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/big"

	"nodeledger/chain"
)

// deploy deploys the factory to ETH_RPC_URL from DEPLOYER_KEY (which becomes its owner), with the
// accounts of MINTER_KEY (or MINTER_SIGNER) and DISTRIBUTOR_KEY (or DISTRIBUTOR_SIGNER) as minter
// and distributor, and prints
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
	deployer := s.key("DEPLOYER_KEY")
	if deployer == nil && s.err == nil {
		s.fail("DEPLOYER_KEY", "required by deploy")
	}
	minter := roleAccount(s.role("MINTER_KEY", "MINTER_SIGNER"))
	if minter == nil && s.err == nil {
		s.fail("MINTER_KEY", "required by deploy (or MINTER_SIGNER)")
	}
	distributor := roleAccount(s.role("DISTRIBUTOR_KEY", "DISTRIBUTOR_SIGNER"))
	if distributor == nil && s.err == nil {
		s.fail("DISTRIBUTOR_KEY", "required by deploy (or DISTRIBUTOR_SIGNER)")
	}
	if s.err != nil {
		return s.err
	}

	c, err := chain.Dial(ctx, url, chain.Config{})
	if err != nil {
		return err
	}
	defer c.Close()
	addr, err := c.DeployFactory(ctx, c.NewSender(chain.LocalSigner(deployer), big.NewInt(chainID)),
		*minter, *distributor, uint32(*maxPerWallet))
	if err != nil {
		return fmt.Errorf("deploy: %w", err)
	}
	_, err = fmt.Fprintf(stdout, "FACTORY_ADDRESS=%s\n", addr.Hex())
	return err
}
