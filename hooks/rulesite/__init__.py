"""The VoidSiege site build: small modules used by ``hooks/build_hook.py`` (the MkDocs hook).

- ``registry``: concepts.yml and the owners' first paragraphs (hover previews, glossary lines);
- ``linker``: a Python-Markdown tree processor linking rule-file mentions and concepts;
- ``examples``: worked-example fences, their scenarios, and the Example blocks that replace them;
- ``diagram``: a scenario drawn as an SVG board with xml.etree;
- ``pages``: navigation, owned concepts, "Referenced by" (from rulespy's link graph), glossary.
"""
