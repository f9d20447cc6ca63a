"""One page of the printed rulebook: the HTML Python-Markdown made of a staged page, made fit for print.

``BookPage.rewrite(html)`` reads the page's HTML with the standard library's ``html.parser`` (raw HTML
blocks included: the boards' SVG is one, and Python-Markdown's own tree never sees it) and writes it
back with these changes, each for a reader of paper:

- **Ids are unique in the whole book.** An id becomes ``PAGE--ID`` (``core/damage.md``'s
  ``#target-limit`` is ``#core-damage--target-limit``), and an id inside an ``<svg>`` (a board's title,
  clip path, hatch pattern) ``PAGE--svgN--ID``, the N-th drawing of the page; every reference to an id
  (``href="#..."``, ``url(#...)``, ``aria-labelledby``, ``aria-describedby``, ``for``) is rewritten
  with it. A board therefore never borrows another's clip path, whatever ids the site gives its boards.
- **Links lead inside the book or to the published site.** A link to a page of the book becomes a link
  to that page or section of the book; a link to anything else the repository publishes (a page left
  out of the book, such as the Judge page, a scenario file) an absolute address on ``site_url`` of
  ``mkdocs.yml`` (the translation's under ``LANGUAGE/``); an ``http``, ``https`` or ``mailto`` address
  stays; anything else (``file:``, ``javascript:``, ``data:``, or a site address when ``site_url`` is
  not set) is printed as plain text, never as a link.
- **A link inside the book says where it leads**: "see p. N" after it, N filled in from the printed
  book (``pdf.py`` prints twice). Only the first link of a page to a given section says it; the next
  ones on that page would only repeat the number.
- **No test code**: the folded "executable check" of a worked example (a ``<details>`` inside the
  ``vs-example`` block) is left out, and its "Try it" button is replaced by **What happens**: the
  engine's account of the example's scenario (``rulespy.account.steps``, what ``rulespy resolve``
  prints step by step, in the edition's language: ``rulespy resolve --lang ru`` in the Russian book),
  each step linked to the rule that decides it. An illegal declaration prints the
  rule that forbids it. The scenario is read back from the button's ``data-scenario`` by the scenario
  loader, under its limits, after a decompression bounded by the loader's size limit.
"""

from __future__ import annotations

import posixpath
import re
import zlib
from base64 import urlsafe_b64decode
from dataclasses import dataclass, field
from html import escape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from rulespy.account import steps
from rulespy.book.links import resolve as resolve_link
from rulespy.check.files import page_url
from rulespy.errors import IllegalDeclaration, RulesError
from rulespy.i18n import language
from rulespy.scenario import parse_scenario
from rulespy.sequences.resolution import resolve

#: Elements that have no end tag in HTML.
VOID = frozenset(
    {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    }
)
#: Attributes whose value is a list of ids.
ID_LISTS = ("aria-labelledby", "aria-describedby", "aria-controls", "aria-owns", "for", "headers")
#: Schemes a printed link may keep.
KEPT_SCHEMES = ("http", "https", "mailto")
SCENARIO_BYTES = 1 << 20
"""The most a "Try it" scenario may inflate to: the scenario loader's own limit on a scenario's text."""
_CITED = re.compile(r"(?:(?<=see )|(?<=см\. ))(?:«[^»]*», )?([\w./-]+\.md#[\w-]+)")
"""A rule an account line names in passing, such as ``(see commands/command_advance.md#advance)`` (in
Russian ``(см. «Наступление», commands/command_advance.md#advance)``: the title and path become one link)."""
_URL_REF = re.compile(r"url\(\s*#([^)\s]+)\s*\)")


def page_key(path: str) -> str:
    """The id prefix of a page in the book: ``core/damage.md`` -> ``core-damage``."""
    return re.sub(r"[^\w-]+", "-", path.removesuffix(".md")).strip("-") or "index"


def book_id(path: str, anchor: str | None) -> str:
    """The book's id of a page (``page-KEY``) or of one of its sections (``KEY--ANCHOR``).

    >>> book_id("core/damage.md", "target-limit"), book_id("core/damage.md", None)
    ('core-damage--target-limit', 'page-core-damage')
    """
    return f"{page_key(path)}--{anchor}" if anchor else f"page-{page_key(path)}"


@dataclass
class Book:
    """What every page's rewrite needs to know of the whole book."""

    pages: frozenset[str]  # the pages in the book, by repository path
    staged: Path  # the staged folder the pages were read from
    site: str | None  # the published site's address of this edition (ending in "/"), or None
    said: dict[str, str]  # languages.words() of the edition
    titles: dict[str, str] = field(default_factory=dict)  # "path#anchor" -> the section's heading
    numbers: dict[str, int] = field(default_factory=dict)  # book id -> the page it printed on
    language: str = "en"  # the edition's: "What happens" is the engine's account in it (rulespy.i18n)

    def see(self, dest: str) -> str | None:
        """The "see p. N" printed after a link to ``dest``: a placeholder until the book is printed,
        None once it is, if ``dest`` printed on no page."""
        number = self.numbers.get(dest)
        if number is None and self.numbers:
            return None
        return self.said["book-see"].format(page=number if number is not None else "00")


class BookPage(HTMLParser):
    """Rewrites the HTML of one page (``path``) of the ``book`` (see the module's docstring)."""

    def __init__(self, book: Book, path: str) -> None:
        super().__init__(convert_charrefs=False)
        self.book, self.path, self.key = book, path, page_key(path)
        self.out: list[str] = []
        self.open: list[tuple[str, frozenset[str]]] = []  # the elements open, with their classes
        self.skip: tuple[str, int] | None = None  # (tag, depth) of an element left out with its content
        self.drawings = 0
        self.in_svg = 0
        self.links: list[str | None] = []  # per open <a>: the book id it leads to, if any
        self.seen: set[str] = set()  # book ids this page has said "see p. N" for

    def rewrite(self, html: str) -> str:
        self.feed(html)
        self.close()
        return "".join(self.out)

    # scoping of ids

    def _scoped(self, name: str) -> str:
        return f"{self.key}--svg{self.drawings}--{name}" if self.in_svg else f"{self.key}--{name}"

    def _attributes(self, tag: str, attrs: list[tuple[str, str | None]]) -> list[tuple[str, str | None]]:
        done: list[tuple[str, str | None]] = []
        for name, value in attrs:
            if value is None:
                done.append((name, value))
                continue
            if name == "id":
                value = self._scoped(value)
            elif name in ID_LISTS:
                value = " ".join(self._scoped(token) for token in value.split())
            elif name in ("href", "xlink:href") and (tag != "a" or self.in_svg):
                value = self._scoped(value[1:]) if value.startswith("#") else value
                if not value.startswith(f"{self.key}--"):
                    continue  # a drawing refers only to its own parts
                value = "#" + value
            elif name == "href":
                continue  # an <a>'s address is decided by _link
            value = _URL_REF.sub(lambda match: f"url(#{self._scoped(match.group(1))})", value)
            done.append((name, value))
        return done

    # links

    def _link(self, href: str) -> tuple[str | None, str | None]:
        """(the book id, or the outside address) an ``<a href>`` of this page leads to; both None:
        printed as plain text."""
        try:
            parts = urlsplit(href)
        except ValueError:
            return None, None
        if parts.scheme or parts.netloc:
            kept = parts.scheme == "mailto" or (parts.scheme in KEPT_SCHEMES and bool(parts.netloc))
            return None, href if kept else None
        target = resolve_link(self.path, href)  # the rule book's one link resolution
        anchor = target.fragment or ""
        # a link out of the repository keeps its ``../`` and its file name: never a page of the book
        full = target.path if target.path is not None else "../" + href.split("#")[0].split("?")[0]
        site = self.book.site
        if full in self.book.pages:
            return book_id(full, anchor or None), None
        if site is None:
            return None, None
        inside = not full.startswith("../")
        if full.endswith(".md"):  # a page out of the book: on the site, unless it is out of the repository
            return None, site + page_url(full) + (f"#{anchor}" if anchor else "") if inside else None
        if inside and (self.book.staged / full).is_file():  # a published file, linked as markdown links it
            return None, site + full
        address = urljoin(site + page_url(self.path), href)  # raw HTML: relative to the page's URL
        return (None, address) if address.startswith(site) else (None, None)

    def _open_link(self, attrs: list[tuple[str, str | None]]) -> str:
        href = dict(attrs).get("href")
        dest, outside = self._link(href) if href is not None and not self.in_svg else (None, None)
        self.links.append(dest)
        kept = self._attributes("a", attrs)
        if dest is not None:
            kept.append(("href", f"#{dest}"))
        elif outside is not None:
            kept.append(("href", outside))
        return _tag("a", kept)

    def _close_link(self) -> str:
        dest = self.links.pop() if self.links else None
        see = self.book.see(dest) if dest is not None and dest not in self.seen else None
        if dest is None or see is None:
            return "</a>"
        self.seen.add(dest)
        return f'</a><span class="vs-see" data-dest="{dest}"> ({escape(see)})</span>'

    # the parser's events

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._skipping(tag, opening=True):
            return
        classes = frozenset((dict(attrs).get("class") or "").split())
        if tag == "details" and any("vs-example" in c for _, c in self.open):
            self.skip = (tag, 1)  # the executable check: test code, not for print
            return
        if tag == "div" and "vs-try" in classes:
            self.out.append(self._what_happens(dict(attrs).get("data-scenario") or ""))
            self.skip = (tag, 1)
            return
        if tag == "svg":
            self.drawings += 1
            self.in_svg += 1
        if tag not in VOID:
            self.open.append((tag, classes))
        self.out.append(self._open_link(attrs) if tag == "a" else _tag(tag, self._attributes(tag, attrs)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.skip is not None:
            return
        self.out.append(_tag(tag, self._attributes(tag, attrs), closed=True))

    def handle_endtag(self, tag: str) -> None:
        if self._skipping(tag, opening=False):
            return
        if tag in VOID:
            return
        while self.open:
            name, _ = self.open.pop()
            if name == tag:
                break
        if tag == "svg" and self.in_svg:
            self.in_svg -= 1
        self.out.append(self._close_link() if tag == "a" else f"</{tag}>")

    def _skipping(self, tag: str, opening: bool) -> bool:
        if self.skip is None:
            return False
        name, depth = self.skip
        if tag == name:
            depth += 1 if opening else -1
        self.skip = (name, depth) if depth else None
        return True

    def handle_data(self, data: str) -> None:
        if self.skip is None:
            self.out.append(data)

    def handle_entityref(self, name: str) -> None:
        if self.skip is None:
            self.out.append(f"&{name};")

    def handle_charref(self, name: str) -> None:
        if self.skip is None:
            self.out.append(f"&#{name};")

    def handle_comment(self, data: str) -> None:
        pass  # nothing of a comment is printed

    def handle_decl(self, decl: str) -> None:
        pass

    def handle_pi(self, data: str) -> None:
        pass

    def unknown_decl(self, data: str) -> None:
        if self.skip is None and data.startswith("CDATA["):
            self.out.append(escape(data[len("CDATA[") :]))

    # What happens

    def _what_happens(self, code: str) -> str:
        """The engine's account of a "Try it" scenario, as a block of the page; empty when the
        scenario cannot be read back."""
        text = _inflate(code)
        if text is None:
            return ""
        try:
            with language(self.book.language):
                scenario = parse_scenario(text, "<example>")
                resolution = resolve(scenario)
                sections = steps(resolution)
        except IllegalDeclaration as refusal:
            said = escape(self.book.said["book-illegal"])
            body = f"<p>{said}: {self._said(refusal.message)}{self._rule(refusal.rule)}</p>"
        except (RulesError, RecursionError, ValueError):
            return ""
        else:
            items = []
            for heading, lines in sections:
                inner = "".join(f"<li>{self._said(line.text)}{self._rule(line.rule)}</li>" for line in lines)
                head = f"{self._said(heading.text)}{self._rule(heading.rule)}" if heading else ""
                items.append(f"<li>{head}<ul>{inner}</ul></li>" if inner else f"<li>{head}</li>")
            body = f"<ol>{''.join(items)}</ol>"
        title = escape(self.book.said["book-what-happens"])
        return f'<div class="vs-what-happens"><p class="vs-what-happens-title">{title}</p>{body}</div>'

    def _said(self, text: str) -> str:
        """A line of the account, a rule it names in passing (``see core/cover.md#cover``) printed as a
        link to that section by its title instead of a file path."""
        parts = _CITED.split(text)
        out = [escape(parts[0])]
        for rule, rest in zip(parts[1::2], parts[2::2], strict=True):
            out += [self._link_to(rule), escape(rest)]
        return "".join(out)

    def _link_to(self, rule: str) -> str:
        path, _, anchor = rule.partition("#")
        # a rule the book has no heading for (none, today) by its words, never a file path
        fallback = re.sub(r"[-_]", " ", anchor or posixpath.basename(path).removesuffix(".md"))
        title = self.book.titles.get(rule) or self.book.titles.get(path) or fallback
        relative = posixpath.relpath(path, posixpath.dirname(self.path) or ".") + (
            f"#{anchor}" if anchor else ""
        )
        opening = self._open_link([("href", relative), ("class", "vs-rule")])
        return f"{opening}{escape(title)}{self._close_link()}"

    def _rule(self, rule: str) -> str:
        """`` — Title (see p. N)`` for a rule ``path#anchor`` the account cites."""
        return f' <span class="vs-cites">— {self._link_to(rule)}</span>'


def _tag(tag: str, attrs: list[tuple[str, str | None]], closed: bool = False) -> str:
    parts = [tag] + [
        name if value is None else f'{name}="{escape(value, quote=True)}"' for name, value in attrs
    ]
    return f"<{' '.join(parts)}{' /' if closed else ''}>"


def _inflate(code: str) -> str | None:
    """The text ``rulespy.render.web.encode`` packed, or None when it is not one or would inflate past
    ``SCENARIO_BYTES``."""
    try:
        packed = urlsafe_b64decode(code + "=" * (-len(code) % 4))
        inflater = zlib.decompressobj(-15)
        data = inflater.decompress(packed, SCENARIO_BYTES + 1)
        if len(data) > SCENARIO_BYTES or inflater.unconsumed_tail:
            return None
        return data.decode("utf-8")
    except (ValueError, zlib.error, UnicodeDecodeError):
        return None
