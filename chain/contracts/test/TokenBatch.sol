// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

interface IERC20 {
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

/// @title TokenBatch: several token transfers from the sender in one transaction, as a multicall
/// or a wallet's batch makes them: each is a Transfer log of its own, from the sender.
contract TokenBatch {
    error Failed();

    function pay(IERC20 token, address to, uint256[] calldata amounts) external {
        for (uint256 i = 0; i < amounts.length; i++) {
            if (!token.transferFrom(msg.sender, to, amounts[i])) revert Failed();
        }
    }
}
