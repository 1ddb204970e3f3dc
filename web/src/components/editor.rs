//! The text editor: CodeMirror once its bundle has loaded, a plain textarea until then
//! (or for good, if the bundle cannot be had).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::spawn_local;
use web_sys::{HtmlElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::hooks::use_latest::use_latest;

#[wasm_bindgen(module = "/js/editor.js")]
extern "C" {
    /// The CodeMirror bundle's module (web/js/codemirror.js).
    type CodeMirror;

    /// An editor mounted by [`CodeMirror::mount`].
    #[derive(Clone)]
    type View;

    #[wasm_bindgen(js_name = loadCodeMirror, catch)]
    async fn load_code_mirror() -> Result<JsValue, JsValue>;

    #[wasm_bindgen(method)]
    fn mount(
        this: &CodeMirror,
        host: &HtmlElement,
        text: &str,
        on_change: &Closure<dyn FnMut(String)>,
        read_only: bool,
        language: &str,
        history: &str,
    ) -> View;

    #[wasm_bindgen(method)]
    fn selection(this: &View) -> String;

    #[wasm_bindgen(method, js_name = replaceSelection)]
    fn replace_selection(this: &View, text: &str);

    #[wasm_bindgen(method, js_name = setText)]
    fn set_text(this: &View, text: &str);

    #[wasm_bindgen(method, js_name = setMarkers)]
    fn set_markers(this: &View, markers: js_sys::Array);

    #[wasm_bindgen(method, js_name = revealLine)]
    fn reveal_line(this: &View, line: usize);

    #[wasm_bindgen(method)]
    fn destroy(this: &View);
}

/// Something to show at a place in the text (1-based line and column):
/// an error, or (`note`) what a key's value did for the selected lookup.
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    pub line: usize,
    pub column: usize,
    pub message: AttrValue,
    pub note: bool,
}

impl Marker {
    fn to_js(&self) -> JsValue {
        let object = js_sys::Object::new();
        for (key, value) in [
            ("line", JsValue::from(self.line)),
            ("column", JsValue::from(self.column)),
            ("message", JsValue::from_str(&self.message)),
            ("severity", JsValue::from_str(if self.note { "info" } else { "error" })),
        ] {
            js_sys::Reflect::set(&object, &key.into(), &value).expect("setting a plain object's field");
        }
        object.into()
    }
}

fn markers_to_js(markers: &[Marker]) -> js_sys::Array {
    markers.iter().map(Marker::to_js).collect()
}

thread_local! {
    /// The CodeMirror view of the file on show, for tools outside the
    /// editor that act on its selection (eyaml's encrypt).
    static ACTIVE: RefCell<Option<View>> = const { RefCell::new(None) };
}

/// The text selected in the editor on show; `None` before CodeMirror is in.
pub fn selected_text() -> Option<String> {
    ACTIVE.with(|a| a.borrow().as_ref().map(View::selection))
}

/// Puts `text` in place of the editor's selection (or at its cursor), as
/// typing it would: the edit reaches the app like any other. False before
/// CodeMirror is in.
pub fn replace_selection(text: &str) -> bool {
    ACTIVE.with(|a| a.borrow().as_ref().map(|v| v.replace_selection(text)).is_some())
}

/// How CodeMirror colours a file: `.conf` files are HOCON, `.pp` files
/// Puppet, certificates and keys plain text, the rest YAML (JSON reads as YAML).
pub fn language_of(path: &str) -> &'static str {
    if path.ends_with(".conf") {
        "hocon"
    } else if path.ends_with(".pp") {
        "puppet"
    } else if path.ends_with(".pem") {
        "plain"
    } else {
        "yaml"
    }
}

/// Props of [`Editor`].
#[derive(Properties, PartialEq, Clone)]
pub struct EditorProps {
    pub text: AttrValue,
    #[prop_or_default]
    pub markers: Vec<Marker>,
    /// Gets the whole text after each edit.
    pub onchange: Callback<String>,
    /// A line (1-based) to scroll to and highlight.
    #[prop_or_default]
    pub reveal: Option<usize>,
    /// Shows the text without letting it be edited.
    #[prop_or_default]
    pub readonly: bool,
    /// Its highlighting: "yaml", "hocon", "puppet" or "plain" (see [`language_of`]).
    #[prop_or(AttrValue::Static("yaml"))]
    pub language: AttrValue,
    /// What the undo history is kept under: an editor with the same name
    /// (the same file of the same document) picks it up where the last one
    /// left it.
    #[prop_or_default]
    pub history: AttrValue,
}

/// A mounted CodeMirror view and the callback it calls, which must live as long.
struct Mounted {
    view: View,
    _on_change: Closure<dyn FnMut(String)>,
}

impl Drop for Mounted {
    fn drop(&mut self) {
        ACTIVE.with(|a| {
            let mut active = a.borrow_mut();
            if active.as_ref().is_some_and(|v| JsValue::from(v.clone()) == JsValue::from(self.view.clone())) {
                *active = None;
            }
        });
        self.view.destroy();
    }
}

/// Edits one file's text; shows `markers` inline once CodeMirror is in.
#[function_component(Editor)]
pub fn editor(props: &EditorProps) -> Html {
    let host = use_node_ref();
    let mounted = use_mut_ref(|| None::<Mounted>);
    let code_mirror_in = use_state(|| false);
    let latest = use_latest(props.clone());
    // The view's text as last reported or set: the app hands each edit back
    // as `text`, and a large file is not worth copying into the view again
    // to find that nothing changed.
    let reported = use_mut_ref(String::new);

    {
        let (host, mounted, latest, reported) = (host.clone(), mounted.clone(), latest.clone(), reported.clone());
        let code_mirror_in = code_mirror_in.setter();
        use_effect_with((), move |_| {
            let alive = Rc::new(Cell::new(true));
            spawn_local(mount_when_loaded(host, mounted.clone(), latest, reported, alive.clone(), code_mirror_in));
            move || {
                alive.set(false);
                mounted.borrow_mut().take();
            }
        });
    }
    {
        let mounted = mounted.clone();
        use_effect_with(props.text.clone(), move |text| {
            if let Some(mounted) = &*mounted.borrow() {
                if *reported.borrow() != **text {
                    mounted.view.set_text(text);
                    reported.replace(text.to_string());
                }
            }
        });
    }
    {
        let mounted = mounted.clone();
        use_effect_with(props.reveal, move |line| {
            if let (Some(mounted), Some(line)) = (&*mounted.borrow(), line) {
                mounted.view.reveal_line(*line);
            }
        });
    }
    {
        let mounted = mounted.clone();
        use_effect_with(props.markers.clone(), move |markers| {
            if let Some(mounted) = &*mounted.borrow() {
                mounted.view.set_markers(markers_to_js(markers));
            }
        });
    }

    let fallback = (!*code_mirror_in).then(|| {
        let oninput =
            props.onchange.reform(|event: InputEvent| event.target_unchecked_into::<HtmlTextAreaElement>().value());
        html! {
            <textarea class="fallback" spellcheck="false" aria-label="File text"
                value={props.text.clone()} {oninput} readonly={props.readonly} />
        }
    });
    html! {
        <div class="editor" data-testid="editor">
            { for fallback }
            // CodeMirror owns this element's children; Yew leaves them alone.
            <div class="code-mirror" ref={host} />
        </div>
    }
}

/// Swaps the textarea for CodeMirror once its bundle is in, unless the editor is gone.
async fn mount_when_loaded(
    host: NodeRef,
    mounted: Rc<RefCell<Option<Mounted>>>,
    latest: Rc<RefCell<EditorProps>>,
    reported: Rc<RefCell<String>>,
    alive: Rc<Cell<bool>>,
    code_mirror_in: UseStateSetter<bool>,
) {
    let module = match load_code_mirror().await {
        Ok(module) => module.unchecked_into::<CodeMirror>(),
        Err(error) => {
            web_sys::console::warn_2(&"CodeMirror did not load; keeping the plain editor:".into(), &error);
            return;
        }
    };
    let Some(element) = host.cast::<HtmlElement>().filter(|_| alive.get()) else {
        return;
    };
    let on_change = {
        let (latest, reported) = (latest.clone(), reported.clone());
        Closure::<dyn FnMut(String)>::new(move |text: String| {
            reported.replace(text.clone());
            // Cloned out first: emitting may re-render this editor, which refreshes `latest`.
            let onchange = latest.borrow().onchange.clone();
            onchange.emit(text);
        })
    };
    let props = latest.borrow().clone();
    let view = module.mount(&element, &props.text, &on_change, props.readonly, &props.language, &props.history);
    ACTIVE.with(|a| *a.borrow_mut() = Some(view.clone()));
    reported.replace(props.text.to_string());
    view.set_markers(markers_to_js(&props.markers));
    if let Some(line) = props.reveal {
        view.reveal_line(line);
    }
    *mounted.borrow_mut() = Some(Mounted { view, _on_change: on_change });
    code_mirror_in.set(true);
}

#[cfg(all(test, target_arch = "wasm32"))]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;
    use web_sys::{Event, EventInit};

    use super::*;
    use crate::test_support::render;

    // The test page has no CodeMirror bundle, so this is the editor people get until
    // (or unless) it loads.
    #[wasm_bindgen_test]
    async fn plain_editor_shows_the_text_and_reports_edits() {
        let edits = Rc::new(RefCell::new(Vec::new()));
        let onchange = {
            let edits = edits.clone();
            Callback::from(move |text| edits.borrow_mut().push(text))
        };
        let root = render::<Editor>(EditorProps {
            text: "version: 5\n".into(),
            markers: Vec::new(),
            onchange,
            reveal: None,
            readonly: false,
            language: "yaml".into(),
            history: "hiera.yaml".into(),
        })
        .await;

        let textarea: HtmlTextAreaElement = root
            .query_selector("[data-testid=editor] textarea")
            .unwrap()
            .expect("a textarea inside the editor")
            .unchecked_into();
        assert_eq!(textarea.value(), "version: 5\n");

        textarea.set_value("version: 6\n");
        let init = EventInit::new();
        init.set_bubbles(true);
        textarea.dispatch_event(&Event::new_with_event_init_dict("input", &init).unwrap()).unwrap();
        assert_eq!(*edits.borrow(), ["version: 6\n"]);
    }

    #[wasm_bindgen_test]
    fn files_are_coloured_by_their_backend() {
        assert_eq!(language_of("data/roles/web.conf"), "hocon");
        assert_eq!(language_of("/etc/puppetlabs/puppet/eyaml/public_key.pkcs7.pem"), "plain");
        assert_eq!(language_of("data/secrets.eyaml"), "yaml");
        assert_eq!(language_of("hiera.yaml"), "yaml");
        assert_eq!(language_of("modules/ntp/manifests/init.pp"), "puppet");
    }
}
