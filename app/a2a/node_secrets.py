"""Node secrets: minted once, shown once, stored only as digests that still verify the client's HMACs.

The evolver client authenticates with a 64-hex `node_secret` (Bearer) and signs with it twice:
- publish: HMAC-SHA256(key=node_secret, msg=sorted asset ids joined by "|");
- verify-solidify: HMAC-SHA256(key=hex(sha256(node_secret)),
  msg=node_id|gene_id|signals_hash|mutation_hash|ts).

The registry stores, per node:
- `secret_hash` = hex(sha256(node_secret)): compares a Bearer token, and is the solidify HMAC key itself;
- the HMAC-SHA256 *midstates* of node_secret: the SHA-256 chaining values after the key block XOR ipad
  and XOR opad. They finish HMAC(node_secret, msg) for any message (that is all HMAC ever does with
  the key), yet recovering node_secret from them is a SHA-256 preimage. A copy of the database thus
  lets nobody authenticate as a node (the Bearer is the secret itself).

Python's hashlib cannot resume from a chaining value, so SHA-256's compression function is written
out below (FIPS 180-4); the tests check it against hashlib and hmac on many keys and messages.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import re
import secrets
import struct
from dataclasses import dataclass

NODE_ID = re.compile(r"^node_[a-f0-9]{12,32}$")
SECRET = re.compile(r"^[a-f0-9]{64}$")
_MASK = 0xFFFFFFFF
_BLOCK = 64


def _first_primes(count: int) -> list[int]:
    primes: list[int] = []
    candidate = 2
    while len(primes) < count:
        if all(candidate % p for p in primes if p * p <= candidate):
            primes.append(candidate)
        candidate += 1
    return primes


def _icbrt(n: int) -> int:
    x = 1 << ((n.bit_length() + 2) // 3)
    while True:
        y = (2 * x + n // (x * x)) // 3
        if y >= x:
            break
        x = y
    while x * x * x > n:
        x -= 1
    while (x + 1) ** 3 <= n:
        x += 1
    return x


# FIPS 180-4 §4.2.2 and §5.3.3: fractional bits of cube roots and square roots of the first primes.
_K = [_icbrt(p << 96) & _MASK for p in _first_primes(64)]
_H0 = tuple(math.isqrt(p << 64) & _MASK for p in _first_primes(8))


def _rotr(x: int, n: int) -> int:
    return ((x >> n) | (x << (32 - n))) & _MASK


def _compress(state: tuple[int, ...], block: bytes) -> tuple[int, ...]:
    w = list(struct.unpack(">16I", block))
    for i in range(16, 64):
        s0 = _rotr(w[i - 15], 7) ^ _rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
        s1 = _rotr(w[i - 2], 17) ^ _rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
        w.append((w[i - 16] + s0 + w[i - 7] + s1) & _MASK)
    a, b, c, d, e, f, g, h = state
    for i in range(64):
        t1 = (h + (_rotr(e, 6) ^ _rotr(e, 11) ^ _rotr(e, 25)) + ((e & f) ^ (~e & g)) + _K[i] + w[i]) & _MASK
        t2 = ((_rotr(a, 2) ^ _rotr(a, 13) ^ _rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) & _MASK
        h, g, f, e, d, c, b, a = g, f, e, (d + t1) & _MASK, c, b, a, (t1 + t2) & _MASK
    return tuple((x + y) & _MASK for x, y in zip(state, (a, b, c, d, e, f, g, h), strict=True))


def _finish(state: tuple[int, ...], data: bytes, already: int) -> bytes:
    """SHA-256 of (`already` bytes that led to `state`) + `data`; `already` is a multiple of 64."""
    length = (already + len(data)) * 8
    padded = data + b"\x80" + b"\x00" * ((55 - len(data)) % _BLOCK) + struct.pack(">Q", length)
    for start in range(0, len(padded), _BLOCK):
        state = _compress(state, padded[start : start + _BLOCK])
    return struct.pack(">8I", *state)


def midstates(secret: str) -> tuple[str, str]:
    """(inner, outer) HMAC-SHA256 chaining values of `secret`, hex: all HMAC needs of the key."""
    key = secret.encode()
    if len(key) > _BLOCK:
        key = hashlib.sha256(key).digest()
    key = key.ljust(_BLOCK, b"\x00")
    inner = _compress(_H0, bytes(b ^ 0x36 for b in key))
    outer = _compress(_H0, bytes(b ^ 0x5C for b in key))
    return struct.pack(">8I", *inner).hex(), struct.pack(">8I", *outer).hex()


def hmac_from_midstates(inner: str, outer: str, message: str) -> str:
    """HMAC-SHA256(secret, message) in hex, from the secret's midstates."""
    inner_state = struct.unpack(">8I", bytes.fromhex(inner))
    outer_state = struct.unpack(">8I", bytes.fromhex(outer))
    inner_digest = _finish(inner_state, message.encode(), _BLOCK)
    return _finish(outer_state, inner_digest, _BLOCK).hex()


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class MintedSecret:
    secret: str
    hash: str
    inner: str
    outer: str


def mint() -> MintedSecret:
    """A new 64-hex secret (256 random bits) and what the registry keeps of it."""
    secret = secrets.token_hex(32)
    inner, outer = midstates(secret)
    return MintedSecret(secret=secret, hash=secret_hash(secret), inner=inner, outer=outer)


def new_node_id() -> str:
    return "node_" + secrets.token_hex(8)


def publish_signature_ok(inner: str, outer: str, asset_ids: list[str], signature: str) -> bool:
    expected = hmac_from_midstates(inner, outer, "|".join(sorted(asset_ids)))
    return hmac.compare_digest(expected, signature.lower())


def solidify_signature_ok(stored_hash: str, message: str, signature: str) -> bool:
    expected = hmac.new(stored_hash.encode(), message.encode(), hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, signature.lower())
