// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

interface IERC1271 {
    function isValidSignature(bytes32 digest, bytes calldata signature) external view returns (bytes4);
}

/// @notice Checks a signature the way Circle's USDC v2.2 does: ERC-1271 for signers with code, otherwise
/// a 65-byte (r, s, v) ECDSA signature with canonical s and v of 27 or 28.
library SignatureChecker {
    // Upper half of the secp256k1 order: its signatures are malleable copies of lower-half ones.
    uint256 private constant HALF_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    function isValidNow(address signer, bytes32 digest, bytes memory signature) internal view returns (bool) {
        if (signer.code.length == 0) return signer != address(0) && recover(digest, signature) == signer;
        (bool ok, bytes memory answer) =
            signer.staticcall(abi.encodeCall(IERC1271.isValidSignature, (digest, signature)));
        return ok && answer.length >= 32 && bytes4(abi.decode(answer, (bytes32))) == IERC1271.isValidSignature.selector;
    }

    /// @return signer the recovering address, or zero for a malformed or non-canonical signature
    function recover(bytes32 digest, bytes memory signature) private pure returns (address signer) {
        if (signature.length != 65) return address(0);
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly ("memory-safe") {
            r := mload(add(signature, 0x20))
            s := mload(add(signature, 0x40))
            v := byte(0, mload(add(signature, 0x60)))
        }
        if (uint256(s) > HALF_ORDER || (v != 27 && v != 28)) return address(0);
        return ecrecover(digest, v, r, s);
    }
}
