"""A parse cache that cannot change an answer or run code (lark's grammar, parsed trees).

Parsing costs ~25 ms a file and building lark's parser ~200 ms, so both are kept in the
platform's cache folder (platformdirs: $XDG_CACHE_HOME/puzzledsl or ~/.cache/puzzledsl on
Linux, ~/Library/Caches/puzzledsl on macOS, %LOCALAPPDATA%\\puzzledsl\\Cache on Windows). Guarantees:

- an entry's name is a hash of everything that determines it: the text, its path (spans
  name it), the parser's own sources, the Python and lark versions, the nesting limit;
- every entry carries an HMAC-SHA256 over its name and contents under a per-user key
  (32 random bytes, file mode 0600): a planted, swapped or corrupted entry is ignored before
  any byte of it is unpickled, and trees are unpickled with a loader that builds only
  AST classes;
- the folder is used only when it is a real folder owned by the user with mode 0700
  (it is created so, and tightened when it is the user's); otherwise nothing is cached;
- at most MAX_FILES entries and MAX_BYTES bytes: the oldest are removed after a write.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import os
import pickle
import secrets
import stat
import sys
from functools import lru_cache
from pathlib import Path

GRAMMAR = Path(__file__).resolve().parent.parent / "grammars" / "puzzledsl.lark"
MAX_FILES = 200
MAX_BYTES = 20 * 2**20
MAX_ENTRY = 8 * 2**20  # an entry larger than this is not read (nor written)
PREFIXES = ("tree-", "grammar-")  # files the cache owns (older versions wrote these names too)
_TAG = 32


def cache_dir() -> Path | None:
    """The private cache folder, or None when there is none we can trust (see the module doc)."""
    if os.environ.get("PUZZLEDSL_NO_CACHE"):
        return None
    if not hasattr(os, "getuid") or not hasattr(os, "O_NOFOLLOW"):
        return None  # Windows: no owner check or no-follow open to trust a folder by; parse afresh
    from platformdirs import user_cache_path
    folder = user_cache_path("puzzledsl", appauthor=False)  # $XDG_CACHE_HOME/puzzledsl on Linux
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            pass
        st = os.lstat(folder)
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid():
            return None  # a symlink, a file, or someone else's folder
        if st.st_mode & 0o077:
            os.chmod(folder, 0o700)
        return folder
    except OSError:
        return None


def _secret(folder: Path) -> bytes | None:
    """The per-user key, created on first use; None when the key file is not private."""
    path = folder / "key"
    for _ in range(2):
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        except FileNotFoundError:
            _create_secret(path)
            continue
        except OSError:
            return None
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(f.fileno())
            if not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
                return None
            key = f.read(64)
        return key if len(key) == 32 else None
    return None


def _create_secret(path: Path) -> None:
    """Write the key under a temporary name, then link it into place (atomic: two processes
    starting together end with one key)."""
    tmp = path.with_name(f".key-{os.getpid()}-{secrets.token_hex(4)}")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(secrets.token_bytes(32))
        os.link(tmp, path)
    except OSError:
        pass
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass


@lru_cache(maxsize=1)
def parser_fingerprint() -> str:
    """A hash of what a cached tree depends on: the parser's sources (their contents, not their
    dates), and the Python that pickled it."""
    here = Path(__file__).resolve().parent
    h = hashlib.sha256(sys.version.encode())
    for p in (GRAMMAR, *sorted(here.glob("*.py")), here.parent / "errors.py", here.parent / "limits.py"):
        h.update(p.name.encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


class Store:
    """Verified entries in a trusted folder; every failure reads as a miss."""

    def __init__(self, folder: Path, key: bytes):
        self.folder, self.key = folder, key

    @classmethod
    def open(cls) -> Store | None:
        folder = cache_dir()
        key = _secret(folder) if folder is not None else None
        return cls(folder, key) if folder is not None and key is not None else None

    def path(self, kind: str, *parts: str) -> Path:
        digest = hashlib.sha256("\0".join((parser_fingerprint(), *parts)).encode()).hexdigest()
        return self.folder / f"{kind}-{digest}.bin"

    def _tag(self, path: Path, payload: bytes) -> bytes:
        return hmac.new(self.key, path.name.encode() + b"\0" + payload, hashlib.sha256).digest()

    def read(self, path: Path) -> bytes | None:
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            return None
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(f.fileno())
            if not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid() or st.st_size > MAX_ENTRY:
                return None
            data = f.read(MAX_ENTRY + 1)
        tag, payload = data[:_TAG], data[_TAG:]
        return payload if len(tag) == _TAG and hmac.compare_digest(tag, self._tag(path, payload)) else None

    def write(self, path: Path, payload: bytes) -> None:
        if len(payload) > MAX_ENTRY:
            return
        tmp = path.with_name(f".tmp-{os.getpid()}-{secrets.token_hex(4)}")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(self._tag(path, payload) + payload)
            os.replace(tmp, path)
        except OSError:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            return
        evict(self.folder)


def evict(folder: Path, max_files: int = MAX_FILES, max_bytes: int = MAX_BYTES) -> None:
    """Remove the oldest entries beyond the bounds."""
    entries = []
    try:
        with os.scandir(folder) as it:
            for e in it:
                if e.name.startswith(PREFIXES) and e.is_file(follow_symlinks=False):
                    st = e.stat(follow_symlinks=False)
                    entries.append((st.st_mtime, st.st_size, e.path))
    except OSError:
        return
    entries.sort(reverse=True)  # newest first
    total = 0
    for i, (_, size, p) in enumerate(entries):
        total += size
        if i >= max_files or total > max_bytes:
            try:
                os.unlink(p)
            except OSError:
                pass


class _AstUnpickler(pickle.Unpickler):
    """Builds only the classes a parsed tree is made of; anything else is refused."""

    ALLOWED = {"puzzledsl.syntax.ast", "puzzledsl.errors"}

    def find_class(self, module: str, name: str) -> type:
        if module in self.ALLOWED and not name.startswith("_"):
            obj = getattr(sys.modules[module], name, None)
            if isinstance(obj, type):
                return obj
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a parse tree")


def load_tree(store: Store, path: Path) -> list | None:
    payload = store.read(path)
    if payload is None:
        return None
    try:
        return _AstUnpickler(io.BytesIO(payload)).load()
    except Exception:  # a verified entry that still does not load: treat as a miss
        return None


def dump_tree(store: Store, path: Path, stmts: list) -> None:
    from ..limits import deep_recursion
    try:
        with deep_recursion():
            payload = pickle.dumps(stmts, protocol=pickle.HIGHEST_PROTOCOL)
    except (RecursionError, pickle.PicklingError, TypeError):
        return
    store.write(path, payload)
