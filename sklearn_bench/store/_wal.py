"""What SQLite would silently drop from a ``-wal`` file (every frame after the
first bad checksum), and a salvage's resealing of its copy."""

from pathlib import Path

import numpy as np

_MASK = 0xFFFFFFFF
_POWERS = {}


def _transfer(n):
    """The matrices of SQLite's WAL checksum over ``n`` pairs of words.

    One step is ``s0 += x0 + s1; s1 += x1 + s0`` (mod 2**32): linear, so ``n``
    steps are ``A**n @ s + sum(A**(n-1-i) @ B @ x_i)`` with ``A = [[1, 1],
    [1, 2]]`` and ``B = [[1, 0], [1, 1]]``, computed in wrapping uint64 (which
    agrees mod 2**32).
    """
    if n not in _POWERS:
        A = np.array([[1, 1], [1, 2]], dtype=np.uint64)
        B = np.array([[1, 0], [1, 1]], dtype=np.uint64)
        powers = np.empty((n + 1, 2, 2), dtype=np.uint64)
        powers[0] = np.eye(2, dtype=np.uint64)
        with np.errstate(over="ignore"):
            for k in range(1, n + 1):
                powers[k] = (powers[k - 1] @ A) & _MASK
            weights = (powers[n - 1 :: -1] @ B) & _MASK if n else powers[:0]
        _POWERS[n] = (powers[n], weights)
    return _POWERS[n]


def _wal_checksum(chunk, s0, s1, order):
    """SQLite's WAL checksum of ``chunk`` (a multiple of 8 bytes), continued
    from ``(s0, s1)``; ``order`` is ``"<"`` or ``">"``."""
    words = np.frombuffer(bytes(chunk), dtype=f"{order}u4").astype(np.uint64)
    x = words.reshape(-1, 2)
    power, weights = _transfer(len(x))
    with np.errstate(over="ignore"):
        s = power @ np.array([s0, s1], dtype=np.uint64)
        s = s + np.einsum("nij,nj->i", weights, x)
    return int(s[0]) & _MASK, int(s[1]) & _MASK


def _header(data):
    """``(checksum, page_size, salts)`` of a -wal file's 32-byte header, or
    ``None`` when its magic number is not a WAL file's; ``checksum(chunk, s0,
    s1)`` continues the file's checksum in the byte order its magic says."""
    magic = int.from_bytes(data[:4], "big")
    if magic not in (0x377F0682, 0x377F0683):
        return None
    order = ">" if magic & 1 else "<"

    def checksum(chunk, s0, s1):
        return _wal_checksum(chunk, s0, s1, order)

    return checksum, int.from_bytes(data[8:12], "big"), bytes(data[16:24])


def _stored(s0, s1):
    """A checksum as the file stores it (two big-endian 32-bit words)."""
    return s0.to_bytes(4, "big") + s1.to_bytes(4, "big")


def wal_damage(path):
    """A sentence when commits of the current -wal lie beyond a bad checksum
    (SQLite would ignore them), else ``None``."""
    wal = f"{path}-wal"
    try:
        with open(wal, "rb") as file:
            data = file.read()
    except FileNotFoundError:
        return None
    if len(data) < 32:
        return None
    header = _header(data)
    if header is None:
        return f"the -wal file {wal!r} has no valid header: SQLite ignores all of it"
    checksum, page_size, salts = header
    frame = 24 + page_size
    s0, s1 = checksum(data[:24], 0, 0)
    header_ok = data[24:32] == _stored(s0, s1)
    n_frames = (len(data) - 32) // frame if page_size >= 512 else 0
    bad = None if header_ok else 0
    commits_after = 0
    for k in range(n_frames):
        start = 32 + k * frame
        head = data[start : start + 24]
        if head[8:16] != salts:
            if bad is None:
                break  # an older -wal's frames: SQLite stops here, rightly
            continue
        if bad is None:
            s0, s1 = checksum(head[:8], s0, s1)
            s0, s1 = checksum(data[start + 24 : start + frame], s0, s1)
            if head[16:24] != _stored(s0, s1):
                bad = k
        # Commits strictly after the bad frame: a bad last frame may be one
        # being written by a running writer, not damage.
        if bad is not None and k > bad and int.from_bytes(head[4:8], "big"):
            commits_after += 1
    if bad is None or not commits_after:
        return None
    where = "its header" if not header_ok else f"frame {bad + 1} of {n_frames}"
    return (
        f"the -wal file {wal!r} is damaged at {where}: SQLite ignores every later "
        f"frame, and {commits_after} committed transaction(s) (tasks) there "
        "cannot be read"
    )


def reseal_wal(wal):
    """Rewrite the frame checksums of a salvage's copy of a -wal so SQLite reads
    every frame; the number resealed."""
    data = bytearray(Path(wal).read_bytes())
    header = _header(data) if len(data) >= 32 else None
    if header is None or header[1] < 512:
        return 0
    checksum, page_size, salts = header
    frame = 24 + page_size
    s0, s1 = checksum(data[:24], 0, 0)
    data[24:32] = _stored(s0, s1)
    n = 0
    for k in range((len(data) - 32) // frame):
        start = 32 + k * frame
        if bytes(data[start + 8 : start + 16]) != salts:
            break
        s0, s1 = checksum(data[start : start + 8], s0, s1)
        s0, s1 = checksum(data[start + 24 : start + frame], s0, s1)
        data[start + 16 : start + 24] = _stored(s0, s1)
        n += 1
    Path(wal).write_bytes(bytes(data))
    return n
