"""Progress of a run: a tqdm bar when tqdm is installed (tqdm.auto: a widget in Jupyter), else
a one-line bar on a terminal, else nothing. The engine calls ``update`` on the thread that
called ``run``, a few times a second."""
import sys
import time


def make_progress(progress):
    if progress is False or progress is None:
        return None
    if callable(progress) and progress is not True:
        return _Callback(progress)
    try:
        from tqdm.auto import tqdm
    except ImportError:
        tqdm = None
    if tqdm is not None:
        return _Tqdm(tqdm)
    if sys.stderr.isatty():
        return _TerminalBar(sys.stderr)
    return None


class _Callback:
    def __init__(self, function):
        self.update = function

    def close(self):
        pass


class _Tqdm:
    def __init__(self, tqdm):
        self._tqdm = tqdm
        self._bar = None
        self._pass = None

    def update(self, pass_name, documents, done_bytes, total_bytes, seconds):
        if self._bar is None or pass_name != self._pass:
            self.close()
            self._pass = pass_name
            self._bar = self._tqdm(total=total_bytes or None, unit="B", unit_scale=True,
                                   desc=f"winnow {pass_name}".strip(), leave=True)
        self._bar.n = min(done_bytes, total_bytes) if total_bytes else done_bytes
        self._bar.set_postfix(docs=documents, refresh=False)
        self._bar.refresh()

    def close(self):
        if self._bar is not None:
            self._bar.close()
            self._bar = None


class _TerminalBar:
    def __init__(self, stream, width=30):
        self._stream = stream
        self._width = width
        self._shown = False
        self._last = 0.0

    def update(self, pass_name, documents, done_bytes, total_bytes, seconds):
        now = time.monotonic()
        if now - self._last < 0.2:
            return
        self._last = now
        fraction = min(1.0, done_bytes / total_bytes) if total_bytes else 0.0
        filled = int(fraction * self._width)
        label = f"winnow {pass_name}".strip()
        line = (f"\r{label} [{'#' * filled}{'.' * (self._width - filled)}] {fraction:4.0%} "
                f"{documents} docs {done_bytes / 1e6:.1f} MB {seconds:.0f}s")
        self._stream.write(line)
        self._stream.flush()
        self._shown = True

    def close(self):
        if self._shown:
            self._stream.write("\n")
            self._stream.flush()
            self._shown = False
