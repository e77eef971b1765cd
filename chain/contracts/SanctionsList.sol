// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title SanctionsList: a sanctions oracle with the interface of Chainalysis's (deployed at
/// 0x40C57923924B5c5c5455c48D93317139ADDaC8fb on Ethereum and several L2s): isSanctioned for
/// readers, and the owner's addToSanctionsList and removeFromSanctionsList. Dev mode and the tests
/// run it where the real one is not deployed; the service reads only isSanctioned, at a payment's
/// block, so it reads either the same way.
contract SanctionsList {
    address public immutable owner;
    mapping(address => bool) private sanctioned;

    event SanctionedAddressesAdded(address[] addrs);
    event SanctionedAddressesRemoved(address[] addrs);

    error NotOwner();

    constructor() {
        owner = msg.sender;
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    function addToSanctionsList(address[] calldata addrs) external onlyOwner {
        for (uint256 i = 0; i < addrs.length; i++) {
            sanctioned[addrs[i]] = true;
        }
        emit SanctionedAddressesAdded(addrs);
    }

    function removeFromSanctionsList(address[] calldata addrs) external onlyOwner {
        for (uint256 i = 0; i < addrs.length; i++) {
            sanctioned[addrs[i]] = false;
        }
        emit SanctionedAddressesRemoved(addrs);
    }

    function isSanctioned(address addr) external view returns (bool) {
        return sanctioned[addr];
    }
}
