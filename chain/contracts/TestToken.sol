// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title TestToken: a minimal ERC-20 for dev and tests (the holding token, the dev USDC); its
/// owner mints. Three behaviours real tokens have can be switched on by the owner, so the service
/// is tested against them: a fee on transfer (the recipient gets less than was sent, as some
/// tokens do), a blocklist (USDC's: a blocked address neither sends nor receives), and answering
/// false to a transfer that fails instead of reverting (as older tokens do).
contract TestToken {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    uint256 public totalSupply;
    address public immutable owner;
    /// @notice What a transfer burns, in basis points of its value.
    uint16 public feeBps;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => bool) public blocked;
    /// @notice Whether a transfer that fails answers false, moving nothing, instead of reverting.
    bool public quiet;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    error NotOwner();
    error InsufficientBalance();
    error InsufficientAllowance();
    error Blocked();
    error FeeTooHigh();

    constructor(string memory name_, string memory symbol_, uint8 decimals_) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        owner = msg.sender;
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    function mint(address to, uint256 value) external onlyOwner {
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    function setFee(uint16 bps) external onlyOwner {
        if (bps > 10_000) revert FeeTooHigh();
        feeBps = bps;
    }

    function setBlocked(address who, bool on) external onlyOwner {
        blocked[who] = on;
    }

    function setQuiet(bool on) external onlyOwner {
        quiet = on;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        if (quiet && (blocked[msg.sender] || blocked[to] || balanceOf[msg.sender] < value)) return false;
        _transfer(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed < value) revert InsufficientAllowance();
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
        _transfer(from, to, value);
        return true;
    }

    function _transfer(address from, address to, uint256 value) private {
        if (blocked[from] || blocked[to]) revert Blocked();
        if (balanceOf[from] < value) revert InsufficientBalance();
        uint256 fee = value * feeBps / 10_000;
        balanceOf[from] -= value;
        balanceOf[to] += value - fee;
        emit Transfer(from, to, value - fee);
        if (fee > 0) {
            totalSupply -= fee;
            emit Transfer(from, address(0), fee);
        }
    }
}
