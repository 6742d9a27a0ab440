// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {NamedToken} from "./NamedToken.sol";
import {Owned} from "./Owned.sol";

/// @notice Base for tokens that treat transfers to and from AMM pools as trades. A "pool" is whatever
/// address holds the pool's tokens: a Uniswap v2 pair, a v3 pool, or the v4 PoolManager itself.
abstract contract PoolAwareToken is NamedToken, Owned {
    event PoolSet(address indexed pool, bool isPool);

    mapping(address account => bool) public isPool;

    constructor(string memory name_, string memory symbol_, uint256 initialSupply)
        NamedToken(name_, symbol_, 18)
    {
        _mint(msg.sender, initialSupply);
    }

    function setPool(address pool, bool enabled) external onlyOwner {
        isPool[pool] = enabled;
        emit PoolSet(pool, enabled);
    }
}
