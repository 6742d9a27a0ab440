// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ITradeRouter} from "./ITradeRouter.sol";

/// @notice The slices of outside contracts the router calls, written against their published ABIs so the
/// router does not depend on the compiler versions of the v2/v3 sources.

interface IERC20Balance {
    function balanceOf(address account) external view returns (uint256);
    function allowance(address owner, address spender) external view returns (uint256);
}

interface IPermit2Allowance {
    function permit(address owner, ITradeRouter.PermitSingle calldata permitSingle, bytes calldata signature)
        external;
    function transferFrom(address from, address to, uint160 amount, address token) external;
}

interface ILaunchpadCurve {
    function buy(address token, uint256 usdcIn, uint256 minTokensOut) external returns (uint256 tokensOut);
    function sell(address token, uint256 tokensIn, uint256 minUsdcOut) external returns (uint256 usdcOut);
    function curveReserves(address token) external view returns (uint256 usdcReserve, uint256 tokenReserve);
}

/// @notice The devnet's USDC: native value sent to `deposit` mints 1 unit per 1e12 wei to the sender.
interface INativeDeposit {
    function deposit() external payable;
}
