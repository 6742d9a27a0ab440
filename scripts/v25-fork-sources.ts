/**
 * A "v2.5" fork of Uniswap v2 for the devnet's `pairfee-v2` venue: each pair's swap fee is fixed when the
 * pair is created, and the pair reports it. It is the canonical @uniswap/v2-core sources with these
 * changes and no others (each asserted to apply, so a changed v2-core fails the build instead of
 * compiling something else):
 * - the factory has `newPairSwapFee` (basis points, 30 at deployment), which its `feeToSetter` may change
 *   with `setNewPairSwapFee(uint32)` (below 10000); `createPair(tokenA, tokenB)` is unchanged and hands
 *   the current value to the new pair, so changing it never touches an existing pair;
 * - the pair's `initialize` takes that fee and stores it in `swapFee` (public: the `swapFee()` view, out
 *   of 10000), which nothing can change afterwards;
 * - the pair's K check charges `swapFee` / 10000 of the input instead of 3 / 1000.
 * `PairCreated`, `getReserves`, `swap` and the CREATE2 salt are Uniswap's, so the router and the indexer
 * treat it as any v2 fork; its pair init code hash is its own.
 */
import { v2CoreSources } from "./compile-v2-fork.js"

const patch = (file: string, text: string, from: string, to: string): string => {
  if (!text.includes(from)) throw new Error(`v2-core's ${file} no longer contains: ${from}`)
  return text.split(from).join(to)
}

const pair = (text: string): string =>
  [
    ["address public token1;", "address public token1;\n    uint32 public swapFee; // out of 10000, fixed at creation"],
    [
      "function initialize(address _token0, address _token1) external {",
      "function initialize(address _token0, address _token1, uint32 _swapFee) external {"
    ],
    ["token1 = _token1;", "token1 = _token1;\n        swapFee = _swapFee;"],
    ["balance0.mul(1000).sub(amount0In.mul(3))", "balance0.mul(10000).sub(amount0In.mul(swapFee))"],
    ["balance1.mul(1000).sub(amount1In.mul(3))", "balance1.mul(10000).sub(amount1In.mul(swapFee))"],
    ["mul(1000**2)", "mul(10000**2)"]
  ].reduce((source, [from, to]) => patch("UniswapV2Pair.sol", source, from!, to!), text)

const factory = (text: string): string =>
  [
    ["address public feeToSetter;", "address public feeToSetter;\n    uint32 public newPairSwapFee = 30;"],
    ["initialize(token0, token1);", "initialize(token0, token1, newPairSwapFee);"],
    [
      "function setFeeToSetter(address _feeToSetter) external {",
      "function setNewPairSwapFee(uint32 _swapFee) external {\n" +
      "        require(msg.sender == feeToSetter, 'UniswapV2: FORBIDDEN');\n" +
      "        require(_swapFee < 10000, 'UniswapV2: FEE');\n" +
      "        newPairSwapFee = _swapFee;\n" +
      "    }\n\n" +
      "    function setFeeToSetter(address _feeToSetter) external {"
    ]
  ].reduce((source, [from, to]) => patch("UniswapV2Factory.sol", source, from!, to!), text)

/** The v2.5 fork's sources, keyed as v2-core names them. */
export const v25ForkSources = (): Record<string, string> => {
  const sources = v2CoreSources()
  return {
    ...sources,
    "UniswapV2Pair.sol": pair(sources["UniswapV2Pair.sol"]!),
    "UniswapV2Factory.sol": factory(sources["UniswapV2Factory.sol"]!),
    "interfaces/IUniswapV2Pair.sol": patch(
      "IUniswapV2Pair.sol",
      sources["interfaces/IUniswapV2Pair.sol"]!,
      "function initialize(address, address) external;",
      "function initialize(address, address, uint32) external;"
    )
  }
}
