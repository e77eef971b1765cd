// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title Rejecter: refuses every payment, so a withdraw to it reverts with TransferFailed.
contract Rejecter {
    receive() external payable {
        revert("no");
    }
}
