"""What raw HTML and addresses a rule page may hold (findings RS080 and RS081).

A rule page reaches the reader as the site's HTML and as the rulebook PDF, which headless Chromium
prints; a tag or an address written into a page is published as written. So the pages keep to what the
site really uses, and a pull request cannot slip in more unseen:

- **HTML comments** (``<!-- translates: ... -->``, the Russian pages' stamps): the only raw HTML the rule
  pages of this repository hold;
- a few **inline tags** a rule writer may want and no reader can be harmed by: ``<a>`` (an anchor for a
  link, with ``id``, ``name``, ``href`` and ``title``; the checker reads its ``id`` as an anchor, RS003),
  ``<br>``, ``<sub>``, ``<sup>``, ``<kbd>``, ``<abbr title>``.

Anything else is RS080 at its line: another tag (``iframe``, ``object``, ``embed``, ``script``,
``style``, ``link``, ``meta``, ``base``, ``form``, ``img``, ``svg``...), another attribute (event
handlers ``on*``, ``style``, ``src``, ``srcset``, ``markdown``...), a processing instruction or
declaration. The Example blocks, boards and odds tables are HTML that ``rulespy render`` writes itself,
never read from a page.

RS081 is an address, in a markdown link or image or in an allowed tag's ``href``, that the site must
not carry: a scheme other than ``http``, ``https`` and ``mailto`` (``javascript:``, ``data:``,
``file:``, ``vbscript:``...; read as a browser reads it, with tabs, newlines and percent-escapes
undone), a protocol-relative ``//host`` address, or (raw HTML only, where neither generator checks
links) a root-absolute ``/path`` or a relative path that climbs out of the site.

Both are read from markdown-it's tokens (never inside code) by Python's own ``html.parser``, which
decodes character references the way a browser does (``&#106;avascript:`` is ``javascript:``).
"""

from __future__ import annotations

import posixpath
import re
from html.parser import HTMLParser
from urllib.parse import unquote

#: The allowed tags and, for each, its allowed attributes.
ALLOWED_TAGS: dict[str, frozenset[str]] = {
    "a": frozenset({"id", "name", "href", "title"}),
    "abbr": frozenset({"title"}),
    "br": frozenset(),
    "kbd": frozenset(),
    "sub": frozenset(),
    "sup": frozenset(),
}
#: The schemes an address may name; any other is RS081.
ALLOWED_SCHEMES = frozenset({"http", "https", "mailto"})
#: Attributes whose value is an address (checked as one when allowed).
_ADDRESS_ATTRIBUTES = frozenset({"href"})
#: What a browser removes from an address before reading its scheme: ASCII tab and newline anywhere,
#: and C0 controls and spaces at either end (the WHATWG URL parser).
_URL_NOISE = re.compile(r"[\t\n\r]")
_COMMENT_RE = re.compile(r"<!--.*?(?:-->|$)", re.DOTALL)
_TAG_NAME_RE = re.compile(r"<([A-Za-z][\w:.-]*)")
_C0_AND_SPACE = "".join(map(chr, range(0x21)))
_SCHEME_RE = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*):")


def unsafe_address(
    address: str, page: str, raw_html: bool, schemes: frozenset[str] = ALLOWED_SCHEMES
) -> str | None:
    """Why ``address`` (a link or image target on repository page ``page``) must not be published, or
    None. ``raw_html``: the address is in a tag, where no generator checks where a relative path leads.
    ``schemes``: those allowed (none, for an address the site loads as a script or a style).

    >>> unsafe_address("java\\tscript:alert(1)", "core/x.md", raw_html=False)
    "the scheme 'javascript:' (allowed here: http, https, mailto)"
    >>> unsafe_address("../../etc/os-release", "core/x.md", raw_html=True)
    'climbs out of the site'
    >>> unsafe_address("damage.md#armour", "core/x.md", raw_html=True) is None
    True
    """
    cleaned = _URL_NOISE.sub("", address).strip(_C0_AND_SPACE)
    decoded = unquote(cleaned).replace("\\", "/")  # browsers read a backslash as a slash
    scheme = _SCHEME_RE.match(decoded) or _SCHEME_RE.match(cleaned)
    if scheme is not None:
        name = scheme.group(1).lower()
        if name not in schemes:
            allowed = ", ".join(sorted(schemes)) or "none"
            return f"the scheme '{name}:' (allowed here: {allowed})"
        return None
    if decoded.startswith("//"):
        return "a protocol-relative address (//host): write https://"
    if not raw_html:
        return None  # where a relative link leads is RS001/RS002, and the generators check it too
    if decoded.startswith("/"):
        return "a root-absolute path: on the server or in the printer it reads from outside the site"
    path = decoded.split("#", 1)[0].split("?", 1)[0]
    if path and posixpath.normpath(posixpath.join(posixpath.dirname(page) or ".", path)).startswith(".."):
        return "climbs out of the site"
    return None


class _Scanner(HTMLParser):
    """Collects ``(line, column, code, message)`` for everything in one piece of raw HTML outside the
    allowed set."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        self.found: list[tuple[int, int, str, str]] = []  # (line from 1, column from 0, code, message)

    def _add(self, code: str, message: str) -> None:
        line, column = self.getpos()
        self.found.append((line, column, code, message))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        allowed = ALLOWED_TAGS.get(tag)
        if allowed is None:
            self._add("RS080", f"raw HTML <{tag}> is not allowed in a rule page ({_ALLOWED_TEXT})")
            return
        for name, value in attrs:
            if name not in allowed:
                what = "an event handler" if name.startswith("on") else "not allowed"
                self._add("RS080", f"attribute {name!r} of <{tag}>: {what} in a rule page")
            elif name in _ADDRESS_ATTRIBUTES and value is not None:
                why = unsafe_address(value, self.page, raw_html=True)
                if why is not None:
                    self._add("RS081", f"<{tag} {name}={value!r}>: {why}")

    handle_startendtag = handle_starttag

    def handle_comment(self, data: str) -> None:
        # a browser ends a comment at "--!>", and "<!-->" or "<!--->" is a whole empty one: what
        # follows there would be markup to a reader while this parser still reads a comment
        if "--!>" in data or data.startswith((">", "->")):
            self._add("RS080", "a comment a browser ends early (--!>, <!-->): write a plain <!-- ... -->")

    def handle_pi(self, data: str) -> None:
        self._add("RS080", "a processing instruction (<?...>) is not allowed in a rule page")

    def handle_decl(self, decl: str) -> None:
        self._add("RS080", f"a declaration <!{decl[:20]}> is not allowed in a rule page")

    def unknown_decl(self, data: str) -> None:
        self._add("RS080", f"a declaration <![{data[:20]}> is not allowed in a rule page")


_ALLOWED_TEXT = "allowed: comments and " + ", ".join(f"<{tag}>" for tag in ALLOWED_TAGS)


#: The keys an attribute list (``attr_list``: ``# Title {#id .class key=value}``) may set with ``=``.
ALLOWED_ATTR_LIST_KEYS = frozenset({"title", "lang"})
_ATTR_LIST_RE = re.compile(r"\{:?([^{}\n]*)\}")
_ATTR_KEY_RE = re.compile(r"(?:^|\s)([^\s=#.'\"]+)\s*=")


def unsafe_attr_lists(text: str) -> list[tuple[int, str]]:
    """``(offset, message)`` of each key an attribute list in ``text`` sets beyond ``#id``, ``.class``
    and ``ALLOWED_ATTR_LIST_KEYS``: the site's ``attr_list`` writes any ``key=value`` onto the element,
    ``onclick`` and ``style`` included.

    >>> unsafe_attr_lists('# Title {#title onclick="alert(1)"}')
    [(8, "attribute list sets 'onclick': only #id, .class, title and lang may be set")]
    >>> unsafe_attr_lists("Text { .vs-concept title='Cover' }")
    []
    """
    found = []
    for block in _ATTR_LIST_RE.finditer(text):
        for key in _ATTR_KEY_RE.finditer(block.group(1)):
            if key.group(1).lower() not in ALLOWED_ATTR_LIST_KEYS:
                message = f"attribute list sets {key.group(1)!r}: only #id, .class, title and lang may be set"
                found.append((block.start(), message))
    return found


def unsafe_html(content: str, page: str) -> list[tuple[int, int, str, str]]:
    """Each ``(row, column, code, message)`` of raw HTML ``content`` outside the allowed set, ``row``
    0-based and ``column`` 0-based within ``content``.

    >>> [m for _, _, _, m in unsafe_html('<iframe src="file:///etc/os-release">', "core/x.md")][0][:20]
    'raw HTML <iframe> is'
    >>> unsafe_html("<!-- translates: core/x.md#a sha256:0 --><br>", "core/x.md")
    []
    """
    if "<" not in content:
        return []
    scanner = _Scanner(page)
    scanner.feed(content)
    scanner.close()
    found = [(line - 1, column, code, message) for line, column, code, message in scanner.found]
    if not found:  # a tag the parser left unfinished (no ``>``) still opens one in a browser
        blanked = _COMMENT_RE.sub(lambda m: " " * len(m.group(0)), content)
        for m in _TAG_NAME_RE.finditer(blanked):
            if m.group(1).lower() not in ALLOWED_TAGS:
                row = blanked.count("\n", 0, m.start())
                column = m.start() - (blanked.rfind("\n", 0, m.start()) + 1)
                message = f"raw HTML <{m.group(1).lower()}> is not allowed in a rule page ({_ALLOWED_TEXT})"
                found.append((row, column, "RS080", message))
                break
    return found
