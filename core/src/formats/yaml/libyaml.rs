//! A safe wrapper over `unsafe-libyaml`, libyaml 0.2.5 translated to Rust.
//! Psych is libyaml plus Ruby's scalar rules, so reading with libyaml gives
//! Psych's events, positions and syntax errors as they are, where another
//! parser would need mending to agree with it.

use std::ffi::CStr;
use std::marker::PhantomData;
use std::mem::MaybeUninit;

use unsafe_libyaml as unsafe_sys;

/// A place in the text: 0-based line and column (in characters), as libyaml
/// counts them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Mark {
    pub line: u64,
    pub column: u64,
}

impl From<unsafe_sys::yaml_mark_t> for Mark {
    fn from(m: unsafe_sys::yaml_mark_t) -> Mark {
        Mark { line: m.line, column: m.column }
    }
}

/// How a scalar is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
}

/// What the parser read.
#[derive(Debug, PartialEq)]
pub(super) enum Event {
    StreamStart,
    StreamEnd,
    DocumentStart,
    DocumentEnd,
    /// An alias, by its anchor's name.
    Alias(String),
    Scalar {
        value: String,
        style: Style,
        anchor: Option<String>,
        tag: Option<String>,
    },
    SequenceStart {
        anchor: Option<String>,
        tag: Option<String>,
    },
    SequenceEnd,
    MappingStart {
        anchor: Option<String>,
        tag: Option<String>,
    },
    MappingEnd,
}

/// libyaml's syntax error: what is wrong and where, and the construct it was
/// reading and where that began.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct SyntaxError {
    pub problem: String,
    pub problem_mark: Mark,
    pub context: Option<String>,
    pub context_mark: Mark,
}

/// libyaml's parser over a text that outlives it.
pub(super) struct Parser<'a> {
    // Boxed: libyaml keeps pointers to the parser's own fields.
    sys: Box<MaybeUninit<unsafe_sys::yaml_parser_t>>,
    failed: Option<SyntaxError>,
    text: PhantomData<&'a str>,
}

impl<'a> Parser<'a> {
    /// A parser reading `text`.
    pub fn new(text: &'a str) -> Parser<'a> {
        let mut parser = Box::new(MaybeUninit::<unsafe_sys::yaml_parser_t>::uninit());
        // SAFETY: initialization writes the whole struct (it only fails to
        // allocate, which aborts in Rust as anywhere else); the input is
        // borrowed for as long as the parser lives.
        unsafe {
            let p = parser.as_mut_ptr();
            if unsafe_sys::yaml_parser_initialize(p).fail {
                std::alloc::handle_alloc_error(std::alloc::Layout::new::<unsafe_sys::yaml_parser_t>());
            }
            unsafe_sys::yaml_parser_set_encoding(p, unsafe_sys::YAML_UTF8_ENCODING);
            unsafe_sys::yaml_parser_set_input_string(p, text.as_ptr(), text.len() as u64);
        }
        Parser { sys: parser, failed: None, text: PhantomData }
    }

    /// The next event and where it starts; after an error, that error again.
    pub fn next(&mut self) -> Result<(Event, Mark), SyntaxError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let mut event = MaybeUninit::<unsafe_sys::yaml_event_t>::uninit();
        // SAFETY: the parser was initialized in `new` and has not failed;
        // an event that `yaml_parser_parse` filled is read, then deleted once.
        unsafe {
            let p = self.sys.as_mut_ptr();
            if unsafe_sys::yaml_parser_parse(p, event.as_mut_ptr()).fail {
                let failed = &*p;
                let e = SyntaxError {
                    problem: psych_wording(string(failed.problem).unwrap_or_default()),
                    problem_mark: failed.problem_mark.into(),
                    context: string(failed.context),
                    context_mark: failed.context_mark.into(),
                };
                self.failed = Some(e.clone());
                return Err(e);
            }
            let e = event.as_mut_ptr();
            let read = convert(&*e);
            let at = (*e).start_mark.into();
            unsafe_sys::yaml_event_delete(e);
            Ok((read, at))
        }
    }
}

impl Drop for Parser<'_> {
    fn drop(&mut self) {
        // SAFETY: initialized in `new`, deleted once.
        unsafe { unsafe_sys::yaml_parser_delete(self.sys.as_mut_ptr()) }
    }
}

/// libyaml 0.2.5's own words, which Psych prints: the translation mended a
/// typo in one of them.
fn psych_wording(problem: String) -> String {
    match problem.as_str() {
        "did not find expected hexadecimal number" => "did not find expected hexdecimal number".into(),
        _ => problem,
    }
}

/// A C string libyaml owns, copied; `None` for a null pointer.
///
/// # Safety
/// `s` is null or points to a NUL-terminated string.
unsafe fn string(s: *const std::ffi::c_char) -> Option<String> {
    (!s.is_null()).then(|| unsafe { CStr::from_ptr(s) }.to_string_lossy().into_owned())
}

/// # Safety
/// `e` is an event `yaml_parser_parse` filled.
unsafe fn convert(e: &unsafe_sys::yaml_event_t) -> Event {
    let name = |s: *mut u8| unsafe { string(s as *const std::ffi::c_char) };
    unsafe {
        match e.type_ {
            unsafe_sys::YAML_STREAM_START_EVENT => Event::StreamStart,
            unsafe_sys::YAML_STREAM_END_EVENT => Event::StreamEnd,
            unsafe_sys::YAML_DOCUMENT_START_EVENT => Event::DocumentStart,
            unsafe_sys::YAML_DOCUMENT_END_EVENT => Event::DocumentEnd,
            unsafe_sys::YAML_ALIAS_EVENT => Event::Alias(name(e.data.alias.anchor).unwrap_or_default()),
            unsafe_sys::YAML_SCALAR_EVENT => {
                let s = &e.data.scalar;
                let bytes = std::slice::from_raw_parts(s.value, s.length as usize);
                Event::Scalar {
                    value: String::from_utf8_lossy(bytes).into_owned(),
                    style: match s.style {
                        unsafe_sys::YAML_SINGLE_QUOTED_SCALAR_STYLE => Style::SingleQuoted,
                        unsafe_sys::YAML_DOUBLE_QUOTED_SCALAR_STYLE => Style::DoubleQuoted,
                        unsafe_sys::YAML_LITERAL_SCALAR_STYLE => Style::Literal,
                        unsafe_sys::YAML_FOLDED_SCALAR_STYLE => Style::Folded,
                        _ => Style::Plain,
                    },
                    anchor: name(s.anchor),
                    tag: name(s.tag),
                }
            }
            unsafe_sys::YAML_SEQUENCE_START_EVENT => {
                let start = &e.data.sequence_start;
                Event::SequenceStart { anchor: name(start.anchor), tag: name(start.tag) }
            }
            unsafe_sys::YAML_SEQUENCE_END_EVENT => Event::SequenceEnd,
            unsafe_sys::YAML_MAPPING_START_EVENT => {
                let start = &e.data.mapping_start;
                Event::MappingStart { anchor: name(start.anchor), tag: name(start.tag) }
            }
            _ => Event::MappingEnd,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_events_with_their_places_and_stops_at_an_error() {
        let mut p = Parser::new("a: &x [1, 'b']\nc: *x\n");
        let mut events = Vec::new();
        loop {
            let (e, at) = p.next().unwrap();
            let end = e == Event::StreamEnd;
            events.push((e, at.line, at.column));
            if end {
                break;
            }
        }
        assert!(events.contains(&(Event::SequenceStart { anchor: Some("x".into()), tag: None }, 0, 3)));
        let b = Event::Scalar { value: "b".into(), style: Style::SingleQuoted, anchor: None, tag: None };
        assert!(events.contains(&(b, 0, 10)));
        assert!(events.contains(&(Event::Alias("x".into()), 1, 3)));

        let mut p = Parser::new("a: [1\nb: 2\n");
        let error = loop {
            if let Err(e) = p.next() {
                break e;
            }
        };
        assert_eq!(error.context.as_deref(), Some("while parsing a flow sequence"));
        assert_eq!(p.next(), Err(error));
    }
}
