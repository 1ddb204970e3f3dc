// @ts-check
// Turns marked blocks of a documentation page into live Hiera playgrounds.
//
//   <div class="hiera-playground" data-readonly data-lookup="0">
//     <pre data-file="hiera.yaml">version: 5 ...</pre>
//     <pre data-file="data/common.yaml">ntp::servers: [...]</pre>
//     <pre data-facts>role: web</pre>            (optional)
//     <pre data-lookups>ntp::servers</pre>        (one key a line)
//   </div>
//
// In place of data-facts and data-lookups, <pre data-case> may hold the rest
// of the document in the case format (puppet, node, facts, lookups with their
// merges and defaults, nodes), as "Report it" writes it.
//
// Each group becomes an iframe of the playground in embed mode, created a
// screen or so before it scrolls into view, so that it is ready and has its
// height when it is seen (no jump of the page). The document goes to the
// iframe by postMessage, so the playground itself reads it; the iframe only
// ever tells this page its height.
(function () {
  const script = /** @type {HTMLScriptElement | null} */ (document.currentScript);
  const base = new URL(".", script ? script.src : document.baseURI).href;

  function indent(text, by) {
    return text.replace(/\n$/, "").split("\n").map((l) => (l ? by + l : l)).join("\n");
  }

  // A case-format document (see FORMAT.md) from the group's blocks.
  function caseDocument(group) {
    const whole = group.querySelector("pre[data-case]");
    if (whole) return whole.textContent.replace(/\n?$/, "\n") + files(group).join("\n") + "\n";
    const lines = [];
    const facts = group.querySelector("pre[data-facts]");
    if (facts) lines.push("facts:", indent(facts.textContent, "  "));
    if (group.dataset.node) lines.push("node: " + JSON.stringify(group.dataset.node));
    lines.push(...files(group));
    lines.push("lookups:");
    const keys = group.querySelector("pre[data-lookups]");
    for (const key of (keys ? keys.textContent : "").split("\n").map((k) => k.trim()).filter(Boolean)) {
      lines.push("  - key: " + JSON.stringify(key));
    }
    return lines.join("\n") + "\n";
  }

  // The group's files as the case format's `files:` lines.
  function files(group) {
    const lines = ["files:"];
    for (const pre of group.querySelectorAll("pre[data-file]")) {
      lines.push("  " + JSON.stringify(pre.dataset.file) + ": |-", indent(pre.textContent, "    ") || "    ");
    }
    return lines;
  }

  function upgrade(group) {
    const params = new URLSearchParams({ embed: "" });
    if ("readonly" in group.dataset) params.set("readonly", "");
    if (group.dataset.file) params.set("file", group.dataset.file);
    if (group.dataset.lookup) params.set("lookup", group.dataset.lookup);
    const frame = document.createElement("iframe");
    frame.className = "hiera-playground-frame";
    frame.title = group.dataset.title || "Hiera playground";
    frame.style.cssText = "width:100%;border:1px solid #dde1e7;border-radius:8px;height:320px";
    frame.src = base + "index.html?" + params.toString().replace(/=(&|$)/g, "$1");
    frame.dataset.document = caseDocument(group);
    group.replaceWith(frame);
    return frame;
  }

  // The playground says when it is ready for its document, then its height.
  window.addEventListener("message", (event) => {
    if (!event.data) return;
    for (const frame of document.querySelectorAll("iframe.hiera-playground-frame")) {
      if (!(frame instanceof HTMLIFrameElement) || !frame.contentWindow || frame.contentWindow !== event.source) continue;
      if (event.data.type === "hiera-playground:ready") {
        frame.contentWindow.postMessage({ type: "hiera-playground:load", document: frame.dataset.document }, new URL(base).origin);
      } else if (event.data.type === "hiera-playground:height") {
        frame.style.height = Math.ceil(event.data.height) + 2 + "px";
      }
    }
  });

  function start() {
    const groups = document.querySelectorAll("div.hiera-playground");
    if (!("IntersectionObserver" in window)) return groups.forEach(upgrade);
    const seen = new IntersectionObserver((entries) => {
      for (const e of entries) {
        if (e.isIntersecting) {
          seen.unobserve(e.target);
          upgrade(e.target);
        }
      }
    }, { rootMargin: "1000px 0px" });
    groups.forEach((g) => seen.observe(g));
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
