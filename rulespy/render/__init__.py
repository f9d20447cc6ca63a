"""The published site's pages, rendered by rulespy rather than by a build hook.

``rulespy render`` (``stage.render``) writes every rule page, enriched (mentions as links, concept
tooltips, Defined here and Referenced by, example boards, odds tables), the generated glossary and the
navigation into ``build/pages/`` and ``build/nav.yml``; mkdocs-material and Zensical both build the site
from there (``build``), ``serve`` re-renders on change, and ``pdf`` prints the rulebook.
"""
