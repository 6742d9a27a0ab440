// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {ICorpusERC20, ICorpusV2Factory, ICorpusV2Router} from "./CorpusInterfaces.sol";

/// @notice Holds the USDC a swap-back buys: a v2 pair refuses to pay out to one of its own tokens, so a
/// token paired with USDC cannot be the recipient of its own fee sale (tokens paired with a stablecoin
/// route it through a helper like this one).
contract CorpusFeeVault {
    error NotToken(address caller);

    address public immutable token;
    address public immutable usdc;

    constructor(address usdc_) {
        token = msg.sender;
        usdc = usdc_;
    }

    function release(address to) external returns (uint256 amount) {
        if (msg.sender != token) revert NotToken(msg.sender);
        amount = ICorpusERC20(usdc).balanceOf(address(this));
        if (amount != 0) ICorpusERC20(usdc).transfer(to, amount);
    }
}

/// @notice The swap-back of today's tax-token templates: fees collect in the token contract and, during a
/// holder's sell, the contract sells them through Uniswap's Router02 into its own pair (created at
/// deployment, as launch templates do). `inSwap` keeps the fee sale from taxing or re-entering itself.
/// The concrete token approves the router for its own balance.
abstract contract SwapBack {
    ICorpusV2Router public immutable router;
    address public immutable usdc;
    address public immutable pair;
    address public immutable marketing;
    address public immutable liquidityReceiver;
    uint256 public immutable swapThreshold;
    CorpusFeeVault public immutable vault;
    bool internal inSwap;

    constructor(ICorpusV2Router router_, address usdc_, address marketing_, uint256 swapThreshold_) {
        router = router_;
        usdc = usdc_;
        pair = ICorpusV2Factory(router_.factory()).createPair(address(this), usdc_);
        marketing = marketing_;
        liquidityReceiver = msg.sender;
        swapThreshold = swapThreshold_;
        vault = new CorpusFeeVault(usdc_);
        ICorpusERC20(usdc_).approve(address(router_), type(uint256).max);
    }

    /// @dev Sells `amount` of this token for USDC through the router, paid to `to`.
    function _sellFees(uint256 amount, address to) internal {
        address[] memory path = new address[](2);
        path[0] = address(this);
        path[1] = usdc;
        router.swapExactTokensForTokensSupportingFeeOnTransferTokens(amount, 0, path, to, block.timestamp);
    }

    /// @dev swapAndLiquify: a quarter of the fees stays as tokens, three quarters are sold; the kept tokens
    /// are added to the pair with a third of the proceeds (about their worth), the rest goes to marketing.
    function _liquify(uint256 amount) internal {
        inSwap = true;
        uint256 kept = amount / 4;
        _sellFees(amount - kept, address(vault));
        uint256 proceeds = vault.release(address(this));
        router.addLiquidity(address(this), usdc, kept, proceeds / 3, 0, 0, liquidityReceiver, block.timestamp);
        uint256 rest = ICorpusERC20(usdc).balanceOf(address(this));
        if (rest != 0) ICorpusERC20(usdc).transfer(marketing, rest);
        inSwap = false;
    }
}
