// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice Where a factory's CREATE2 puts a pool: the router computes each v2/v3 pool from its tokens
/// and refuses any other address, so a plan cannot make it call (or pay) a contract posing as a pool.
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
        return _create2(factory, keccak256(abi.encodePacked(token0, token1)), initCodeHash);
    }

    /// @dev Uniswap v3: salt = keccak256(abi.encode(token0, token1, fee)).
    function v3Pool(address factory, bytes32 initCodeHash, address token0, address token1, uint24 fee)
        internal
        pure
        returns (address)
    {
        return _create2(factory, keccak256(abi.encode(token0, token1, fee)), initCodeHash);
    }

    function _create2(address deployer, bytes32 salt, bytes32 initCodeHash) private pure returns (address) {
        return address(uint160(uint256(keccak256(abi.encodePacked(hex"ff", deployer, salt, initCodeHash)))));
    }
}
