// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

interface IWithdraw {
    function withdraw(uint256 id, address to, uint256 amount) external;
}

/// @title Reenterer: a node owner whose receive() tries to withdraw again, for the reentrancy tests.
/// It owns nodes itself (minted to it), withdraws to itself, and re-enters once per payment.
contract Reenterer {
    IWithdraw public immutable factory;
    uint256 public reentries;
    bool public reentryFailed;
    uint256 private current;

    constructor(IWithdraw factory_) {
        factory = factory_;
    }

    function withdraw(uint256 id, uint256 amount) external {
        current = id;
        factory.withdraw(id, address(this), amount);
    }

    receive() external payable {
        if (reentries == 0) {
            reentries++;
            // Try to take the same amount again while the first withdraw is still running.
            try factory.withdraw(current, address(this), msg.value) {} catch {
                reentryFailed = true;
            }
        }
    }
}
