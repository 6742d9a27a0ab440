// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @notice Base of the adversarial tokens the safety tests deploy: a plain 18-decimal ERC-20 whose
/// every entry point is virtual, with an owner (who seeds liquidity untouched) and a pool registry, so
/// each trap below overrides exactly the behaviour it lies about.
abstract contract TrapToken {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    address public immutable owner;
    mapping(address => uint256) internal balances;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => bool) public isPool;

    constructor(string memory name_, string memory symbol_, uint256 supply) {
        name = name_;
        symbol = symbol_;
        owner = msg.sender;
        balances[msg.sender] = supply;
        totalSupply = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function setPool(address pool, bool enabled) external {
        require(msg.sender == owner, "owner only");
        isPool[pool] = enabled;
    }

    function balanceOf(address account) public view virtual returns (uint256) {
        return balances[account];
    }

    function approve(address spender, uint256 value) external virtual returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external virtual returns (bool) {
        return _transfer(msg.sender, to, value);
    }

    function transferFrom(address from, address to, uint256 value) external virtual returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "allowance");
            allowance[from][msg.sender] = allowed - value;
        }
        return _transfer(from, to, value);
    }

    /// @dev A sell: tokens going into a pool from anyone but the owner.
    function _isSell(address from, address to) internal view returns (bool) {
        return isPool[to] && from != owner;
    }

    function _transfer(address from, address to, uint256 value) internal virtual returns (bool) {
        require(balances[from] >= value, "balance");
        balances[from] -= value;
        balances[to] += value;
        emit Transfer(from, to, value);
        return true;
    }
}

/// @notice Sells go through only when the context looks simulated (gas price, base fee or coinbase
/// zero: naive `eth_call` / `eth_simulateV1` defaults); in a real transaction they revert.
contract SimulationAwareToken is TrapToken {
    constructor(uint256 supply) TrapToken("Looks Fine", "FINE", supply) {}

    function _transfer(address from, address to, uint256 value) internal override returns (bool) {
        if (_isSell(from, to)) {
            bool simulated = tx.gasprice == 0 || block.basefee == 0 || block.coinbase == address(0);
            require(simulated, "balance");
        }
        return super._transfer(from, to, value);
    }
}

/// @notice Reports every holder but the owner and pools a larger balance than it holds, so a wallet
/// "sees" more than it bought; selling what it sees fails.
contract BalanceLieToken is TrapToken {
    constructor(uint256 supply) TrapToken("Rich Feeling", "RICH", supply) {}

    function balanceOf(address account) public view override returns (uint256) {
        uint256 real = balances[account];
        if (account == owner || isPool[account] || real == 0) return real;
        return real * 2;
    }
}

/// @notice A sell's transfer returns false and moves nothing, where a careless caller takes any
/// non-reverting transfer for a done one.
contract FalseTransferToken is TrapToken {
    constructor(uint256 supply) TrapToken("Silent No", "NOPE", supply) {}

    function _transfer(address from, address to, uint256 value) internal override returns (bool) {
        if (_isSell(from, to)) return false;
        return super._transfer(from, to, value);
    }
}

/// @notice Sells are refused unless the transaction's origin is the direct caller of the token, a
/// `tx.origin` trick that passes a wallet's own transfer but blocks every router.
contract OriginGuardToken is TrapToken {
    constructor(uint256 supply) TrapToken("Direct Only", "DIRECT", supply) {}

    function _transfer(address from, address to, uint256 value) internal override returns (bool) {
        if (_isSell(from, to)) require(tx.origin == msg.sender, "balance");
        return super._transfer(from, to, value);
    }
}

/// @notice Sells can be locked and unlocked by the owner at any time: judged `ok` while open, it turns
/// into a honeypot in one transaction. A verdict from a block before the switch is a verdict on
/// another token.
contract SwitchLockToken is TrapToken {
    bool public sellsLocked;

    constructor(uint256 supply) TrapToken("Switch Lock", "SWITCH", supply) {}

    function setSellsLocked(bool locked) external {
        require(msg.sender == owner, "owner only");
        sellsLocked = locked;
    }

    function _transfer(address from, address to, uint256 value) internal override returns (bool) {
        if (sellsLocked && _isSell(from, to)) revert("balance");
        return super._transfer(from, to, value);
    }
}
