"""rgb_array images drawn with Pillow (no pygame): shared by every env module."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PIL import Image, ImageDraw, ImageFont

BACKGROUND = (236, 217, 180)
LINE = (60, 45, 30)
STONES = ((20, 20, 20), (245, 245, 245))  # player 0 dark, player 1 light
HIGHLIGHT = (200, 80, 60)


def canvas(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A blank board-coloured canvas and its drawing context."""
    img = Image.new("RGB", (width, height), BACKGROUND)
    return img, ImageDraw.Draw(img)


def to_array(img: Image.Image) -> np.ndarray:
    """An HxWx3 uint8 array, as PettingZoo's rgb_array mode requires."""
    return np.asarray(img, dtype=np.uint8).copy()


def stone(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, player: int) -> None:
    """A disc for ``player`` centred at (cx, cy)."""
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=STONES[player], outline=LINE, width=2)


def mark(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, player: int) -> None:
    """Player 0's X or player 1's O centred at (cx, cy) (tic-tac-toe's pieces)."""
    w = max(3, round(r / 4))
    if player == 0:
        draw.line((cx - r, cy - r, cx + r, cy + r), fill=STONES[0], width=w)
        draw.line((cx - r, cy + r, cx + r, cy - r), fill=STONES[0], width=w)
    else:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=HIGHLIGHT, width=w)


def grid(cells: np.ndarray, cell: int = 48, shade: Sequence[tuple[int, int, tuple[int, int, int]]] = (),
         separators: Sequence[int] = (), marks: bool = False) -> np.ndarray:
    """A square-grid board: cells holds -1 (empty), 0 or 1 (a player's piece).

    ``shade`` lists (row, col, colour) squares to tint (camps); ``separators`` lists grid
    indices where a thick line is drawn (Pentago's quadrant borders); ``marks`` draws X and O
    instead of stones. Lines are about a twentieth of a cell wide, so that the grid still
    shows when the picture is displayed at a quarter of its size.
    """
    rows, cols = cells.shape
    pad = cell // 2
    thin = max(2, cell // 20)
    img, draw = canvas(cols * cell + 2 * pad, rows * cell + 2 * pad)
    for r, c, colour in shade:
        draw.rectangle((pad + c * cell, pad + r * cell, pad + (c + 1) * cell, pad + (r + 1) * cell), fill=colour)
    for i in range(rows + 1):
        w = 3 * thin if i in separators else thin
        draw.line((pad, pad + i * cell, pad + cols * cell, pad + i * cell), fill=LINE, width=w)
    for j in range(cols + 1):
        w = 3 * thin if j in separators else thin
        draw.line((pad + j * cell, pad, pad + j * cell, pad + rows * cell), fill=LINE, width=w)
    piece = mark if marks else stone
    for r in range(rows):
        for c in range(cols):
            if cells[r, c] >= 0:
                piece(draw, pad + (c + 0.5) * cell, pad + (r + 0.5) * cell, cell * (0.3 if marks else 0.38),
                      int(cells[r, c]))
    return to_array(img)


def text_image(game: object, state: np.ndarray) -> np.ndarray:
    """The game's text rendering drawn as an image: the rgb_array of a game with no drawer
    of its own (a user's game before it has one)."""
    text = game.render(state)  # type: ignore[attr-defined]
    font = ImageFont.load_default()
    lines = text.split("\n")
    left, top, right, bottom = font.getbbox("M")
    w, h = int(right - left), int(bottom - top + 4)
    img, draw = canvas(max(len(line) for line in lines) * w + 2 * w, len(lines) * h + 2 * h)
    for i, line in enumerate(lines):
        draw.text((w, h + i * h), line, fill=LINE, font=font)
    return to_array(img)
