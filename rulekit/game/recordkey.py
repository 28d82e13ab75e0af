"""The installation's record key: the secret that seals hand records (rulekit.game.sealing;
docs/game.md, "Sealed records").

32 random bytes, kept as 64 hex digits in one file only its owner may read: `--key-file`
where a command takes it, else `$RULEKIT_KEY_FILE`, else `$XDG_CONFIG_HOME/rulekit/record.key`
(`~/.config/rulekit/record.key`). A writer creates it on first need (mode 0600, by a link
from a finished temporary file, so two processes starting at once agree on one key); a
reader never does. The secret is never printed and never written into a record: a record
names its key by `key_id`, a short hash of it.
"""
from __future__ import annotations

import errno
import hashlib
import os
import re
import secrets
import stat
from dataclasses import dataclass, field

from rulekit.errors import RulekitError

ENV = "RULEKIT_KEY_FILE"
KEY_BYTES = 32
_HEX = re.compile(rb"[0-9a-f]{64}\n?")
_NO_WAIT = getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
"""A FIFO or a terminal in the key's place is opened without waiting (then refused)."""
_PRIVATE = os.name == "posix"
"""Only POSIX modes say who else may read a file (elsewhere the user's profile does)."""


class KeyFileError(RulekitError):
    """A record key file that cannot be used: others may read it, it is not a regular file,
    it holds no key, or it cannot be read or created (exit 2)."""


@dataclass(frozen=True, slots=True)
class RecordKey:
    """A loaded key: `id` goes into records, `secret` only into the MAC."""

    path: str
    secret: bytes = field(repr=False)

    @property
    def id(self) -> str:
        return key_id(self.secret)


def key_id(secret: bytes) -> str:
    """16 hex digits naming a key (what a seal records; says nothing of the secret)."""
    return hashlib.sha256(b"rulekit-record-key-id\n" + secret).hexdigest()[:16]


def default_path() -> str:
    """`$RULEKIT_KEY_FILE`, else the user's config dir's `rulekit/record.key`."""
    env = os.environ.get(ENV)
    if env:
        return env
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"),
                                                             ".config")
    return os.path.join(base, "rulekit", "record.key")


def load(path: str | None = None) -> RecordKey | None:
    """The key at `path` (default: `default_path()`), None if there is no such file."""
    path = path or default_path()
    try:
        fd = os.open(path, os.O_RDONLY | _NO_WAIT)
    except FileNotFoundError:
        return None
    except OSError as err:
        raise KeyFileError(f"{path}: cannot read the record key: {err.strerror}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise KeyFileError(f"{path}: the record key is not a regular file")
        if _PRIVATE and st.st_mode & 0o077:
            raise KeyFileError(f"{path}: the record key may be read or written by others "
                               f"(mode {stat.S_IMODE(st.st_mode):04o}); chmod 600 it")
        data = os.read(fd, 200)
    except OSError as err:
        raise KeyFileError(f"{path}: cannot read the record key: {err.strerror}") from None
    finally:
        os.close(fd)
    if not _HEX.fullmatch(data):
        raise KeyFileError(f"{path}: not a record key (one line of 64 hex digits)")
    return RecordKey(path, bytes.fromhex(data[:64].decode("ascii")))


def load_or_create(path: str | None = None) -> RecordKey:
    """The key at `path`, made first if there is none (what every record writer calls)."""
    path = path or default_path()
    got = load(path)
    if got is not None:
        return got
    _create(path)
    made = load(path)
    if made is None:            # removed again at once: nothing sensible to seal with
        raise KeyFileError(f"{path}: the record key vanished as it was made")
    return made


def _create(path: str) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    tmp = f"{path}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NO_WAIT, 0o600)
        try:
            os.write(fd, secrets.token_bytes(KEY_BYTES).hex().encode("ascii") + b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)      # atomic, and never replaces a key another process made
        except OSError as err:
            if err.errno != errno.EEXIST:
                raise
    except OSError as err:
        raise KeyFileError(f"{path}: cannot create the record key: {err.strerror}") from None
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass
