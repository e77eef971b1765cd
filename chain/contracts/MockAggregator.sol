// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title MockAggregator: a Chainlink-style price feed (AggregatorV3Interface) whose owner sets
/// the answer, for dev and tests.
contract MockAggregator {
    uint8 public immutable decimals;
    string public description;
    address public immutable owner;

    uint80 private round;
    int256 private answer;
    uint256 private updatedAt;

    error NotOwner();

    constructor(uint8 decimals_, string memory description_, int256 answer_) {
        decimals = decimals_;
        description = description_;
        owner = msg.sender;
        _set(answer_);
    }

    function setAnswer(int256 answer_) external {
        if (msg.sender != owner) revert NotOwner();
        _set(answer_);
    }

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer_, uint256 startedAt, uint256 updatedAt_, uint80 answeredInRound)
    {
        return (round, answer, updatedAt, updatedAt, round);
    }

    function _set(int256 answer_) private {
        round++;
        answer = answer_;
        updatedAt = block.timestamp;
    }
}
