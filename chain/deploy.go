package chain

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"nodeledger/chain/bindings"
)

// DeployFactory deploys the factory from the sender (its owner) with the given minter,
// distributor and total of nodes per wallet, waits for it to be mined and returns its address.
func (c *Client) DeployFactory(ctx context.Context, s *Sender, minter, distributor common.Address, maxPerWallet uint32) (common.Address, error) {
	code := append(common.FromHex(bindings.NodeFactoryMetaData.Bin), c.nf.PackConstructor(minter, distributor, maxPerWallet)...)
	r, err := s.Transact(ctx, nil, code, nil)
	if err != nil {
		return common.Address{}, err
	}
	if r.Status != types.ReceiptStatusSuccessful {
		return common.Address{}, fmt.Errorf("deploying the factory reverted (tx %s)", r.TxHash)
	}
	return r.ContractAddress, nil
}
