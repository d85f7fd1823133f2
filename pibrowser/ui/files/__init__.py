"""The Files tab: the files the selected path read and changed, as pi's compaction lists them."""
