// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {TrapToken} from "./TrapToken.sol";

// Tokens after real rug designs, each hiding one power the way deployed ones do: a name no list
// expects, an admin that is not `owner()` (kept in an unnamed slot), the power in a second contract,
// the power behind a proxy. The owner-power scan must find each by what a call does; the honest token
// at the end has public functions of the same kinds and must not be flagged.

/// @dev The hidden admin of the tokens below: an address only derivable from the deployer, never
/// returned by any getter (tests derive it the same way).
abstract contract KeptAdmin {
    address internal keeper = address(uint160(uint256(keccak256(abi.encode(msg.sender, "keeper")))));
}

/// @notice Mints by crediting a balance without touching totalSupply or emitting an event.
contract GhostMintToken is TrapToken, KeptAdmin {
    constructor(uint256 supply) TrapToken("Ghost Mint", "GHOST", supply) {}

    function syncRewards(address account, uint256 amount) external {
        require(msg.sender == keeper);
        balances[account] += amount;
    }
}

/// @notice A "claim" that takes a list of holders and sweeps their balances to the keeper.
contract HolderSweepToken is TrapToken, KeptAdmin {
    constructor(uint256 supply) TrapToken("Sweep Claim", "SWEEP", supply) {}

    function airdropClaim(address[] calldata holders) external {
        require(msg.sender == keeper);
        for (uint256 i; i < holders.length; i++) {
            balances[keeper] += balances[holders[i]];
            balances[holders[i]] = 0;
        }
    }
}

/// @notice The second contract that holds the power: its owner burns any holder's tokens through it.
contract Treasury {
    address internal immutable admin = msg.sender;

    function execute(SecondHandToken token, address from, uint256 amount) external {
        require(msg.sender == admin);
        token.rebalance(from, amount);
    }
}

/// @notice Burns holders' tokens, but only when its controller (a Treasury) asks.
contract SecondHandToken is TrapToken {
    address internal controller;

    constructor(uint256 supply) TrapToken("Second Hand", "HAND", supply) {
        controller = address(new Treasury());
    }

    function rebalance(address from, uint256 amount) external {
        require(msg.sender == controller);
        balances[from] -= amount;
        totalSupply -= amount;
    }
}

/// @notice A blacklist behind two letters of nonsense.
contract QuietListToken is TrapToken {
    mapping(address => bool) internal marked;

    constructor(uint256 supply) TrapToken("Quiet List", "QUIET", supply) {}

    function zx(address account, bool on) external {
        require(msg.sender == owner);
        marked[account] = on;
    }

    function _transfer(address from, address to, uint256 value) internal override returns (bool) {
        require(!marked[from], "balance");
        return super._transfer(from, to, value);
    }
}

/// @notice A trading switch called "configure": off, nobody but the owner can sell.
contract TradingGateToken is TrapToken {
    bool internal live = true;

    constructor(uint256 supply) TrapToken("Gate Keeper", "GATE", supply) {}

    function configure(bool on) external {
        require(msg.sender == owner);
        live = on;
    }

    function _transfer(address from, address to, uint256 value) internal override returns (bool) {
        if (_isSell(from, to)) require(live);
        return super._transfer(from, to, value);
    }
}

/// @notice A sell fee in basis points the owner can "tune" up to all of the sale.
contract FeeDialToken is TrapToken {
    uint256 internal sellBps;

    constructor(uint256 supply) TrapToken("Fee Dial", "DIAL", supply) {}

    function tune(uint256 bps) external {
        require(msg.sender == owner && bps <= 10_000);
        sellBps = bps;
    }

    function _transfer(address from, address to, uint256 value) internal override returns (bool) {
        if (!_isSell(from, to) || sellBps == 0) return super._transfer(from, to, value);
        uint256 fee = (value * sellBps) / 10_000;
        super._transfer(from, owner, fee);
        return super._transfer(from, to, value - fee);
    }
}

/// @notice A per-sell cap the owner can "calibrate" down to nothing.
contract SellCapToken is TrapToken {
    uint256 internal cap = type(uint256).max;

    constructor(uint256 supply) TrapToken("Sell Cap", "CAPD", supply) {}

    function calibrate(uint256 amount) external {
        require(msg.sender == owner);
        cap = amount * 1e18;
    }

    function _transfer(address from, address to, uint256 value) internal override returns (bool) {
        if (_isSell(from, to)) require(value <= cap, "balance");
        return super._transfer(from, to, value);
    }
}

/// @notice Takes its sell fee's tokens off to a swapper contract on every sell.
contract FeeSwapper {
    function swapFees(uint256 amount) external pure returns (uint256) {
        return amount;
    }
}

/// @notice Calls its fee swapper on every sell; the owner's "router update" points it at an address
/// with no code, and every sell reverts.
contract RouterSwapToken is TrapToken {
    FeeSwapper internal swapper;

    constructor(uint256 supply) TrapToken("Router Swap", "ROUTE", supply) {
        swapper = new FeeSwapper();
    }

    function updateSwapper(address next) external {
        require(msg.sender == owner);
        swapper = FeeSwapper(next);
    }

    function _transfer(address from, address to, uint256 value) internal override returns (bool) {
        if (_isSell(from, to)) swapper.swapFees(value / 100);
        return super._transfer(from, to, value);
    }
}

/// @notice The logic of `ProxiedMintToken`: an operator kept in the proxy's storage mints at will.
contract ProxiedMintLogic {
    event Transfer(address indexed from, address indexed to, uint256 value);

    uint256 public totalSupply;
    address internal operator;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => bool) internal pools;

    function decimals() external pure returns (uint8) {
        return 18;
    }

    function initialize(address holder, uint256 supply) external {
        require(operator == address(0));
        operator = holder;
        totalSupply = supply;
        balanceOf[holder] = supply;
        emit Transfer(address(0), holder, supply);
    }

    function setPool(address pool, bool on) external {
        require(msg.sender == operator);
        pools[pool] = on;
    }

    function settle(address to, uint256 amount) external {
        require(msg.sender == operator);
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        return _move(msg.sender, to, value);
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        allowance[from][msg.sender] -= value;
        return _move(from, to, value);
    }

    function _move(address from, address to, uint256 value) internal returns (bool) {
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
        return true;
    }
}

/// @notice An EIP-1967 proxy in front of `ProxiedMintLogic`.
contract ProxiedMintToken {
    bytes32 internal constant IMPLEMENTATION_SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;
    bytes32 internal constant ADMIN_SLOT = 0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103;

    constructor(uint256 supply) {
        address logic = address(new ProxiedMintLogic());
        assembly {
            sstore(IMPLEMENTATION_SLOT, logic)
            sstore(ADMIN_SLOT, caller())
        }
        (bool ok,) = logic.delegatecall(abi.encodeCall(ProxiedMintLogic.initialize, (msg.sender, supply)));
        require(ok);
    }

    fallback() external {
        assembly {
            let logic := sload(IMPLEMENTATION_SLOT)
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), logic, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch ok
            case 0 { revert(0, returndatasize()) }
            default { return(0, returndatasize()) }
        }
    }
}

/// @notice Honest: anyone may mint 1,000 tokens once, up to a cap, and burn their own.
contract OpenMintToken is TrapToken {
    uint256 internal constant CAP = 2_000_000_000e18;
    mapping(address => bool) internal minted;

    constructor(uint256 supply) TrapToken("Open Mint", "OPEN", supply) {}

    function mint() external {
        require(!minted[msg.sender] && totalSupply + 1_000e18 <= CAP);
        minted[msg.sender] = true;
        totalSupply += 1_000e18;
        balances[msg.sender] += 1_000e18;
        emit Transfer(address(0), msg.sender, 1_000e18);
    }

    function burn(uint256 amount) external {
        balances[msg.sender] -= amount;
        totalSupply -= amount;
        emit Transfer(msg.sender, address(0), amount);
    }
}
