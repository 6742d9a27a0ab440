// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Benchmark fixture: seeds many pools over several Uniswap v2-family factories in few transactions, so
// that the venues-at-scale benchmark indexes a market of 20 venues and 10,000+ real pools. Not part of
// the service.

interface IERC20Like {
    function transfer(address to, uint256 value) external returns (bool);
}

interface IV2Factory {
    function createPair(address a, address b) external returns (address);
    function getPair(address a, address b) external view returns (address);
}

interface IV2Pair {
    function mint(address to) external returns (uint256);
}

contract VenueToken {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;

    event Transfer(address indexed from, address indexed to, uint256 value);

    constructor(string memory name_, string memory symbol_, uint256 supply) {
        name = name_;
        symbol = symbol_;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        balanceOf[msg.sender] -= value;
        balanceOf[to] += value;
        emit Transfer(msg.sender, to, value);
        return true;
    }
}

contract VenueBuilder {
    struct Seed {
        IV2Factory factory;
        address a;
        address b;
        uint256 amountA;
        uint256 amountB;
    }

    /// Pools between tokens the builder holds, with the given reserves; a pool that exists is topped up.
    function seed(Seed[] calldata seeds) external {
        for (uint256 i = 0; i < seeds.length; i++) {
            Seed calldata s = seeds[i];
            address pair = s.factory.getPair(s.a, s.b);
            if (pair == address(0)) pair = s.factory.createPair(s.a, s.b);
            IERC20Like(s.a).transfer(pair, s.amountA);
            IERC20Like(s.b).transfer(pair, s.amountB);
            IV2Pair(pair).mint(address(this));
        }
    }

    /// Tokens `first` .. `first + count - 1`, each with two pools on two different factories, against two
    /// different hubs. `hubPerUsd[h]` is hub h's base units per dollar; a token's first pool holds
    /// `usd(i)` dollars of its hub and 1e24 of the token, its second as many dollars as the next token's
    /// first, at the same token price.
    function tokens(IV2Factory[] memory factories, address[] memory hubs, uint256[] memory hubPerUsd, uint256 first, uint256 count)
        external
    {
        for (uint256 i = first; i < first + count; i++) {
            VenueToken token = new VenueToken(string.concat("Venue Token ", digits(i)), string.concat("V", digits(i)), 1e27);
            uint256 h = i % hubs.length;
            pool(factories[i % factories.length], token, 1e24, hubs[h], usd(i) * hubPerUsd[h]);
            h = (i + 1 + (i / hubs.length) % (hubs.length - 1)) % hubs.length;
            uint256 f = (i + 1 + (i / factories.length) % (factories.length - 1)) % factories.length;
            pool(factories[f], token, (1e24 * usd(i + 1)) / usd(i), hubs[h], usd(i + 1) * hubPerUsd[h]);
        }
    }

    /// From $1,000 to about $51,000, scattered over i.
    function usd(uint256 i) internal pure returns (uint256) {
        return 1_000 + (i * 7_919) % 50_000;
    }

    function pool(IV2Factory factory, VenueToken token, uint256 tokenAmount, address hub, uint256 hubAmount) internal {
        address pair = factory.createPair(address(token), hub);
        token.transfer(pair, tokenAmount);
        IERC20Like(hub).transfer(pair, hubAmount);
        IV2Pair(pair).mint(address(this));
    }

    function digits(uint256 value) internal pure returns (string memory) {
        if (value == 0) return "0";
        uint256 length;
        for (uint256 v = value; v > 0; v /= 10) length++;
        bytes memory text = new bytes(length);
        for (; value > 0; value /= 10) text[--length] = bytes1(uint8(48 + (value % 10)));
        return string(text);
    }
}
