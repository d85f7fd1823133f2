"""Which branch changed what: the files two paths touched, side by side.

Each side's lists are pi's (context/file_lists.py). A file is "modified" on a side
when that side's path wrote or edited it, "read" when it only read it. The
files only one side changed are what tells two attempts apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..context.file_lists import FileOperations
from ..js.sort import js_sorted_strings

MODIFIED, READ = "modified", "read"


@dataclass(frozen=True, slots=True)
class FileRow:
    path: str
    left: str | None  # "modified", "read", or None when that side did not touch the file
    right: str | None

    @property
    def changed_on_one_side(self) -> bool:
        return (self.left == MODIFIED) != (self.right == MODIFIED)


@dataclass(slots=True)
class FilesComparison:
    left: FileOperations
    right: FileOperations
    rows: list[FileRow] = field(default_factory=list)  # every file either side touched, sorted as pi sorts

    @property
    def only_left(self) -> list[str]:
        """Files the left path changed and the right one did not."""
        return [row.path for row in self.rows if row.left == MODIFIED and row.right != MODIFIED]

    @property
    def only_right(self) -> list[str]:
        return [row.path for row in self.rows if row.right == MODIFIED and row.left != MODIFIED]

    @property
    def both(self) -> list[str]:
        """Files both paths changed."""
        return [row.path for row in self.rows if row.left == MODIFIED and row.right == MODIFIED]


def _states(operations: FileOperations) -> dict[str, str]:
    return {**dict.fromkeys(operations.read_files, READ), **dict.fromkeys(operations.modified_files, MODIFIED)}


def compare_files(left: FileOperations, right: FileOperations) -> FilesComparison:
    left_states, right_states = _states(left), _states(right)
    paths = js_sorted_strings(set(left_states) | set(right_states))
    return FilesComparison(left, right, [FileRow(path, left_states.get(path), right_states.get(path)) for path in paths])
