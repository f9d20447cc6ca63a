// What the theme's markup leaves out for assistive technology (axe-core checks every page type:
// tests/site/test_accessibility.py). Material's search overlay is a role="dialog" without a name: it
// takes the name of its own search box ("Search", "Поиск"). The version selector's button, which the
// theme draws once it has read versions.json, is named "Select version" whatever it shows: its name
// starts with what it shows ("v1.0 (v1.0.0)"), as a reader who speaks what they see expects.
// Past editions get this script too (rulespy/editions/site.py, carry_presentation).
(() => {
  "use strict";
  for (const dialog of document.querySelectorAll(".md-search[role=dialog]:not([aria-label])")) {
    const box = dialog.querySelector("input");
    const name = box && (box.getAttribute("aria-label") || box.getAttribute("placeholder"));
    if (name) dialog.setAttribute("aria-label", name);
  }
  function versionName() {
    for (const button of document.querySelectorAll(".md-version__current[aria-label]")) {
      if (!button.dataset.vsLabel) button.dataset.vsLabel = button.getAttribute("aria-label");
      const shown = button.textContent.trim();
      const label = button.dataset.vsLabel;
      const name = shown && !label.includes(shown) ? `${shown}: ${label}` : label;
      if (button.getAttribute("aria-label") !== name) button.setAttribute("aria-label", name);
    }
  }
  versionName();
  const header = document.querySelector(".md-header");
  if (header && window.MutationObserver) {
    new MutationObserver(versionName).observe(header, { childList: true, subtree: true, characterData: true });
  }
})();
