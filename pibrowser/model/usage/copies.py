"""Which records are copies: the keys (reading.reply_key) found in more than one file of a folder.

Finding them from scratch looks at every record of every file (a quarter of a million in a
gigabyte of sessions). What it found is kept as a memo (the cache stores it per folder): each
file's size, modification time, record count and a digest of its keys, every key sorted, the
shared keys and the files holding one. When the only changes since are files that grew (their
keys before unchanged, by the digest) or new files, and none of their new keys is anywhere
already (a binary search each), the shared keys are what they were: only the files holding one
are looked at again. Anything else (a file gone or rewritten, a new key met before: a fork
appeared) finds them from scratch.
"""

from __future__ import annotations

import logging
from array import array
from bisect import bisect_left, insort
from itertools import chain

import msgspec

from .records import NO_KEY, FileUsage

log = logging.getLogger(__name__)

Found = tuple[set[int], list[int], bytes | None]  # the shared keys, the files holding one (ledger order), the new memo
_INSERTS = 1024  # new keys up to this many are put in place in the sorted keys; more sort them all again


class CopiesMemo(msgspec.Struct, array_like=True):
    stamps: dict[str, tuple[int, int, int, bytes]]  # file → size, mtime_ns, records, digest of its keys
    keys: bytes  # every file's keys, sorted (typecode q)
    shared: list[int]
    sharing: list[str]


_encode = msgspec.msgpack.Encoder().encode
_decode = msgspec.msgpack.Decoder(CopiesMemo).decode


def find_shared(sessions: list[FileUsage], memo: bytes | None = None) -> Found:
    """The keys found in more than one of `sessions`, the indexes of the sessions holding one, and the
    memo for next time (None when the one given still holds as it is)."""
    if memo is not None:
        try:
            known = _decode(memo)
        except (msgspec.DecodeError, msgspec.ValidationError) as error:
            log.info("the memo of copies is damaged (%s): they are found from scratch", error)
        else:
            found = _again(sessions, known)
            if found is not None:
                return found
    return _from_scratch(sessions)


def _digest(keys: bytes) -> bytes:
    import hashlib  # (here: a run over unchanged files digests nothing)

    return hashlib.blake2b(keys, digest_size=8).digest()


def _stamp(usage: FileUsage) -> tuple[int, int, int, bytes]:
    return usage.size, usage.mtime_ns, usage.count, _digest(usage.keys)


def _from_scratch(sessions: list[FileUsage]) -> Found:
    keys = [usage.column("keys") for usage in sessions]
    seen: set[int] = set()
    shared: set[int] = set()
    for values in keys:
        own = set(values)
        if not own.isdisjoint(seen):  # (most files share nothing: only theirs is intersected)
            shared |= own & seen
        seen |= own
    shared.discard(NO_KEY)
    sharing = [number for number, values in enumerate(keys) if not shared.isdisjoint(values)]
    memo = CopiesMemo(
        {usage.file: _stamp(usage) for usage in sessions},
        array("q", sorted(chain.from_iterable(keys))).tobytes(),
        sorted(shared),
        [sessions[number].file for number in sharing],
    )
    return shared, sharing, _encode(memo)


def _again(sessions: list[FileUsage], known: CopiesMemo) -> Found | None:
    """What the memo found, where the files changed since only add keys met nowhere before; else None."""
    stamps = known.stamps
    present = 0
    changed: list[tuple[int, tuple[int, int, int, bytes] | None]] = []
    for number, usage in enumerate(sessions):
        stamp = stamps.get(usage.file)
        if stamp is not None:
            present += 1
            if stamp[0] == usage.size and stamp[1] == usage.mtime_ns:
                continue
        changed.append((number, stamp))
    if present != len(stamps):
        return None  # a file is gone: a key it shared may be shared no more
    index = {usage.file: number for number, usage in enumerate(sessions)}
    sharing = sorted(index[file] for file in known.sharing)
    if not changed:
        return set(known.shared), sharing, None
    if not _only_grown(known, [(sessions[number], stamp) for number, stamp in changed]):
        return None
    return set(known.shared), sharing, _encode(known)


def grown_alone(memo: bytes, grown: list[FileUsage]) -> bytes | None:
    """The memo once only `grown` changed, each a file the memo knows, grown by keys met nowhere before: the
    shared keys are what they were. None when that is not so (or the memo is damaged)."""
    try:
        known = _decode(memo)
    except (msgspec.DecodeError, msgspec.ValidationError) as error:
        log.info("the memo of copies is damaged (%s): they are found from scratch", error)
        return None
    if any(usage.file not in known.stamps for usage in grown):
        return None
    return _encode(known) if _only_grown(known, [(usage, known.stamps[usage.file]) for usage in grown]) else None


def _only_grown(known: CopiesMemo, changed: list[tuple[FileUsage, tuple[int, int, int, bytes] | None]]) -> bool:
    """Whether the files changed (each with its stamp in the memo, None for a new one) only add keys met
    nowhere before: then the memo is brought up to date with them."""
    everyone = memoryview(known.keys).cast("q")
    fresh: set[int] = set()
    for usage, stamp in changed:
        before = stamp[2] if stamp is not None else 0
        if stamp is not None and (usage.count < before or _digest(usage.keys[: before * 8]) != stamp[3]):
            return False  # not only grown: rewritten
        for key in usage.column("keys")[before:]:
            if key == NO_KEY:
                continue
            at = bisect_left(everyone, key)
            if (at < len(everyone) and everyone[at] == key) or key in fresh:
                return False  # met before: a copy, maybe, of a record elsewhere
            fresh.add(key)
        known.stamps[usage.file] = _stamp(usage)
    if len(fresh) > _INSERTS:
        known.keys = array("q", sorted(chain(everyone, fresh))).tobytes()
    elif fresh:
        merged = array("q", known.keys)
        for key in sorted(fresh):
            insort(merged, key)
        known.keys = merged.tobytes()
    return True
