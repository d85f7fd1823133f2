"""The shared page in a real browser (headless Chromium): the outline shows every visible entry, a click
shows the context `pibrowser context` prints, compare, search, #entry= links and pi's keys work, and the
page fetches nothing and keeps its Content-Security-Policy. One browser serves every test of the worker."""

from __future__ import annotations

import pytest

from pibrowser.model.session.session import Session
from pibrowser.model.session.tree_filter import FilterMode, visible_tree
from pibrowser.model.text.terminal_text import visible_line

from .browser import Browser, missing
from .conftest import fixture_names, session_file
from .planted import write_planted
from .share_pages import cli_text, context_text, some_nodes

pytestmark = [
    pytest.mark.skipif(missing() is not None, reason=str(missing())),
    pytest.mark.xdist_group("chromium"),  # one browser for the module: its tests on one worker
]
NAMES = [*fixture_names(), "demo-session"]


# Kept for the worker's whole run: xdist may hand this worker other modules' tests between these,
# and a module's fixture would then be closed and opened again (six seconds each time).
@pytest.fixture(scope="session")
def browser():
    opened = Browser()
    yield opened
    opened.close()


@pytest.fixture(scope="session")
def pages(tmp_path_factory):
    """Each fixture shared once (the demo with a comparison of its two newest leaves)."""
    folder = tmp_path_factory.mktemp("pages")
    written = {}
    for name in NAMES:
        out = folder / f"{name}.html"
        cli_text("share", str(session_file(name)), "-o", str(out), "--no-redact")
        written[name] = out
    return written


def rows(browser) -> list[str]:
    """The ids of every row of the outline, scrolled through from top to bottom."""
    return browser.driver.execute_script(
        """
        const outline = document.getElementById("outline"), seen = new Map();
        for (let top = 0; ; top += outline.clientHeight / 2) {
          outline.scrollTop = top;
          outline.dispatchEvent(new Event("scroll"));
          for (const row of document.querySelectorAll("#rows .row:not([hidden])")) seen.set(Number(row.dataset.row), row.dataset.id);
          if (top > outline.scrollHeight) break;
        }
        return [...seen.keys()].sort((a, b) => a - b).map((row) => seen.get(row));
        """
    )


def click_row(browser, key: str) -> None:
    """Scroll the outline to `key`'s row and click it as a user does."""
    driver = browser.driver
    row = driver.execute_script(
        """
        const outline = document.getElementById("outline");
        for (let top = 0; top <= outline.scrollHeight; top += outline.clientHeight / 2) {
          outline.scrollTop = top;
          outline.dispatchEvent(new Event("scroll"));
          for (const row of document.querySelectorAll("#rows .row:not([hidden])"))
            if (row.dataset.id === arguments[0]) { row.scrollIntoView({block: "center"}); outline.dispatchEvent(new Event("scroll")); return true; }
        }
        return false;
        """,
        key,
    )
    assert row, f"no row for {key}"
    # Found again after the scroll redrew the rows, in one step (asking each row for its id was a
    # round trip to the browser per row).
    target = driver.execute_script(
        "return [...document.querySelectorAll('#rows .row:not([hidden])')].find((row) => row.dataset.id === arguments[0])", key
    )
    target.click()


def shown_context(browser) -> str:
    return browser.context_text()


@pytest.mark.parametrize("name", NAMES)
def test_outline_shows_every_visible_entry_and_clicks_show_the_cli_context(browser, pages, name):
    path = session_file(name)
    session = Session.load(path, lazy=False)
    browser.open(pages[name])
    shown = rows(browser)
    expected = {visible_line(key) for key in visible_tree(session, FilterMode.DEFAULT).parent}
    assert len(shown) == len(expected) and set(shown) == expected
    for key in some_nodes(path, 6):
        if key not in expected:
            continue
        click_row(browser, key)
        assert shown_context(browser) == context_text(path, key), key


def test_links_open_with_the_entry_selected_even_one_the_filter_hides(browser, pages):
    path = session_file("generated-s3")
    session = Session.load(path, lazy=False)
    hidden = [key for key in session.entries if key not in visible_tree(session, FilterMode.DEFAULT).parent]
    for key in [*hidden[:3], some_nodes(path, 1)[0]]:
        browser.open(pages["generated-s3"], f"#entry={key}")
        assert shown_context(browser) == context_text(path, key)
    browser.driver.execute_script("location.hash = arguments[0]", f"#entry={session.leaf_id}")
    assert shown_context(browser) == context_text(path, session.leaf_id)


def test_compare_shows_the_diff(browser, tmp_path):
    path = session_file("generated-s4")
    session = Session.load(path, lazy=False)
    left, right = session.leaves()[:2]
    out = tmp_path / "pair.html"
    cli_text("share", str(path), "-o", str(out), "--compare", left, right)
    browser.open(out)
    browser.driver.execute_script("document.querySelector('#tabs [data-tab=compare]').click()")
    lines = browser.driver.execute_script("return [...document.querySelectorAll('#compare > div')].slice(1).map((el) => el.textContent)")
    assert lines == cli_text("diff", str(path), left, right, "--format", "text").rstrip("\n").split("\n")


def test_search_finds_the_entries_holding_a_word(browser, pages):
    from selenium.webdriver.common.keys import Keys

    browser.open(pages["blog-example"])
    box = browser.driver.find_element("id", "search")
    box.send_keys("配置", Keys.ENTER)
    found = browser.driver.execute_script(
        "return [...document.querySelectorAll('#results [data-node]')].map((el) => el.textContent.split('  ')[0])"
    )
    assert "e4" in found
    assert browser.driver.find_element("id", "hits").text.endswith("hits")
    assert browser.driver.execute_script("return document.querySelectorAll('#rows .row.hit').length") > 0


def test_pi_tree_keys(browser, pages):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    path = session_file("generated-s5")
    session = Session.load(path, lazy=False)
    browser.open(pages["generated-s5"])
    driver = browser.driver
    order = rows(browser)
    selected = lambda: driver.execute_script("return document.querySelector('#rows .row.sel').dataset.id")  # noqa: E731
    pressed = lambda: driver.execute_script("return document.querySelector('#filters [aria-pressed=true]').textContent")  # noqa: E731
    driver.execute_script("document.getElementById('outline').scrollTop = 0")
    click_row(browser, order[0])
    ActionChains(driver).send_keys(Keys.ARROW_DOWN).perform()
    assert selected() == order[1]
    ActionChains(driver).send_keys(Keys.HOME).perform()
    assert selected() == order[0]  # the root of the selection's tree
    ActionChains(driver).send_keys(Keys.ARROW_UP).perform()
    assert selected() == order[-1]  # round the top
    ActionChains(driver).send_keys(Keys.END).perform()
    assert shown_context(browser) == context_text(path, session.leaf_id)
    ActionChains(driver).key_down(Keys.CONTROL).send_keys("u").key_up(Keys.CONTROL).perform()
    assert pressed() == "User only"
    user_rows = rows(browser)
    assert user_rows and all(session.entries[key].role == "user" for key in user_rows)
    ActionChains(driver).key_down(Keys.CONTROL).send_keys("u").key_up(Keys.CONTROL).perform()
    assert pressed() == "Default"
    ActionChains(driver).key_down(Keys.ALT).key_down(Keys.SHIFT).send_keys("o").key_up(Keys.SHIFT).key_up(Keys.ALT).perform()
    assert pressed() == "All"


def test_the_page_fetches_nothing_and_its_policy_holds(browser, tmp_path):
    page = tmp_path / "planted.html"
    cli_text("share", str(write_planted(tmp_path / "planted.jsonl")), "-o", str(page))
    browser.requests()  # what came before
    browser.open(page, "#entry=u2")
    driver = browser.driver
    assert [url for url, _ in browser.requests() if not url.startswith("data:")] == [page.resolve().as_uri()]  # the page, nothing else
    images = driver.execute_script("return [...document.querySelectorAll('#context img')].map((img) => img.src.slice(0, 22))")
    assert images == ["data:image/png;base64,"]  # the SVG named by a PNG's mime type is not shown
    assert "«redacted: listed secret»" not in shown_context(browser)  # the list was not given: the text stays
    blocked = driver.execute_async_script(
        """
        const done = arguments[arguments.length - 1], seen = [];
        document.addEventListener("securitypolicyviolation", (event) => seen.push(event.violatedDirective));
        const img = document.createElement("img");
        img.src = "http://127.0.0.1:9/x.png";
        document.body.append(img);
        const script = document.createElement("script");
        script.textContent = "window.injected = true";
        document.body.append(script);
        fetch("http://127.0.0.1:9/").then(() => done(["fetched", seen]), () => setTimeout(() => done([window.injected === true, seen]), 200));
        """
    )
    assert blocked[0] is False
    assert {"img-src", "script-src-elem", "connect-src"} <= set(blocked[1])
    # Chromium reports the image's attempt, stopped by the policy before it left (the fetch never gets that far).
    assert browser.requests() == [("http://127.0.0.1:9/x.png", "csp")]


def test_a_message_a_context_edit_replaced_says_so_outside_its_text(browser, pages):
    path = session_file("demo-session")
    browser.open(pages["demo-session"])
    text = shown_context(browser)
    assert text == context_text(path, Session.load(path, lazy=False).leaf_id)  # the note is not in the text
    edits = browser.driver.execute_script("return [...document.querySelectorAll('#context .msg[data-edit]')].map((el) => el.dataset.edit)")
    assert edits == ["2d700090"]
    note = browser.driver.execute_script("return getComputedStyle(document.querySelector('.msg[data-edit]'), '::before').content")
    assert note == '"replaced by context_edit 2d700090"'
