// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice The devnet's stand-in for PancakeSwap v3's PancakeV3PoolDeployer, whose bytecode no npm package
/// ships (the npm package v3-core has the factory and the pool). It behaves as the original does: the
/// factory, set once, alone may deploy; `deploy` exposes the pool's parameters while the pool's
/// constructor reads them, and CREATE2s the pool with salt keccak256(abi.encode(token0, token1, fee)).
/// The pool's creation code is the package's own, given at construction (kept as the code of a data
/// contract), so the pools' init code hash is PancakeSwap's real one.
contract PancakeV3PoolDeployer {
    struct Parameters {
        address factory;
        address token0;
        address token1;
        uint24 fee;
        int24 tickSpacing;
    }

    Parameters public parameters;
    address public factoryAddress;
    address private immutable _poolCode;

    event SetFactoryAddress(address indexed factory);

    constructor(bytes memory poolCreationCode) {
        // `PUSH2 len DUP1 PUSH1 10 RETURNDATASIZE CODECOPY RETURNDATASIZE RETURN`, then the code.
        bytes memory init = abi.encodePacked(hex"61", uint16(poolCreationCode.length), hex"80600a3d393df3", poolCreationCode);
        address code;
        assembly ("memory-safe") {
            code := create(0, add(init, 32), mload(init))
        }
        require(code != address(0), "pool code not stored");
        _poolCode = code;
    }

    function setFactoryAddress(address factory) external {
        require(factoryAddress == address(0), "already initialized");
        factoryAddress = factory;
        emit SetFactoryAddress(factory);
    }

    function deploy(address factory, address token0, address token1, uint24 fee, int24 tickSpacing)
        external
        returns (address pool)
    {
        require(msg.sender == factoryAddress, "only factory can call deploy");
        parameters = Parameters({factory: factory, token0: token0, token1: token1, fee: fee, tickSpacing: tickSpacing});
        address source = _poolCode;
        bytes32 salt = keccak256(abi.encode(token0, token1, fee));
        assembly ("memory-safe") {
            let size := extcodesize(source)
            let ptr := mload(0x40)
            extcodecopy(source, ptr, 0, size)
            pool := create2(0, ptr, size, salt)
        }
        require(pool != address(0), "pool not deployed");
        delete parameters;
    }
}
