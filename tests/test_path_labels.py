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
