// Concept definitions on a touch screen (rulespy/render/assets/tooltips.js, staged by rulespy render).
//
// Every concept link (a.vs-concept) carries its owner's first paragraph as its title, which the theme
// shows as a tooltip on hover and on keyboard focus. A touch screen has no hover, and a tap follows the
// link at once, so a player at the table would never see the definition. Here the first tap on a
// concept link shows the definition under it, with a link to the rule; a second tap on the same link
// (or the "Read the rule" link) opens the rule, and a tap anywhere else closes it. Mouse and keyboard
// keep the theme's own tooltip. Listeners on the document and window: they survive the themes' instant navigation.
(() => {
  "use strict";
  let touch = false;
  let open = null; // the link whose definition is shown

  const words = () => (document.documentElement.lang || "en").startsWith("ru")
    ? { read: "Читать правило", close: "Закрыть" }
    : { read: "Read the rule", close: "Close" };

  // the theme takes a link's title away while its own tooltip is open (on focus, which a tap gives), so
  // each definition is kept as soon as it is seen
  function remember(link) {
    const title = link.getAttribute("title");
    if (title) link.dataset.vsTip = title;
  }

  function definition(link) {
    remember(link);
    return link.dataset.vsTip || "";
  }

  function close() {
    const tip = document.getElementById("vs-tip");
    if (tip) tip.remove();
    if (open) open.removeAttribute("aria-describedby");
    open = null;
  }

  function show(link) {
    close();
    const text = definition(link);
    if (!text) return false;
    const said = words();
    const tip = document.createElement("div");
    tip.id = "vs-tip";
    tip.className = "vs-tip";
    tip.setAttribute("role", "tooltip");
    const body = document.createElement("p");
    body.textContent = text;
    const more = document.createElement("a");
    more.href = link.href;
    more.textContent = said.read;
    tip.append(body, more);
    document.body.append(tip);
    const box = link.getBoundingClientRect();
    const width = Math.min(360, document.documentElement.clientWidth - 16);
    tip.style.width = `${width}px`;
    tip.style.left = `${Math.max(8, Math.min(box.left, document.documentElement.clientWidth - width - 8)) + window.scrollX}px`;
    tip.style.top = `${box.bottom + window.scrollY + 6}px`;
    link.setAttribute("aria-describedby", "vs-tip");
    open = link;
    return true;
  }

  document.addEventListener("pointerdown", (event) => {
    touch = event.pointerType === "touch" || event.pointerType === "pen";
    const link = event.target instanceof Element ? event.target.closest("a.vs-concept") : null;
    if (link) remember(link);
  }, true);

  // on the window, in the capture phase: before any navigation handler of the theme sees the tap
  window.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest("a.vs-concept") : null;
    if (link && touch && link !== open) {
      if (show(link)) {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
      return;
    }
    if (!(event.target instanceof Element && event.target.closest("#vs-tip"))) close();
  }, true);

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") close();
  });
})();
