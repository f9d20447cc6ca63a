"""The fixtures are broken repositories to check, not documentation to collect (one is not even UTF-8)."""

collect_ignore_glob = ["fixtures/*"]
