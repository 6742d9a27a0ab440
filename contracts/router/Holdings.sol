// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TokenCalls} from "./TokenCalls.sol";

/// @notice What the plan in progress holds in the router, token by token, in transient storage (so the
/// v3 and v4 callbacks see it too, and it is gone when the transaction ends). Only these amounts are
/// ever spent from the router or swept back to the taker: tokens that reached the router any other way
/// (sent to it by mistake, or left by a pool) belong to no plan, so no plan can spend, receive or be
/// short-changed by them.
///
/// An amount is credited only as the rise of the router's untracked balance (its balance less what the
/// plan holds) across an action, so steps nested inside one another are never counted twice, and taxed
/// transfers count what actually arrived.
library Holdings {
    error HoldingShort(address token, uint256 held, uint256 wanted);

    /// @dev Per token: (amount << 1) | 1 once listed. The list: its length at LIST, tokens after it.
    uint256 private constant SEED = uint256(keccak256("TradeRouter.holdings"));
    uint256 private constant LIST = uint256(keccak256("TradeRouter.holdings.list"));

    function _slot(address token) private pure returns (uint256 slot) {
        uint256 seed = SEED;
        assembly ("memory-safe") {
            mstore(0x00, token)
            mstore(0x20, seed)
            slot := keccak256(0x00, 0x40)
        }
    }

    function amountOf(address token) internal view returns (uint256 amount) {
        uint256 slot = _slot(token);
        assembly ("memory-safe") {
            amount := shr(1, tload(slot))
        }
    }

    /// @notice The router's balance of `token` that belongs to no plan.
    function untracked(address token) internal view returns (uint256) {
        return TokenCalls.balanceOf(token, address(this)) - amountOf(token);
    }

    function credit(address token, uint256 amount) internal {
        uint256 slot = _slot(token);
        uint256 list = LIST;
        assembly ("memory-safe") {
            let word := tload(slot)
            if iszero(word) {
                let length := add(tload(list), 1)
                tstore(add(list, length), token)
                tstore(list, length)
            }
            tstore(slot, or(shl(1, add(shr(1, word), amount)), 1))
        }
    }

    /// @notice Credits the rise of the untracked balance since `before` (what an action left here).
    function creditSince(address token, uint256 before) internal returns (uint256 arrived) {
        uint256 now_ = untracked(token);
        if (now_ > before) {
            arrived = now_ - before;
            credit(token, arrived);
        }
    }

    function debit(address token, uint256 amount) internal {
        uint256 slot = _slot(token);
        uint256 word;
        assembly ("memory-safe") {
            word := tload(slot)
        }
        uint256 held = word >> 1;
        if (held < amount) revert HoldingShort(token, held, amount);
        assembly ("memory-safe") {
            tstore(slot, or(shl(1, sub(held, amount)), 1))
        }
    }

    /// @notice Sends everything the plan holds to `to` and forgets it all.
    /// @return swept how much of `watched` was sent
    function sweep(address to, address watched) internal returns (uint256 swept) {
        uint256 length;
        uint256 list = LIST;
        assembly ("memory-safe") {
            length := tload(list)
        }
        // Most plans hold nothing at the end (every output went to the recipient): nothing to clear.
        if (length == 0) return 0;
        assembly ("memory-safe") {
            tstore(list, 0)
        }
        for (uint256 i = 1; i <= length; ++i) {
            address token;
            assembly ("memory-safe") {
                token := tload(add(list, i))
                tstore(add(list, i), 0)
            }
            uint256 slot = _slot(token);
            uint256 amount;
            assembly ("memory-safe") {
                amount := shr(1, tload(slot))
                tstore(slot, 0)
            }
            if (amount == 0) continue;
            TokenCalls.transfer(token, to, amount);
            if (token == watched) swept = amount;
        }
    }
}
