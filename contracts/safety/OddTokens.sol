// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {TrapToken} from "./TrapToken.sol";

/// @notice Honest, USDT-style: an allowance cannot go from one non-zero value to another; it must
/// be set to 0 first.
contract ResetApproveToken is TrapToken {
    constructor(uint256 supply) TrapToken("Reset First", "RESET", supply) {}

    function approve(address spender, uint256 value) external override returns (bool) {
        require(value == 0 || allowance[msg.sender][spender] == 0, "unsafe-approve");
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }
}

/// @notice Emits the Transfer events of the token beside it, as a token split into a logic contract
/// and an event-emitting facade does.
contract TransferHerald {
    event Transfer(address indexed from, address indexed to, uint256 value);

    address public immutable token;

    constructor() {
        token = msg.sender;
    }

    function announce(address from, address to, uint256 value) external {
        require(msg.sender == token, "token only");
        emit Transfer(from, to, value);
    }
}

/// @notice Honest, but its Transfer events come from a second address (its herald), never its own.
contract SecondEmitterToken is TrapToken {
    TransferHerald public immutable herald;

    constructor(uint256 supply) TrapToken("Told Elsewhere", "HERALD", supply) {
        herald = new TransferHerald();
    }

    function _transfer(address from, address to, uint256 value) internal override returns (bool) {
        require(balances[from] >= value, "balance");
        balances[from] -= value;
        balances[to] += value;
        herald.announce(from, to, value);
        return true;
    }
}

/// @notice Honest today, with an owner who can blacklist any address from transferring.
contract BlacklistToken is TrapToken {
    mapping(address => bool) public blacklisted;

    constructor(uint256 supply) TrapToken("Listed Owner", "BLACK", supply) {}

    function setBlacklist(address account, bool listed) external {
        require(msg.sender == owner, "owner only");
        blacklisted[account] = listed;
    }

    function _transfer(address from, address to, uint256 value) internal override returns (bool) {
        require(!blacklisted[from] && !blacklisted[to], "blacklisted");
        return super._transfer(from, to, value);
    }
}

/// @notice The logic of `UpgradeableToken`: a plain token whose state lives in the proxy's storage.
contract UpgradeableTokenLogic {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    string public name;
    string public symbol;
    uint256 public totalSupply;
    address public admin;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    function decimals() external pure returns (uint8) {
        return 18;
    }

    function initialize(address holder, uint256 supply) external {
        require(admin == address(0), "initialized");
        admin = holder;
        name = "Proxied Plain";
        symbol = "PROXY";
        totalSupply = supply;
        balanceOf[holder] = supply;
        emit Transfer(address(0), holder, supply);
    }

    /// @dev Kept for the fixtures' common listing step; registers nothing.
    function setPool(address, bool) external view {
        require(msg.sender == admin, "admin only");
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        return _transfer(msg.sender, to, value);
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "allowance");
            allowance[from][msg.sender] = allowed - value;
        }
        return _transfer(from, to, value);
    }

    function _transfer(address from, address to, uint256 value) internal returns (bool) {
        require(balanceOf[from] >= value, "balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
        return true;
    }
}

/// @notice Honest, behind an EIP-1967 proxy: its deployer can swap the logic at any time.
contract UpgradeableToken {
    bytes32 internal constant IMPLEMENTATION_SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;
    bytes32 internal constant ADMIN_SLOT = 0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103;

    constructor(uint256 supply) {
        address logic = address(new UpgradeableTokenLogic());
        assembly {
            sstore(IMPLEMENTATION_SLOT, logic)
            sstore(ADMIN_SLOT, caller())
        }
        (bool ok,) = logic.delegatecall(abi.encodeCall(UpgradeableTokenLogic.initialize, (msg.sender, supply)));
        require(ok, "initialize");
    }

    function upgradeTo(address logic) external {
        address admin;
        assembly {
            admin := sload(ADMIN_SLOT)
        }
        require(msg.sender == admin, "admin only");
        assembly {
            sstore(IMPLEMENTATION_SLOT, logic)
        }
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
