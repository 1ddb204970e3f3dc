// @ts-check
// Turns marked blocks of a documentation page into live Hiera playgrounds.
//
//   <div class="hiera-playground" data-readonly data-compact data-lookup="0">
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
// Live code blocks: a page's own code blocks, marked with data-hiera-file
// (on the <pre>, on its <code>, or on an element around it, as Markdown
// sites let authors set attributes), data-hiera-facts, data-hiera-case and
// data-hiera-lookups, stay as they are and make one playground, placed after
// the data-hiera-lookups block that ends them (or after the page's last
// marked block). The lookups block may say data-hiera-readonly,
// data-hiera-compact, data-hiera-node and data-hiera-title. So the YAML a page
// shows is the YAML its playground runs, written once.
//
// Each playground is an iframe of the playground in embed mode, created a
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

  /**
   * @typedef {{ files: [string, string][], facts?: string, lookups?: string, case?: string,
   *   node?: string, title?: string, readonly: boolean, compact: boolean, file?: string, lookup?: string }} Spec
   */

  /** A case-format document (see FORMAT.md) from a playground's blocks. @param {Spec} spec */
  function caseDocument(spec) {
    const files = ["files:"];
    for (const [path, text] of spec.files) files.push("  " + JSON.stringify(path) + ": |-", indent(text, "    ") || "    ");
    if (spec.case !== undefined) return spec.case.replace(/\n?$/, "\n") + files.join("\n") + "\n";
    const lines = [];
    if (spec.facts !== undefined) lines.push("facts:", indent(spec.facts, "  "));
    if (spec.node) lines.push("node: " + JSON.stringify(spec.node));
    lines.push(...files, "lookups:");
    for (const key of (spec.lookups || "").split("\n").map((k) => k.trim()).filter(Boolean)) {
      lines.push("  - key: " + JSON.stringify(key));
    }
    return lines.join("\n") + "\n";
  }

  /** A `div.hiera-playground`'s blocks. @param {HTMLElement} group @returns {Spec} */
  function groupSpec(group) {
    const text = (/** @type {string} */ selector) => group.querySelector(selector)?.textContent ?? undefined;
    return {
      files: Array.from(group.querySelectorAll("pre[data-file]"), (pre) => [/** @type {HTMLElement} */ (pre).dataset.file || "", pre.textContent || ""]),
      facts: text("pre[data-facts]"),
      lookups: text("pre[data-lookups]"),
      case: text("pre[data-case]"),
      node: group.dataset.node,
      title: group.dataset.title,
      readonly: "readonly" in group.dataset,
      compact: "compact" in group.dataset,
      file: group.dataset.file,
      lookup: group.dataset.lookup,
    };
  }

  const MARKS = ["hieraFile", "hieraFacts", "hieraCase", "hieraLookups"];

  /** The code block a mark is on: the <pre> itself, the <pre> around its <code>, or the <pre> inside it. */
  function blockOf(/** @type {HTMLElement} */ el) {
    return el.closest("pre") || el.querySelector("pre") || el;
  }

  /** The page's marked code blocks, each group of them ending at a lookups block. @returns {[Spec, Element][]} */
  function codeBlockSpecs() {
    /** @type {[Spec, Element][]} */
    const out = [];
    /** @type {Spec} */
    let spec = { files: [], readonly: false, compact: false };
    let last = null;
    const marked = document.querySelectorAll("[data-hiera-file],[data-hiera-facts],[data-hiera-case],[data-hiera-lookups]");
    for (const el of /** @type {NodeListOf<HTMLElement>} */ (marked)) {
      const mark = MARKS.find((m) => m in el.dataset);
      const block = blockOf(el);
      if (block === last) continue;
      last = block;
      const text = (block.textContent || "").replace(/\n$/, "");
      if (mark === "hieraFile") spec.files.push([el.dataset.hieraFile || "", text]);
      else if (mark === "hieraFacts") spec.facts = text;
      else if (mark === "hieraCase") spec.case = text;
      else {
        spec.lookups = text;
        spec.readonly = "hieraReadonly" in el.dataset;
        spec.compact = "hieraCompact" in el.dataset;
        spec.node = el.dataset.hieraNode;
        spec.title = el.dataset.hieraTitle;
        out.push([spec, block]);
        spec = { files: [], readonly: false, compact: false };
      }
    }
    if (spec.files.length && last) out.push([spec, last]);
    return out;
  }

  /** An iframe of the playground for `spec`. @param {Spec} spec */
  function frameFor(spec) {
    const params = new URLSearchParams({ embed: "" });
    if (spec.readonly) params.set("readonly", "");
    if (spec.compact) params.set("compact", "");
    if (spec.file) params.set("file", spec.file);
    if (spec.lookup) params.set("lookup", spec.lookup);
    const frame = document.createElement("iframe");
    frame.className = "hiera-playground-frame";
    frame.title = spec.title || "Hiera playground";
    frame.style.cssText = "width:100%;border:1px solid #dde1e7;border-radius:8px;height:320px";
    frame.src = base + "index.html?" + params.toString().replace(/=(&|$)/g, "$1");
    frame.dataset.document = caseDocument(spec);
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
    /** @type {[Element, () => void][]} */
    const pending = [];
    for (const group of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("div.hiera-playground"))) {
      pending.push([group, () => group.replaceWith(frameFor(groupSpec(group)))]);
    }
    for (const [spec, after] of codeBlockSpecs()) {
      // The blocks stay; the playground goes after the last of them.
      const place = document.createElement("div");
      place.className = "hiera-playground-place";
      after.after(place);
      pending.push([place, () => place.replaceWith(frameFor(spec))]);
    }
    if (!("IntersectionObserver" in window)) return pending.forEach(([, make]) => make());
    const makers = new Map(pending);
    const seen = new IntersectionObserver((entries) => {
      for (const e of entries) {
        if (e.isIntersecting) {
          seen.unobserve(e.target);
          makers.get(e.target)?.();
        }
      }
    }, { rootMargin: "1000px 0px" });
    pending.forEach(([el]) => seen.observe(el));
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
