"""Room for a moves kernel that lists too many moves, and the error that says so.

numba compiles kernels without bounds checks: a ``legal`` (or ``distinct``, ``forcing``)
kernel that lists more moves than its buffer holds writes past it, into whatever memory
lies there, before any check after the call can see the count. A game whose declared
``max_moves`` is too small would then corrupt memory (``malloc(): mismatching ...``) or,
where the overflow lands in a buffer of its own, leave the search a silently short list.

So every buffer that the kit, the searches and the environments hand to a moves kernel is
made by :func:`moves_buffer`: it is ``max_moves`` long, as compiled code sees it (its
``shape``), and the memory behind it has room for every action: a kernel that lists each
legal action at most once (its contract: ascending, distinct, in ``[0, num_actions)``)
cannot write outside memory the buffer owns, whatever ``max_moves`` says. Rows of a 2-D
buffer (one a ply) are contiguous, so a row's overflow runs into the rows after it, which
hold nothing live while that row is being written (deeper plies are generated later),
and past the last row into the spare room. Every caller compares the count the kernel
returns with the buffer's length right after the call, and a count above it ends in
:class:`~zerosum.games.kit.errors.MoveCountError` naming the game, the kernel, the count
and ``max_moves`` (:func:`moves_error`), never in a shorter list.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from zerosum.games.kit.errors import MoveCountError

LEGAL_KERNEL = 1
"""The code compiled code records for a ``legal`` kernel whose count was over max_moves."""
DISTINCT_KERNEL = 2
"""The code for a ``distinct`` kernel (the search's moves below its root) over max_moves."""
FORCING_KERNEL = 3
"""The code for a ``forcing`` kernel (the quiescence search's moves) over max_moves."""
MOVE_KERNELS = {LEGAL_KERNEL: "legal", DISTINCT_KERNEL: "distinct", FORCING_KERNEL: "forcing"}
"""Code -> the kernel's name in the game's Kernels record."""


def moves_buffer(max_moves: int, num_actions: int, rows: int | None = None, dtype: Any = np.int64,
                 extra: int = 0) -> np.ndarray:
    """A zeroed buffer of ``max_moves + extra`` slots (``rows`` rows of them when given) whose
    memory goes on for ``num_actions`` slots past the start of its last row: a moves
    kernel listing up to ``num_actions`` moves into any row writes only memory this buffer
    owns (the array's ``base``). ``extra`` slots after the moves hold something else (a
    count); ``dtype`` float64 serves the moves' ordering scores."""
    width = int(max_moves) + int(extra)
    n = 1 if rows is None else int(rows)
    room = max(int(num_actions) + int(extra) - width, 0)
    store = np.zeros(n * width + room, dtype)
    body = store[: n * width]
    return body if rows is None else body.reshape(n, width)


def moves_error(game: Any, kernel: int | str, count: int, where: str) -> MoveCountError:
    """The error for ``game``'s moves kernel ``kernel`` (a name, or a code of :data:`MOVE_KERNELS`)
    that listed ``count`` moves, more than its ``max_moves``; ``where``: what called it."""
    name = MOVE_KERNELS.get(kernel, str(kernel)) if isinstance(kernel, int) else kernel
    if name == "distinct" and getattr(game.kernels, "distinct", None) is None:
        name = "legal"  # a game without a distinct kernel: the search generates its legal moves there
    return MoveCountError(
        f"{game!r}: its {name!r} kernel listed {count} moves in one position ({where}), more than its "
        f"max_moves={game.max_moves}: max_moves (the Layout's) must be at least the most legal moves any position "
        f"has; raise it to {count} or more (num_actions={game.num_actions} always suffices)")


__all__ = ["DISTINCT_KERNEL", "FORCING_KERNEL", "LEGAL_KERNEL", "MOVE_KERNELS", "moves_buffer", "moves_error"]
