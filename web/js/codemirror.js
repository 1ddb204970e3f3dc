// @ts-check
// Entry point of the CodeMirror bundle. esbuild (build.mjs) turns it and its npm
// dependencies into one ES module that the page imports lazily (see editor.js), so
// the wasm app never waits for it.
import { EditorView, basicSetup } from "codemirror";
import { Decoration } from "@codemirror/view";
import { EditorState, StateEffect, StateField } from "@codemirror/state";
import { Annotation, Compartment } from "@codemirror/state";
import { oneDark } from "@codemirror/theme-one-dark";
import { yaml } from "@codemirror/lang-yaml";
import { lintGutter, setDiagnostics } from "@codemirror/lint";
import { StreamLanguage } from "@codemirror/language";
import { historyField } from "@codemirror/commands";

// Marks transactions that come from the app, so they are not echoed back as edits.
const fromApp = Annotation.define();

// The line a source link points at, highlighted until the text changes.
const highlightLine = StateEffect.define();
const revealed = Decoration.line({ attributes: { class: "cm-revealed", "data-testid": "revealed-line" } });
const highlightField = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    for (const e of tr.effects) if (e.is(highlightLine)) return Decoration.set([revealed.range(e.value)]);
    return tr.docChanged ? Decoration.none : deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

// The page is dark when <html data-theme="dark">, or with the system's dark
// scheme unless data-theme="light"; the editor follows.
const darkQuery = window.matchMedia("(prefers-color-scheme: dark)");
function isDark() {
  const chosen = document.documentElement.dataset.theme;
  return chosen === "dark" || (chosen !== "light" && darkQuery.matches);
}
const themes = new Set();
function followTheme() {
  for (const { view, compartment } of themes) {
    view.dispatch({ effects: compartment.reconfigure(isDark() ? oneDark : []) });
  }
}
darkQuery.addEventListener("change", followTheme);
new MutationObserver(followTheme).observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });

// HOCON (hocon_data's .conf files): comments, quoted and triple-quoted
// strings, substitutions, keys before a separator, numbers and keywords.
const hocon = StreamLanguage.define({
  name: "hocon",
  startState: () => ({ triple: false }),
  token(stream, state) {
    if (state.triple) {
      if (stream.skipTo('"""')) {
        stream.match('"""');
        while (stream.eat('"'));
        state.triple = false;
      } else stream.skipToEnd();
      return "string";
    }
    if (stream.eatSpace()) return null;
    if (stream.match("#") || stream.match("//")) {
      stream.skipToEnd();
      return "comment";
    }
    if (stream.match('"""')) {
      state.triple = true;
      return "string";
    }
    if (stream.match(/^"(?:[^"\\]|\\.)*"?/)) return stream.match(/^\s*[:={]/, false) ? "propertyName" : "string";
    if (stream.match(/^\$\{\??[^}]*\}?/)) return "variableName.special";
    if (stream.match(/^(true|false|null)\b/)) return "atom";
    if (stream.match(/^-?\d+(\.\d+)?([eE][+-]?\d+)?(?![\w.-])/)) return "number";
    if (stream.match(/^include\b/)) return "keyword";
    if (stream.match(/^[^\s"{}\[\]:=,+#$]+(?=\s*(\+?=|:|\{))/)) return "propertyName";
    if (stream.match(/^[{}\[\]:=,]|^\+=/)) return "punctuation";
    stream.match(/^[^\s"{}\[\]:=,+#$]+/) || stream.next();
    return "string";
  },
});

// The Puppet language (.pp manifests): comments, strings, variables,
// keywords, type names, numbers; a heredoc's body is left uncoloured.
const PUPPET_KEYWORDS =
  /^(class|define|inherits|node|if|elsif|else|unless|case|default|undef|true|false|include|contain|require|type|function|plan|and|or|in)\b/;
const puppet = StreamLanguage.define({
  name: "puppet",
  startState: () => ({ comment: false }),
  token(stream, state) {
    if (state.comment) {
      if (stream.skipTo("*/")) {
        stream.match("*/");
        state.comment = false;
      } else stream.skipToEnd();
      return "comment";
    }
    if (stream.eatSpace()) return null;
    if (stream.match("#")) {
      stream.skipToEnd();
      return "comment";
    }
    if (stream.match("/*")) {
      state.comment = true;
      return "comment";
    }
    if (stream.match(/^'(?:[^'\\]|\\.)*'?/) || stream.match(/^"(?:[^"\\]|\\.)*"?/)) return "string";
    if (stream.match(/^\$(::)?[a-z_][\w:]*/i)) return "variableName";
    if (stream.match(PUPPET_KEYWORDS)) return "keyword";
    if (stream.match(/^(::)?[A-Z][\w]*(::[A-Z][\w]*)*/)) return "typeName";
    if (stream.match(/^(0x[\da-f]+|\d+(\.\d+)?([eE][+-]?\d+)?)/i)) return "number";
    if (stream.match(/^(=>|->|~>|==|!=|=~|[{}\[\](),;=:?|])/)) return "punctuation";
    stream.match(/^[\w:-]+/) || stream.next();
    return null;
  },
});

/** Highlighting by the language the app names for a file. */
function language(name) {
  if (name === "hocon") return hocon;
  if (name === "puppet") return puppet;
  if (name === "yaml") return yaml();
  return [];
}

// Each file's editor state when its editor was last closed, so that undo
// history survives opening another file and coming back.
const closed = new Map();

/** A mounted editor, driven by the Rust `Editor` component. */
/**
 * The line of the key whose value starts at `from` on line `at`: that line
 * when the key is before the value on it, else (a block collection starts
 * its own line) the line above, past blank and comment lines.
 */
function keyLine(doc, at, from) {
  if (!/^[\s-]*$/.test(doc.sliceString(at.from, from))) return at;
  for (let n = at.number - 1; n >= 1; n--) {
    const line = doc.line(n);
    if (!/^\s*(#.*)?$/.test(line.text)) return line;
  }
  return at;
}

class Handle {
  constructor(view, history) {
    this.view = view;
    this.history = history;
  }

  /** Replaces the whole text, unless it is already what the editor shows. */
  setText(text) {
    const doc = this.view.state.doc;
    if (doc.toString() === text) return;
    this.view.dispatch({
      changes: { from: 0, to: doc.length, insert: text },
      annotations: fromApp.of(true),
    });
  }

  /**
   * Shows `markers` ({line, column, message, severity}, 1-based) as lint
   * diagnostics: errors from their place to the end of the line; notes on a
   * found value over its key's line and the value's first line.
   */
  setMarkers(markers) {
    const doc = this.view.state.doc;
    const diagnostics = markers.map(({ line, column, message, severity }) => {
      const at = doc.line(Math.min(Math.max(line, 1), doc.lines));
      const from = Math.min(at.from + Math.max(column, 1) - 1, at.to);
      if (severity === "info") return { from: keyLine(doc, at, from).from, to: at.to, severity, message };
      // An error at the end of a line still needs a visible range.
      const to = from < at.to ? at.to : Math.min(from + 1, doc.length);
      return { from, to, severity: "error", message };
    });
    this.view.dispatch(setDiagnostics(this.view.state, diagnostics));
  }

  /** Scrolls to a line (1-based), puts the cursor there and highlights it. */
  revealLine(line) {
    const doc = this.view.state.doc;
    const at = doc.line(Math.min(Math.max(line, 1), doc.lines));
    this.view.dispatch({
      selection: { anchor: at.from },
      effects: [EditorView.scrollIntoView(at.from, { y: "center" }), highlightLine.of(at.from)],
      annotations: fromApp.of(true),
    });
  }

  /** The selected text (empty when nothing is selected). */
  selection() {
    const { from, to } = this.view.state.selection.main;
    return this.view.state.sliceDoc(from, to);
  }

  /** Replaces the selection (or inserts at the cursor) as the user would type it. */
  replaceSelection(text) {
    this.view.dispatch(this.view.state.replaceSelection(text));
    this.view.focus();
  }

  destroy() {
    for (const t of themes) if (t.view === this.view) themes.delete(t);
    if (this.history) closed.set(this.history, this.view.state.toJSON({ history: historyField }));
    this.view.destroy();
  }
}

/** Files longer than this (in UTF-16 units) get no YAML highlighting. */
const LARGE_FILE = 256 * 1024;

/**
 * Mounts an editor showing `text` into `host`; `onChange(text)` gets the whole text
 * after each user edit. `lang`: "yaml", "hocon" or "plain". The undo history
 * is kept under the name `history`: the next editor of that name picks it up,
 * if it opens on the text the last one closed on.
 */
export function mount(host, text, onChange, readOnly = false, lang = "yaml", history = "") {
  let queued = false;
  const theme = new Compartment();
  const extensions = [
    basicSetup,
    // Highlighting a very large file costs more per keystroke than all of
    // Hiera's work on it: such files are edited as plain text.
    text.length <= LARGE_FILE ? language(lang) : [],
    highlightField,
    EditorState.readOnly.of(readOnly),
    EditorView.editable.of(!readOnly),
    theme.of(isDark() ? oneDark : []),
    EditorView.lineWrapping,
    lintGutter(),
    EditorView.updateListener.of((update) => {
      const byUser = update.transactions.some((tr) => tr.docChanged && !tr.annotation(fromApp));
      if (!byUser || queued) return;
      // The app answers an edit by calling setText/setMarkers, which CodeMirror
      // forbids while this update is still running: report once it is done.
      queued = true;
      queueMicrotask(() => {
        queued = false;
        onChange(view.state.doc.toString());
      });
    }),
  ];
  const last = closed.get(history);
  const state =
    last && last.doc === text
      ? EditorState.fromJSON(last, { extensions }, { history: historyField })
      : EditorState.create({ doc: text, extensions });
  const view = new EditorView({ state, parent: host });
  themes.add({ view, compartment: theme });
  return new Handle(view, history);
}
