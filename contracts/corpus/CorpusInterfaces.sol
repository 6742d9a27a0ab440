// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @notice The slices of Uniswap v2's Router02, factory and pair, and of an ERC-20, that the corpus
/// tokens call, as deployed tokens declare them.
interface ICorpusV2Router {
    function factory() external view returns (address);

    function swapExactTokensForTokensSupportingFeeOnTransferTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external;

    function addLiquidity(
        address tokenA,
        address tokenB,
        uint256 amountADesired,
        uint256 amountBDesired,
        uint256 amountAMin,
        uint256 amountBMin,
        address to,
        uint256 deadline
    ) external returns (uint256 amountA, uint256 amountB, uint256 liquidity);
}

interface ICorpusV2Factory {
    function createPair(address tokenA, address tokenB) external returns (address pair);
}

interface ICorpusV2Pair {
    function sync() external;
}

interface ICorpusERC20 {
    function balanceOf(address account) external view returns (uint256);

    function transfer(address to, uint256 value) external returns (bool);

    function approve(address spender, uint256 value) external returns (bool);
}
