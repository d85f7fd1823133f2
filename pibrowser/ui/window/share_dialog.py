"""The findings of a share, reviewed before anything is written: each secret found (kind, entry,
a masked snippet) with a Keep box, whether home folders are shortened, and Write or Cancel.
The snippets are the session's text: shown as plain text, never as markup."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...model.share.redaction import Findings, marker

KEEP, KIND, ENTRY, SNIPPET = range(4)


class ShareDialog(QDialog):
    """Public for callers and tests: `table` (a row per finding, its Keep box in column KEEP), `home`
    (shorten home folders), `findings` (their `keep` set from the boxes once accepted)."""

    def __init__(self, findings: Findings, out_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.findings = findings
        self.setWindowTitle("Share as HTML: review what is removed")
        layout = QVBoxLayout(self)
        count = len(findings.items)
        intro = (
            f"{count} secret{'s' if count != 1 else ''} found. Each is replaced by {marker('KIND')} wherever it appears in "
            f"{out_name}, also JSON-escaped, URL-encoded and base64-encoded. Tick Keep for any that is not a secret."
            if count
            else f"No secret found by the detectors. {out_name} will hold the session's text as it is."
        )
        text = QLabel(intro)
        text.setTextFormat(Qt.TextFormat.PlainText)
        text.setWordWrap(True)
        layout.addWidget(text)
        self.table = QTableWidget(count, 4)
        self.table.setHorizontalHeaderLabels(["Keep", "Kind", "Entry", "Where"])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(SNIPPET, QHeaderView.ResizeMode.Stretch)
        for row, finding in enumerate(findings.items):
            keep = QTableWidgetItem()
            keep.setFlags(Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled)
            keep.setCheckState(Qt.CheckState.Checked if finding.keep else Qt.CheckState.Unchecked)
            self.table.setItem(row, KEEP, keep)
            for column, value in ((KIND, finding.kind), (ENTRY, finding.entry), (SNIPPET, finding.snippet)):
                self.table.setItem(row, column, QTableWidgetItem(value))  # an item's text is never read as markup
        self.table.resizeColumnsToContents()
        header.setSectionResizeMode(SNIPPET, QHeaderView.ResizeMode.Stretch)
        self.table.setVisible(bool(count))
        layout.addWidget(self.table, 1)
        self.home = QCheckBox("Shorten home folders (/home/NAME, /Users/NAME) to ~")
        layout.addWidget(self.home)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.write_button = buttons.addButton("Write Page", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(900, 420 if count else 160)

    def accept(self) -> None:
        for row, finding in enumerate(self.findings.items):
            item = self.table.item(row, KEEP)
            finding.keep = item is not None and item.checkState() == Qt.CheckState.Checked
        super().accept()
