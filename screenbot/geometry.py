"""Small immutable geometry types: points and rectangles in absolute screen pixels."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Point:
    """A position in absolute screen pixels."""

    x: int
    y: int

    def as_list(self) -> list[int]:
        return [self.x, self.y]


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle in absolute screen pixels: left x, top y, width w, height h."""

    x: int
    y: int
    w: int
    h: int

    @classmethod
    def from_list(cls, values) -> "Rect":
        """Build from [x, y, w, h] (rounded to whole pixels)."""
        x, y, w, h = (float(v) for v in values)
        return cls(round(x), round(y), round(w), round(h))

    @classmethod
    def from_edges(cls, left: int, top: int, right: int, bottom: int) -> "Rect":
        """Build from the left/top edge (inclusive) and right/bottom edge (exclusive)."""
        return cls(int(left), int(top), int(right) - int(left), int(bottom) - int(top))

    @property
    def right(self) -> int:
        """One past the last column (x + w)."""
        return self.x + self.w

    @property
    def bottom(self) -> int:
        """One past the last row (y + h)."""
        return self.y + self.h

    @property
    def center(self) -> Point:
        return Point(self.x + self.w // 2, self.y + self.h // 2)

    @property
    def area(self) -> int:
        return max(self.w, 0) * max(self.h, 0)

    def as_list(self) -> list[int]:
        return [self.x, self.y, self.w, self.h]

    def contains(self, other: "Rect | Point") -> bool:
        """True when a point lies inside, or another rectangle lies wholly inside."""
        if isinstance(other, Point):
            return self.x <= other.x < self.right and self.y <= other.y < self.bottom
        return (
            self.x <= other.x
            and self.y <= other.y
            and other.right <= self.right
            and other.bottom <= self.bottom
        )

    def intersection(self, other: "Rect") -> "Rect | None":
        """The overlapping part, or None when they do not overlap."""
        left, top = max(self.x, other.x), max(self.y, other.y)
        right, bottom = min(self.right, other.right), min(self.bottom, other.bottom)
        if right <= left or bottom <= top:
            return None
        return Rect.from_edges(left, top, right, bottom)

    def intersects(self, other: "Rect") -> bool:
        return self.intersection(other) is not None

    def translated(self, dx: int, dy: int) -> "Rect":
        return Rect(self.x + dx, self.y + dy, self.w, self.h)

    def scaled(self, factor: float) -> "Rect":
        """Every coordinate multiplied by factor (e.g. captured pixels -> mouse points)."""
        return Rect(
            round(self.x * factor), round(self.y * factor), round(self.w * factor), round(self.h * factor)
        )

    def inset(self, dx: int, dy: int | None = None) -> "Rect":
        """Shrunk by dx on the left and right and dy (default dx) on the top and bottom."""
        dy = dx if dy is None else dy
        return Rect(self.x + dx, self.y + dy, self.w - 2 * dx, self.h - 2 * dy)
