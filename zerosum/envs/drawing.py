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


SEED = (118, 84, 52)
PIT = (196, 160, 110)


def pit_board(top: Sequence[int], bottom: Sequence[int], stores: tuple[int | None, int | None] = (None, None),
              labels: tuple[Sequence[str], Sequence[str]] = ((), ()), to_move: int | None = None,
              cell: int = 60) -> np.ndarray:
    """A two-row sowing board (mancala games): ``top`` and ``bottom`` are the seed counts of
    the pits left to right as drawn, ``stores`` the counts of the long stores at the left
    and right ends (None: no store drawn there). Each pit shows its seeds as dots (up to
    15) and its count; ``labels`` are the move names written above the top row and below
    the bottom row; ``to_move`` (0 bottom row, 1 top row) underlines that row's labels."""
    n = len(top)
    pad = cell // 3
    label_h = cell // 2
    width = (n + 2) * cell + 2 * pad
    height = 2 * cell + 2 * label_h + 2 * pad
    img, draw = canvas(width, height)
    font = ImageFont.load_default()
    x0, y0 = pad + cell, pad + label_h
    draw.rounded_rectangle((pad // 2, y0 - pad // 2, width - pad // 2, y0 + 2 * cell + pad // 2), radius=cell // 3,
                           fill=(170, 120, 70), outline=LINE, width=max(2, cell // 20))

    def pit(cx: float, cy: float, rx: float, ry: float, count: int) -> None:
        draw.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=PIT, outline=LINE, width=2)
        r = max(2.0, cell / 16)
        for k in range(min(count, 15)):
            ring, at = (0, k) if k < 5 else (1, k - 5)
            per = 5 if ring == 0 else 10
            angle = 2 * np.pi * at / per + ring * 0.3
            dist = (0.25 + 0.27 * ring) * min(rx, ry)
            sx, sy = cx + dist * np.cos(angle), cy - ry * 0.15 + dist * np.sin(angle)
            draw.ellipse((sx - r, sy - r, sx + r, sy + r), fill=SEED)
        text = str(count)
        left, tp, right, bt = font.getbbox(text)
        draw.text((cx - (right - left) / 2, cy + ry * 0.45 - (bt - tp) / 2), text, fill=LINE, font=font)

    for row, counts in enumerate((top, bottom)):
        for i, count in enumerate(counts):
            pit(x0 + (i + 0.5) * cell, y0 + (row + 0.5) * cell, cell * 0.42, cell * 0.42, int(count))
    for side, held in enumerate(stores):
        if held is not None:
            pit(pad + cell / 2 + side * (n + 1) * cell, y0 + cell, cell * 0.42, cell * 0.9, int(held))
    for row, names in enumerate(labels):
        y = pad / 2 + (0 if row == 0 else label_h + 2 * cell + pad)
        for i, name in enumerate(names):
            left, tp, right, bt = font.getbbox(name)
            cx = x0 + (i + 0.5) * cell
            draw.text((cx - (right - left) / 2, y + (label_h - (bt - tp)) / 2 - tp), name, fill=LINE, font=font)
            if to_move is not None and to_move == 1 - row:
                yy = y + (label_h + (bt - tp)) / 2 + 2
                draw.line((cx - cell / 4, yy, cx + cell / 4, yy), fill=HIGHLIGHT, width=3)
    return to_array(img)
