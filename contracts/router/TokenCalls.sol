// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice ERC-20 calls that accept tokens returning nothing (USDT style) and refuse tokens returning
/// false, so a transfer that did not happen can never be taken for one that did. Written in assembly
/// because they run several times in every plan: the arguments go in scratch memory (past the free memory
/// pointer, which is never moved), so no `bytes` is allocated, encoded or decoded.
library TokenCalls {
    error TokenCallFailed(address token);

    function transfer(address token, address to, uint256 amount) internal {
        _call(token, 0xa9059cbb, uint160(to), amount, 0, 0x44);
    }

    function transferFrom(address token, address from, address to, uint256 amount) internal {
        _call(token, 0x23b872dd, uint160(from), uint160(to), amount, 0x64);
    }

    function approve(address token, address spender, uint256 amount) internal {
        _call(token, 0x095ea7b3, uint160(spender), amount, 0, 0x44);
    }

    /// @dev A failing `balanceOf` passes its revert on; an answer shorter than one word reverts too.
    function balanceOf(address token, address account) internal view returns (uint256 amount) {
        assembly ("memory-safe") {
            mstore(0x00, shl(224, 0x70a08231))
            mstore(0x04, account)
            if iszero(staticcall(gas(), token, 0x00, 0x24, 0x00, 0x20)) {
                let m := mload(0x40)
                returndatacopy(m, 0, returndatasize())
                revert(m, returndatasize())
            }
            if lt(returndatasize(), 0x20) { revert(0, 0) }
            amount := mload(0x00)
        }
    }

    /// @dev Calls `token` with `selector` and the first `size − 4` bytes of (a, b, c). Done: the call
    /// succeeded and returned `true`, or returned nothing from an address that has code (a call to an
    /// empty address also "succeeds").
    function _call(address token, uint256 selector, uint256 a, uint256 b, uint256 c, uint256 size) private {
        bool done;
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, shl(224, selector))
            mstore(add(m, 0x04), a)
            mstore(add(m, 0x24), b)
            mstore(add(m, 0x44), c)
            done := call(gas(), token, 0, m, size, 0x00, 0x20)
            if done {
                switch returndatasize()
                case 0 { done := iszero(iszero(extcodesize(token))) }
                default { done := and(gt(returndatasize(), 0x1f), eq(mload(0x00), 1)) }
            }
        }
        if (!done) revert TokenCallFailed(token);
    }
}
