// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IUniswapV2Pair} from "@uniswap/v2-core/contracts/interfaces/IUniswapV2Pair.sol";
import {NamedToken} from "../../token/NamedToken.sol";
import {Owned} from "../../token/Owned.sol";

/// @notice Test fixture after the most common tax-token design (a "swap back" or "swap and liquify"
/// token): a fee on buys and sells is collected in the token contract, and during a holder's sell,
/// before the sold tokens move, the collected fees (once above a threshold) are sold through the very
/// pair the holder is selling into, paid to a treasury. So the pair's reserves move inside the seller's
/// own transfer. The owner trades untaxed, to seed liquidity.
contract SwapBackToken is NamedToken, Owned {
    uint16 public immutable buyFeeBps;
    uint16 public immutable sellFeeBps;
    uint256 public immutable swapThreshold;
    address public immutable treasury;
    address public pair;
    bool private swapping;

    constructor(uint256 supply, uint16 buyFeeBps_, uint16 sellFeeBps_, uint256 swapThreshold_, address treasury_)
        NamedToken("Swap Back", "SWPBK", 18)
    {
        buyFeeBps = buyFeeBps_;
        sellFeeBps = sellFeeBps_;
        swapThreshold = swapThreshold_;
        treasury = treasury_;
        _mint(msg.sender, supply);
    }

    function setPair(address pair_) external onlyOwner {
        pair = pair_;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (swapping || from == owner || to == owner || pair == address(0)) return _move(from, to, value);
        if (to == pair && from != address(this)) _swapBack();
        uint256 feeBps = from == pair ? buyFeeBps : to == pair ? sellFeeBps : 0;
        uint256 fee = value * feeBps / 10_000;
        if (fee != 0) _move(from, address(this), fee);
        _move(from, to, value - fee);
    }

    /// @dev As such tokens do (through Router02's fee-on-transfer sell, which pays the pair first too):
    /// pay the pair, price the input from its balance above its reserves at Uniswap v2's 0.3 %, swap.
    function _swapBack() private {
        uint256 collected = balanceOf[address(this)];
        if (collected < swapThreshold) return;
        swapping = true;
        _move(address(this), pair, collected);
        (uint112 reserve0, uint112 reserve1,) = IUniswapV2Pair(pair).getReserves();
        bool isToken0 = IUniswapV2Pair(pair).token0() == address(this);
        (uint256 reserveIn, uint256 reserveOut) = isToken0 ? (reserve0, reserve1) : (reserve1, reserve0);
        uint256 withFee = (balanceOf[pair] - reserveIn) * 997;
        uint256 out = withFee * reserveOut / (reserveIn * 1000 + withFee);
        IUniswapV2Pair(pair).swap(isToken0 ? 0 : out, isToken0 ? out : 0, treasury, "");
        swapping = false;
    }
}
