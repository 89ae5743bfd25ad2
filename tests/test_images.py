"""Picture files on any path: written through cv2.imencode and read through cv2.imdecode with Python's
file I/O (OpenCV's imwrite and imread cannot open a path outside the Windows code page)."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pytest

import screenbot
from screenbot.imaging import ImageFileError, read_image, write_image

NAME = "Zoë 画像.png"


def picture(seed: int = 0, shape=(24, 32, 3)) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, shape).astype(np.uint8)


@pytest.fixture
def windows_opencv(monkeypatch):
    """OpenCV's own file calls fail on a path outside ASCII, as they do on Windows."""
    imwrite, imread = cv2.imwrite, cv2.imread

    def ascii_only(call):
        def wrapped(path, *args, **kwargs):
            if not str(path).isascii():
                return False if call is imwrite else None
            return call(path, *args, **kwargs)
        return wrapped

    monkeypatch.setattr(cv2, "imwrite", ascii_only(imwrite))
    monkeypatch.setattr(cv2, "imread", ascii_only(imread))


def test_a_picture_round_trips_on_a_path_outside_ascii(tmp_path, windows_opencv):
    folder = tmp_path / "Zoë" / "画像"
    folder.mkdir(parents=True)
    pixels = picture()
    assert write_image(folder / NAME, pixels) == folder / NAME
    assert (folder / NAME).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert np.array_equal(read_image(folder / NAME), pixels)


def test_the_suffix_names_the_format_and_params_reach_the_encoder(tmp_path):
    pixels = np.tile(np.arange(256, dtype=np.uint8)[None, :, None], (64, 1, 3))
    fast = write_image(tmp_path / "fast.png", pixels, (cv2.IMWRITE_PNG_COMPRESSION, 0))
    small = write_image(tmp_path / "small.png", pixels, (cv2.IMWRITE_PNG_COMPRESSION, 9))
    assert fast.stat().st_size > 2 * small.stat().st_size
    jpeg = write_image(tmp_path / "shot.jpg", pixels, (cv2.IMWRITE_JPEG_QUALITY, 90))
    assert jpeg.read_bytes()[:2] == b"\xff\xd8"
    assert np.abs(read_image(jpeg).astype(int) - pixels).max() < 16


def test_grey_reading_takes_opencv_flags(tmp_path):
    path = write_image(tmp_path / NAME, picture())
    assert read_image(path, cv2.IMREAD_GRAYSCALE).shape == (24, 32)


def test_errors_say_what_is_wrong_in_one_line(tmp_path):
    with pytest.raises(ImageFileError, match=r"cannot write .*missing.*check the folder exists"):
        write_image(tmp_path / "missing" / NAME, picture())
    with pytest.raises(ImageFileError, match=r"cannot write .*\.nope"):
        write_image(tmp_path / "shot.nope", picture())
    with pytest.raises(ImageFileError, match="no such file"):
        read_image(tmp_path / NAME)
    for content in (b"", b"not a picture"):
        (tmp_path / "bad.png").write_bytes(content)
        with pytest.raises(ImageFileError, match="not a PNG/JPEG/BMP picture") as caught:
            read_image(tmp_path / "bad.png")
        assert "\n" not in str(caught.value)


def test_frames_recordings_and_previews_are_written_on_any_path(tmp_path, windows_opencv):
    from screenbot.calibration import find_lattices, save_preview
    from screenbot.control.screen import Frame
    from screenbot.play.record import FrameRecorder

    folder = tmp_path / "Zoë 画像"
    frame = Frame(picture(1))
    saved = frame.save(folder / "frame.png")
    assert np.array_equal(Frame.load(saved).pixels, frame.pixels)
    preview = save_preview(folder / "preview.png", frame, find_lattices(frame.pixels))
    assert read_image(preview).shape == frame.pixels.shape
    recorder = FrameRecorder(folder / "recording")
    relative = recorder.save("000001", frame)
    recorder.close()
    assert np.array_equal(read_image(folder / "recording" / relative), frame.pixels)


def test_a_recording_that_cannot_write_its_frames_says_so(tmp_path):
    from screenbot.control.screen import Frame
    from screenbot.play.record import FrameRecorder, RecordError

    recorder = FrameRecorder(tmp_path / "recording")
    (tmp_path / "recording" / "frames").rmdir()  # the folder gone under it
    recorder.save("000001", Frame(picture()))
    with pytest.raises(RecordError, match="recording failed: cannot write"):
        recorder.close()


def test_no_module_calls_opencvs_own_file_functions():
    """Every picture file screenbot writes or reads goes through screenbot.imaging."""
    root = Path(screenbot.__file__).parent
    calls = re.compile(r"\bcv2\.(imwrite|imread)\s*\(")
    offenders = [str(p.relative_to(root)) for p in root.rglob("*.py") if calls.search(p.read_text(encoding="utf-8"))]
    assert offenders == []
