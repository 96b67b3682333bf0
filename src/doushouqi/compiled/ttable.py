"""What the engines' transposition tables share on the Python side: their size.

Each engine keeps its table as an int64 array of ``(entries, words)``, indexed by the Zobrist
hash, two entries a bucket; what the words hold, and the compiled code that reads and writes
them, is the engine's own (``doushouqi.<game>.ai.ttable``).

>>> table = new_table(1, 2)  # 1 MB of 16-byte entries
>>> table.shape, table.dtype.name, int(table.sum())
((65536, 2), 'int64', 0)
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["new_table"]


def new_table(hash_mb: int, entry_words: int) -> NDArray[np.int64]:
    """An empty table of ``entry_words`` int64 words an entry: the largest power-of-two
    entry count within ``hash_mb`` megabytes (so that a hash masks onto a bucket of two
    entries), at least 1024 entries however little is asked.

    >>> len(new_table(3, 3)), len(new_table(0, 2))  # 3 MB of 24-byte entries: 2**17 fit
    (131072, 65536)
    >>> new_table(1, 2).ctypes.data % 64, new_table(1, 2).flags.c_contiguous
    (0, True)
    """
    entries = max(1024, (max(1, hash_mb) << 20) // (8 * entry_words))
    entries = 1 << (entries.bit_length() - 1)
    # The data start on a 64-byte cache line: numpy's own start is only 16-byte aligned, and a
    # 32-byte bucket of two 16-byte entries would then straddle two lines half the time (two
    # memory waits for one probe, and a prefetch of the bucket's first line missing the other).
    size = entries * entry_words
    raw = np.zeros(size + 8, dtype=np.int64)
    skip = (-raw.ctypes.data % 64) // 8
    return raw[skip : skip + size].reshape(entries, entry_words)
