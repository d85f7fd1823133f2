"""pibrowser share without a browser: each node's context as the page replays it equals `pibrowser context`,
every planted secret is gone from the page in every form, a dry run writes nothing, the input is never
touched, and each share is recorded."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re

import orjson
import pytest

from pibrowser.model.session.session import Session
from pibrowser.model.share.contexts import ALL, context_steps
from pibrowser.model.share.page_data import ShareRequest
from pibrowser.model.share.redaction import encoded_forms
from pibrowser.model.writing.share_record import read_shares
from pibrowser.model.share.share import ShareOptions, find_for_share, write_share

from .conftest import fixture_names, session_file
from .hostile import HALF
from .sessions import entry, message, write
from .planted import DETECTED, HOME, LISTED, PATTERN, PATTERNED, forms, write_planted
from .share_pages import cli_text, context_text, some_nodes


def replayed(steps, node: int) -> str:
    """A node's context text from the steps, as the page's script rebuilds it (the command prints a
    blank line after each context: the page's text ends with it too)."""
    chain = []
    at = node
    while at >= 0:
        chain.append(at)
        if steps.keep[at] == 0:
            break
        at = steps.parent[at]
    blocks: list[int] = []
    for at in reversed(chain):
        if steps.keep[at] != ALL:
            del blocks[steps.keep[at] :]
        blocks.extend(steps.added[at])
    settings = steps.settings[steps.setting[node]]
    head = f"== leaf {steps.order[node]}: {len(blocks)} message{'' if len(blocks) == 1 else 's'}, "
    if not blocks:
        return head + settings.rstrip() + "\n\n"
    texts = [steps.blocks[block] for block in blocks]
    last = blocks[-1]
    texts[-1] = texts[-1][: steps.block_tail.get(last, len(texts[-1]) - 1)]
    return head + settings + "\n\n" + "\n".join(texts) + "\n\n"


@pytest.mark.parametrize("name", [*fixture_names(), "demo-session"])
def test_every_context_replayed_equals_the_cli(name):
    path = session_file(name)
    steps = context_steps(Session.load(path, lazy=True))
    node_of = {key: node for node, key in enumerate(steps.order)}
    for key in some_nodes(path, 12):
        assert replayed(steps, node_of[key]) == context_text(path, key), key


@pytest.mark.parametrize("name", ["generated-s3", "generated-s5", "demo-session"])
def test_a_walk_split_in_two_processes_replays_the_same_contexts(name, monkeypatch):
    from pibrowser.model.share import contexts

    monkeypatch.setattr(contexts, "PARALLEL_FROM", 0)  # the fixtures are small: split them all the same
    path = session_file(name)
    session = Session.load(path, lazy=True)
    split = context_steps(session, parallel=True)
    whole = context_steps(Session.load(path, lazy=True))
    assert len(split.keep) == len(split.order) and len(split.blocks) == len(set(split.blocks))
    for node in range(len(split.order)):
        assert replayed(split, node) == replayed(whole, node), split.order[node]


def test_encoded_forms_cover_base64_at_every_alignment():
    secret = "Zq8bX2mN4vL7kP0sR3tY"
    for offset in range(3):
        written = base64.b64encode(b"x" * offset + secret.encode() + b"tail").decode()
        assert any(form in written for form in encoded_forms(secret)), offset


def test_every_planted_secret_is_gone_from_the_page(tmp_path):
    session = write_planted(tmp_path / "planted.jsonl")
    before = session.read_bytes(), os.stat(session).st_mtime_ns
    listed = tmp_path / "secrets.env"
    listed.write_text(f"# mine\nEXTRA={LISTED}\n", encoding="utf-8")
    from pibrowser.model.share.secrets import listed_secrets

    options = ShareOptions(ShareRequest(pair=("u3", "u4")), True, (PATTERN,), tuple(listed_secrets(listed.read_text())), home=True)
    findings = find_for_share(session, options)
    kinds = findings.by_kind()
    assert {
        "AWS Access Key",
        "GitHub Token",
        "Slack Token",
        "Anthropic API Key",
        "JSON Web Token",
        "Private Key",
        "pattern",
        "listed secret",
    } <= set(kinds)
    out = tmp_path / "page.html"
    shared = write_share(session, out, options, findings)
    page = out.read_bytes().decode("utf-8")
    for secret in [*DETECTED, LISTED, PATTERNED, HOME]:
        for form in forms(secret):
            assert form not in page, (secret[:12], form[:40])
    assert "«redacted: AWS Access Key»" in page
    assert (session.read_bytes(), os.stat(session).st_mtime_ns) == before
    assert shared.sha256 == hashlib.sha256(out.read_bytes()).hexdigest()


def test_a_kept_finding_stays(tmp_path):
    session = write_planted(tmp_path / "planted.jsonl")
    options = ShareOptions()
    findings = find_for_share(session, options)
    kept = next(finding for finding in findings.items if finding.kind == "Slack Token")
    kept.keep = True
    write_share(session, tmp_path / "page.html", options, findings)
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert kept.secret in page
    assert "Slack Token" not in findings.by_kind()


def test_dry_run_writes_nothing_and_lists_the_findings(tmp_path, capsys):
    session = write_planted(tmp_path / "planted.jsonl")
    out = tmp_path / "page.html"
    text = cli_text("share", str(session), "-o", str(out), "--dry-run")
    assert not out.exists() and not read_shares()
    assert "GitHub Token\ta1\t" in text and "nothing written" in text
    assert "ghp_Zq8bX2mN" not in text  # the snippet is masked


def test_share_and_the_record(tmp_path):
    path = session_file("generated-s2")
    out = tmp_path / "s2.html"
    before = path.read_bytes()
    text = cli_text("share", str(path), "-o", str(out), "--leaf", some_nodes(path, 1)[0])
    assert "removed 0 secrets" in text and f"wrote {out}" in text
    assert path.read_bytes() == before
    record = read_shares()[-1]
    assert record["source"] == str(path) and record["output"] == str(out.resolve())
    assert record["sha256"] == hashlib.sha256(out.read_bytes()).hexdigest()
    listed = cli_text("shares")
    assert str(out.resolve()) in listed
    assert orjson.loads(cli_text("shares", "--format", "json"))[-1]["sha256"] == record["sha256"]


def test_the_page_forbids_every_fetch(tmp_path):
    out = tmp_path / "blog.html"
    cli_text("share", str(session_file("blog-example")), "-o", str(out))
    page = out.read_text(encoding="utf-8")
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page).group(1).replace("&#x27;", "'")
    assert policy.startswith("default-src 'none'; script-src 'sha256-") and "img-src data:;" in policy
    assert "unsafe" not in policy and "http" not in policy
    assert not re.search(r"<(?:link|iframe|object|embed|base|form)\b", page)
    assert page.count("<script>") == 1  # the page's own; the data elements are type=application/json, never run


def test_an_old_format_file_is_shared_as_read(tmp_path):
    path = tmp_path / "legacy.jsonl"
    path.write_bytes(session_file("legacy-v1").read_bytes())
    before = path.read_bytes(), os.stat(path).st_mtime_ns
    cli_text("share", str(path), "-o", str(tmp_path / "legacy.html"))
    assert (path.read_bytes(), os.stat(path).st_mtime_ns) == before
    assert not list(tmp_path.glob("*.bak"))


def test_unknown_leaf_and_overwriting_the_input_fail(tmp_path, capsys):
    from pibrowser.cli.main import main

    path = session_file("generated-s1")
    assert main(["share", str(path), "-o", str(tmp_path / "x.html"), "--leaf", "nope"]) == 1
    assert "no entry with id 'nope'" in capsys.readouterr().err
    assert main(["share", str(path), "-o", str(path)]) == 1
    assert main(["share", str(path), "--redact-pattern", "("]) == 2
    assert not (tmp_path / "x.html").exists()


def test_half_a_character_is_shared_as_an_escape(tmp_path):
    # What a JS slice leaves of an emoji, in a thinking level, a name and a message: the page is
    # written (orjson refuses a lone surrogate; JSON.stringify writes it as an escape), and its data reads back.
    items = (
        message("a", None, "user", "hi"),
        entry("thinking_level_change", "b", "a", 1, thinkingLevel="hi" + HALF),
        entry("session_info", "n", "b", 2, name="name " + HALF),
        message("c", "n", "user", "x" + HALF + "y", 3),
    )
    path = write(tmp_path / "half.jsonl", *(json.dumps(item).encode() for item in items))  # \ud83d escapes, as JS writes them
    out = tmp_path / "half.html"
    assert "wrote" in cli_text("share", str(path), "-o", str(out))
    page = out.read_bytes()
    page.decode("utf-8")  # well-formed UTF-8 throughout
    data = re.search(rb'<script type="application/json" id="data">(.*?)</script>', page, re.S).group(1)
    assert "hi\\ud83d" in json.loads(data)["titles"][1]  # shown as its escape, as the command line shows it
    assert "<title>name \\ud83d · pi session</title>".encode() in page  # the session's name, its escape shown too
