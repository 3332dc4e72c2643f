"""Exception classes of the engine, each carrying machine-readable problems."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a request: where (a JSON pointer), what (a stable code) and why."""

    path: str
    code: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"path": self.path, "code": self.code, "message": self.message}


class AdjudicatorError(Exception):
    """Base class of every error the engine raises on purpose."""


# An InvalidRequest keeps at most this many problems (the first ones, in order) and counts the rest.
MAX_PROBLEMS = 100


class InvalidRequest(AdjudicatorError):
    """The request is well-typed but inconsistent (unknown ids, impossible counts, ...): its first
    `MAX_PROBLEMS` problems, and in `omitted` how many more there were."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = tuple(problems[:MAX_PROBLEMS])
        self.omitted = max(0, len(problems) - MAX_PROBLEMS)
        message = "; ".join(f"{p.path or '/'}: {p.message}" for p in self.problems)
        super().__init__(f"{message}; and {self.omitted} more" if self.omitted else message)


class InvalidSnapshot(InvalidRequest):
    """The snapshot breaks a consistency rule of the snapshot format."""


class UnknownInterpretation(InvalidRequest):
    """An `interpretations` entry names a question or choice that does not exist."""


class UnknownRegisterEntry(AdjudicatorError, LookupError):
    """A rule, question, source or scenario id that the registers do not hold."""

    def __init__(self, kind: str, entry_id: str) -> None:
        self.kind = kind
        self.entry_id = entry_id
        super().__init__(f"no {kind} with id {entry_id!r}")


class RegisterError(AdjudicatorError):
    """The packaged register data is malformed (a defect of the package, not of a request)."""
