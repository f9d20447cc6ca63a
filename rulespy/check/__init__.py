"""``rulespy check``: links, anchors, file mentions, ownership and navigation of the rules repository.

(The finding-code table is filled in below as the checks land.)
"""
