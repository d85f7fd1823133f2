"""The labelled entries of a path, worked out from the last path asked about: the same as a look at every entry."""

import random

from pibrowser.model import Session
from pibrowser.model.session.path_labels import PathLabels

from .sessions import chain, entry, write


def labelled(path, labels):
    return [item for item in path if item.id in labels]


def test_steps_up_down_and_across_branches_give_the_labels_of_the_whole_path(tmp_path):
    items = chain(300)
    items += [entry("message", "side", "m150", message={"role": "user", "content": "x"})]
    session = Session.load(write(tmp_path / "s.jsonl", *items))
    labels = {f"m{n}": f"label {n}" for n in range(0, 300, 7)} | {"side": "aside"}
    paths = PathLabels()
    keys = [*[f"m{n}" for n in range(299, 100, -1)], *[f"m{n}" for n in range(100, 299)], "side", "m20", "m299", "m0"]
    rnd = random.Random(5)
    keys += rnd.sample([f"m{n}" for n in range(300)], 40)
    for key in keys:
        path = session.path_entries(key)
        assert paths.on(path, labels) == labelled(path, labels), key
    # Labels set and cleared between two asks: the new ones count at once.
    path = session.path_entries("m299")
    paths.on(path, labels)
    labels.pop("m7")
    labels["m8"] = "new"
    assert paths.on(path, labels) == labelled(path, labels)
    shorter = session.path_entries("m200")
    assert paths.on(shorter, labels) == labelled(shorter, labels)


def test_a_step_looks_at_the_entries_past_the_shared_ones_only(tmp_path):
    # The window's paths are read in place (a view of the fold's spine): walking one from its root to
    # skip what the last path shared made a 100,000-entry list at every step ↓.
    from pibrowser.model.fold.path_fold import PathFold

    session = Session.load(write(tmp_path / "s.jsonl", *chain(400)))
    labels = {"m10": "ten", "m390": "near the end"}
    fold = PathFold(session)
    fold.fold_spine()
    spine, depth = fold.locate("m380")
    paths = PathLabels()
    assert [item.id for item in paths.on(spine.path_view(depth), labels)] == ["m10"]
    walked = []
    original = spine.path

    def path(at):  # PathView iterates through Spine.path: what a step reads whole
        walked.append(at)
        return original(at)

    spine.path = path
    assert [item.id for item in paths.on(spine.path_view(depth), labels)] == ["m10"]  # the same path: nothing read
    assert [item.id for item in paths.on(spine.path_view(depth + 15), labels)] == ["m10", "m390"]  # a step down
    assert walked == []
