// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {NodeFactory} from "../NodeFactory.sol";

/// @title BulkFactory: a NodeFactory that can count many nodes into a tier in one call, for the
/// test that measures a round's gas at 10, 10,000 and 100,000 nodes. A round reads only a tier's
/// count, so nodes counted here cost it what minted ones do; they have no owner, and
/// nothing but that test uses them.
contract BulkFactory is NodeFactory {
    constructor(address minter_, address distributor_, uint32 maxPerWallet_)
        NodeFactory(minter_, distributor_, maxPerWallet_)
    {}

    function addNodes(uint8 tier, uint64 count) external onlyOwner {
        require(count > 0);
        addToTier(tier, count);
        nodeCount += count;
    }
}
