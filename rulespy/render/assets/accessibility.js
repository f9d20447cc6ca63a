// What the theme's markup leaves out for assistive technology (axe-core checks every page type:
// tests/site/test_accessibility.py). Material's search overlay is a role="dialog" without a name: it
// takes the name of its own search box ("Search", "Поиск").
(() => {
  "use strict";
  for (const dialog of document.querySelectorAll(".md-search[role=dialog]:not([aria-label])")) {
    const box = dialog.querySelector("input");
    const name = box && (box.getAttribute("aria-label") || box.getAttribute("placeholder"));
    if (name) dialog.setAttribute("aria-label", name);
  }
})();
