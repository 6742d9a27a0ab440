// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {NamedToken} from "./token/NamedToken.sol";
import {Owned} from "./token/Owned.sol";

/// @notice Plain ERC-20 for the seeded market: blue chips, unknowns, impersonators and thin-pool tokens
/// differ only in the metadata and liquidity the bootstrap gives them.
contract DevToken is NamedToken, Owned {
    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint256 initialSupply)
        NamedToken(name_, symbol_, decimals_)
    {
        _mint(msg.sender, initialSupply);
    }

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}
