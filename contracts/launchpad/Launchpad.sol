// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IUniswapV2Factory} from "@uniswap/v2-core/contracts/interfaces/IUniswapV2Factory.sol";
import {IUniswapV2Pair} from "@uniswap/v2-core/contracts/interfaces/IUniswapV2Pair.sol";
import {LaunchToken} from "./LaunchToken.sol";

interface IERC20Transfers {
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

/// @notice Bonding-curve launchpad quoted in ERC-20 USDC (pulled with transferFrom, as USDC is the quote
/// asset of every venue; a taker holding only native value deposits into USDC first, which the project's
/// router does for it).
///
/// Each token has a fixed supply: CURVE_SUPPLY is sold on a constant-product curve against a virtual USDC
/// reserve (price starts at virtualUsdc / CURVE_SUPPLY), the rest waits for graduation. Once the curve has
/// raised graduationUsdc it stops trading and anyone may call `graduate`, which moves the raised USDC and
/// tokens at the curve's final marginal price into a Uniswap v2 pair, burns the LP shares and the unused
/// tokens. That price never needs more than LIQUIDITY_SUPPLY: raised * CURVE_SUPPLY * virtual /
/// (virtual + raised)^2 is at most CURVE_SUPPLY / 4.
/// There is no trading fee: the curve alone sets the price.
/// A pair somebody created and seeded before graduation is used as found, so its seeder sets the opening
/// price; acceptable for a devnet fixture, a real launchpad would block transfers to the pair until then.
contract Launchpad {
    event TokenCreated(address indexed token, address indexed creator, string name, string symbol, uint256 supply);
    event CurveTrade(
        address indexed token, address indexed trader, bool isBuy, uint256 usdcAmount, uint256 tokenAmount
    );
    event Graduated(address indexed token, address indexed pool, uint256 usdcLiquidity, uint256 tokenLiquidity);

    error UnknownToken(address token);
    error CurveComplete(address token);
    error GraduationThresholdNotMet(uint256 raised, uint256 threshold);
    error InsufficientOutput(uint256 amountOut, uint256 minAmountOut);
    error ZeroAmount();
    error TransferFailed();

    struct Curve {
        address creator;
        bool graduated;
        uint256 usdcReserve;
        uint256 tokenReserve;
    }

    uint256 public constant TOTAL_SUPPLY = 1_000_000_000e18;
    uint256 public constant CURVE_SUPPLY = 800_000_000e18;
    uint256 public constant LIQUIDITY_SUPPLY = TOTAL_SUPPLY - CURVE_SUPPLY;
    address private constant DEAD = 0x000000000000000000000000000000000000dEaD;

    IERC20Transfers public immutable usdc;
    IUniswapV2Factory public immutable v2Factory;
    uint256 public immutable virtualUsdc;
    uint256 public immutable graduationUsdc;

    mapping(address token => Curve) private curves;

    constructor(address usdc_, address v2Factory_, uint256 virtualUsdc_, uint256 graduationUsdc_) {
        if (virtualUsdc_ == 0 || graduationUsdc_ == 0) revert ZeroAmount();
        usdc = IERC20Transfers(usdc_);
        v2Factory = IUniswapV2Factory(v2Factory_);
        virtualUsdc = virtualUsdc_;
        graduationUsdc = graduationUsdc_;
    }

    function createToken(string calldata name, string calldata symbol) external returns (address token) {
        token = address(new LaunchToken(name, symbol, TOTAL_SUPPLY));
        curves[token] = Curve({creator: msg.sender, graduated: false, usdcReserve: virtualUsdc, tokenReserve: CURVE_SUPPLY});
        emit TokenCreated(token, msg.sender, name, symbol, TOTAL_SUPPLY);
    }

    function buy(address token, uint256 usdcIn, uint256 minTokensOut) external returns (uint256 tokensOut) {
        Curve storage curve = _tradableCurve(token);
        if (usdcIn == 0) revert ZeroAmount();
        tokensOut = curve.tokenReserve * usdcIn / (curve.usdcReserve + usdcIn);
        if (tokensOut < minTokensOut) revert InsufficientOutput(tokensOut, minTokensOut);
        curve.usdcReserve += usdcIn;
        curve.tokenReserve -= tokensOut;
        _pull(address(usdc), usdcIn);
        _push(token, msg.sender, tokensOut);
        emit CurveTrade(token, msg.sender, true, usdcIn, tokensOut);
    }

    function sell(address token, uint256 tokensIn, uint256 minUsdcOut) external returns (uint256 usdcOut) {
        Curve storage curve = _tradableCurve(token);
        if (tokensIn == 0) revert ZeroAmount();
        usdcOut = curve.usdcReserve * tokensIn / (curve.tokenReserve + tokensIn);
        if (usdcOut < minUsdcOut) revert InsufficientOutput(usdcOut, minUsdcOut);
        curve.usdcReserve -= usdcOut;
        curve.tokenReserve += tokensIn;
        _pull(token, tokensIn);
        _push(address(usdc), msg.sender, usdcOut);
        emit CurveTrade(token, msg.sender, false, usdcOut, tokensIn);
    }

    function graduate(address token) external returns (address pool) {
        Curve storage curve = _knownCurve(token);
        if (curve.graduated) revert CurveComplete(token);
        uint256 raised = curve.usdcReserve - virtualUsdc;
        if (raised < graduationUsdc) revert GraduationThresholdNotMet(raised, graduationUsdc);
        curve.graduated = true;

        uint256 tokenLiquidity = raised * curve.tokenReserve / curve.usdcReserve;
        uint256 unused = LIQUIDITY_SUPPLY + curve.tokenReserve - tokenLiquidity;
        pool = v2Factory.getPair(token, address(usdc));
        if (pool == address(0)) pool = v2Factory.createPair(token, address(usdc));
        _push(address(usdc), pool, raised);
        _push(token, pool, tokenLiquidity);
        IUniswapV2Pair(pool).mint(DEAD);
        _push(token, DEAD, unused);
        emit Graduated(token, pool, raised, tokenLiquidity);
    }

    function creatorOf(address token) external view returns (address) {
        return curves[token].creator;
    }

    function graduated(address token) external view returns (bool) {
        return curves[token].graduated;
    }

    /// @notice The reserves that price the curve, the virtual USDC included: a buy of `x` USDC yields
    /// `tokenReserve * x / (usdcReserve + x)` tokens. USDC actually raised is usdcReserve - virtualUsdc.
    function curveReserves(address token) external view returns (uint256 usdcReserve, uint256 tokenReserve) {
        Curve storage curve = curves[token];
        return (curve.usdcReserve, curve.tokenReserve);
    }

    function _knownCurve(address token) private view returns (Curve storage curve) {
        curve = curves[token];
        if (curve.creator == address(0)) revert UnknownToken(token);
    }

    function _tradableCurve(address token) private view returns (Curve storage curve) {
        curve = _knownCurve(token);
        if (curve.graduated || curve.usdcReserve - virtualUsdc >= graduationUsdc) revert CurveComplete(token);
    }

    function _pull(address asset, uint256 amount) private {
        if (!IERC20Transfers(asset).transferFrom(msg.sender, address(this), amount)) revert TransferFailed();
    }

    function _push(address asset, address to, uint256 amount) private {
        if (!IERC20Transfers(asset).transfer(to, amount)) revert TransferFailed();
    }
}
