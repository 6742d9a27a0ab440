// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {SignedApprovals} from "./token/SignedApprovals.sol";

/// @notice The devnet's ERC-20 face of USDC at 0x3600000000000000000000000000000000000000.
/// On Arc the native gas token (18 decimals) and this 6-decimal ERC-20 are one balance; no local EVM can
/// do that, so here native value converts 1e12 : 1 into this token and back. Sending native value in and
/// pulling it out again keeps "pay principal and gas from one native balance" true on the devnet.
/// The bootstrap installs the RUNTIME code with `anvil_setCode`: nothing may depend on a constructor,
/// so metadata are constants and the EIP-712 domain is computed per call (see SignedApprovals).
/// There is no owner and no mint: accounts are funded by depositing native value, which keeps the
/// invariant `address(this).balance >= totalSupply * 1e12` that every withdrawal relies on.
contract DevUSDC is SignedApprovals {
    error DepositNotWholeUnit(uint256 value);
    error NativeTransferFailed();

    uint256 private constant NATIVE_PER_UNIT = 1e12;

    function name() public pure override returns (string memory) {
        return "USDC";
    }

    function symbol() public pure override returns (string memory) {
        return "USDC";
    }

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    function version() public pure override returns (string memory) {
        return "2";
    }

    receive() external payable {
        _deposit(msg.sender);
    }

    function deposit() external payable {
        _deposit(msg.sender);
    }

    /// @notice Mints to `to`, so a router can turn a taker's native value into the taker's ERC-20 USDC.
    function depositFor(address to) external payable {
        _deposit(to);
    }

    /// @notice Burns `amount` (6 decimals) and sends `amount * 1e12` native back to the caller.
    function withdraw(uint256 amount) external {
        _burn(msg.sender, amount);
        (bool ok,) = msg.sender.call{value: amount * NATIVE_PER_UNIT}("");
        if (!ok) revert NativeTransferFailed();
    }

    /// @dev Value below 1e-6 USDC cannot be represented here; it is refused rather than kept or refunded
    /// so that no native value is ever stranded in this contract and the caller learns of the mistake.
    function _deposit(address to) private {
        if (msg.value % NATIVE_PER_UNIT != 0) revert DepositNotWholeUnit(msg.value);
        _mint(to, msg.value / NATIVE_PER_UNIT);
    }
}
