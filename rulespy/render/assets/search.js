// The site's search: Pagefind (rulespy/render/search.py indexes every section of the edition into its
// pagefind/ folder), in a dialog opened from the header, under both generators and in both editions.
//
// When the edition has its Pagefind index, the theme's own search box is hidden (html.vs-pagefind) and
// a search button takes its place in the header; "/" and "s" open the dialog as they open the theme's.
// Pagefind's own search UI draws the box and the results; it imports its engine from
// assets/pagefind.js, which ranks a question asked in a player's words (its comments say how). A site
// built without npm has no index, and the theme's search stays as it is.
(() => {
  "use strict";
  const script = document.currentScript;
  if (!script) return;
  const root = new URL("../", script.src); // this script is assets/search.js of its edition
  const ru = (document.documentElement.lang || "").startsWith("ru");
  const said = ru
    ? { open: "Поиск по правилам", close: "Закрыть поиск", placeholder: "Спросите, как за столом" }
    : { open: "Search the rules", close: "Close the search", placeholder: "Ask as you would at the table" };
  const key = "vs-pagefind:" + root.href;
  let ui = null;

  function load(src, module) {
    return new Promise((resolve, reject) => {
      const tag = document.createElement("script");
      tag.src = src;
      if (module) tag.type = "module";
      tag.onload = resolve;
      tag.onerror = () => reject(new Error(src));
      document.head.append(tag);
    });
  }

  function dialog() {
    let box = document.querySelector("dialog.vs-search");
    if (box) return box;
    box = document.createElement("dialog");
    box.className = "vs-search";
    box.setAttribute("aria-label", said.open);
    const close = document.createElement("button");
    close.type = "button";
    close.className = "vs-search__close md-button";
    close.textContent = "×";
    close.setAttribute("aria-label", said.close);
    close.addEventListener("click", () => box.close());
    const place = document.createElement("div");
    place.className = "vs-search__ui";
    box.append(close, place);
    box.addEventListener("click", (event) => {
      if (event.target === box) box.close(); // a click on the backdrop
      const link = event.target.closest && event.target.closest("a[href]");
      if (link) box.close();
    });
    document.body.append(box);
    return box;
  }

  async function open() {
    const box = dialog();
    if (!box.open) box.showModal();
    if (!ui) {
      ui = (async () => {
        await load(new URL("pagefind/pagefind-ui.js", root).href, false);
        // eslint-disable-next-line no-undef
        return new PagefindUI({
          element: box.querySelector(".vs-search__ui"),
          bundlePath: new URL("assets/", root).href, // assets/pagefind.js, in front of pagefind/pagefind.js
          showSubResults: false,
          showImages: false,
          resetStyles: false,
          pageSize: 10,
          excerptLength: 24,
          translations: { placeholder: said.placeholder },
        });
      })();
    }
    await ui;
    const input = box.querySelector("input");
    if (!input) return;
    // Pagefind's box has only a title, which axe-core finds too weak a name for a form field
    if (!input.hasAttribute("aria-label")) input.setAttribute("aria-label", said.open);
    input.focus();
  }

  function button() {
    if (document.querySelector(".vs-search-open")) return;
    const anchor = document.querySelector(".md-header .md-search");
    if (!anchor) return;
    const open_ = document.createElement("button");
    open_.type = "button";
    open_.className = "md-header__button md-icon vs-search-open";
    open_.setAttribute("aria-label", said.open);
    open_.title = said.open;
    open_.innerHTML =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" aria-hidden="true"><path d="M9.5 3A6.5 6.5 0 0 1 16 9.5c0 1.61-.59 3.09-1.56 4.23l.27.27h.79l5 5-1.5 1.5-5-5v-.79l-.27-.27A6.52 6.52 0 0 1 9.5 16 6.5 6.5 0 0 1 3 9.5 6.5 6.5 0 0 1 9.5 3m0 2C7 5 5 7 5 9.5S7 14 9.5 14 14 12 14 9.5 12 5 9.5 5"/></svg>';
    open_.addEventListener("click", () => open());
    anchor.before(open_);
  }

  function start() {
    document.documentElement.classList.add("vs-pagefind");
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = new URL("pagefind/pagefind-ui.css", root).href;
    document.head.append(link);
    button();
    new MutationObserver(button).observe(document.body, { childList: true, subtree: true });
    document.addEventListener(
      "keydown",
      (event) => {
        const typing = event.target.closest && event.target.closest("input, textarea, select, [contenteditable]");
        if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
        if (event.key === "/" || event.key === "s" || event.key === "S") {
          event.preventDefault();
          event.stopImmediatePropagation(); // the theme would open its own search
          open();
        }
      },
      true,
    );
  }

  const known = sessionStorage.getItem(key);
  if (known === "yes") start();
  else if (known !== "no") {
    // a GET, not a HEAD: offline, the service worker answers GET requests only
    fetch(new URL("pagefind/pagefind-entry.json", root)).then(
      (answer) => {
        sessionStorage.setItem(key, answer.ok ? "yes" : "no");
        if (answer.ok) start();
      },
      () => {},
    );
  }
})();
