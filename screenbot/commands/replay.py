"""`screenbot replay DIR`: runs vision and tracking again over a recording and reports disagreements."""

from __future__ import annotations

from screenbot.commands.ocr_args import add_tesseract_argument, need_tesseract


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "replay",
        help="re-read a recorded game and report where it disagrees with the log",
        description="Reads every frame of a recording made with `screenbot play --record DIR` again, "
        "checks each logged board follows from the one before, and lists the disagreements.",
    )
    p.add_argument("folder", metavar="DIR", help="the folder given to `screenbot play --record`")
    add_tesseract_argument(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from screenbot.play.replay import replay

    need_tesseract(args)  # every frame is read again, big tiles by OCR: said now, not part way
    report = replay(args.folder)
    for d in report.disagreements:
        print(f"move {d.i}: {d.what}")
    print(
        f"{report.moves} moves, {report.frames_read} frames read again "
        f"({report.early_frames} through a growing new tile), "
        f"{len(report.disagreements)} disagreement{'s' if len(report.disagreements) != 1 else ''}"
    )
    return 0 if report.ok else 1
