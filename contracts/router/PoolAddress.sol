// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice Where a factory's CREATE2 puts a pool: the router computes each v2/v3 pool from its tokens
/// and refuses any other address, so a plan cannot make it call (or pay) a contract posing as a pool.
/// Hashed in scratch memory (past the free memory pointer, never moved): these run on every v2 and v3 step.
library PoolAddress {
    function sort(address a, address b) internal pure returns (address token0, address token1) {
        (token0, token1) = a < b ? (a, b) : (b, a);
    }

    /// @dev Uniswap v2: salt = keccak256(token0 ++ token1), packed.
    function v2Pair(address factory, bytes32 initCodeHash, address token0, address token1)
        internal
        pure
        returns (address)
    {
        bytes32 salt;
        assembly ("memory-safe") {
            let m := mload(0x40)
            // token1 in bytes 32..51, then token0 in 12..31 (its word overwrites token1's leading zeros):
            // the 40 packed bytes start at 12.
            mstore(add(m, 0x14), token1)
            mstore(m, token0)
            salt := keccak256(add(m, 0x0c), 0x28)
        }
        return _create2(factory, salt, initCodeHash);
    }

    /// @dev Uniswap v3: salt = keccak256(abi.encode(token0, token1, fee)).
    function v3Pool(address factory, bytes32 initCodeHash, address token0, address token1, uint24 fee)
        internal
        pure
        returns (address)
    {
        bytes32 salt;
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, token0)
            mstore(add(m, 0x20), token1)
            mstore(add(m, 0x40), fee)
            salt := keccak256(m, 0x60)
        }
        return _create2(factory, salt, initCodeHash);
    }

    /// @dev keccak256(0xff ++ deployer ++ salt ++ initCodeHash), its low 20 bytes.
    function _create2(address deployer, bytes32 salt, bytes32 initCodeHash) private pure returns (address pool) {
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, or(shl(248, 0xff), shl(88, deployer)))
            mstore(add(m, 0x15), salt)
            mstore(add(m, 0x35), initCodeHash)
            pool := and(keccak256(m, 0x55), 0xffffffffffffffffffffffffffffffffffffffff)
        }
    }
}
