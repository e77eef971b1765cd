// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title SignerWallet: a minimal EIP-1271 contract wallet. A signature is valid for it when its
/// owner key signed the hash, as a one-owner Safe would have it.
contract SignerWallet {
    bytes4 private constant MAGIC = 0x1626ba7e; // isValidSignature.selector
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        return ecrecover(hash, v, r, s) == owner ? MAGIC : bytes4(0xffffffff);
    }
}
