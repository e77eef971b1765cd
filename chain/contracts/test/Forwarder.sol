// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title Forwarder: a minimal contract wallet. Its pay() sends the value it receives on to `to`
/// as an internal call, the way a Safe or an ERC-4337 account pays: the transfer has no
/// top-level transaction of its own. payThenRevert() does the same and then reverts.
contract Forwarder {
    error Failed();

    function pay(address payable to) external payable {
        (bool ok,) = to.call{value: msg.value}("");
        if (!ok) revert Failed();
    }

    /// @notice Two payments in one transaction, each of half the value.
    function payTwice(address payable to) external payable {
        (bool ok1,) = to.call{value: msg.value / 2}("");
        (bool ok2,) = to.call{value: msg.value - msg.value / 2}("");
        if (!ok1 || !ok2) revert Failed();
    }

    /// @notice A transfer whose effects the revert undoes: no payment happened.
    function payThenRevert(address payable to) external payable {
        (bool ok,) = to.call{value: msg.value}("");
        ok;
        revert Failed();
    }

    /// @notice A transfer inside a call that fails and is caught: the outer transaction succeeds,
    /// the inner transfer is undone.
    function payInFailedCall(address payable to) external payable {
        try this.payThenRevert{value: msg.value}(to) {} catch {}
    }

    receive() external payable {}
}
