"""`--tesseract PATH` for every command that reads tiles from pixels, and the check that tesseract is there before anything starts."""

from __future__ import annotations

import argparse

# the name is screenbot.vision.tesseract.ENV, written out: importing screenbot.vision loads OpenCV, and
# building the parser loads nothing heavy
TESSERACT_HELP = ("the tesseract program (OCR, for tiles that share a colour), a file or the folder holding it "
                  "(default: $SCREENBOT_TESSERACT, then PATH, then where installers put it)")


def add_tesseract_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tesseract", metavar="PATH", help=TESSERACT_HELP)


def need_tesseract(args: argparse.Namespace) -> str:
    """The tesseract program, found and kept for this run's OCR (--tesseract, $SCREENBOT_TESSERACT, PATH,
    install folders); missing: one line saying how to install it on this OS (OcrUnavailableError).
    Called first, so that no game starts that would stop at its first big tile."""
    from screenbot.vision.ocr import missing
    from screenbot.vision.tesseract import use_tesseract

    found = use_tesseract(getattr(args, "tesseract", None))
    if found is None:
        raise missing()
    return found
