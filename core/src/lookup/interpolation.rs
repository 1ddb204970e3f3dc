//! Interpolating `%{...}` in data and in hiera.yaml: scope variables,
//! `lookup()`/`hiera()`, `alias()` and `literal()`, with the tokens recorded
//! for the explanation.

use super::Run;
use crate::error::Error;
use crate::explain::{NodeKind, Token};
use crate::interpolate::{has_token, has_tokens, is_empty_expression, method_call, pieces, Piece};
use crate::key::split_key;
use crate::value::{Array, Hash, Value};
use std::rc::Rc;

impl Run<'_> {
    /// Interpolates every string in a value (hash keys too). `cfg` is the
    /// hiera.yaml being resolved, which Puppet names in interpolation errors.
    pub(super) fn interpolate(&mut self, value: Value, allow_methods: bool, cfg: Option<&str>) -> Result<Value, Error> {
        Ok(self.interpolated(&value, allow_methods, cfg)?.unwrap_or(value))
    }

    /// `value` with every string in it (hash keys too) interpolated, in
    /// order; `None` when nothing in it changes. A value found in the data
    /// shares its hashes and arrays with the file, and only those that hold
    /// a token are copied.
    fn interpolated(&mut self, value: &Value, allow_methods: bool, cfg: Option<&str>) -> Result<Option<Value>, Error> {
        Ok(match value {
            Value::String(s) if has_token(s) => Some(self.interpolate_string(s.clone(), allow_methods, cfg)?),
            Value::Array(a) => {
                let mut out: Option<Array> = None;
                for (i, v) in a.iter().enumerate() {
                    if let Some(v) = self.interpolated(v, allow_methods, cfg)? {
                        out.get_or_insert_with(|| a.clone())[i] = v;
                    }
                }
                out.map(Value::Array)
            }
            // Keys that change build the hash again, in order.
            Value::Hash(h) if h.keys().any(has_tokens) => {
                let mut out = Hash::with_capacity(h.len());
                for (k, v) in h {
                    let k = self.interpolated(k, allow_methods, cfg)?.unwrap_or_else(|| k.clone());
                    let v = self.interpolated(v, allow_methods, cfg)?.unwrap_or_else(|| v.clone());
                    out.insert(k, v);
                }
                Some(Value::Hash(out))
            }
            Value::Hash(h) => {
                let mut out: Option<Hash> = None;
                for (i, v) in h.values().enumerate() {
                    if let Some(v) = self.interpolated(v, allow_methods, cfg)? {
                        if let Some((_, slot)) = out.get_or_insert_with(|| h.clone()).get_index_mut(i) {
                            *slot = v;
                        }
                    }
                }
                out.map(Value::Hash)
            }
            _ => None,
        })
    }

    fn interpolate_string(&mut self, subject: String, allow_methods: bool, cfg: Option<&str>) -> Result<Value, Error> {
        let fail = |m: String| Error::issue(m, cfg, None);
        self.with(
            || NodeKind::Interpolate(subject.clone()),
            |run| {
                let mut out = String::new();
                // Tokens are kept for an explanation or a recorder: most
                // interpolations have neither.
                let keep = run.ex.is_some() || run.recorder.is_some();
                let mut tokens = Vec::new();
                let mut note = |text: &str, expression: &str, method: &str, result: String, undefined: bool| {
                    if keep {
                        let (text, expression, method) = (text.into(), expression.into(), method.into());
                        tokens.push(Token { text, expression, method, result, undefined });
                    }
                };
                for piece in pieces(&subject) {
                    let (whole, expr) = match piece {
                        Piece::Text(t) => {
                            out.push_str(t);
                            run.spend_built(t.len())?;
                            continue;
                        }
                        Piece::Token { whole, expr } => (whole, expr),
                    };
                    if is_empty_expression(expr) {
                        note(whole, expr, "scope", String::new(), false);
                        continue;
                    }
                    let (method, data) = match method_call(expr) {
                        Some(_) if !allow_methods => {
                            return Err(fail("Interpolation using method syntax is not allowed in this context".into()))
                        }
                        Some(call) => call,
                        None => ("scope", expr),
                    };
                    if method == "alias" && subject != whole {
                        return Err(fail(
                            "'alias' interpolation is only permitted if the expression is equal to the entire string"
                                .into(),
                        ));
                    }
                    // An explanation shows how a variable was found, every time.
                    let remembered =
                        run.ex.is_none() && method == "scope" && run.locals.is_empty() && !run.lenient_variables;
                    if let Some((result, undefined)) = run.scope_tokens.get(data).filter(|_| remembered) {
                        out.push_str(result);
                        note(whole, expr, method, result.to_string(), *undefined);
                        let built = result.len();
                        run.spend_built(built)?;
                        continue;
                    }
                    let value = match method {
                        "lookup" | "hiera" | "alias" => run.nested_lookup(data)?,
                        "scope" => run.scope_lookup(data, &subject)?,
                        "literal" => Value::from(data),
                        other => return Err(fail(format!("Unknown interpolation method '{other}'"))),
                    };
                    // An unknown variable, or a missing part of one, is nil: an empty string.
                    let undefined = method == "scope" && matches!(value, Value::Undef);
                    if method == "alias" {
                        run.spend_value(&value)?;
                        if keep {
                            note(whole, expr, method, value.to_ruby_s(), undefined);
                            run.record_tokens(std::mem::take(&mut tokens));
                        }
                        return Ok(value);
                    }
                    let guard = Rc::from(if method == "scope" { format!("scope:{data}") } else { data.to_string() });
                    let value = run.check(&guard, |run| run.interpolate(value, allow_methods, cfg))?;
                    let result = value.to_ruby_s();
                    out.push_str(&result);
                    run.spend_built(result.len())?;
                    if remembered {
                        run.scope_tokens.insert(data.into(), (result.as_str().into(), undefined));
                    }
                    note(whole, expr, method, result, undefined);
                }
                if keep {
                    run.record_tokens(tokens);
                }
                Ok(Value::String(out))
            },
        )
    }

    /// Runs `f`, returning what `%{...}` tokens its interpolations met.
    pub(super) fn recording<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> (T, Vec<Token>) {
        let saved = self.recorder.replace(Vec::new());
        let r = f(self);
        let tokens = std::mem::replace(&mut self.recorder, saved).unwrap_or_default();
        (r, tokens)
    }

    /// Keeps an interpolation's tokens on its trace node, and for a recorder.
    fn record_tokens(&mut self, tokens: Vec<Token>) {
        match (self.recorder.as_mut(), self.ex.as_mut()) {
            (Some(recorder), None) => recorder.extend(tokens),
            (recorder, Some(ex)) => {
                if let Some(recorder) = recorder {
                    recorder.extend(tokens.iter().cloned());
                }
                let id = ex.current();
                ex.node_mut(id).tokens = tokens;
            }
            (None, None) => {}
        }
    }

    /// A scope variable, with dotted keys digging into it; undefined is nil.
    pub(super) fn scope_lookup(&mut self, key: &str, subject: &str) -> Result<Value, Error> {
        let segments = split_key(key).ok_or_else(|| Error::lookup(format!("Syntax error in string: {subject}")))?;
        let root = segments[0].to_ruby_s();
        let value = self.with(
            || NodeKind::Scope("Global Scope".into()),
            |run| {
                let v = run.variable(&root);
                match v {
                    Some(v) => {
                        run.found(&root, &v);
                        Ok(v)
                    }
                    None if run.hiera.strict_error && !run.lenient_variables => {
                        Err(Error::runtime(crate::config::scope::Scope::undefined(&root)))
                    }
                    None => Ok(Value::Undef),
                }
            },
        )?;
        if matches!(value, Value::Undef) || segments.len() == 1 {
            return Ok(value);
        }
        Ok(self.sub_lookup(key, &segments[1..], &value)?.unwrap_or(Value::Undef))
    }

    fn variable(&self, name: &str) -> Option<Value> {
        if let Some((_, v)) = self.locals.iter().rev().find(|(n, _)| n == name) {
            return Some(v.clone());
        }
        self.hiera.scope.get(name)
    }

    /// Digs into a value with the segments of a dotted key.
    pub(super) fn sub_lookup(&mut self, key: &str, segments: &[Value], value: &Value) -> Result<Option<Value>, Error> {
        self.with(|| NodeKind::SubLookup(segments.to_vec()), |run| {
            let mut value = value;
            for segment in segments {
                let step = run.with(|| NodeKind::Segment(segment.clone()), |run| {
                    let next = match (value, segment) {
                        (Value::Undef, _) => None,
                        (Value::Array(a), Value::Integer(i)) => i.to_usize().and_then(|i| a.get(i)),
                        (Value::Hash(h), s) => h.get(s),
                        (v, s) => {
                            return Err(Error::lookup(format!(
                                "Data Provider type mismatch: Got {} when a hash-like object was expected to access value using '{}' from key '{key}'",
                                v.ruby_class(),
                                s.to_ruby_s()
                            )))
                        }
                    };
                    if run.ex.is_some() {
                        match next {
                            Some(v) => run.found(&segment.to_ruby_s(), v),
                            None => {
                                run.not_found(&segment.to_ruby_s());
                                None
                            }
                        };
                    }
                    Ok(next)
                })?;
                match step {
                    Some(v) => value = v,
                    None => return Ok(None),
                }
            }
            Ok(Some(value.clone()))
        })
    }
}
