"""Untrusted text stays inert: no HTML, no fetched resources, links only on a click, quick on huge input."""

import base64

import pytest
from PySide6.QtCore import QPoint, Qt, QUrl
from PySide6.QtGui import QDesktopServices, QImage, QPainter, QTextDocument

from pibrowser.ui.common import safe_text
from pibrowser.ui.context.part_line import Line
from pibrowser.ui.context.sections import Picture
from pibrowser.ui.context.text_piece import Text, text_with_more
from pibrowser.ui.context import images
from pibrowser.ui.context.images import ImageLoader, decode_image
from pibrowser.ui.common.safe_text import (
    SafeTextDocument,
    SafeTextView,
    clean,
    is_openable,
    set_markdown,
    strip_ansi,
)
from pibrowser.ui.common.widgets import plain_label


def png_file(path, size=8):
    image = QImage(size, size, QImage.Format.Format_RGB32)
    image.fill(0xFF0000)
    assert image.save(str(path), "PNG")
    return path


def image_count(document: QTextDocument) -> int:
    count = 0
    block = document.begin()
    while block.isValid():
        iterator = block.begin()
        while not iterator.atEnd():
            if iterator.fragment().charFormat().isImageFormat():
                count += 1
            iterator += 1
        block = block.next()
    return count


def draw(document: QTextDocument) -> None:
    image = QImage(400, 400, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    document.drawContents(painter)
    painter.end()


# ---- HTML and markdown ----------------------------------------------------------------------


def test_html_is_shown_as_text(qapp):
    document = SafeTextDocument()
    set_markdown(document, 'Hi <b>bold</b> <script>alert("x")</script> <iframe src="https://evil.example"></iframe>')
    text = document.toPlainText()
    assert "<b>bold</b>" in text
    assert '<script>alert("x")</script>' in text
    assert "<iframe" in text
    html = document.toHtml()
    assert "<script" not in html and "<iframe" not in html and "<b>" not in html


def test_markdown_still_formats(qapp):
    document = SafeTextDocument()
    set_markdown(document, "**bold** and `code`\n\n- item")
    assert document.toPlainText().startswith("bold and code")
    assert "item" in document.toPlainText()


def test_remote_and_local_images_are_never_loaded(qapp, tmp_path):
    local = png_file(tmp_path / "secret.png")
    url = QUrl.fromLocalFile(str(local)).toString()
    document = SafeTextDocument()
    set_markdown(document, f'![remote](http://example.com/track.png) ![local]({url}) <img src="{url}"> ![rel](secret.png)')
    document.setBaseUrl(QUrl.fromLocalFile(str(tmp_path) + "/"))
    draw(document)
    # Markdown images became inert notes; the HTML one is text.
    assert image_count(document) == 0
    text = document.toPlainText()
    assert "[image: remote — http://example.com/track.png not loaded]" in text
    shown_url = url if len(url) <= 80 else url[:79] + "…"  # long names are shortened in the note
    assert f"[image: local — {shown_url} not loaded]" in text
    assert f'<img src="{url}">' in text
    # Asked directly, the document refuses everything that is not its own thumbnail.
    for name in ("http://example.com/track.png", url, "secret.png", "data:image/png;base64,AAAA", "qrc:/x.png"):
        assert document.loadResource(QTextDocument.ResourceType.ImageResource, QUrl(name)) is None
        assert document.resource(QTextDocument.ResourceType.ImageResource, QUrl(name)) is None
    assert url in document.refused


def test_plain_qtextdocument_would_have_loaded_the_file(qapp, tmp_path):
    # The control: without our override, Qt reads local files named by a document.
    local = png_file(tmp_path / "secret.png")
    document = QTextDocument()
    document.setMarkdown(f"![local]({QUrl.fromLocalFile(str(local)).toString()})")
    found = document.resource(QTextDocument.ResourceType.ImageResource, QUrl.fromLocalFile(str(local)))
    assert found is not None


def test_own_thumbnails_resolve(qapp):
    document = SafeTextDocument()
    image = QImage(4, 4, QImage.Format.Format_RGB32)
    image.fill(0x00FF00)
    url = document.add_image("abc", image)
    assert url.scheme() == safe_text.THUMB_SCHEME
    assert document.loadResource(QTextDocument.ResourceType.ImageResource, url) == image
    assert document.loadResource(QTextDocument.ResourceType.ImageResource, QUrl(f"{safe_text.THUMB_SCHEME}:other")) is None


def test_view_never_navigates_or_loads(qtbot, tmp_path):
    local = tmp_path / "page.html"
    local.write_text("<p>SECRET CONTENT</p>")
    view = SafeTextView()
    qtbot.addWidget(view)
    view.set_markdown("hello")
    view.setSource(QUrl.fromLocalFile(str(local)))
    assert "SECRET" not in view.toPlainText()
    assert view.loadResource(QTextDocument.ResourceType.ImageResource, QUrl.fromLocalFile(str(png_file(tmp_path / "i.png")))) is None
    assert view.openLinks() is False and view.openExternalLinks() is False


# ---- links --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url, ok",
    [
        ("https://example.com/a", True),
        ("http://example.com", True),
        ("mailto:someone@example.com", True),
        ("file:///etc/passwd", False),
        ("javascript:alert(1)", False),
        ("data:text/html,<b>x</b>", False),
        ("relative/page.html", False),
        ("ftp://example.com/x", False),
        ("https://", False),
    ],
)
def test_only_web_and_mail_links_open(url, ok):
    assert is_openable(url) is ok


def anchor_point(view: SafeTextView) -> QPoint:
    for y in range(2, view.viewport().height(), 3):
        for x in range(2, view.viewport().width(), 3):
            if view.anchorAt(QPoint(x, y)):
                return QPoint(x, y)
    raise AssertionError("no link drawn")


@pytest.mark.parametrize(
    "target, opens", [("https://example.com/docs", True), ("file:///etc/passwd", False), ("javascript:alert(1)", False)]
)
def test_a_link_opens_only_when_clicked_and_only_if_allowed(qtbot, monkeypatch, target, opens):
    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(lambda url: opened.append(url.toString()) or True))
    view = SafeTextView()
    qtbot.addWidget(view)
    view.resize(400, 100)
    view.set_markdown(f"see [the link]({target}) here")
    view.show()
    qtbot.waitExposed(view)
    point = anchor_point(view)
    qtbot.mouseMove(view.viewport(), point)
    assert opened == []  # hovering opens nothing
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert view.opened == [target]
    assert opened == ([target] if opens else [])


# ---- terminal escapes and control characters ------------------------------------------------


def test_ansi_escapes_are_removed():
    raw = "\x1b[31mred\x1b[0m \x1b]0;window title\x07ok \x1b]8;;https://x.example\x1b\\link\x1b]8;;\x1b\\ \x1b[2K\x1b[1Gdone"
    assert strip_ansi(raw) == "red ok link done"


def test_other_controls_become_visible_symbols():
    assert strip_ansi("bell\x07 nul\x00 del\x7f tab\tnew\nline") == "bell␇ nul␀ del␡ tab\tnew\nline"
    assert strip_ansi("a\r\nb\rc") == "a\nb\nc"


def test_view_shows_no_escape_bytes(qtbot):
    view = SafeTextView(monospace=True)
    qtbot.addWidget(view)
    view.set_plain("\x1b[1;32mPASS\x1b[0m tests")
    assert view.toPlainText() == "PASS tests"


def test_tooltips_are_escaped():
    tip = safe_text.safe_tip("<img src='file:///etc/passwd'> & <b>x</b>")
    assert "<img" not in tip and "<b>" not in tip
    assert "&lt;img src=&#x27;file:///etc/passwd&#x27;&gt; &amp; &lt;b&gt;x&lt;/b&gt;" in tip


def test_labels_never_interpret_markup(qtbot):
    label = plain_label("<b>bold</b><img src='file:///etc/passwd'>")
    qtbot.addWidget(label)
    assert label.textFormat() == Qt.TextFormat.PlainText
    assert label.text() == "<b>bold</b><img src='file:///etc/passwd'>"


# ---- huge input ----------------------------------------------------------------------------------


def test_ten_megabyte_string_is_clipped(qtbot):
    text = ("word " * 20 + "\n") * (10_000_000 // 101)
    assert len(text) >= 9_900_000
    piece, shown = text_with_more(text, "t", whole=False)
    assert 1000 < len(shown.plain_text()) <= 4100
    assert shown.hidden == len(text) - len(clean(text, 4000)[0])
    more = [part.text for child in piece.children if isinstance(child, Line) for part in child.links()]
    assert more == [f"Show all ({len(text):,} characters)"]


def test_one_line_of_ten_megabytes(qtbot):
    text = "x" * 10_000_000
    view = SafeTextView()
    qtbot.addWidget(view)
    hidden = view.set_plain(text)
    assert hidden == 10_000_000 - 4000
    assert len(view.toPlainText()) == 4000


def test_twenty_megabyte_image_becomes_a_thumbnail_off_the_gui_thread(qtbot, big_png_base64):
    side, encoded = big_png_base64
    loader = ImageLoader()
    block = {"type": "image", "data": encoded, "mimeType": "image/png"}
    picture = Picture(block, loader)
    assert not picture.has_thumbnail  # decoding happens in the pool, not in the constructor
    qtbot.waitUntil(lambda: picture.has_thumbnail, timeout=30_000)
    pixmap = picture.thumbnail.pixmap()
    assert max(pixmap.width(), pixmap.height()) == images.THUMBNAIL_SIDE
    assert f"{side} × {side} px" in Picture(block, loader).caption.text  # as a card built now says


def test_decode_refuses_garbage_and_oversized_data():
    image, _, error = decode_image(base64.b64encode(b"not an image").decode())
    assert image.isNull() and error
    image, _, error = decode_image("A" * (images.MAX_IMAGE_BASE64 + 4))
    assert image.isNull() and "too large" in error
    image, _, error = decode_image(None)
    assert image.isNull() and error


@pytest.mark.parametrize("form", ["file-url", "absolute", "relative", "data"])
def test_no_image_reference_reaches_the_layout(qtbot, tmp_path, monkeypatch, form):
    # Qt's image handler reads a local file by name when no resource answers, whatever
    # loadResource says; so no image reference may survive into a document at all.
    local = tmp_path / "big.png"
    image = QImage(300, 300, QImage.Format.Format_RGB32)
    image.fill(0x0000FF)
    image.save(str(local))
    monkeypatch.chdir(tmp_path)
    raw = base64.b64encode(local.read_bytes()).decode()
    target = {
        "file-url": QUrl.fromLocalFile(str(local)).toString(),
        "absolute": str(local),
        "relative": "big.png",
        "data": f"data:image/png;base64,{raw}",
    }[form]
    view = SafeTextView()
    qtbot.addWidget(view)
    view.set_markdown(f"before ![pic]({target}) after")
    view.resize(400, view.heightForWidth(400))
    view.show()
    qtbot.waitExposed(view)
    assert image_count(view.document()) == 0
    assert view.heightForWidth(400) < 100  # a loaded 300 px image would make it taller
    assert view.document().size().height() < 100
    assert "[image: pic — " in view.toPlainText()


def test_control_an_image_left_in_a_document_is_read_from_disk(qtbot, tmp_path):
    # Why the references are removed: refusing in loadResource alone does not stop Qt.
    from PySide6.QtGui import QTextCursor, QTextImageFormat

    local = tmp_path / "big.png"
    image = QImage(300, 300, QImage.Format.Format_RGB32)
    image.fill(0x0000FF)
    image.save(str(local))
    document = SafeTextDocument()
    fmt = QTextImageFormat()
    fmt.setName(QUrl.fromLocalFile(str(local)).toString())
    QTextCursor(document).insertImage(fmt)
    assert document.size().height() >= 300
    assert QUrl.fromLocalFile(str(local)).toString() in document.refused


def test_the_view_is_as_tall_as_its_text_after_new_text_a_new_font_and_a_resize(qtbot):
    view = SafeTextView()
    qtbot.addWidget(view)
    view.set_plain("one line")
    short = view.heightForWidth(300)
    view.resize(300, short)
    view.show()
    view.set_plain("a line\n" * 12)
    tall = view.heightForWidth(300)
    assert tall > 5 * short
    font = view.font()
    font.setPointSizeF(font.pointSizeF() * 2)
    view.setFont(font)
    assert view.heightForWidth(300) > 1.5 * tall
    # A resize lays the view's own document out again; the height asked for a width stays its text's.
    bigger = view.heightForWidth(300)
    view.resize(150, 40)
    assert view.heightForWidth(300) == bigger and view.heightForWidth(150) >= bigger


# ---- a card's text, painted, and the live view laid over it ----------------------------------------


@pytest.mark.parametrize("mono", [False, True])
def test_a_card_text_lays_its_text_out_as_the_view_laid_over_it_does(qtbot, mono):
    # The list paints a Text; where the mouse is, a SafeTextView on the same document takes over: nothing may move.
    texts = [
        "x" * 500 + " an unbreakable run",
        "# Title\n\nSome *words* and `code`\n\n```\nfenced line\n```\n\n- a\n- b",
        "plain\n\nlines " * 30,
    ]
    for markdown in texts:
        text, view = Text(markdown, mono=mono), SafeTextView(monospace=mono)
        qtbot.addWidget(view)
        view.set_markdown(markdown)
        widths = (120, 333, 640)
        assert [text.height(width) for width in widths] == [view.heightForWidth(width) for width in widths]
        live = SafeTextView(document=text.document)
        qtbot.addWidget(live)
        live.setFont(text.font)
        live.resize(333, text.height(333))
        live.show()
        qtbot.waitUntil(lambda: live.viewport().width() == 333)
        assert text.document.textWidth() == 333 and text.measure(333) == text.height(333)


def test_a_card_text_finds_where_a_search_mark_is_as_the_view_does(qtbot):
    markdown = "Find the **needle** here,\n\nand `needle` in code, and a [needle](https://example.com) link."
    text = Text(markdown)
    view = SafeTextView(document=text.document)
    qtbot.addWidget(view)
    view.setFont(text.font)
    view.resize(300, text.height(300))
    view.show()
    qtbot.waitUntil(lambda: view.viewport().width() == 300)
    cursor = text.document.find("needle")
    found = 0
    while not cursor.isNull():
        assert text.cursor_rect(cursor, 300) == view.cursorRect(cursor)
        found += 1
        cursor = text.document.find("needle", cursor)
    assert found == 3


def test_a_text_shown_whole_is_plain_past_a_length_and_huge_ones_stay_clipped(qtbot):
    short = "\n".join(f"*line* {n} of a long tool output" for n in range(600))
    piece, text = text_with_more(short, "t", whole=True)
    assert piece is text and text.hidden == 0 and text.markdown and "line 599" in text.plain_text()
    long = short * 2  # past the length whose markdown is slow to lay out
    _, text = text_with_more(long, "t", whole=True)
    assert text.hidden == 0 and not text.markdown and "*line* 599" in text.plain_text()
    huge = "x" * 200_000  # past what is shown in place: the viewer shows it
    _, text = text_with_more(huge, "t", whole=True)
    assert text.hidden > 0
