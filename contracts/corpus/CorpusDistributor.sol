// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {ICorpusERC20} from "./CorpusInterfaces.sol";

/// @notice The dividend distributor of reward-token templates: holders' shares mirror their token
/// balances, USDC deposits raise the dividends per share, and `process(gas)`, called by the token on
/// every transfer, pays the holders in turn while the gas it has spent stays under its budget and the
/// call still has more than `MIN_GAS_LEFT` to finish with.
contract CorpusDistributor {
    error NotToken(address caller);

    uint256 private constant PRECISION = 1e36;
    uint256 private constant MIN_GAS_LEFT = 30_000;

    struct Share {
        uint256 amount;
        uint256 excluded;
        uint256 realised;
    }

    address public immutable token;
    address public immutable usdc;
    uint256 public immutable minDistribution;
    address[] public shareholders;
    mapping(address holder => uint256) private indexOf;
    mapping(address holder => Share) public shares;
    uint256 public totalShares;
    uint256 public dividendsPerShare;
    uint256 public accounted;
    uint256 public currentIndex;

    constructor(address usdc_, uint256 minDistribution_) {
        token = msg.sender;
        usdc = usdc_;
        minDistribution = minDistribution_;
    }

    modifier onlyToken() {
        if (msg.sender != token) revert NotToken(msg.sender);
        _;
    }

    /// @notice Credits whatever USDC arrived since the last deposit to the current shares.
    function deposit() external onlyToken {
        uint256 held = ICorpusERC20(usdc).balanceOf(address(this));
        if (held <= accounted || totalShares == 0) return;
        dividendsPerShare += (held - accounted) * PRECISION / totalShares;
        accounted = held;
    }

    function setShare(address holder, uint256 amount) external onlyToken {
        Share storage share = shares[holder];
        if (share.amount != 0) _distribute(holder);
        if (amount != 0 && share.amount == 0) _add(holder);
        else if (amount == 0 && share.amount != 0) _remove(holder);
        totalShares = totalShares - share.amount + amount;
        share.amount = amount;
        share.excluded = amount * dividendsPerShare / PRECISION;
    }

    function process(uint256 gas) external onlyToken {
        uint256 count = shareholders.length;
        uint256 start = gasleft();
        for (uint256 i = 0; i < count && start - gasleft() < gas && gasleft() > MIN_GAS_LEFT; i++) {
            if (currentIndex >= count) currentIndex = 0;
            address holder = shareholders[currentIndex];
            if (pending(holder) >= minDistribution) _distribute(holder);
            currentIndex++;
        }
    }

    function pending(address holder) public view returns (uint256) {
        Share storage share = shares[holder];
        uint256 earned = share.amount * dividendsPerShare / PRECISION;
        return earned > share.excluded ? earned - share.excluded : 0;
    }

    function _distribute(address holder) private {
        uint256 amount = pending(holder);
        if (amount == 0) return;
        Share storage share = shares[holder];
        share.realised += amount;
        share.excluded = share.amount * dividendsPerShare / PRECISION;
        accounted -= amount;
        ICorpusERC20(usdc).transfer(holder, amount);
    }

    function _add(address holder) private {
        indexOf[holder] = shareholders.length;
        shareholders.push(holder);
    }

    function _remove(address holder) private {
        address last = shareholders[shareholders.length - 1];
        shareholders[indexOf[holder]] = last;
        indexOf[last] = indexOf[holder];
        shareholders.pop();
    }
}
