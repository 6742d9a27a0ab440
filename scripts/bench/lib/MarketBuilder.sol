// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Benchmark fixture: builds a v2 market of many pools in few transactions, so that a catch-up
// benchmark can index 10,000+ real pools from a real node. Not part of the service.

interface IV2Factory {
    function createPair(address a, address b) external returns (address);
}

interface IV2Pair {
    function mint(address to) external returns (uint256);
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
    function token0() external view returns (address);
}

contract BenchToken {
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

contract MarketBuilder {
    IV2Factory public immutable factory;
    BenchToken public immutable quote;
    /// Divides every quote reserve: a real dollar of 6 decimals, held by the builder, goes further.
    uint256 public immutable scale;

    /// `quote_` zero: a quote token of its own, minted to the builder; else one the builder is sent.
    constructor(IV2Factory factory_, BenchToken quote_, uint256 scale_) {
        factory = factory_;
        quote = address(quote_) == address(0) ? new BenchToken("Bench Dollar", "BUSD", type(uint128).max) : quote_;
        scale = scale_;
    }

    /// Tokens `first` .. `first + count - 1`, each paired with the quote token, seeded and traded once.
    function build(uint256 first, uint256 count) external {
        for (uint256 i = first; i < first + count; i++) {
            BenchToken token = new BenchToken(string.concat("Bench Token ", digits(i)), string.concat("B", digits(i)), 1e27);
            address pair = factory.createPair(address(token), address(quote));
            uint256 quoteReserve = (1e12 + i * 1e6) / scale;
            token.transfer(pair, 1e24);
            quote.transfer(pair, quoteReserve);
            IV2Pair(pair).mint(address(this));
            uint256 quoteIn = quoteReserve / 1000;
            uint256 out = (quoteIn * 997 * 1e24) / (quoteReserve * 1000 + quoteIn * 997);
            quote.transfer(pair, quoteIn);
            bool quoteIs0 = IV2Pair(pair).token0() == address(quote);
            IV2Pair(pair).swap(quoteIs0 ? 0 : out, quoteIs0 ? out : 0, address(this), "");
        }
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
