// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20Balance} from "./Externals.sol";

/// @notice ERC-20 calls that accept tokens returning nothing (USDT style) and refuse tokens returning
/// false, so a transfer that did not happen can never be taken for one that did.
library TokenCalls {
    error TokenCallFailed(address token);

    function transfer(address token, address to, uint256 amount) internal {
        _call(token, abi.encodeWithSelector(0xa9059cbb, to, amount));
    }

    function transferFrom(address token, address from, address to, uint256 amount) internal {
        _call(token, abi.encodeWithSelector(0x23b872dd, from, to, amount));
    }

    function approve(address token, address spender, uint256 amount) internal {
        _call(token, abi.encodeWithSelector(0x095ea7b3, spender, amount));
    }

    function balanceOf(address token, address account) internal view returns (uint256) {
        return IERC20Balance(token).balanceOf(account);
    }

    function _call(address token, bytes memory data) private {
        (bool ok, bytes memory result) = token.call(data);
        // No return data is accepted only from a contract: a call to an empty address also "succeeds".
        bool done = ok && (result.length == 0 ? token.code.length != 0 : abi.decode(result, (bool)));
        if (!done) revert TokenCallFailed(token);
    }
}
