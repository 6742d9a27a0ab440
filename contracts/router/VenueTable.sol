// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {RouterBase} from "./RouterBase.sol";

/// @notice The router's venue table, kept in code rather than storage, fixed for the router's life. The
/// first `INLINE` entries are immutables (three words each, in the router's own code: read with no
/// account access); any entries past them are the runtime code of a data contract the constructor
/// creates (SSTORE2-style: a STOP byte, then one 96-byte record per entry), read with one cold
/// `EXTCODECOPY` (2,600 gas, then 100 per step). Either way: no setter, no `SLOAD`.
/// Record: word 0 = family (8 bits) | registry (160) | fee (24) | feeGetter (32) | feeDenominator (32);
/// word 1 = swapCallback (32 bits, above) | deployer (160); word 2 = initCodeHash.
abstract contract VenueTable is RouterBase {
    uint256 private constant RECORD = 96;
    /// @dev Entries held as immutables. A venue file of up to this many venues (the devnet's has 8) never
    /// touches a data contract; a longer one pays its cold access only on steps past them.
    uint256 private constant INLINE = 8;
    /// @dev `PUSH2 len DUP1 PUSH1 10 RETURNDATASIZE CODECOPY RETURNDATASIZE RETURN`: returns the `len`
    /// bytes after this 10-byte header as the new contract's code.
    bytes7 private constant COPY_REST = 0x80600a3d393df3;

    uint256 private immutable _head0;
    uint256 private immutable _head1;
    uint256 private immutable _head2;
    uint256 private immutable _head3;
    uint256 private immutable _head4;
    uint256 private immutable _head5;
    uint256 private immutable _head6;
    uint256 private immutable _head7;
    uint256 private immutable _deployer0;
    uint256 private immutable _deployer1;
    uint256 private immutable _deployer2;
    uint256 private immutable _deployer3;
    uint256 private immutable _deployer4;
    uint256 private immutable _deployer5;
    uint256 private immutable _deployer6;
    uint256 private immutable _deployer7;
    bytes32 private immutable _hash0;
    bytes32 private immutable _hash1;
    bytes32 private immutable _hash2;
    bytes32 private immutable _hash3;
    bytes32 private immutable _hash4;
    bytes32 private immutable _hash5;
    bytes32 private immutable _hash6;
    bytes32 private immutable _hash7;
    /// @dev The data contract holding entries `INLINE`.., zero when the table has no more.
    address private immutable _table;
    uint256 private immutable _count;
    /// @dev Bit `b` set: some PoolManager or launchpad of the table has an address whose low byte is `b`.
    /// A recipient whose bit is clear is none of them, so most plans skip reading the table for that check.
    uint256 private immutable _sinkBits;
    /// @dev Each entry's family in 2 bits, entries 0-127 in the first word and 128-254 in the second: a
    /// step's pool key is read by its family (PlanRules), before its table words are.
    uint256 private immutable _families0;
    uint256 private immutable _families1;

    constructor(VenueConfig[] memory venues) {
        uint256 count = venues.length;
        if (count == 0 || count > 255) revert InvalidVenueTable(count);
        uint256[3 * INLINE] memory words;
        // One STOP byte first, so calling the data contract does nothing.
        bytes memory code = new bytes(count > INLINE ? 1 + (count - INLINE) * RECORD : 0);
        uint256 sinkBits;
        uint256[2] memory families;
        for (uint256 i; i < count; ++i) {
            VenueConfig memory venue = venues[i];
            if (!_validVenue(venue)) revert InvalidVenueTable(i);
            if (venue.family >= FAMILY_V4) sinkBits |= 1 << _lowByte(venue.registry);
            families[i >> 7] |= uint256(venue.family) << ((i & 127) << 1);
            uint256 head = uint256(venue.family) << 248 | uint256(uint160(venue.registry)) << 88
                | uint256(venue.fee) << 64 | uint256(uint32(venue.feeGetter)) << 32 | venue.feeDenominator;
            uint256 deployer = uint256(uint32(venue.swapCallback)) << 160 | uint256(uint160(venue.deployer));
            bytes32 hash = venue.initCodeHash;
            if (i < INLINE) {
                (words[i], words[INLINE + i], words[2 * INLINE + i]) = (head, deployer, uint256(hash));
                continue;
            }
            assembly ("memory-safe") {
                let ptr := add(add(code, 33), mul(sub(i, INLINE), RECORD))
                mstore(ptr, head)
                mstore(add(ptr, 32), deployer)
                mstore(add(ptr, 64), hash)
            }
        }
        (_head0, _head1, _head2, _head3) = (words[0], words[1], words[2], words[3]);
        (_head4, _head5, _head6, _head7) = (words[4], words[5], words[6], words[7]);
        (_deployer0, _deployer1, _deployer2, _deployer3) = (words[8], words[9], words[10], words[11]);
        (_deployer4, _deployer5, _deployer6, _deployer7) = (words[12], words[13], words[14], words[15]);
        (_hash0, _hash1, _hash2, _hash3) =
            (bytes32(words[16]), bytes32(words[17]), bytes32(words[18]), bytes32(words[19]));
        (_hash4, _hash5, _hash6, _hash7) =
            (bytes32(words[20]), bytes32(words[21]), bytes32(words[22]), bytes32(words[23]));
        address table;
        if (count > INLINE) {
            bytes memory init = abi.encodePacked(hex"61", uint16(code.length), COPY_REST, code);
            assembly ("memory-safe") {
                table := create(0, add(init, 32), mload(init))
            }
            if (table == address(0)) revert InvalidVenueTable(count);
        }
        _table = table;
        _count = count;
        _sinkBits = sinkBits;
        (_families0, _families1) = (families[0], families[1]);
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

    function _familyAt(uint256 index, uint256 venue) internal view override returns (uint256) {
        if (venue >= _count) revert UnknownVenue(index, uint8(venue));
        return (venue < 128 ? _families0 : _families1) >> ((venue & 127) << 1) & 3;
    }

    /// @notice The venue a step names, or `UnknownVenue` for an index outside the table.
    function _venue(Leg memory leg) internal view returns (uint256 head, uint256 deployer, bytes32 hash) {
        if (leg.venue >= _count) revert UnknownVenue(leg.index, leg.venue);
        return _words(leg.venue);
    }

    function _record(uint256 index) private view returns (VenueConfig memory) {
        (uint256 head, uint256 deployer, bytes32 hash) = _words(index);
        return VenueConfig({
            family: _familyOf(head),
            registry: _registryOf(head),
            deployer: _deployerOf(deployer),
            fee: _feeOf(head),
            feeGetter: _feeGetterOf(head),
            feeDenominator: _feeDenominatorOf(head),
            initCodeHash: hash,
            swapCallback: _callbackNameOf(deployer)
        });
    }

    /// @dev Entry `index` (below `_count`): an immutable triple, found by halving the first `INLINE`, or
    /// a record of the data contract.
    function _words(uint256 index) private view returns (uint256 head, uint256 deployer, bytes32 hash) {
        if (index >= INLINE) return _stored(index - INLINE);
        if (index < 4) {
            if (index < 2) {
                if (index == 0) return (_head0, _deployer0, _hash0);
                return (_head1, _deployer1, _hash1);
            }
            if (index == 2) return (_head2, _deployer2, _hash2);
            return (_head3, _deployer3, _hash3);
        }
        if (index < 6) {
            if (index == 4) return (_head4, _deployer4, _hash4);
            return (_head5, _deployer5, _hash5);
        }
        if (index == 6) return (_head6, _deployer6, _hash6);
        return (_head7, _deployer7, _hash7);
    }

    function _stored(uint256 position) private view returns (uint256 head, uint256 deployer, bytes32 hash) {
        address table = _table;
        assembly ("memory-safe") {
            // Scratch past the free memory pointer: read here and not kept.
            let ptr := mload(0x40)
            extcodecopy(table, ptr, add(1, mul(position, RECORD)), RECORD)
            head := mload(ptr)
            deployer := mload(add(ptr, 32))
            hash := mload(add(ptr, 64))
        }
    }

    /// @notice Output sent to a PoolManager or launchpad would be theirs, not the recipient's. Unless the
    /// recipient's low byte rules it out, each entry's head compared.
    function _refuseVenueRecipient(address recipient) internal view {
        if (_sinkBits >> _lowByte(recipient) & 1 == 0) return;
        uint256 count = _count;
        for (uint256 i; i < count; ++i) {
            (uint256 head,,) = _words(i);
            if (_familyOf(head) >= FAMILY_V4 && _registryOf(head) == recipient) {
                revert InvalidRecipient(recipient);
            }
        }
    }
}
