// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {RouterBase} from "./RouterBase.sol";

/// @notice The router's venue table, kept in code rather than storage: the constructor writes it as the
/// runtime code of a data contract it creates (SSTORE2-style: a STOP byte, then one 96-byte record per
/// venue), and keeps that contract's address and the venue count as immutables. Code cannot change, so
/// the table is fixed for the router's life as before, and a plan reads it with one cold `EXTCODECOPY`
/// (2,600 gas, then 100 per step) instead of a cold `SLOAD` per slot of every venue it looks at.
/// Record: word 0 = family (8 bits) | registry (160) | fee (24) | feeGetter (32) | feeDenominator (32);
/// word 1 = swapCallback (32 bits, above) | deployer (160); word 2 = initCodeHash.
abstract contract VenueTable is RouterBase {
    uint256 private constant RECORD = 96;
    /// @dev `PUSH2 len DUP1 PUSH1 10 RETURNDATASIZE CODECOPY RETURNDATASIZE RETURN`: returns the `len`
    /// bytes after this 10-byte header as the new contract's code.
    bytes7 private constant COPY_REST = 0x80600a3d393df3;

    address private immutable _table;
    uint256 private immutable _count;
    /// @dev Bit `b` set: some PoolManager or launchpad of the table has an address whose low byte is `b`.
    /// A recipient whose bit is clear is none of them, so most plans skip reading the table for that check.
    uint256 private immutable _sinkBits;

    constructor(VenueConfig[] memory venues) {
        uint256 count = venues.length;
        if (count == 0 || count > 255) revert InvalidVenueTable(count);
        // One STOP byte first, so calling the data contract does nothing.
        bytes memory code = new bytes(1 + count * RECORD);
        uint256 sinkBits;
        for (uint256 i; i < count; ++i) {
            VenueConfig memory venue = venues[i];
            if (!_validVenue(venue)) revert InvalidVenueTable(i);
            if (venue.family >= FAMILY_V4) sinkBits |= 1 << _lowByte(venue.registry);
            uint256 head = uint256(venue.family) << 248 | uint256(uint160(venue.registry)) << 88
                | uint256(venue.fee) << 64 | uint256(uint32(venue.feeGetter)) << 32 | venue.feeDenominator;
            uint256 deployer = uint256(uint32(venue.swapCallback)) << 160 | uint256(uint160(venue.deployer));
            bytes32 hash = venue.initCodeHash;
            assembly ("memory-safe") {
                let ptr := add(add(code, 33), mul(i, RECORD))
                mstore(ptr, head)
                mstore(add(ptr, 32), deployer)
                mstore(add(ptr, 64), hash)
            }
        }
        bytes memory init = abi.encodePacked(hex"61", uint16(code.length), COPY_REST, code);
        address table;
        assembly ("memory-safe") {
            table := create(0, add(init, 32), mload(init))
        }
        if (table == address(0)) revert InvalidVenueTable(count);
        _table = table;
        _count = count;
        _sinkBits = sinkBits;
    }

    function _lowByte(address account) private pure returns (uint256) {
        return uint160(account) & 0xff;
    }

    /// @dev A registry always; CREATE2 parameters for the pool families; a fee rule below 100 % for v2.
    function _validVenue(VenueConfig memory venue) private pure returns (bool) {
        if (venue.registry == address(0) || venue.family > FAMILY_LAUNCHPAD) return false;
        if (venue.family == FAMILY_V2 || venue.family == FAMILY_V3) {
            if (venue.deployer == address(0) || venue.initCodeHash == bytes32(0)) return false;
        }
        // Another callback name only for v3 forks, and never one of the router's own functions: the call
        // would reach that function, not the fallback that checks the pool in flight and pays it.
        if (venue.swapCallback != bytes4(0)) {
            if (venue.family != FAMILY_V3 || _isOwnSelector(venue.swapCallback)) return false;
        }
        if (venue.family != FAMILY_V2) return true;
        if (venue.feeGetter == bytes4(0)) return venue.fee < FEE_PIPS;
        return venue.feeDenominator != 0;
    }

    function venueCount() external view returns (uint256 count) {
        return _count;
    }

    function venueAt(uint8 index) external view returns (VenueConfig memory venue) {
        if (index >= _count) revert UnknownVenue(0, index);
        return _record(index);
    }

    /// @notice The venue a step names, or `UnknownVenue` for an index outside the table.
    function _venue(Leg memory leg) internal view returns (VenueConfig memory) {
        if (leg.venue >= _count) revert UnknownVenue(leg.index, leg.venue);
        return _record(leg.venue);
    }

    function _record(uint256 index) private view returns (VenueConfig memory) {
        address table = _table;
        uint256 head;
        uint256 deployer;
        bytes32 hash;
        assembly ("memory-safe") {
            // Scratch past the free memory pointer: read here and not kept.
            let ptr := mload(0x40)
            extcodecopy(table, ptr, add(1, mul(index, RECORD)), RECORD)
            head := mload(ptr)
            deployer := mload(add(ptr, 32))
            hash := mload(add(ptr, 64))
        }
        return VenueConfig({
            family: uint8(head >> 248),
            registry: address(uint160(head >> 88)),
            deployer: address(uint160(deployer)),
            fee: uint24(head >> 64),
            feeGetter: bytes4(uint32(head >> 32)),
            feeDenominator: uint32(head),
            initCodeHash: hash,
            swapCallback: bytes4(uint32(deployer >> 160))
        });
    }

    /// @notice Output sent to a PoolManager or launchpad would be theirs, not the recipient's. Unless the
    /// recipient's low byte rules it out, one copy of the whole table, then each record's head compared.
    function _refuseVenueRecipient(address recipient) internal view {
        if (_sinkBits >> _lowByte(recipient) & 1 == 0) return;
        address table = _table;
        uint256 size = _count * RECORD;
        uint256 heads;
        assembly ("memory-safe") {
            heads := mload(0x40)
            extcodecopy(table, heads, 1, size)
        }
        for (uint256 ptr = heads; ptr < heads + size; ptr += RECORD) {
            uint256 head;
            assembly ("memory-safe") {
                head := mload(ptr)
            }
            if (head >> 248 >= FAMILY_V4 && address(uint160(head >> 88)) == recipient) {
                revert InvalidRecipient(recipient);
            }
        }
    }
}
